"""AppTest smoke tests for "Unicode & bytes": every view, bad input (empty, control characters, lone
surrogates, a megabyte), and escaping."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.pages.apptest import open_page
from tests.pages.live import live_box
from ui import state
from ui.unicode.views import PAGE_SIZE

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "5_Unicode_and_bytes.py")
XSS = "<script>alert(1)</script><img src=x onerror=alert(1)>"


def run_page(text: str | None = None, view: str | None = None) -> AppTest:
    values = {state.UC_TEXT: text, state.UC_VIEW: view}
    return open_page(PAGE, timeout=120, state={key: value for key, value in values.items() if value is not None})


def counts_line(at: AppTest) -> str:
    return next(m.value for m in at.markdown if "code point" in m.value and m.value.startswith("**"))


def html_bodies(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.html]


def test_default_view_shows_counts_and_the_characters_table() -> None:
    at = run_page()
    assert live_box(at, state.UC_TEXT).value == state.UC_DEFAULT_TEXT
    assert "graphemes" in counts_line(at) and "UTF-8 bytes" in counts_line(at)
    table = at.dataframe[0].value
    assert list(table.columns)[:3] == ["#", "character", "code points"]
    assert "U+0065 U+0301" in set(table["code points"])  # the decomposed é of the default text
    assert any("looks like Latin 'a'" in note for note in table["notes"])


def test_every_view_renders() -> None:
    at = run_page()
    for view in ("normalization", "tokenizers", "flags", "characters"):
        at.segmented_control(key=state.UC_VIEW).set_value(view).run()
        assert not at.exception, (view, [e.value for e in at.exception])


def test_normalization_view_highlights_changes() -> None:
    at = run_page("Café ﬁ ① Straße", view="normalization")
    (forms,) = [body for body in html_bodies(at) if 'class="uc-forms"' in body]
    assert forms.count("<tr><td>") == 6  # as typed + five forms
    assert '<mark class="uc-changed" title="ﬁ U+FB01 → fi U+0066 U+0069">fi</mark>' in forms
    changes = at.dataframe[0].value
    assert "ss  (U+0073 U+0073)" in set(changes["casefold"])


def test_tokenizers_view_reads_each_normalizer() -> None:
    at = run_page("Café ﬁ", view="tokenizers")
    at.multiselect(key=state.UC_TOKENIZERS).set_value(["gpt2", "bert_uncased", "t5"]).run()
    assert not at.exception
    (table,) = [body for body in html_bodies(at) if "the text its model sees" in body]
    if "unavailable:" not in table:
        assert "accents stripped" in table and "lowercased" in table and "NFKC" in table
        assert table.count('class="uc-changed"') >= 2


def test_empty_text_says_what_to_do() -> None:
    at = run_page("")
    assert any("Type or paste some text" in info.value for info in at.info)
    assert not at.dataframe


def test_lone_surrogates_and_control_characters_get_a_message_not_a_traceback() -> None:
    at = run_page("a\ud800b\x07c\x00")
    assert any("1 lone surrogate" in w.value and "U+FFFD" in w.value for w in at.warning)
    assert live_box(at, state.UC_TEXT).value == "a\ufffdb\x07c\x00"
    table = at.dataframe[0].value
    assert {"␇", "␀"} <= set(table["character"]) and "EF BF BD" in set(table["UTF-8 (hex)"])
    at.segmented_control(key=state.UC_VIEW).set_value("flags").run()
    assert not at.exception
    kinds = " ".join(at.dataframe[0].value["why"])
    assert "replacement character" in kinds and "control character" in kinds
    for view in ("normalization", "tokenizers"):
        at.segmented_control(key=state.UC_VIEW).set_value(view).run()
        assert not at.exception, view


def test_a_megabyte_pages_through_the_table_with_exact_counts() -> None:
    text = "Ünïcödé 🙂 " * 100_000  # a million code points, 1.7 million bytes
    at = run_page(text)
    assert "**1,000,000** code points · **1,700,000** UTF-8 bytes" in counts_line(at)
    assert len(at.dataframe[0].value) == PAGE_SIZE
    pages = at.number_input(key=state.UC_PAGE)
    pages.set_value(3000).run()
    assert not at.exception
    assert at.dataframe[0].value["#"].iloc[0] == 2999 * PAGE_SIZE + 1
    at.segmented_control(key=state.UC_VIEW).set_value("normalization").run()
    assert not at.exception
    assert any("the sizes cover the whole text" in body for body in html_bodies(at))


def test_a_shorter_text_clamps_the_page_number() -> None:
    at = run_page("x" * 1000)
    at.number_input(key=state.UC_PAGE).set_value(5).run()
    live_box(at, state.UC_TEXT).input("short").run()
    assert not at.exception
    assert len(at.dataframe[0].value) == 5


def test_user_text_is_escaped_in_html_views() -> None:
    at = run_page(XSS, view="normalization")
    bodies = " ".join(html_bodies(at))
    assert "<script>" not in bodies and "<img" not in bodies and "&lt;script&gt;" in bodies
