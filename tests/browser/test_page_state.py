"""Leaving a page and coming back finds it as it was left, in a real browser (sidebar links, one session).

AppTest checks the state (tests/pages/test_nav.py); only a browser shows what the user sees after
the round trip: the widgets drawn with the kept values, and a form that trains what it shows.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.test_bpe_page import step_of
from tests.browser.test_playground import SPANS, set_text, wait_ready
from tests.conftest import data_dir_or_none

pytestmark = pytest.mark.browser

SIDEBAR = "[data-testid=stSidebar]"


def pick_corpus(page, title: str) -> None:
    """Choose a corpus in the BPE sidebar; the list is long, so it is filtered by typing."""
    combo = page.locator(SIDEBAR).get_by_role("combobox", name="Corpus")
    combo.scroll_into_view_if_needed()
    combo.click()
    page.keyboard.type(title[:10])


def go(page, label: str) -> None:
    page.locator(f"{SIDEBAR} [data-testid=stPageLink] a", has_text=label).first.click()


def boxes_per_row(page) -> int:
    """The number of columns: distinct left edges of the span boxes (their tops differ with the headers)."""
    lefts = page.evaluate(
        f"() => [...document.querySelectorAll('{SPANS}')].map(b => Math.round(b.getBoundingClientRect().left))"
    )
    return len(set(lefts))


def toggle_on(page, label: str) -> bool:
    return page.locator(f"{SIDEBAR} [data-testid=stCheckbox]", has_text=label).locator("input").is_checked()


def test_the_playground_comes_back_as_it_was_left(page) -> None:
    wait_ready(page, 4)
    set_text(page, "My own text, 2026.")
    page.wait_for_function(f"() => document.querySelector('{SPANS}').textContent.includes('My own text')")
    wait_ready(page, 4)
    combo = page.locator("[data-testid=stMultiSelect] input")
    combo.click()
    combo.fill("FLAN-T5")
    # subtle: the fuzzy filter redraws the list as it narrows; "T5" also matched other options, and a
    # click on the first match could land on one that took its place. Wait for the one option left.
    page.wait_for_function("""() => { const o = [...document.querySelectorAll('[role=option]')];
        return o.length === 1 && o[0].innerText.includes('T5 / FLAN-T5'); }""")
    page.locator("[role=option]", has_text="T5 / FLAN-T5").click()
    page.keyboard.press("Escape")
    wait_ready(page, 5)
    page.locator(SIDEBAR).get_by_text("Show whitespace").click()
    page.locator(SIDEBAR).get_by_text("Raw pieces").click()
    page.locator(f"{SIDEBAR} [data-testid=stButtonGroup] button", has_text="3").first.click()
    page.wait_for_function(f"() => document.querySelector('{SPANS}.tp-raw') !== null")

    go(page, "BPE step by step")
    page.wait_for_selector(".bpe-merge")
    go(page, "Playground")
    wait_ready(page, 5)
    assert page.locator(".tp-live-box").input_value() == "My own text, 2026."
    assert page.locator("[data-testid=stMultiSelect]").inner_text().count("T5 / FLAN-T5") == 1
    assert toggle_on(page, "Show whitespace") and toggle_on(page, "Raw pieces")
    assert page.locator(f"{SPANS}.tp-raw").count() > 0
    assert boxes_per_row(page) == 3


@pytest.mark.skipif(data_dir_or_none() is None, reason="PLAYGROUND_DATA_DIR is not set (Tiny Shakespeare comes from it)")
def test_the_bpe_form_shows_and_trains_what_was_trained(page) -> None:
    page.set_default_timeout(120_000)
    go(page, "BPE step by step")
    page.wait_for_selector(".bpe-merge")
    sidebar = page.locator(SIDEBAR)
    pick_corpus(page, "Tiny Shakespeare")
    page.locator("[role=option]", has_text="Tiny Shakespeare").first.click()
    sidebar.get_by_text("character BPE").click()
    sidebar.get_by_role("spinbutton", name="Merges or vocabulary size").fill("500")
    sidebar.get_by_role("button", name="Train").click()
    page.locator(".bpe-merge", has_text=re.compile(r"of 500(?!\d)")).wait_for()
    showing = sidebar.locator("[data-testid=stCaptionContainer]", has_text="Showing:")
    assert re.search(r"Tiny Shakespeare · character BPE[^·]* · 500 merges", showing.inner_text())

    go(page, "Playground")
    wait_ready(page, 4)
    go(page, "BPE step by step")
    page.locator(".bpe-merge", has_text=re.compile(r"of 500(?!\d)")).wait_for()
    assert sidebar.get_by_role("combobox", name="Corpus").input_value().startswith("Tiny Shakespeare")
    assert sidebar.get_by_role("radio", name="character BPE").is_checked()
    assert sidebar.get_by_role("spinbutton", name="Merges or vocabulary size").input_value() == "500"
    assert re.search(r"Tiny Shakespeare · character BPE[^·]* · 500 merges", showing.inner_text())

    # Only the size changes: the corpus and the mode are the ones on the form.
    sidebar.get_by_role("spinbutton", name="Merges or vocabulary size").fill("450")
    sidebar.get_by_role("button", name="Train").click()
    page.locator(".bpe-merge", has_text=re.compile(r"of 450(?!\d)")).wait_for()
    assert step_of(page)[1] == 450
    assert re.search(r"Tiny Shakespeare · character BPE[^·]* · 450 merges", showing.inner_text())
