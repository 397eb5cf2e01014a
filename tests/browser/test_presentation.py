"""Presentation mode in a real browser: the essential view fits one 1280×720 screen, a disabled button
looks disabled, and a chart's ticks are readable on a 1920×1080 projector without running together.

The 1280×720 checks are made on tests/browser/test_stage.py's visit of each page (see ``check_…``)."""

from __future__ import annotations

import re

import pytest

from tests.browser.settle import LAYOUT, wait_settled, wait_still
from tests.browser.test_bpe_page import NEXT, step_of, wait_scrubber
from tests.browser.test_page_state import pick_corpus
from tests.browser.test_playground import SPANS, wait_ready
from tests.conftest import data_dir_or_none

pytestmark = pytest.mark.browser


def present(page, url: str) -> None:
    page.goto(url)
    page.locator("[data-testid=stSidebar]").get_by_text("Presentation mode").click()
    page.wait_for_function("() => getComputedStyle(document.documentElement).fontSize === '22px'")
    wait_settled(page)  # the switch's run is over (and any it asked for) before the test looks


def bottom(page, selector: str) -> float:
    return page.evaluate(f"() => document.querySelector({selector!r}).getBoundingClientRect().bottom")


# The checks below were tests of their own, each opening its page afresh at 1280×720 and turning
# presentation mode on: tests/browser/test_stage.py's tour of every page (the same size, the same mode,
# the sidebar open) makes them on its own visit of that page (issue 27: fewer page visits).


def check_the_playground_shows_pills_on_its_first_screen(page) -> None:
    """Was test_the_playground_shows_pills_on_its_first_screen (page: the Playground, presenting)."""
    wait_ready(page, 4)
    first_pill = f"{SPANS} b"
    assert bottom(page, first_pill) <= 720, "no pill on the first screen"


def check_the_bpe_page_shows_the_merge_the_spans_and_the_race_on_one_screen(page) -> None:
    """Was test_the_bpe_page_shows_the_merge_the_spans_and_the_race_on_one_screen (the BPE page, presenting;
    it leaves the page one step on)."""
    page.wait_for_selector(".bpe-merge")
    for part in (".bpe-merge", ".bpe-col-spans .tp-spans b", ".bpe-board tbody tr"):
        assert bottom(page, part) <= 720, f"{part} is below the fold"
    k, n = step_of(page)
    wait_scrubber(page)
    page.locator("h1").click()
    page.keyboard.press("ArrowRight" if k < n else "ArrowLeft")
    page.locator(".bpe-merge", has_text=re.compile(rf"step {k + 1 if k < n else k - 1:,} of")).wait_for()
    assert bottom(page, ".bpe-merge") <= 720  # a step changes something the audience sees


def check_a_disabled_button_looks_disabled(page) -> None:
    """Was test_a_disabled_button_looks_disabled (the BPE page, presenting; it leaves the page at the last step)."""
    page.wait_for_selector(".bpe-merge")
    wait_scrubber(page)
    page.locator("h1").click()
    page.keyboard.press("End")
    nxt = page.get_by_role("button", name=NEXT)
    page.wait_for_function("() => [...document.querySelectorAll('button')].some(b => b.disabled && /^Next/.test(b.innerText))")
    look = nxt.evaluate(
        "b => [getComputedStyle(b).opacity, getComputedStyle(b.querySelector('p') || b).color]"
    )
    opacity, color = float(look[0]), look[1]
    alpha = float(re.findall(r"[\d.]+", color)[3]) if color.startswith("rgba") else 1.0
    assert opacity * alpha <= 0.4, f"a disabled Next looks active (opacity {opacity}, color {color})"


@pytest.mark.skipif(data_dir_or_none() is None, reason="PLAYGROUND_DATA_DIR is not set (Tiny Shakespeare comes from it)")
def test_chart_ticks_are_big_dark_and_apart_at_1920x1080(browser, app_url) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        present(page, f"{app_url}/BPE_step_by_step")
        sidebar = page.locator("[data-testid=stSidebar]")
        pick_corpus(page, "Tiny Shakespeare")
        page.locator("[role=option]", has_text="Tiny Shakespeare").first.click()
        sidebar.get_by_text("vocabulary size", exact=True).click()
        sidebar.get_by_role("spinbutton", name="Merges or vocabulary size").fill("5000")
        sidebar.get_by_role("button", name="Train").click()
        page.locator(".bpe-merge", has_text=re.compile(r"of 4,744(?!\d)")).wait_for()
        page.wait_for_selector(".js-plotly-plot .xtick text")
        wait_still(page, f"{LAYOUT}, .js-plotly-plot .xtick text", frames=10)  # the chart drawn at its size
        ticks = page.evaluate(
            """() => [...document.querySelectorAll('.js-plotly-plot .xtick text')].map(t => {
                 const r = t.getBoundingClientRect(), s = getComputedStyle(t);
                 return [t.textContent, r.left, r.right, parseFloat(s.fontSize), s.fill];
               })"""
        )
        assert len(ticks) >= 3
        for label, _, _, size, fill in ticks:
            assert size >= 18, f"tick {label} is {size}px"
            assert fill in ("rgb(17, 17, 17)", "#111111"), f"tick {label} is {fill}"
        spans = sorted((left, right) for _, left, right, _, _ in ticks)
        assert all(b[0] - a[1] >= 4 for a, b in zip(spans, spans[1:], strict=False)), f"tick labels touch: {ticks}"
    finally:
        context.close()


CHART_LAYOUT_JS = r"""() => [...document.querySelectorAll('.js-plotly-plot')].filter(p => p.offsetParent).map(plot => {
  const box = e => { const r = e && e.getBoundingClientRect(); return r && r.width && r.height ? r : null; };
  const hit = (a, b) => a && b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const outer = plot.getBoundingClientRect(), title = box(plot.querySelector('.gtitle'));
  const legend = box(plot.querySelector('.legend .bg'));
  const labels = [...plot.querySelectorAll('.g-xtitle text, .xtick text, .gtitle, .gtitle-subtitle')];
  return {
    title: (plot.querySelector('.gtitle') || {}).textContent || '',
    inside: !title || (title.left >= outer.left - 1 && title.right <= outer.right + 1 && title.top >= outer.top - 1),
    covered: labels.filter(l => hit(box(l), legend)).map(l => l.textContent),
  };
})"""


def check_the_place_value_grid_shows_every_number_at_1280x720(page) -> None:
    """Was test_the_place_value_grid_shows_every_number_at_1280x720 (Pitfalls, presenting): the numbers
    case ("2026" is "202" + "6") without sideways scrolling, sidebar open."""
    page.wait_for_selector(".pf-grid td.pf-digit")
    wait_still(page, f"{LAYOUT}, .pf-grid-wrap, .pf-grid td.pf-digit")  # the grid laid out at its width
    needed, shown = page.evaluate("() => { const w = document.querySelector('.pf-grid-wrap'); "
                                  "return [w.scrollWidth, w.clientWidth]; }")
    assert needed <= shown, f"the grid needs {needed}px, its box shows {shown}px"
    last = page.evaluate("() => [...document.querySelectorAll('.pf-grid td.pf-digit')].pop().getBoundingClientRect().right")
    assert last <= 1280


CLIPPED_JS = r"""() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stWidgetLabel] p, [data-testid=stMain] button p, [data-testid=stMain] [data-baseweb=tag] span')]
  .filter(el => el.offsetParent && (el.scrollWidth > el.clientWidth + 1
       || el.getBoundingClientRect().right > el.closest('[data-testid=stVerticalBlock]').getBoundingClientRect().right + 1))
  .map(el => el.textContent)"""


# What each page's check of titles and legends waits for (its parametrization, when it was a test).
TITLES_DRAWN = {"Words_and_compression": ".js-plotly-plot .gtitle", "BPE_step_by_step": ".bpe-merge",
                "Beyond_tokenizers": "text=Whole characters"}


def check_titles_legends_labels_and_chips_are_whole_at_1280x720(page, drawn: str) -> None:
    """Was test_titles_legends_labels_and_chips_are_whole_at_1280x720[path-drawn] (Words, BPE, Beyond,
    presenting). Sidebar open. Every chart's title inside its chart and its legend clear of the axis labels
    (Words: Zipf, Heaps, OOV; BPE; Beyond's entropy chart); no label, button text or tokenizer chip cut
    off (Beyond: rule, switch, chips, Match button; BPE: the whitespace switch beside the view)."""
    page.locator(drawn).first.wait_for()
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')")
    page.wait_for_selector(".js-plotly-plot .gtitle")
    wait_still(page, frames=10)  # every chart of the page drawn at its size
    charts = page.evaluate(CHART_LAYOUT_JS)
    assert charts, "no chart drawn"
    for chart in charts:
        assert chart["inside"], f"the title runs out of its chart: {chart['title']!r}"
        assert not chart["covered"], f"the legend of {chart['title']!r} covers {chart['covered']}"
    assert page.evaluate(CLIPPED_JS) == []
