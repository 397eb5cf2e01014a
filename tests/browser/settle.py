"""Waiting for a Streamlit page to settle in a real browser, for tests that count what a rerun drew."""

from __future__ import annotations

# Streamlit is done: its script is not running and no element of an earlier run is still drawn (a rerun
# keeps the old elements, marked stale, until it is over), and it has stayed so for a second (a run may
# ask for another: the link written back, a widget's callback)
SETTLED_JS = """() => {
    const app = document.querySelector('[data-test-script-state]');
    const idle = app !== null && app.getAttribute('data-test-script-state') === 'notRunning'
        && !document.querySelector('[data-stale="true"]');
    if (!idle) { window.__settledSince = null; return false; }
    window.__settledSince = window.__settledSince || performance.now();
    return performance.now() - window.__settledSince > 1000;
}"""


def wait_settled(page: object) -> None:
    """Wait until the page's run is over and nothing stale is left on screen (see ``SETTLED_JS``)."""
    page.evaluate("() => { window.__settledSince = null; }")
    page.wait_for_function(SETTLED_JS, timeout=120_000)



# The boxes (and scroll offsets) of every element matching a selector, the same ``frames`` animation
# frames in a row: a transition (the sidebar's slide, the main block widening after it), a chart's
# redraw or a smooth scroll is over. False if they still move after ``limit`` ms.
STILL_JS = """([selector, frames, limit]) => new Promise(resolve => {
    const began = performance.now();
    let last = null, same = 0;
    const look = () => {
        const now = [...document.querySelectorAll(selector)].map(e => {
            const r = e.getBoundingClientRect();
            return `${r.left},${r.top},${r.width},${r.height},${e.scrollTop},${e.scrollLeft}`;
        }).join(' ');
        same = now === last ? same + 1 : 0;
        last = now;
        if (same >= frames) resolve(true);
        else if (performance.now() - began > limit) resolve(false);
        else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
})"""

# What moves when the sidebar opens or closes, or a page's charts are drawn.
LAYOUT = ("[data-testid=stSidebar], [data-testid=stMain], [data-testid=stMain] [data-testid=stElementContainer], "
          "[data-testid=stMain] .js-plotly-plot .main-svg")


def wait_still(page: object, selector: str = LAYOUT, frames: int = 6, limit_ms: int = 30_000) -> None:
    """Wait until the boxes of ``selector``'s elements stay put for ``frames`` animation frames in a row
    (in place of a fixed pause for a transition, a redraw or a scroll to end)."""
    if not page.evaluate(STILL_JS, [selector, frames, limit_ms]):
        raise AssertionError(f"{selector} still moving after {limit_ms} ms")
