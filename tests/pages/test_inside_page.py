"""AppTest: the Inside a tokenizer page, tokenizer uploads in the Playground, and session isolation."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.apptest import cards
from tests.pages.live import live_box
from ui import state

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "9_Inside_a_tokenizer.py")
APP = str(ROOT / "app.py")
TIMEOUT_S = 120


def run(path: str) -> AppTest:
    at = AppTest.from_file(path, default_timeout=TIMEOUT_S)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def tiny_vocab() -> bytes:
    return "\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "##s", "!", "a", "b"]).encode()


def test_the_page_opens_on_cl100k_facts() -> None:
    at = run(PAGE)
    assert at.selectbox(key=state.IT_TOKENIZER).value == "cl100k_base"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["vocabulary"] == "100,277" and metrics["special tokens"] == "5" and metrics["merges"] == "100,000"
    assert any("first 20 of 100,000 merges" in m.value for m in at.markdown)
    assert len(at.get("plotly_chart")) == 1


def test_the_pipeline_view_shows_six_stages() -> None:
    at = run(PAGE)
    at.segmented_control(key=state.IT_VIEW).set_value("pipeline").run()
    assert not at.exception
    stages = [m.value for m in at.markdown if m.value.startswith("##### ")]
    assert [s.split(" · ")[0] for s in stages] == [f"##### {k}" for k in range(1, 7)]
    live_box(at, state.IT_TEXT).input("hello <script>alert(1)</script>").run()
    assert not at.exception
    bodies = " ".join(h.proto.body for h in at.html)
    assert "<script>alert" not in bodies and "&lt;script&gt;" in bodies
    assert any("gives this text back exactly" in s.value for s in at.success)


def test_the_pipeline_text_is_the_shared_live_box() -> None:
    """The pipeline's text is the live box (ui/live_text.py), as on Unicode & bytes: no Ctrl+Enter area."""
    at = run(PAGE)
    at.segmented_control(key=state.IT_VIEW).set_value("pipeline").run()
    box = live_box(at, state.IT_TEXT)
    assert box.exists and box.value == state.IT_DEFAULT_TEXT
    assert len(at.text_area) == 0
    box.input("zebra crossing").run()
    assert not at.exception
    assert any("zebra" in h.proto.body for h in at.html)
    assert any(m.value.startswith("##### 3 · Model — ") for m in at.markdown)


def test_bert_uncased_pipeline_on_the_page() -> None:
    at = run(PAGE)
    at.selectbox(key=state.IT_TOKENIZER).set_value("bert_uncased").run()
    if any('class="tp-unavailable"' in h.proto.body for h in at.html):
        pytest.skip("bert_uncased is unavailable here")
    at.segmented_control(key=state.IT_VIEW).set_value("pipeline").run()
    live_box(at, state.IT_TEXT).input("Héllo").run()
    assert not at.exception
    assert any("it-changed" in h.proto.body and ">he</mark>" in h.proto.body for h in at.html)
    assert any("adds [CLS], [SEP]" in m.value.replace("\\", "") for m in at.markdown)  # escaped: the file's strings
    assert any("accents stripped" in w.value for w in at.warning)


def test_an_upload_in_the_playground_joins_the_pickers_and_stays_in_its_session() -> None:
    first = run(APP)
    first.file_uploader(key="pg_tokenizer_upload").set_value(("my vocab.txt", tiny_vocab(), "text/plain")).run()
    assert not first.exception
    chosen = first.multiselect(key=state.PG_TOKENIZERS).value
    slot = chosen[-1]
    assert slot.startswith("upload:") and len(chosen) == 5
    assert "my vocab.txt" in [card["head"].get("name") for card in cards(first)]
    live_box(first, state.PG_TEXT).input("hello worlds!").run()
    heads = [card["head"] for card in cards(first) if card["head"].get("name") == "my vocab.txt"]
    assert [(head["count"], head["added"]) for head in heads] == [("4 tokens", " + 2 added by the tokenizer ([CLS], [SEP])")]
    # a second browser session does not see it
    second = run(APP)
    assert slot not in second.session_state[state.UPLOADED_TOKENIZERS]
    assert all(not key.startswith("upload:") for key in second.multiselect(key=state.PG_TOKENIZERS).value)
    assert not [o for o in second.multiselect(key=state.PG_TOKENIZERS).options if "my vocab" in o]
    # the first one still has it, and removing it drops it from the picker
    first.button(key=f"pg_remove_{slot}").click().run()
    assert not first.exception
    assert slot not in first.multiselect(key=state.PG_TOKENIZERS).value


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("tokenizer.json", b'{"hello": 1}', "JSON but not a tokenizer"),
        ("tokenizer.model", b"\x00\x01junk\xff", "not a SentencePiece model"),
        ("x.gguf", b"nope", "not a GGUF file"),
    ],
)
def test_a_bad_tokenizer_upload_is_one_sentence(name: str, data: bytes, message: str) -> None:
    at = run(PAGE)
    at.file_uploader(key="it_tokenizer_upload").set_value((name, data, "application/octet-stream")).run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and message in errors[0].replace("\\", "")
    assert at.selectbox(key=state.IT_TOKENIZER).value == "cl100k_base"


def test_an_uploaded_file_shows_what_it_gives_away() -> None:
    at = run(PAGE)
    at.file_uploader(key="it_tokenizer_upload").set_value(("tiny.txt", tiny_vocab(), "text/plain")).run()
    assert not at.exception
    assert at.selectbox(key=state.IT_TOKENIZER).value.startswith("upload:")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["vocabulary"] == "11" and metrics["special tokens"] == "5"
    captions = " ".join(c.value for c in at.caption)
    assert "lowercases" in captions and "Not a registry tokenizer" in captions
