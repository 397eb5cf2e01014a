"""Links in a real browser: the address bar follows the state, and opening it reopens the same view."""

from __future__ import annotations

import urllib.parse

import pytest

pytestmark = pytest.mark.browser


def test_the_address_is_a_link_to_the_view(browser, app_url: str) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{app_url}/?page=playground&text=Linked%20text%202026&tokenizers=cl100k_base,o200k_base")
        page.wait_for_function(
            "() => document.querySelectorAll('.tp-box > .tp-spans').length === 2", timeout=60_000
        )
        page.wait_for_function(
            "() => (document.querySelector('.tp-live-box') || {}).value === 'Linked text 2026'"
        )

        # Change a switch: the address bar now carries it too, and a fresh page on it shows the same.
        page.get_by_text("Show whitespace").click()
        page.wait_for_function("() => location.search.includes('whitespace=1')", timeout=60_000)
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query)
        assert query["page"] == ["playground"] and query["text"] == ["Linked text 2026"]

        other = context.new_page()
        other.goto(page.url)
        other.wait_for_function(
            "() => document.querySelectorAll('.tp-box > .tp-spans i').length > 0", timeout=60_000
        )
        other.wait_for_function(
            "() => (document.querySelector('.tp-live-box') || {}).value === 'Linked text 2026'"
        )

        # The sidebar's "Copy link" shows the address with a copy button.
        other.get_by_text("Copy link").click()
        shown = other.locator("[data-testid=stPopoverBody] .tp-copy pre").first.inner_text()
        assert "page=playground" in shown and shown.startswith("http")
    finally:
        context.close()
