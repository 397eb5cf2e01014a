"""For a room, in a real browser: the QR code in presentation mode, and the downloaded page offline."""

from __future__ import annotations

import pytest

from tests.browser.settle import wait_settled
from tests.browser.test_playground import SPANS, set_text, wait_ready

pytestmark = pytest.mark.browser

EVIL = 'Hola <img src=x onerror=alert(1)> "><script>alert(2)</script> 🦀 niño'


def test_presentation_mode_shows_the_link_as_a_large_qr_code(blank_page, app_url: str) -> None:
    page = blank_page  # its first visit is this link
    page.goto(f"{app_url}/?page=playground&present=1&text=Room%20link")
    wait_ready(page, 4)
    sidebar = page.locator("[data-testid=stSidebar]")
    sidebar.get_by_role("button", name="Show QR code").click()
    dialog = page.locator("[role=dialog]")
    dialog.locator("img").wait_for()
    page.wait_for_function("() => document.querySelector('[role=dialog] img').naturalWidth > 0")
    assert dialog.locator("img").bounding_box()["width"] >= 500
    shown = dialog.locator(".tp-copy pre").inner_text()
    assert shown.startswith("http") and "page=playground" in shown and "text=Room+link" in shown
    # the test server has no public base URL: the dialog says the audience cannot reach this one
    assert "PLAYGROUND_PUBLIC_URL is not set" in dialog.inner_text()


def test_the_downloaded_page_works_from_disk_with_the_network_off(page, browser, tmp_path) -> None:
    """Also test_the_qr_button_is_only_in_presentation_mode, once a visit of its own to the same page."""
    wait_ready(page, 4)
    page.locator("[data-testid=stSidebar]").get_by_text("Copy link").wait_for()
    assert page.locator("[data-testid=stSidebar]").get_by_role("button", name="Show QR code").count() == 0
    set_text(page, EVIL)
    page.wait_for_function(f"() => [...document.querySelectorAll('{SPANS}')].every(b => b.textContent.includes('🦀'))"
                           f" && document.querySelectorAll('{SPANS}').length === 4")
    wait_settled(page)  # a key reruns the columns only; the sidebar's download follows when typing pauses
    with page.expect_download() as info:
        page.locator("[data-testid=stSidebar]").get_by_role("button", name="Download as a page").click()
    path = tmp_path / "view.html"
    info.value.save_as(path)

    context = browser.new_context(viewport={"width": 1280, "height": 800}, offline=True)
    asked: list[str] = []

    def refuse(route) -> None:  # anything but the file itself would need a network
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            asked.append(route.request.url)
            route.abort()

    context.route("**/*", refuse)
    try:
        offline = context.new_page()
        offline.on("dialog", lambda dialog: (asked.append(f"dialog {dialog.message}"), dialog.dismiss()))
        offline.goto(path.as_uri())
        offline.wait_for_function("() => typeof window.tpFacts === 'function' && window.__tpPinInstalled")
        boxes = offline.locator(".tp-spans")
        assert boxes.count() == 4
        assert all("🦀" in boxes.nth(i).inner_text() for i in range(4))
        assert offline.locator(".tp-spans img, .tp-spans script, .tp-spans svg").count() == 0
        assert "tokens / word" in offline.locator("table.tp-off-counts").inner_text()

        pill = boxes.first.locator("b").nth(2)
        pill.hover()
        offline.wait_for_function("() => !!document.querySelector('.tp-tip')")
        tip = offline.locator(".tp-tip").inner_text()
        assert tip.startswith("id ") and "bytes" in tip
        token_id = tip.split()[1]
        pill.click()
        offline.locator(".tp-pin").wait_for()
        assert token_id in offline.locator(".tp-pin").inner_text()
        group = boxes.first.locator(".tp-group").first  # the crab: bytes of one character, pinned as a group
        group.click()
        offline.wait_for_function("() => document.querySelector('.tp-pin').innerText.includes('F0 9F')")
        offline.wait_for_timeout(300)
        assert asked == []
    finally:
        context.close()
