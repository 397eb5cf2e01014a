"""On stage: every page at 1280×720 in presentation mode, with the sidebar open and closed, as a speaker
uses it. One page load per page checks the title and the controls of its first screen (under no header,
inside the screen, not cut off, reachable by a click at their centre)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.test_presentation import present

pytestmark = pytest.mark.browser

# (path, sidebar label, something drawn once the page has run)
PAGES = (
    ("", "Playground", "[data-testid=stHtml] > .tp-spans"),
    ("BPE_step_by_step", "BPE step by step", ".bpe-merge"),
    ("Algorithms", "Algorithms", ".al-grid"),
    ("Words_and_compression", "Words & compression", ".js-plotly-plot"),
    ("Language_tax", "Language tax", ".js-plotly-plot"),
    ("Unicode_and_bytes", "Unicode & bytes", "h1"),
    ("Pre-tokenization", "Pre-tokenization", ".tp-spans"),
    ("Pitfalls", "Pitfalls", ".pf-grid"),
    ("Beyond_tokenizers", "Beyond fixed tokenizers", ".js-plotly-plot"),
    ("Inside_a_tokenizer", "Inside a tokenizer", "h1"),
    ("Chat_formats", "Chat formats", "h1"),
)
IDLE = "() => !document.querySelector('[data-testid=stStatusWidget]') && !document.querySelector('[data-testid=stSkeleton]')"

# What a speaker's first screen must give: the title and every control on it whole, inside the screen,
# clear of the header's button, and a click at a control's centre reaching that control.
FIRST_SCREEN_JS = r"""() => {
  const W = innerWidth, H = innerHeight, out = [];
  const shown = e => e.offsetParent !== null && e.getBoundingClientRect().width > 0;
  const header = document.querySelector('header[data-testid=stHeader]');
  const look = getComputedStyle(header).backgroundColor;
  const blockers = [...header.querySelectorAll('button')].filter(shown).map(e => e.getBoundingClientRect());
  if (!/rgba\(0, 0, 0, 0\)|transparent/.test(look)) blockers.push(header.getBoundingClientRect());
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const name = e => (e.getAttribute('aria-label') || e.innerText || e.value || e.tagName).trim().split('\n')[0].slice(0, 40);
  const title = document.querySelector('[data-testid=stMain] h1');
  if (!title) return ['no title'];
  const r = title.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.right > W + 1 || r.bottom > H) out.push('title outside the screen');
  if (blockers.some(b => hit(r, b))) out.push('title under the header');
  const controls = [...document.querySelectorAll('[data-testid=stMain] :is(button, textarea, input[type=text], '
      + 'input[type=number], [role=tab], [data-baseweb=select], [role=slider], [data-testid=stCheckbox] label)')]
    .filter(shown);
  for (const el of controls) {
    const c = el.getBoundingClientRect();
    if (c.top >= H) continue;  // below the first screen
    const what = name(el);
    if (c.left < -1 || c.right > W + 1) out.push('outside the screen: ' + what);
    if (blockers.some(b => hit(c, b))) out.push('under the header: ' + what);
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible') continue;
      const box = a.getBoundingClientRect();
      if (c.right > box.right + 1 || c.left < box.left - 1) { out.push('cut off: ' + what); break; }
    }
    const y = (Math.max(c.top, 0) + Math.min(c.bottom, H)) / 2, x = (c.left + c.right) / 2;
    const top = document.elementFromPoint(Math.min(Math.max(x, 0), W - 1), y);
    const own = e => e && e.closest('[data-testid=stElementContainer], [role=tablist]');
    if (top && (top.closest('header') || own(top) !== own(el))) out.push('covered: ' + what);
  }
  return [...new Set(out)];
}"""


@pytest.fixture()
def stage(browser, app_url) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        yield page
    finally:
        context.close()


def set_sidebar(page, *, open_: bool) -> None:
    button = "[aria-label='Collapse sidebar']" if not open_ else "[data-testid=stExpandSidebarButton]"
    page.evaluate(f"() => document.querySelector({button!r}).click()")
    page.wait_for_function(
        "open => (document.querySelector('[data-testid=stSidebar]').getBoundingClientRect().right > 10) === open",
        arg=open_)
    page.wait_for_timeout(400)  # the main block's transition


def settle(page, drawn: str) -> None:
    page.locator(drawn).first.wait_for()
    page.wait_for_function(IDLE)
    page.wait_for_timeout(800)


def test_every_page_title_and_first_screen_control_clear_of_the_header(stage, app_url) -> None:
    """Item 1 of issue 21: with the sidebar closed, Streamlit's opaque header hid every title and the
    top half of the Algorithms size buttons. Sidebar open and closed, all 11 pages."""
    page = stage
    present(page, app_url)
    problems: dict[str, list[str]] = {}
    for _, label, drawn in PAGES:
        if label != "Playground":
            page.locator("[data-testid=stSidebar]").get_by_role("link", name=label).click()
        settle(page, drawn)
        opened = page.evaluate(FIRST_SCREEN_JS)
        set_sidebar(page, open_=False)
        closed = page.evaluate(FIRST_SCREEN_JS)
        problems |= {f"{label}, sidebar open": opened, f"{label}, sidebar closed": closed}
        set_sidebar(page, open_=True)
    assert {k: v for k, v in problems.items() if v} == {}
