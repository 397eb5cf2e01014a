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
    heading = page.locator("[data-testid=stMarkdownContainer] h4", has_text="my")
    heading.wait_for(timeout=60_000)
    assert heading.inner_text() == name
    # (Streamlit gives every heading an anchor link to itself, href="#…")
    assert heading.locator("b, a:not([href^='#']), .stMarkdownColoredText").count() == 0
    note = page.locator("[data-testid=stSidebar] [data-testid=stCaptionContainer]", has_text="every tokenizer picker")
    assert note.count() == 1 and note.locator("b, a").count() == 0
    set_text(page, "hello worlds!")
    page.wait_for_function(
        f"() => ({HEADLINES_JS})().length === 5 && document.querySelectorAll('{SPANS}').length === 5"
        " && [...document.querySelectorAll('[data-testid=stMarkdownContainer] strong')]"
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
