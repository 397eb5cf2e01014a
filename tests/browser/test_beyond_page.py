"""Browser tests for "Beyond fixed tokenizers": it renders, the threshold slider re-cuts the patches, the
views switch. Only a browser shows these: the plotly charts drawn, the slider driven by the keyboard,
the tooltips on the pills. Uses the server and chromium fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

pytestmark = pytest.mark.browser

PATCHES = re.compile(r"Your text in ([\d,]+) entropy patches")


@pytest.fixture()
def beyond_page(browser: object, app_url: str) -> Iterator[object]:
    """A fresh 1440×900 page on "Beyond fixed tokenizers", its default view (entropy patches) drawn."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{app_url}/Beyond_tokenizers")
    page.get_by_text(PATCHES).wait_for()
    try:
        yield page
    finally:
        context.close()


def patches_shown(page: object) -> int:
    return int(PATCHES.search(page.get_by_text(PATCHES).inner_text()).group(1).replace(",", ""))


def test_it_renders_the_entropy_chart_the_patches_and_the_languages(beyond_page: object) -> None:
    page = beyond_page
    assert page.locator("h1", has_text="Beyond fixed tokenizers").count() == 1
    page.locator(".js-plotly-plot").nth(1).wait_for()  # entropy over the text, patches across languages
    pills = page.locator(".tp-spans > b:not(.tp-cont)")
    assert pills.count() == patches_shown(page) > 1
    note = pills.first.get_attribute("data-x")  # the tooltip's extra line
    assert "mean" in note and "bits" in note
    assert page.get_by_text("Patches and tokens across languages").count() == 1


def test_the_threshold_slider_recuts_the_patches(beyond_page: object) -> None:
    page = beyond_page
    before = patches_shown(page)
    slider = page.get_by_role("slider", name="Threshold θ (bits)")
    slider.focus()
    page.keyboard.press("End")  # θ = 8 bits: nothing is that surprising, one patch
    page.get_by_text("Your text in 1 entropy patches").wait_for()
    page.keyboard.press("Home")  # θ = 0: almost every byte starts a patch
    page.wait_for_function(
        "() => /Your text in ([\\d,]+) entropy patches/.exec(document.body.innerText)"
        f" && parseInt(/Your text in ([\\d,]+) entropy patches/.exec(document.body.innerText)[1].replace(/,/g, '')) > {before}"
    )
    assert patches_shown(page) > before


def test_the_views_switch(beyond_page: object) -> None:
    page = beyond_page
    views = page.locator('[data-testid="stButtonGroup"]').first
    views.get_by_text("Bytes only", exact=True).click()
    page.get_by_text(re.compile(r"Your text as a byte-level model reads it: [\d,]+ bytes")).wait_for()
    assert page.locator(".tp-spans b").count() > 100
    views.get_by_text("Superwords", exact=True).click()
    page.get_by_text(re.compile(r"superwords learned after the transition")).wait_for()
    assert page.locator(".tp-spans").count() == 2  # the text under plain BPE and under SuperBPE
    metric = page.locator('[data-testid="stMetric"]')
    assert "Held-out tokens, SuperBPE at" in metric.inner_text() and "vs plain BPE" in metric.inner_text()
