"""The Language tax page's distribution plot in a real browser: one box per language, drawn by
plotly, sorted by median with each median marked and each box named under it (no label touching its
neighbour), and the order switch redraws it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.settle import wait_settled

pytestmark = pytest.mark.browser

# The box plot's traces as plotly holds them in the page: box count, medians in drawing order.
BOXES_JS = """() => {
    for (const el of document.querySelectorAll('.js-plotly-plot')) {
        const data = el.data || [];
        const boxes = data.filter(t => t.type === 'box');
        if (!boxes.length) continue;
        const medians = data.find(t => t.name === 'median');
        const ticks = [...el.querySelectorAll('.xaxislayer-above .xtick text')].map(t => t.getBoundingClientRect())
            .sort((a, b) => a.left - b.left);
        const touching = ticks.filter((r, i) => i && r.left < ticks[i - 1].right - 0.5).length;
        const values = [...el.querySelectorAll('.scatterlayer .textpoint text')].map(t => t.getBoundingClientRect())
            .sort((a, b) => a.left - b.left);
        return {boxes: boxes.length, drawn: el.querySelectorAll('.boxlayer .trace').length,
                names: boxes.map(t => t.name), medians: Array.from(medians.y),
                marked: el.querySelectorAll('.scatterlayer .point').length, ticks: ticks.length, touching,
                values_touching: values.filter((r, i) => i && r.left < values[i - 1].right - 0.5).length};
    }
    return null;
}"""


@pytest.fixture()
def distribution(browser: object, app_url: str) -> Iterator[object]:
    """The Language tax page at 1440×1000 with its Distribution tab open and the box plot drawn."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{app_url}/Language_tax")
    page.wait_for_selector(".js-plotly-plot .barlayer .point")
    page.get_by_role("tab", name="Distribution").click()
    # subtle: the base language's box is flat (1× everywhere), so wait for the traces to exist, not to show
    page.wait_for_selector(".js-plotly-plot .boxlayer .trace", state="attached")
    wait_settled(page)
    try:
        yield page
    finally:
        context.close()


def test_the_distribution_plot_draws_a_box_per_language_sorted_by_median(distribution: object) -> None:
    page = distribution
    info = page.evaluate(BOXES_JS)
    assert info["boxes"] == 42 and info["drawn"] == 42  # every language of the sample, drawn
    assert info["medians"] == sorted(info["medians"]) and info["marked"] == 42  # each median marked
    # each box named under it, no name touching the next (plotly left out every other one), and no
    # median's value written over another's (with 42 boxes they ran into each other: hover gives them)
    assert info["ticks"] == 42 and info["touching"] == 0 and info["values_touching"] == 0
    assert info["names"][-1] != "English"
    page.get_by_text("corpus order", exact=True).click()
    page.wait_for_function(
        """() => { for (const el of document.querySelectorAll('.js-plotly-plot')) {
                       const b = (el.data || []).filter(t => t.type === 'box');
                       if (b.length) return b[0].name === 'English'; } return false; }""",
        timeout=60_000,
    )
    wait_settled(page)  # the median-sorted plot of the run before is gone, not read instead of the new one
    assert page.evaluate(BOXES_JS)["boxes"] == 42
