"""Browser tests for "BPE step by step": train on a small corpus, step the scrubber, see the spans change.

Only a browser shows these: the fragment that redraws one step, the keyboard shortcuts, the timer of
"play". Uses the server and chromium fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from ui.state import BPE_DEFAULT_TEXT

pytestmark = pytest.mark.browser

STEP = re.compile(r"step ([\d,]+) of ([\d,]+)")
PREV, NEXT = re.compile(r"^Prev\b"), re.compile(r"^Next\b")  # not "previous change", "next change"


@pytest.fixture()
def bpe_page(browser: object, app_url: str) -> Iterator[object]:
    """A fresh 1440×900 page on "BPE step by step", its default model drawn."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{app_url}/BPE_step_by_step")
    page.wait_for_selector(".bpe-merge")
    page.wait_for_selector(".tp-spans")
    try:
        yield page
    finally:
        context.close()


def step_of(page: object) -> tuple[int, int]:
    k, n = STEP.search(page.locator(".bpe-merge").inner_text()).groups()
    return int(k.replace(",", "")), int(n.replace(",", ""))


def spans_html(page: object) -> str:
    return page.locator(".tp-spans").inner_html()


def wait_for_step(page: object, k: int, n: int | None = None) -> None:
    wanted = f"step {k:,} of " + (f"{n:,}" if n is not None else "")
    page.locator(".bpe-merge", has_text=wanted).wait_for()


def test_train_on_a_small_corpus_then_step_and_see_the_spans_change(bpe_page: object) -> None:
    page = bpe_page
    sidebar = page.locator('[data-testid="stSidebar"]')
    size = sidebar.get_by_role("spinbutton", name="Merges or vocabulary size")
    size.fill("120")
    sidebar.get_by_role("button", name="Train").click()
    page.locator(".bpe-merge", has_text=re.compile(r"of 120\b")).wait_for()
    k, n = step_of(page)
    assert n == 120 and 0 < k <= n

    page.get_by_role("button", name=PREV).click()
    wait_for_step(page, k - 1, n)
    before = spans_html(page)
    page.get_by_role("button", name=NEXT).click()
    wait_for_step(page, k, n)
    assert spans_html(page) != before  # merge k changed the text (the page opens on such a merge)
    assert page.locator(".tp-spans .tp-hl").count() >= 1


def test_the_slider_and_the_arrow_keys_move_the_step(bpe_page: object) -> None:
    page = bpe_page
    k, n = step_of(page)
    slider = page.locator('[data-testid="stSlider"] input[type="range"]')
    slider.focus()
    page.keyboard.press("Home")
    wait_for_step(page, 0, n)
    assert page.locator(".bpe-merge", has_text="before any merge").count() == 1
    at_zero = spans_html(page)

    page.locator("h1").click()  # nothing focused: the arrow keys belong to the page's shortcuts
    page.keyboard.press("PageDown")  # the first merge that changes the text
    page.locator(".tp-spans .tp-hl").first.wait_for()
    first_change, _ = step_of(page)
    assert first_change > 0 and spans_html(page) != at_zero
    page.keyboard.press("ArrowRight")
    wait_for_step(page, first_change + 1, n)
    page.keyboard.press("ArrowLeft")
    wait_for_step(page, first_change, n)


def test_a_step_is_quick(bpe_page: object) -> None:
    page = bpe_page
    k, n = step_of(page)
    began = time.perf_counter()
    for target in range(k - 1, k - 6, -1):
        page.get_by_role("button", name=PREV).click()
        wait_for_step(page, target, n)
    per_step = (time.perf_counter() - began) / 5
    assert per_step < 2.0, f"one step took {per_step:.2f} s in the browser"


def test_play_advances_and_pause_stops(bpe_page: object) -> None:
    page = bpe_page
    slider = page.locator('[data-testid="stSlider"] input[type="range"]')
    slider.focus()
    page.keyboard.press("Home")
    wait_for_step(page, 0)
    page.get_by_role("button", name="Play").click()
    wait_for_step(page, 2)  # one merge a second
    page.get_by_role("button", name="Pause").click()
    page.get_by_role("button", name="Play").wait_for()
    stopped, _ = step_of(page)
    time.sleep(2.5)
    assert step_of(page)[0] == stopped


def test_replay_draws_chunks_under_the_spans(bpe_page: object) -> None:
    page = bpe_page
    page.get_by_text("Replay a real tokenizer").click()
    page.wait_for_selector(".tp-spans, .tp-unavailable")
    if page.locator(".tp-unavailable").count():
        pytest.skip("cl100k_base is unavailable here (no data folder, no network)")
    page.wait_for_selector(".bpe-chunks")
    k, n = step_of(page)
    assert k == n > 0
    final = spans_html(page)
    page.get_by_role("button", name=PREV).click()
    wait_for_step(page, n - 1, n)
    assert spans_html(page) != final
    assert page.locator(".bpe-chunks .bpe-chunk").count() > 5


def test_character_bpe_shows_each_word_end_as_a_visible_badge(bpe_page: object) -> None:
    """Separate </w> (the page's default for character BPE): before any merge, every word of the text
    ends in a zero-width </w> badge that the reader can see."""
    page = bpe_page
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("character BPE").click()
    sidebar.get_by_role("spinbutton", name="Merges or vocabulary size").fill("40")
    sidebar.get_by_role("button", name="Train").click()
    page.locator(".bpe-merge", has_text=" of 40").wait_for()
    page.locator('[data-testid="stSlider"] input[type="range"]').focus()
    page.keyboard.press("Home")
    wait_for_step(page, 0, 40)
    badges = page.locator(".tp-spans .tp-zw")
    assert badges.count() == len(BPE_DEFAULT_TEXT.split(" "))
    assert set(badges.all_inner_texts()) == {"</w>"}
    box = badges.first.bounding_box()
    assert box is not None and box["width"] > 10 and box["height"] > 5
