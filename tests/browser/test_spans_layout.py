"""What only a browser can show about the spans: a pill is one box at every width, and a tap pins its facts.

A token drawn as two boxes (its start at the end of one line, its end on the next) hides the very
cut the playground teaches. For every pill the browser's own client rects are checked: all on one
line and touching, at 1, 2, 3 and 4 columns and in presentation mode at 1280×720.
"""

from __future__ import annotations

import pytest

from tests.browser.settle import LAYOUT, wait_settled, wait_still
from tests.browser.test_playground import SPANS, set_text, wait_ready

pytestmark = pytest.mark.browser

# Pills (and group boxes) whose client rects are not one box: on several lines, or with a gap.
SPLIT_PILLS_JS = """() => {
  const split = [];
  let count = 0;
  for (const el of document.querySelectorAll('.tp-box > .tp-spans :is(b, .tp-group)')) {
    if (el.closest('.tp-group') && !el.classList.contains('tp-group')) continue;
    count += 1;
    const rects = [...el.getClientRects()].filter(r => r.width > 0.5 && r.height > 0.5);
    if (rects.length < 2) continue;
    const oneLine = rects.every(r => Math.abs(r.top - rects[0].top) < 2 && Math.abs(r.bottom - rects[0].bottom) < 2);
    const sorted = rects.slice().sort((a, b) => a.left - b.left);
    const touching = sorted.every((r, i) => i === 0 || r.left - sorted[i - 1].right < 1.5);
    if (!(oneLine && touching)) split.push(el.textContent);
  }
  return {count, split};
}"""

# Long words, a long token, code with indentation, RTL text and line breaks inside tokens.
TEXT = (
    "Tokenization is the unavoidable first step: internationalization, counterrevolutionaries and\n"
    "https://example.com/a/very/long/path/that/keeps/going/and/going?with=parameters&and=more\n"
    "def tokenize(text):\n        return [piece for piece in text.split()]\n\n\n"
    "مرحبا بالعالم، هذا نص طويل بعض الشيء ليلتف على عدة أسطر في عمود ضيق.\n"
    "Hello world! " * 6
)


def columns(page, n: int) -> None:
    page.locator("[data-testid=stSidebar] [data-testid=stButtonGroup] button", has_text=str(n)).first.click()


def check_no_split(page, boxes: int) -> None:
    wait_ready(page, boxes)
    wait_still(page, f"{LAYOUT}, {SPANS}")  # layout settles after the last element arrives
    found = page.evaluate(SPLIT_PILLS_JS)
    assert found["count"] > 50
    assert found["split"] == [], f"{len(found['split'])} of {found['count']} pills split: {found['split'][:8]}"


def test_no_pill_splits_at_one_to_four_columns(page) -> None:
    wait_ready(page, 4)
    page.locator("[data-testid=stSidebar]").get_by_text("Show whitespace").click()
    set_text(page, TEXT)
    for n in (4, 3, 2, 1):
        columns(page, n)
        check_no_split(page, 4)


def test_no_pill_splits_in_presentation_mode_at_1280x720(browser, app_url) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(app_url)
        wait_ready(page, 4)
        page.locator("[data-testid=stSidebar]").get_by_text("Presentation mode").click()
        page.wait_for_function("() => getComputedStyle(document.documentElement).fontSize === '22px'")
        check_no_split(page, 4)
        columns(page, 4)
        check_no_split(page, 4)
    finally:
        context.close()


def test_a_tap_pins_the_facts_of_a_token_and_of_each_token_of_a_group(page) -> None:
    wait_ready(page, 4)
    page.wait_for_function("() => window.__tpPinInstalled")  # assets/pin.js listens: a tap from now on pins
    pill = page.locator(f"{SPANS} > b").nth(3)
    token_id = pill.evaluate("el => String(window.tpFacts(el).id)")
    pill.click()
    panel = page.locator(".tp-pin")
    panel.wait_for()
    facts = panel.inner_text()
    assert f"id\n{token_id}" in facts or f"id\t{token_id}" in facts or f"id {token_id}" in facts
    for label in ("bytes", "piece", "kind"):
        assert label in facts
    assert float(page.evaluate("parseFloat(getComputedStyle(document.querySelector('.tp-pin')).fontSize)")) >= 16
    pill.click()  # the same pill again unpins
    panel.wait_for(state="detached")
    pill.click()
    page.keyboard.press("Escape")
    panel.wait_for(state="detached")

    # was test_a_group_of_byte_tokens_pins_each_token, on a visit of its own to the same page
    page.wait_for_function("() => window.__tpPinInstalled")
    group = page.locator(f"{SPANS} .tp-group").first
    box = group.bounding_box()
    group.click(position={"x": box["width"] / 2, "y": 4})  # the characters, above the chips
    panel = page.locator(".tp-pin")
    panel.wait_for()
    assert "token 1" in panel.inner_text() and "token 2" in panel.inner_text()
    chip = group.locator("s > b").first
    chip.click()
    page.wait_for_function(
        "id => document.querySelector('.tp-pin') && document.querySelector('.tp-pin').innerText.includes(id)",
        arg=chip.evaluate("el => String(window.tpFacts(el).id)"),
    )


def long_boxes(page, line: str, times: int) -> None:
    """Four columns showing ``line * times``, at least one box holding more than it shows, settled."""
    wait_ready(page, 4)
    set_text(page, line * times)
    page.wait_for_function(
        """text => { const boxes = [...document.querySelectorAll('.tp-box > .tp-spans')];
                   return boxes.length === 4 && boxes.every(b => b.textContent.includes(text))
                          && boxes.some(b => b.classList.contains('tp-overflowing')); }""",
        arg=line.strip()[:14],
    )
    wait_settled(page)  # the whole-page run that follows the typing is over before a box is picked


def test_the_wheel_over_a_span_box_scrolls_the_page_until_the_box_is_clicked(page) -> None:
    long_boxes(page, "A line of text that repeats. ", 400)
    box = page.locator(f"{SPANS}.tp-overflowing").first
    box.scroll_into_view_if_needed()
    main = "document.querySelector('[data-testid=stMain]') || document.scrollingElement"
    page_before = page.evaluate(f"({main}).scrollTop")
    box.hover()
    page.mouse.wheel(0, 300)
    page.wait_for_function(f"before => ({main}).scrollTop > before", arg=page_before)
    wait_still(page, f"{SPANS}, [data-testid=stMain]")  # the page's scroll is over
    assert box.evaluate("b => b.scrollTop") == 0
    assert page.evaluate(f"({main}).scrollTop") > page_before
    box.click()
    box.hover()
    page.mouse.wheel(0, 300)
    page.wait_for_function("b => b.scrollTop > 0", arg=box.element_handle(), timeout=10_000)  # the box scrolls
    assert box.evaluate("b => b.scrollTop") > 0


def test_reading_to_the_end_of_a_box_draws_more_where_the_reader_is(page) -> None:
    """Scrolling a clicked box to its end presses "Show more": the box is drawn anew with more
    tokens, still scrolled to where the reader was and still taking the wheel."""
    long_boxes(page, "Reading on through a long text. ", 600)
    box = page.locator(f"{SPANS}[data-more]").first
    name = box.get_attribute("data-box")
    drawn = box.evaluate("b => b.querySelectorAll('b').length")
    box.scroll_into_view_if_needed()
    box.click()
    box.hover()
    for _ in range(6):  # to the end of the box, where its note asks for more
        page.mouse.wheel(0, 400)
        wait_still(page, f"{SPANS}, [data-testid=stMain]", frames=3)  # this turn of the wheel scrolled
    page.wait_for_function(
        "([name, drawn]) => { const b = document.querySelector(`.tp-spans[data-box='${name}']`);"
        " return b && b.querySelectorAll('b').length > drawn; }",
        arg=[name, drawn],
    )
    again = page.locator(f".tp-spans[data-box='{name}']")
    assert again.evaluate("b => b.scrollTop") > 300  # not back at the top
    assert "tp-scrolling" in again.get_attribute("class")
    before = again.evaluate("b => b.scrollTop")
    again.hover()
    page.mouse.wheel(0, 200)
    page.wait_for_function(  # reading goes on in the new box
        "([name, before]) => { const b = document.querySelector(`.tp-spans[data-box='${name}']`);"
        " return b && b.scrollTop > before; }",
        arg=[name, before], timeout=10_000,
    )
