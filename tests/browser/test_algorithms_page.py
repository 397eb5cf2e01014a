"""Browser test for the Algorithms page: the 3x3 grid of spans is drawn, and picking a size draws a column.

Uses the server and chromium fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

pytestmark = pytest.mark.browser

CELL_SPANS = ".al-grid .al-cell .tp-spans"


@pytest.fixture()
def algorithms_page(browser: object, app_url: str) -> Iterator[object]:
    """A fresh 1440×900 page on "Algorithms", its default grid drawn."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(90_000)
    page.goto(f"{app_url}/Algorithms")
    page.wait_for_function(f"() => document.querySelectorAll('{CELL_SPANS}').length === 9")
    try:
        yield page
    finally:
        context.close()


def sizes_on_screen(page: object) -> list[str]:
    return [re.sub(r"\D", "", head) for head in page.locator(".al-head").all_inner_texts()]


def test_the_grid_draws_nine_span_boxes_and_a_picked_size_adds_a_column(algorithms_page: object) -> None:
    page = algorithms_page
    assert page.locator(CELL_SPANS).count() == 9
    assert sizes_on_screen(page) == ["300", "500", "1000"]
    assert page.locator(".al-rowhead").all_inner_texts()[0].startswith("BPE")
    # every cell has its count, and each box holds pills
    assert page.locator(".al-count").count() == 9
    assert page.locator(".al-cell .tp-spans b").count() > 9 * 10
    # was test_a_pill_never_breaks_across_lines_in_a_narrow_cell, on a visit of its own to the same grid:
    # a token is one box: in a cell, each pill's rectangles are one (inline pills would split)
    split = algorithms_page.evaluate(
        "() => [...document.querySelectorAll('.al-cell .tp-spans > b')].filter(e => e.getClientRects().length > 1).length"
    )
    assert split == 0

    page.locator('[data-testid="stButtonGroup"] button[data-variant="pills"]', has_text=re.compile(r"^2k$")).click()
    page.wait_for_function(f"() => document.querySelectorAll('{CELL_SPANS}').length === 12")
    assert sizes_on_screen(page) == ["300", "500", "1000", "2000"]
    new_cell = page.locator('.al-cell[data-algorithm="unigram"][data-size="2000"]')
    assert new_cell.locator(".tp-spans b").count() > 0

    page.locator('[data-testid="stButtonGroup"] button[data-variant="pills"]', has_text=re.compile(r"^300$")).click()
    page.wait_for_function(f"() => document.querySelectorAll('{CELL_SPANS}').length === 9")
    assert sizes_on_screen(page) == ["500", "1000", "2000"]


def test_a_long_training_can_be_stopped_from_the_page(algorithms_page: object, tmp_path) -> None:
    import random
    import time

    page = algorithms_page
    rng = random.Random(19)  # 400,000 random letters without a space: all three trainings take long
    path = tmp_path / "nospace.txt"
    path.write_text("".join(rng.choice("etaoinshrdlucmfw") for _ in range(400_000)), encoding="utf-8")
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Your own corpus: paste or upload").click()
    sidebar.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(str(path))
    sidebar.locator('[data-testid="stSelectbox"]').first.click()
    page.keyboard.type("Uploaded .txt")
    page.get_by_role("option", name="Uploaded .txt file (below)").click()
    sidebar.get_by_role("button", name="Train").click()
    stop = page.get_by_role("button", name="Stop training")
    stop.wait_for()
    began = time.monotonic()
    stop.click()
    page.get_by_text("Training stopped before it finished").wait_for()
    assert time.monotonic() - began < 45
    page.wait_for_function(f"() => document.querySelectorAll('{CELL_SPANS}').length === 9")
    assert sizes_on_screen(page) == ["300", "500", "1000"]
    assert stop.count() == 0
    assert "essay" in sidebar.get_by_text("Trained on:").inner_text().lower()  # still the corpus trained before
