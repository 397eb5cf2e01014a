"""Browser tests for "Words & compression": what only a browser shows.

The plotly charts drawn (with their labels) in each tab, the range slider of Zipf's window moved
with the keyboard, a CSV download, and an uploaded corpus whose hostile file name stays text. Uses
the server and chromium fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

SLOPE = re.compile(r"Slope (-?\d+\.\d+)")


@pytest.fixture()
def words_blank(browser: object) -> Iterator[object]:
    """A fresh 1440×900 page that has opened nothing yet (a test that opens its own link)."""
    context = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(90_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture()
def words_page(words_blank: object, app_url: str) -> object:
    """A fresh 1440×900 page on "Words & compression", its first charts drawn."""
    page = words_blank
    page.goto(f"{app_url}/Words_and_compression")
    page.locator(".js-plotly-plot").first.wait_for()
    page.get_by_text(SLOPE).first.wait_for()
    return page


def panel(page: object, name: str) -> object:
    """Click the tab ``name`` and return its panel."""
    page.get_by_role("tab", name=name).click()
    return page.get_by_role("tabpanel", name=name)


def slope(page: object) -> str:
    return SLOPE.search(page.get_by_text(SLOPE).first.inner_text()).group(1)


def test_the_zipf_window_moves_with_the_keyboard_and_refits(words_page: object) -> None:
    page = words_page
    words = page.get_by_role("tabpanel", name="Word statistics")
    assert words.locator(".js-plotly-plot").count() == 3  # Zipf, Heaps, OOV
    assert "Zipf's law" in words.locator(".js-plotly-plot").first.inner_text()
    before = slope(page)
    lower = words.locator('[data-testid="stSlider"] input[type="range"]').first  # the window's start
    lower.focus()
    page.keyboard.press("ArrowLeft")  # the window's lower end: 10 → 5
    page.get_by_text("ranks from 5 to").wait_for()
    assert slope(page) != before


def test_the_compression_chart_labels_the_real_tokenizers_and_downloads_its_data(words_blank: object, app_url: str) -> None:
    page = words_blank  # its first visit is the link below
    page.set_default_timeout(180_000)  # the first sweep of the server trains on 1 MB, on a busy machine
    # opened by a link that names the tab and a BPE-only sweep: the link is read in a real browser too
    page.goto(f"{app_url}/Words_and_compression?page=words&tab=Compression+vs+vocabulary&others=")
    compression = page.get_by_role("tabpanel", name="Compression vs vocabulary")
    chart = compression.locator(".js-plotly-plot")
    chart.wait_for()
    text = chart.inner_text()
    assert "one token per pre-token (GPT-2 pattern)" in text
    assert "cl100k_base" in text  # a labelled diamond (cl100k ships with the app, so it is always there)
    assert "BPE trained here" in text and "Unigram trained here" not in text  # as the link said
    with page.expect_download() as download:
        compression.get_by_role("button", name="Data (CSV)").click()
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    assert saved.startswith("kind,name,vocabulary size,held-out tokens,bytes / token")
    assert "real tokenizer,cl100k_base (GPT-3.5 / GPT-4),100277," in saved

    # a smaller sweep: the form reruns the page, and the tab stays open
    compression.get_by_text("Sweep: BPE up to 8,192 tokens, GPT-2 pattern").click()
    compression.locator('[data-testid="stSlider"] input[type="range"]').first.focus()
    page.keyboard.press("ArrowLeft")  # 8,192 → 4,096
    compression.locator('[data-testid="stSlider"]').first.get_by_text("4,096").wait_for()
    # subtle: the slider shows its new value at once but hands it to the form a moment later (Streamlit
    # debounces a slider's changes); a click on submit within that moment sent the old largest size
    page.wait_for_timeout(500)
    compression.get_by_role("button", name="Run the sweep").click()
    compression.get_by_text("one training run of 3,840 merges").wait_for()
    assert compression.get_by_text("Sweep: BPE up to 4,096 tokens").count() == 1
    assert page.get_by_role("tab", name="Compression vs vocabulary").get_attribute("aria-selected") == "true"


def test_units_and_vocabulary_cost_tabs_draw_their_charts(words_page: object) -> None:
    page = words_page
    units = panel(page, "Units")
    units.locator(".js-plotly-plot").wait_for()
    assert "Attention grows with the square of the length" in units.locator(".js-plotly-plot").inner_text()
    cost = panel(page, "Vocabulary cost")
    cost.locator(".js-plotly-plot").wait_for()
    assert "GPT-2 small" in cost.locator(".js-plotly-plot").inner_text()


def test_an_uploaded_corpus_with_a_hostile_name_is_measured_and_its_name_stays_text(
    words_page: object, tmp_path: Path
) -> None:
    page = words_page
    path = tmp_path / "**x** [y](z) <b>bold.txt"
    path.write_text("the quick brown fox jumps over the lazy dog\n" * 30 + "zebra\n", encoding="utf-8")
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Your own corpus: paste or upload").click()
    sidebar.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(str(path))
    sidebar.locator('[data-testid="stSelectbox"]').first.click()
    page.keyboard.type("Uploaded .txt")  # the list is long: filter it down to the one option
    page.get_by_role("option", name="Uploaded .txt file (below)").click()
    sidebar.get_by_role("button", name="Use this corpus").click()
    page.get_by_text("271", exact=True).wait_for()  # 30 × 9 words + zebra
    assert sidebar.get_by_text(path.name).count() >= 1  # shown as written, not as Markdown or HTML
    assert sidebar.locator("b", has_text="bold").count() == 0
    assert sidebar.locator('a[href="z"]').count() == 0
