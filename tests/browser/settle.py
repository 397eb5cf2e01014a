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
