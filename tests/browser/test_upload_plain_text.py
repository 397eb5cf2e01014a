"""In a real browser: a file name with Markdown in it is shown as written in the counts table and the
ids tabs, never as a link, and never with the backslashes that keep it text (issue 19, item 7)."""

from __future__ import annotations

import pytest

from tests.browser.settle import wait_settled
from tests.browser.test_playground import COUNTS, wait_ready

pytestmark = pytest.mark.browser

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world"]
NAME = "[x](y) v_1.txt"


def test_a_file_name_is_plain_text_in_the_counts_table_and_the_ids_tabs(page, tmp_path) -> None:
    path = tmp_path / NAME
    path.write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    wait_ready(page, 4)
    page.locator("[data-testid=stSidebar] [data-testid=stFileUploaderDropzoneInput]").nth(1).set_input_files(str(path))
    wait_ready(page, 5)
    wait_settled(page)  # the counts table and the ids tabs follow the columns in a whole-page run
    table = page.locator(COUNTS)
    table.locator("th", has_text="v_1").first.wait_for(timeout=60_000)
    assert NAME in table.inner_text() and "\\" not in table.inner_text()
    assert table.locator("a").count() == 0
    tab = page.locator("[role=tab]", has_text="v_1")
    assert tab.count() == 1 and tab.inner_text().strip() == NAME
    assert tab.locator("a").count() == 0
    assert "GPT-2 (r50k_base)" in table.inner_text()  # the registry's names read as before


def test_the_inside_pages_settings_table_shows_a_files_markdown_as_text(blank_page, app_url, tmp_path) -> None:
    page = blank_page  # its first visit is the Inside page
    from tests.pages.test_upload_plain_text import IMAGE, tokenizer_json

    path = tmp_path / "md.json"
    path.write_bytes(tokenizer_json())
    page.goto(f"{app_url}/Inside_a_tokenizer")
    page.locator("[data-testid=stTable]").first.wait_for(timeout=60_000)
    page.locator("[data-testid=stSidebar] [data-testid=stFileUploaderDropzoneInput]").first.set_input_files(str(path))
    table = page.locator("[data-testid=stTable]", has_text="track.png").first
    table.wait_for(timeout=60_000)
    assert IMAGE in table.inner_text() and "\\" not in table.inner_text()
    assert page.locator("[data-testid=stTable] img, [data-testid=stTable] a").count() == 0
    assert "tokenizers WordLevel" in table.inner_text()
