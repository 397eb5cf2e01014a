"""Exports in a real browser: the spans SVG renders with its text, and the Playground offers the files."""

from __future__ import annotations

import pytest

from core.types import SPECIAL, Token
from ui import export

pytestmark = pytest.mark.browser


def test_the_svg_renders_in_chromium_with_its_text(browser, tmp_path) -> None:
    text = "Héllo 世界 <script>alert(1)</script>"
    tokens = [Token(1, b"H\xc3\xa9llo", 0, 5), Token(2, " 世界".encode(), 5, 8),
              Token(3, b" <script>", 8, 17, SPECIAL), Token(4, b"alert(1)</script>", 17, len(text))]
    path = tmp_path / "spans.svg"
    path.write_text(export.spans_svg(text, tokens, title="Export"), encoding="utf-8")
    page = browser.new_page()
    try:
        page.on("dialog", lambda d: pytest.fail(f"a dialog opened: {d.message}"))
        page.goto(path.as_uri())
        shown = page.evaluate("() => [...document.querySelectorAll('text')].map(t => t.textContent)")
        assert shown == ["Export", "Héllo", "·世界", " <script>", "alert(1)</script>"]
        assert page.evaluate("() => document.querySelectorAll('script').length") == 0
        box = page.evaluate("() => document.querySelector('svg').getBBox().width")
        assert box > 100
    finally:
        page.close()


def test_the_playground_cards_offer_svg_png_json_and_csv(page) -> None:
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=stHtml] > .tp-spans').length === 4", timeout=60_000
    )
    page.get_by_role("button", name="Export").first.click()
    body = page.locator("[data-testid=stPopoverBody]", has_text="For slides")
    for label in ("SVG", "PNG", "JSON", "CSV"):
        body.get_by_role("button", name=label, exact=True).wait_for()
    with page.expect_download() as download:
        body.get_by_role("button", name="SVG", exact=True).click()
    assert download.value.suggested_filename.endswith(".svg")
