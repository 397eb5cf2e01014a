"""Uploading a tokenizer file in a real browser: it becomes a column, its name stays text."""

from __future__ import annotations

import pytest

from tests.browser.test_playground import HEADLINES_JS, SPANS, set_text, wait_ready

pytestmark = pytest.mark.browser

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "##s", "!"]


def test_an_uploaded_vocab_becomes_a_column(page, tmp_path) -> None:
    name = "<b>my [vocab](x) :red[v].txt"  # no "/": it is a file name
    path = tmp_path / name
    path.write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    wait_ready(page, 4)
    page.locator("[data-testid=stSidebar] [data-testid=stFileUploaderDropzoneInput]").nth(1).set_input_files(str(path))
    wait_ready(page, 5)
    heading = page.locator("h4.tp-card-name", has_text="my")  # ui/card.py: written as text
    heading.wait_for(timeout=60_000)
    assert heading.inner_text() == name
    assert heading.locator("b, a, .stMarkdownColoredText").count() == 0
    note = page.locator("[data-testid=stSidebar] [data-testid=stCaptionContainer]", has_text="every tokenizer picker")
    assert note.count() == 1 and note.locator("b, a").count() == 0
    set_text(page, "hello worlds!")
    page.wait_for_function(
        f"() => ({HEADLINES_JS})().length === 5 && document.querySelectorAll('{SPANS}').length === 5"
        " && [...document.querySelectorAll('.tp-card-count strong')]"
        ".some(e => e.textContent === '4 tokens')",
        timeout=60_000,
    )
    assert page.locator(f"{SPANS} .tp-added").count() >= 2  # [CLS] and [SEP] as badges
    assert page.dialogs == []


def test_a_wrong_file_gets_one_sentence(page, tmp_path) -> None:
    path = tmp_path / "tokenizer.json"
    path.write_text('{"not": "a tokenizer"}', encoding="utf-8")
    wait_ready(page, 4)
    page.locator("[data-testid=stSidebar] [data-testid=stFileUploaderDropzoneInput]").nth(1).set_input_files(str(path))
    alert = page.locator("[data-testid=stSidebar] [data-testid=stAlertContentError]")
    alert.wait_for(timeout=60_000)
    assert "tokenizer.json is JSON but not a tokenizer" in alert.inner_text()
    assert "Traceback" not in page.content()


def big_gguf(path) -> None:
    """A valid byte-level GGUF of 265,984 tokens and 265,728 merges (8 MB): seconds to read and rebuild."""
    import gguf

    from core.pretrained.adapter import BYTE_TO_UNICODE

    alphabet = list(BYTE_TO_UNICODE)
    pairs = [a + b for a in alphabet for b in alphabet]
    triples = [pair + c for pair in pairs[:782] for c in alphabet]  # 200,192
    tokens = alphabet + pairs + triples
    merges = [f"{p[0]} {p[1]}" for p in pairs] + [f"{t[:2]} {t[2]}" for t in triples]
    writer = gguf.GGUFWriter(str(path), arch="llama")
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("gpt-2")
    writer.add_token_list(tokens)
    writer.add_token_types([1] * len(tokens))
    writer.add_token_merges(merges)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def test_a_big_gguf_reads_under_a_progress_bar(page, tmp_path) -> None:
    path = tmp_path / "big vocab.gguf"
    big_gguf(path)
    wait_ready(page, 4)
    page.locator("[data-testid=stSidebar] [data-testid=stFileUploaderDropzoneInput]").nth(1).set_input_files(str(path))
    bar = page.locator("[data-testid=stSidebar] [data-testid=stProgress]")
    bar.first.wait_for(timeout=60_000)
    assert "Reading big vocab.gguf" in page.locator("[data-testid=stSidebar]").inner_text()
    note = page.locator("[data-testid=stSidebar] [data-testid=stCaptionContainer]", has_text="every tokenizer picker")
    note.wait_for(timeout=120_000)
    assert "265,984 tokens" in note.inner_text() and bar.count() == 0  # the bar is gone once the file is read
