"""The Language tax page in a real browser: a click on a bar shows that language's tokens in place,
and "Open in the Playground" carries its text over. Only a browser sends plotly's click events."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.settle import wait_settled
from tests.browser.test_stage import SWITCH_FRAMES_JS, blank_frames

pytestmark = pytest.mark.browser

# Where each language's bar is: (trace index, point index) by the language code in customdata.
BAR_JS = """code => {
    const traces = [...document.querySelectorAll('.js-plotly-plot .barlayer .trace')];
    for (let t = 0; t < traces.length; t++) {
        const data = traces[t].__data__[0].trace.customdata;
        const i = Array.from(data).indexOf(code);
        if (i >= 0) return [t, i];
    }
    return null;
}"""


@pytest.fixture()
def tax_page(browser: object, app_url: str) -> Iterator[object]:
    """A fresh 1440×1000 page on "Language tax", its default chart and spans drawn."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{app_url}/Language_tax")
    page.wait_for_selector(".js-plotly-plot .barlayer .point")
    page.wait_for_selector(".lt-segments .tp-spans b")
    wait_settled(page)
    try:
        yield page
    finally:
        context.close()


def focus_box(page: object) -> object:
    return page.get_by_role("combobox", name="Language shown as tokens")


def test_clicking_a_bar_shows_that_language_as_tokens(tax_page: object) -> None:
    page = tax_page
    assert focus_box(page).input_value() == "Burmese"  # the dearest language opens
    trace, point = page.evaluate(BAR_JS, "es")
    bar = page.locator(".js-plotly-plot .barlayer .trace").nth(trace).locator(".point").nth(point)
    bar.scroll_into_view_if_needed()
    box = bar.bounding_box()
    # subtle: plotly's drag layer lies over the bars and turns a click at a bar's place into its event
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # subtle: while the page reruns, the old select box may still be drawn next to the new one
    page.wait_for_function(
        """name => { const boxes = [...document.querySelectorAll('input[aria-label="Language shown as tokens"]')];
                     return boxes.length === 1 && boxes[0].value === name; }""",
        arg="Spanish", timeout=60_000,
    )
    header = page.get_by_text(re.compile(r"^Spanish · [\d,]+ tokens in all"))
    header.wait_for()
    # subtle: under load the rerun's new spans were seen next to the old run's (4 boxes): count them
    # once the run is over, when Streamlit has taken the stale ones away
    wait_settled(page)
    boxes = page.locator(".lt-segments")
    assert boxes.count() == 2
    assert boxes.nth(1).get_attribute("lang") == "es"
    assert "mercado" in boxes.nth(1).inner_text()


def test_open_in_the_playground_carries_the_text(tax_page: object) -> None:
    """And on the way no frame shows a blank page (issue 21, item 8): the button's run switches pages
    (``st.switch_page``), and assets/page_hold.js holds the Language tax on screen until the
    Playground's title is drawn (the frontend keeps the old page until the new elements come, but
    under load it showed an empty main block for a frame)."""
    page = tax_page
    language = focus_box(page).input_value()
    page.evaluate(SWITCH_FRAMES_JS)
    page.get_by_role("button", name="Open in the Playground").click()
    page.wait_for_url(re.compile(r"/(\?.*)?$"))
    page.wait_for_function("() => document.querySelector('[data-testid=stMain] h1')?.innerText.startsWith('Tokenizer Playground')")
    assert blank_frames(page) == []
    area = page.locator(".tp-live-box")  # the Playground's live text box
    area.wait_for()
    text = area.input_value()
    assert language == "Burmese" and "စနေနေ့" in text and text.count("\n") == 5  # six sentences
