"""Keyboard stepping in presentation mode, in a real browser: → and ← move through the pitfalls gallery."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

SELECTED = "() => (document.querySelector('[data-testid=stButtonGroup] [aria-checked=true]') || {}).innerText || ''"


def test_arrow_keys_step_through_the_pitfalls_in_presentation_mode(browser, app_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.set_default_timeout(90_000)
        page.goto(f"{app_url}/Pitfalls?page=pitfalls&present=1")
        page.wait_for_function(f"() => ({SELECTED})().length > 0")
        first = page.evaluate(SELECTED)
        toggle = page.locator("[data-testid=stSidebar] label", has_text="Presentation mode").locator("input")
        assert toggle.is_checked()  # present=1 in the link
        page.locator("h1").first.click()  # focus on the page, not on a text field
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"before => ({SELECTED})() && ({SELECTED})() !== before", arg=first)
        second = page.evaluate(SELECTED)
        page.keyboard.press("ArrowLeft")
        page.wait_for_function(f"before => ({SELECTED})() === before", arg=first)
        assert second != first
    finally:
        context.close()
