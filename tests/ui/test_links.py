"""ui.links: values round-trip through the query string; links reopen every page as it was; bad links are notes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from tests.pages.live import live_box
from ui import links, state

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120


@given(st.text())
def test_text_round_trips(text: str) -> None:
    text = text.encode("utf-8", "replace").decode("utf-8")  # a link carries UTF-8
    assert links.decode(links.encode(text, ""), "") == text


@given(st.lists(st.text(min_size=1).map(lambda t: t.encode("utf-8", "replace").decode())))
def test_lists_round_trip(items: list[str]) -> None:
    assert links.decode(links.encode(items, ["a"]), ["a"]) == items


def test_scalars_round_trip_and_bad_ones_are_refused() -> None:
    assert links.decode(links.encode(True, False), False) is True
    assert links.decode(links.encode(3, 2), 2) == 3
    assert links.decode(links.encode([1, 3], [2]), [2]) == [1, 3]
    for raw, default in (("yes", False), ("x", 2), ("~!!!", ""), ("~" + "A" * 10, "")):
        with pytest.raises(ValueError):
            links.decode(raw, default)


def test_long_text_is_packed_and_short_plain_text_is_not() -> None:
    assert links.encode("hello", "") == "hello"
    long = "The same sentence again. " * 400
    packed = links.encode(long, "")
    assert packed.startswith("~") and len(packed) < len(long) / 10


def test_a_bomb_is_refused() -> None:
    import base64
    import zlib

    bomb = "~" + base64.urlsafe_b64encode(zlib.compress(b"a" * (links.MAX_TEXT * 4 + 10), 9)).decode().rstrip("=")
    with pytest.raises(ValueError, match="too long"):
        links.decode(bomb, "")


def open_link(page: str, params: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / page), default_timeout=TIMEOUT_S)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception
    return at


def test_playground_link_round_trip() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S).run()
    live_box(at, state.PG_TEXT).input("Linked text, 2026 🙂\nline two").run()
    at.multiselect(key=state.PG_TOKENIZERS).set_value(["cl100k_base", "o200k_base"]).run()
    at.sidebar.toggle(key=state.PG_SHOW_WHITESPACE).set_value(True).run()
    written = {name: at.query_params[name] for name in at.query_params}
    assert written["page"] == ["playground"] or written["page"] == "playground"

    again = open_link("app.py", {k: v[0] if isinstance(v, list) else v for k, v in written.items()})
    assert live_box(again, state.PG_TEXT).value == "Linked text, 2026 🙂\nline two"
    assert again.multiselect(key=state.PG_TOKENIZERS).value == ["cl100k_base", "o200k_base"]
    assert again.sidebar.toggle(key=state.PG_SHOW_WHITESPACE).value is True


def test_malformed_and_unknown_parameters_are_notes() -> None:
    at = open_link("app.py", {
        "page": "playground", "text": "ok", "columns": "9", "tokenizers": "gpt2,nope", "whitespace": "maybe",
        "bogus": "<b>x</b>",
    })
    assert live_box(at, state.PG_TEXT).value == "ok"
    captions = " ".join(c.value for c in at.sidebar.caption)
    for name in ("columns", "tokenizers", "whitespace", "bogus"):
        assert f"'{name}'" in captions
    assert "<b>" not in captions  # the parameter's name is escaped Markdown


def test_a_text_too_long_for_a_link_is_left_out_with_a_note() -> None:
    import random

    rng = random.Random(7)
    noise = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in range(30_000))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S).run()
    live_box(at, state.PG_TEXT).input(noise).run()
    assert "text" not in at.query_params and "page" in at.query_params
    assert any("too long for a link" in c.value for c in at.sidebar.caption)


def test_bpe_link_trains_what_it_says_and_keeps_its_step() -> None:
    at = open_link("pages/1_BPE_step_by_step.py", {
        "page": "bpe", "mode": "char", "size": "40", "step": "7", "text": "lower newest widest",
    })
    applied = at.session_state[state.BPE_APPLIED]
    assert applied.mode == "char" and applied.size == 40
    assert at.session_state[state.BPE_STEP] == 7
    assert at.text_area(key=state.BPE_TEXT).value == "lower newest widest"


def test_chat_link_round_trip() -> None:
    at = open_link("pages/10_Chat_formats.py", {"page": "chat", "user": "Bonjour !", "formats": "qwen,llama3"})
    assert at.sidebar.text_area(key=state.CF_USER).value == "Bonjour !"
    assert at.multiselect(key=state.CF_FORMATS).value == ["qwen", "llama3"]


def test_parameters_for_another_page_are_not_applied() -> None:
    at = open_link("app.py", {"page": "bpe", "text": "meant for the BPE page"})
    assert live_box(at, state.PG_TEXT).value == state.playground_sample()


def test_beyond_link_round_trip() -> None:
    at = open_link("pages/8_Beyond_tokenizers.py", {
        "page": "beyond", "view": "bytes", "text": "Bytes, please.", "tokenizers": "cl100k_base", "ngram_order": "3",
    })
    assert at.session_state[state.BT_VIEW] == "bytes"
    assert at.text_area(key=state.BT_TEXT).value == "Bytes, please."
    assert at.session_state[state.BT_NGRAM_APPLIED].order == 3


def test_inside_link_round_trip() -> None:
    at = open_link("pages/9_Inside_a_tokenizer.py", {
        "page": "inside", "tokenizer": "gpt2", "view": "pipeline", "text": "Héllo",
    })
    assert at.selectbox(key=state.IT_TOKENIZER).value == "gpt2"
    assert live_box(at, state.IT_TEXT).value == "Héllo"


def test_language_tax_link_round_trip() -> None:
    at = open_link("pages/4_Language_tax.py", {
        "page": "tax", "base": "fr", "languages": "en,fr,hi", "tokenizers": "cl100k_base,o200k_base",
    })
    assert at.session_state[state.LT_BASE] == "fr"
    assert at.session_state[state.LT_LANGUAGES] == ["en", "fr", "hi"]
    assert at.session_state[state.LT_PRESET] is None  # languages picked by hand, as on the page
    assert at.session_state[state.LT_TOKENIZERS] == ["cl100k_base", "o200k_base"]


def test_unicode_link_round_trip() -> None:
    at = open_link("pages/5_Unicode_and_bytes.py", {"page": "unicode", "text": "ﬁ café", "view": "normalization"})
    assert at.session_state[state.UC_TEXT] == "ﬁ café" and at.session_state[state.UC_VIEW] == "normalization"


def test_pretokenization_link_round_trip() -> None:
    at = open_link("pages/6_Pre-tokenization.py", {"page": "pretokenization", "text": "I'm 12345", "custom": r"\d+"})
    assert at.session_state[state.PT_TEXT] == "I'm 12345" and at.session_state[state.PT_CUSTOM] == r"\d+"


def test_pitfalls_link_round_trip() -> None:
    at = open_link("pages/7_Pitfalls.py", {"page": "pitfalls", "case": "spelling", "tokenizers": "cl100k_base"})
    assert at.session_state[state.PF_CASE] == "spelling"
    assert at.session_state[state.PF_TOKENIZERS] == ["cl100k_base"]


def packed(text: str) -> str:
    import base64
    import zlib

    return "~" + base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode().rstrip("=")


def test_the_text_limit_counts_characters_not_bytes() -> None:
    # 4,000,000 ASCII characters fit in the 4 MB inflate bound, but the stated limit is 1,000,000 characters
    with pytest.raises(ValueError, match="at most 1,000,000 characters"):
        links.decode(packed("ab" * 2_000_000), "")
    with pytest.raises(ValueError, match="at most 1,000,000 characters"):
        links.decode(packed(json.dumps(["x" * 600_000, "y" * 600_000])), ["a"])
    assert len(links.decode(packed("é" * links.MAX_TEXT), "")) == links.MAX_TEXT


def test_a_deeply_nested_packed_list_is_refused_not_a_recursion_error() -> None:
    deep = packed("[" * 100_000 + "]" * 100_000)
    assert len(deep) < 300  # a link of a few hundred characters (the issue had one of 163)
    with pytest.raises(ValueError, match="nested"):
        links.decode(deep, ["a"])
    with pytest.raises(ValueError, match="nested"):
        links.decode(packed('["a", ' + "[" * 100_000 + "]" * 100_000 + "]"), ["a"])
    with pytest.raises(ValueError, match="nested"):
        links.decode(packed('[{"a": 1}]'), ["a"])
    assert links.decode(packed('["a,[b]", "{c}\\"["]'), ["a"]) == ["a,[b]", '{c}"[']


# every page with a list parameter, and the parameter (the packed JSON path only lists take)
LIST_PARAMS = [
    ("app.py", "playground", "tokenizers"),
    ("pages/2_Algorithms.py", "algorithms", "sizes"),
    ("pages/3_Words_and_compression.py", "words", "tokenizers"),
    ("pages/4_Language_tax.py", "tax", "tokenizers"),
    ("pages/5_Unicode_and_bytes.py", "unicode", "tokenizers"),
    ("pages/6_Pre-tokenization.py", "pretokenization", "patterns"),
    ("pages/7_Pitfalls.py", "pitfalls", "tokenizers"),
    ("pages/8_Beyond_tokenizers.py", "beyond", "tokenizers"),
    ("pages/10_Chat_formats.py", "chat", "formats"),
]


@pytest.mark.parametrize(("path", "page", "name"), LIST_PARAMS, ids=[p for _, p, _ in LIST_PARAMS])
def test_a_deeply_nested_link_is_a_note_on_every_page(path: str, page: str, name: str) -> None:
    at = open_link(path, {"page": page, name: packed("[" * 100_000 + "]" * 100_000)})
    assert any(f"ignored '{name}'" in c.value and "nested" in c.value for c in at.sidebar.caption)


def test_every_page_with_a_link_is_one_of_the_link_pages() -> None:
    import re

    names = set()
    for path in [ROOT / "app.py", *ROOT.glob("pages/*.py"), *ROOT.glob("ui/**/*.py")]:
        names |= set(re.findall(r'page="([a-z]+)"', path.read_text(encoding="utf-8")))
    assert names == links.PAGES


def test_a_link_naming_no_page_is_a_note_not_silence() -> None:
    at = open_link("app.py", {"page": "2", "text": "from a hand-edited link"})
    assert live_box(at, state.PG_TEXT).value == state.playground_sample()
    assert any("ignored the whole link" in c.value and "'2'" in c.value for c in at.sidebar.caption)


def test_the_unicode_pager_keeps_the_page_in_a_link() -> None:
    text = "x" * 1000
    at = open_link("pages/5_Unicode_and_bytes.py", {"page": "unicode", "text": text})
    at.number_input(key=state.UC_PAGE).set_value(3).run()
    written = {name: at.query_params[name] for name in at.query_params}
    written = {k: v[0] if isinstance(v, list) else v for k, v in written.items()}
    assert written["page"] == "unicode" and written["rows_page"] == "3"
    again = open_link("pages/5_Unicode_and_bytes.py", written)
    assert again.session_state[state.UC_TEXT] == text and again.session_state[state.UC_PAGE] == 3
    assert not [c.value for c in again.sidebar.caption if c.value.startswith("Link:")]


def test_a_link_read_while_the_form_holds_an_own_corpus_keeps_the_model_shown() -> None:
    """A rerun may carry a query string older than the one the server last wrote (a click racing the
    link's update: seen under load, just after a .txt was uploaded for training). Read as a newly
    opened link, it made the form's "Uploaded .txt file" the model shown without its text, and the
    page fell back to the default model with "no corpus called 'upload'"."""
    at = AppTest.from_file(str(ROOT / "pages/1_BPE_step_by_step.py"), default_timeout=TIMEOUT_S).run()
    shown = at.session_state[state.BPE_APPLIED]
    at.session_state[state.BPE_CORPUS] = "upload"  # ui.bpe.views.UPLOAD: the form's own corpus
    at.query_params["page"] = "bpe"
    at.query_params["size"] = "50"
    at.run()
    assert at.session_state[state.BPE_APPLIED] == shown
    assert not [e.value for e in at.error]


def test_an_address_this_session_wrote_earlier_is_not_a_new_link() -> None:
    """A rerun can come with an older query string than the one the page last wrote (a click racing
    the browser's update of its address). It is this session's own, not a link opened: the state of a
    few runs ago must not come back."""
    at = AppTest.from_file(str(ROOT / "pages/6_Pre-tokenization.py"), default_timeout=TIMEOUT_S).run()
    at.session_state[state.PT_TEXT] = "first text"
    at.run()
    first = {name: at.query_params[name] for name in at.query_params}
    at.session_state[state.PT_TEXT] = "second text"
    at.run()
    assert at.query_params["text"] != first["text"]
    for name in list(at.query_params):
        del at.query_params[name]
    for name, value in first.items():
        at.query_params[name] = value[0] if isinstance(value, list) else value
    at.run()
    assert not at.exception and at.session_state[state.PT_TEXT] == "second text"
    assert at.query_params["text"] != first["text"]  # and the address says what is shown again
    opened = open_link("pages/6_Pre-tokenization.py", {k: v[0] if isinstance(v, list) else v for k, v in first.items()})
    assert opened.session_state[state.PT_TEXT] == "first text"  # in a new session it is a link
