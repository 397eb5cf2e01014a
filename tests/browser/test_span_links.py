"""The Playground's columns read together, in chromium: the caret outlined in every column, a
hovered token's characters marked in the others, and the boundaries not all tokenizers share."""

from __future__ import annotations

import pytest

from tests.browser.test_playground import set_text, wait_ready

pytestmark = pytest.mark.browser

TEXT = "unbelievable tokenization 👩‍💻 2026"
BOXES = "[...document.querySelectorAll('.tp-box > .tp-spans')]"


def marked(page, name: str) -> list[list[str]]:
    """The text of each column's elements with class ``name``, column by column."""
    return page.evaluate(f"() => {BOXES}.map(b => [...b.querySelectorAll('.{name}')].map(e => e.textContent))")


def ready_with_text(page) -> None:
    wait_ready(page, 4)
    set_text(page, TEXT)
    page.wait_for_function(f"() => {BOXES}.length === 4 && {BOXES}.every(b => b.textContent.includes('2026')"
                           " && b.textContent.includes('unbeliev'))", timeout=60_000)


def test_the_caret_outlines_hovering_marks_and_disagreements_notch(page) -> None:
    """Was three tests, each on a visit of its own to the same text: the caret and the hover only mark
    the page (no run), and leave nothing marked for the notches."""
    # was test_the_token_under_the_caret_is_outlined_in_every_column
    ready_with_text(page)
    page.locator(".tp-live-box").evaluate("b => { b.focus(); b.setSelectionRange(3, 3); }")  # un|believable
    page.wait_for_function(f"() => {BOXES}.every(b => b.querySelectorAll('.tp-caret').length === 1)")
    outlined = [texts[0] for texts in marked(page, "tp-caret")]
    assert all(text.startswith("b") for text in outlined)  # the token holding the "b" after the caret
    assert {"bel", "belie"} >= set(outlined)  # GPT-2 and o200k cut "bel", cl100k and Llama 3 "belie"
    # a selection outlines every token it touches
    page.locator(".tp-live-box").evaluate("b => b.setSelectionRange(13, 25)")  # "tokenization"
    page.wait_for_function(f"() => {BOXES}.every(b => [...b.querySelectorAll('.tp-caret')]"
                           ".map(e => e.textContent).join('').trim() === 'tokenization')")

    # was test_hovering_a_token_marks_the_same_characters_in_the_other_columns
    page.locator(".tp-box > .tp-spans").first.locator("b", has_text="ization").first.hover()
    page.wait_for_function(f"() => {BOXES}.slice(1).every(b => b.querySelectorAll('.tp-link').length > 0)")
    linked = marked(page, "tp-link")
    assert linked[0] == []  # not in the hovered token's own column
    assert all("".join(texts) == "ization" for texts in linked[1:])
    page.mouse.move(5, 5)
    page.wait_for_function(f"() => {BOXES}.every(b => b.querySelectorAll('.tp-link').length === 0)")

    # was test_mark_disagreements_notches_the_boundaries_not_all_share
    assert marked(page, "tp-cut") == [[], [], [], []]
    page.locator("[data-testid=stSidebar] label", has_text="Mark disagreements").first.click()
    page.wait_for_function(f"() => {BOXES}.every(b => b.querySelectorAll('.tp-cut').length > 0)")
    cuts = marked(page, "tp-cut")
    for texts in cuts:
        assert "un" not in texts and "token" not in texts  # every tokenizer cuts after "un" and "token"
    assert "bel" in cuts[0] and "belie" in cuts[1]  # GPT-2's "bel|iev" against cl100k's "belie|vable"
    spread = page.locator(".tp-spread", has_text="Tokens:").first.inner_text()  # ui/span_links.py spread_line
    assert spread.startswith("Tokens: 13 with ") and "a gap of 15%" in spread


def test_the_ids_view_shows_each_pills_id(page) -> None:
    ready_with_text(page)
    page.locator("[data-testid=stSidebar] [data-testid=stButtonGroup] button", has_text="Ids").first.click()
    after = """() => {BOXES}.every(b => {
        const pill = b.querySelector('b:not(.tp-cont)');
        const first = parseInt(b.dataset.ids.split(',')[0], 36);
        return getComputedStyle(pill, '::after').content === JSON.stringify(String(first))
            && getComputedStyle(pill).fontSize === '0px'; })""".replace("{BOXES}", BOXES)
    page.wait_for_function(after)
    page.locator("[data-testid=stSidebar] [data-testid=stButtonGroup] button", has_text="Both").first.click()
    page.wait_for_function(f"() => getComputedStyle({BOXES}[0].querySelector('b'), '::after').content !== 'none'"
                           f" && getComputedStyle({BOXES}[0].querySelector('b')).fontSize !== '0px'")
    assert "view=Both" in page.url
