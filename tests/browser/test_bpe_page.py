"""Browser tests for "BPE step by step": train on a small corpus, step the scrubber, see the spans change.

Only a browser shows these: the fragment that redraws one step, the keyboard shortcuts, the timer of
"play". Uses the server and chromium fixtures of tests/browser/conftest.py.

A page visit is the suite's dearest step (issue 27), so the ``check_…`` functions, once tests of their
own on a fresh page each, run one after another on one visit: ``STEPPING`` on the default model (each
reads the step it starts from), ``TRAINING`` each training its own model. The timed test (alone on the
machine under xdist) keeps its own visit.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from tests.browser.settle import wait_settled
from tests.browser.test_text_pages import IDLE_JS
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
    wait_scrubber(page)
    try:
        yield page
    finally:
        context.close()


def wait_scrubber(page: object) -> None:
    """Until the scrubber's key and click queue (assets/scrubber.js) listens: presses from then on count.
    The merge line can be drawn a moment before the queue's component is mounted."""
    page.wait_for_function("() => window.__tpSteps && window.__tpSteps.installed && window.__tpSteps.current "
                           "&& window.__tpSteps.current.send")


def step_of(page: object) -> tuple[int, int]:
    # between two views the old step may still be on the page for a moment: wait for one
    page.wait_for_function("document.querySelectorAll('.bpe-merge').length === 1")
    k, n = STEP.search(page.locator(".bpe-merge").inner_text()).groups()
    return int(k.replace(",", "")), int(n.replace(",", ""))


def spans_html(page: object) -> str:
    return page.locator(".tp-spans").inner_html()


def wait_for_step(page: object, k: int, n: int | None = None) -> None:
    wanted = f"step {k:,} of " + (f"{n:,}" if n is not None else "")
    page.locator(".bpe-merge", has_text=wanted).wait_for()


def check_train_on_a_small_corpus_then_step_and_see_the_spans_change(bpe_page: object) -> None:
    # was the test test_train_on_a_small_corpus_then_step_and_see_the_spans_change (its own visit of the page)
    page = bpe_page
    sidebar = page.locator('[data-testid="stSidebar"]')
    size = sidebar.get_by_role("spinbutton", name="Merges or vocabulary size")
    size.fill("120")
    sidebar.get_by_role("button", name="Train").click()
    page.locator(".bpe-merge", has_text=re.compile(r"of 120(?!\d)")).wait_for()
    k, n = step_of(page)
    assert n == 120 and 0 < k <= n

    page.get_by_role("button", name=PREV).click()
    wait_for_step(page, k - 1, n)
    before = spans_html(page)
    page.get_by_role("button", name=NEXT).click()
    wait_for_step(page, k, n)
    assert spans_html(page) != before  # merge k changed the text (the page opens on such a merge)
    assert page.locator(".tp-spans .tp-hl").count() >= 1


def check_the_slider_and_the_arrow_keys_move_the_step(bpe_page: object) -> None:
    # was the test test_the_slider_and_the_arrow_keys_move_the_step (its own visit of the page)
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


def check_prev_steps_back_one_step_at_a_time(bpe_page: object) -> None:
    # was the test test_a_step_is_quick (its own visit, timed): how long a step takes is measured by
    # bench/bpe_steps.py, as the suite times nothing
    page = bpe_page
    k, n = step_of(page)
    for target in range(k - 1, k - 6, -1):
        page.get_by_role("button", name=PREV).click()
        wait_for_step(page, target, n)


def check_play_advances_and_pause_stops(bpe_page: object) -> None:
    # was the test test_play_advances_and_pause_stops (its own visit of the page)
    page = bpe_page
    slider = page.locator('[data-testid="stSlider"] input[type="range"]')
    slider.focus()
    page.keyboard.press("Home")
    wait_for_step(page, 0)
    page.get_by_role("button", name="Play", exact=True).click()
    wait_for_step(page, 2)  # one merge a second
    page.get_by_role("button", name="Pause", exact=True).click()
    page.get_by_role("button", name="Play", exact=True).wait_for()
    stopped, _ = step_of(page)
    time.sleep(2.5)
    assert step_of(page)[0] == stopped


def check_replay_draws_chunks_under_the_spans(bpe_page: object) -> None:
    # was the test test_replay_draws_chunks_under_the_spans (its own visit of the page)
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


def check_character_bpe_shows_each_word_end_as_a_visible_badge(bpe_page: object) -> None:
    # was the test test_character_bpe_shows_each_word_end_as_a_visible_badge (its own visit of the page)
    """Separate </w> (the page's default for character BPE): before any merge, every word of the text
    ends in a zero-width </w> badge that the reader can see."""
    page = bpe_page
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("character BPE").click()
    # subtle: the click reruns the page; a size typed while that run draws the form can be put back
    # to the old size by it (seen under load: the model trained was the old size's)
    wait_settled(page)
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


def settled_step(page: object, wanted: int, seconds: float = 30) -> int:
    """The step once the page has caught up with every press (or the last one seen after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        k, _ = step_of(page)
        if k == wanted:
            time.sleep(0.6)  # and stays there: no press arrives late
            return step_of(page)[0]
        time.sleep(0.1)
    return step_of(page)[0]


def check_ten_quick_key_presses_move_ten_steps(bpe_page: object) -> None:
    # was the test test_ten_quick_key_presses_move_ten_steps (its own visit of the page)
    page = bpe_page
    k, n = step_of(page)
    page.locator("h1").click()
    for _ in range(10):
        page.keyboard.press("ArrowLeft")
        time.sleep(0.1)
    assert settled_step(page, k - 10) == k - 10
    page.keyboard.press("End")  # no slider focused: Home and End still work
    assert settled_step(page, n) == n
    page.keyboard.press("Home")
    assert settled_step(page, 0) == 0


def check_ten_quick_clicks_on_next_move_ten_steps(bpe_page: object) -> None:
    # was the test test_ten_quick_clicks_on_next_move_ten_steps (its own visit of the page)
    page = bpe_page
    page.locator("h1").click()
    page.keyboard.press("Home")
    assert settled_step(page, 0) == 0
    for _ in range(10):
        page.get_by_role("button", name=NEXT).click()
        time.sleep(0.1)
    assert settled_step(page, 10) == 10


# Every animation frame: the step of the merge line, of the spans' head, of the race's head, and
# whether the chart's marker stands at the merge line's step (its x pixel, from plotly's own axis,
# is that of the vocabulary after that many merges: base + k, base read off the curve's first point).
FRAMES_JS = """() => {
  window.__frames = [];
  const number = (text, pattern) => { const m = text.match(pattern); return m ? m[1] : null; };
  const dotAt = (step) => {
    const chart = document.querySelector('.st-key-bpe_chart .js-plotly-plot');
    const layout = chart && chart._fullLayout;
    const point = chart && chart.querySelectorAll('.scatterlayer .trace')[1]?.querySelector('path.point');
    if (!layout || !point || step === null) return null;
    const curve = chart._fullData[0];  // decoded: the figure ships numpy arrays as typed data
    const base = curve.x[0] - curve.customdata[0];
    const wanted = layout.xaxis.l2p(layout.xaxis.d2l(base + Number(step.replace(/,/g, ''))));
    const shown = Number(point.getAttribute('transform').match(/translate\\(([-\\d.]+)/)[1]);
    return Math.abs(shown - wanted) < 0.75 ? step : `dot off by ${(shown - wanted).toFixed(1)} px`;
  };
  const read = () => {
    const line = document.querySelector('.bpe-merge');
    const heads = [...document.querySelectorAll('.bpe-col > p')].map(p => p.textContent).join(' | ');
    const step = line ? number(line.textContent, /step ([\\d,]+) of/) : null;
    window.__frames.push([
      step,
      number(heads, /after ([\\d,]+) merges:/),
      number(heads, /race for merge ([\\d,]+)/),
      dotAt(step),
    ]);
    if (window.__frames.length < 5000) requestAnimationFrame(read);
  };
  requestAnimationFrame(read);
}"""


def check_a_step_is_drawn_whole(bpe_page: object) -> None:
    # was the test test_a_step_is_drawn_whole (its own visit of the page)
    page = bpe_page
    k, _ = step_of(page)
    page.evaluate(FRAMES_JS)
    page.locator("h1").click()
    for i in range(1, 7):
        page.keyboard.press("ArrowLeft")
        # subtle: each press waits for its step: presses made while a step is drawn go together (as
        # they should), and under load three of them once went as one, so a step was never drawn
        wait_for_step(page, k - i)
    assert settled_step(page, k - 6) == k - 6
    frames = [f for f in page.evaluate("window.__frames") if f[0] is not None]
    assert len({f[0] for f in frames}) >= 6  # the sampling saw the steps go by
    torn = [f for f in frames if len(set(f[:3] if f[3] is None else f)) > 1]  # no dot: the chart is mid-redraw
    assert not torn, f"{len(torn)} of {len(frames)} frames showed two steps at once, e.g. {torn[:3]}"


def test_keys_pressed_just_after_leaving_the_page_are_not_taken(bpe_page: object) -> None:
    """The scrubber keeps presses made while its page redraws, but not once the user went to another
    page: there an arrow key must do what it does on that page, even a moment after leaving."""
    page = bpe_page
    page.evaluate("() => { window.__seen = []; document.addEventListener('keydown', e => window.__seen.push(e.key)); }")
    page.locator("[data-testid=stSidebar] [data-testid=stPageLink] a", has_text="Playground").first.click()
    page.wait_for_function("() => location.pathname === '/' || location.pathname.endsWith('/Playground')")
    began = time.monotonic()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    assert time.monotonic() - began < 1.5  # inside the window in which a redraw's presses are kept
    assert page.evaluate("window.__seen") == ["ArrowRight", "End"]


def check_the_arrow_keys_still_step_after_each_switch_of_presentation_mode(bpe_page: object) -> None:
    # was the test test_the_arrow_keys_still_step_after_each_switch_of_presentation_mode (its own visit of the page)
    """A run may mount the scrubber's new key queue before it unmounts the old one: the old one's
    cleanup used to silence the new one, and no key press counted until the next run (seen after
    turning presentation mode on, the first thing a speaker does)."""
    page = bpe_page
    sidebar = page.locator("[data-testid=stSidebar]")
    toggle = sidebar.locator("label", has_text="Presentation mode")
    for turn in range(4):
        k, _ = step_of(page)
        big = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
        sidebar.get_by_text("Presentation mode").click()
        page.wait_for_function("size => getComputedStyle(document.documentElement).fontSize !== size", arg=big)
        assert toggle.locator("input").is_checked() == (turn % 2 == 0)
        page.wait_for_function(IDLE_JS)
        page.wait_for_timeout(300)  # the run's last mounts and unmounts
        assert page.evaluate("() => Boolean(window.__tpSteps.current.send)"), f"switch {turn + 1}: keys not heard"
        page.locator("h1").click()
        page.keyboard.press("ArrowLeft")
        assert settled_step(page, k - 1) == k - 1, f"switch {turn + 1}: ← did not move the step"


def check_a_long_training_can_be_stopped_from_the_page(bpe_page: object, tmp_path) -> None:
    # was the test test_a_long_training_can_be_stopped_from_the_page (its own visit of the page)
    page = bpe_page
    import random

    # 800,000 random letters without a space: one pre-token, cut into 256-character words that all
    # differ, so 20,000 merges take many seconds
    rng = random.Random(19)
    path = tmp_path / "nospace.txt"
    path.write_text("".join(rng.choice("etaoinshrdlucmfw") for _ in range(800_000)), encoding="utf-8")
    before = step_of(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.locator("[data-testid=stSelectbox]").first.click()
    page.keyboard.type("Uploaded .txt")  # the list is long: filter it down to the one option
    page.get_by_role("option", name="Uploaded .txt file (below)").click()
    sidebar.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(str(path))
    sidebar.get_by_role("spinbutton", name="Merges or vocabulary size").fill("20000")
    sidebar.get_by_role("button", name="Train").click()
    stop = page.get_by_role("button", name="Stop training")
    stop.wait_for(timeout=60_000)
    began = time.monotonic()
    stop.click()
    page.get_by_text("Training stopped before it finished").wait_for(timeout=60_000)
    assert time.monotonic() - began < 30  # the training itself takes longer than this
    page.wait_for_function(IDLE_JS)
    assert stop.count() == 0
    assert step_of(page)[1] == before[1]  # the model trained before is still the one shown


# On the default model, in this order: the first two step down from the step the page opens on (at
# least 16 from its start), the Prev clicks step down five from 10 (where the clicks on Next left it), the
# presentation switches need four steps below where they start (5), and "play" starts from step 0
# wherever it is.
STEPPING = (check_a_step_is_drawn_whole, check_ten_quick_key_presses_move_ten_steps,
            check_ten_quick_clicks_on_next_move_ten_steps, check_prev_steps_back_one_step_at_a_time,
            check_the_arrow_keys_still_step_after_each_switch_of_presentation_mode,
            check_the_slider_and_the_arrow_keys_move_the_step, check_play_advances_and_pause_stops)


def test_the_default_model_steps_by_keys_clicks_slider_and_play(bpe_page: object) -> None:
    for i, check in enumerate(STEPPING):
        if i:
            wait_settled(bpe_page)  # each starts on a page at rest, as it did on its own visit
        check(bpe_page)


# Each trains its own model (or replays a real tokenizer) from whatever the page shows; the stopped
# training checks that the model shown before stays; the replay comes last, as it skips where
# cl100k_base is unavailable.
TRAINING = (check_train_on_a_small_corpus_then_step_and_see_the_spans_change,
            check_character_bpe_shows_each_word_end_as_a_visible_badge,
            check_a_long_training_can_be_stopped_from_the_page, check_replay_draws_chunks_under_the_spans)


def test_trainings_and_the_replay_each_draw_their_model(bpe_page: object, tmp_path) -> None:
    for check in TRAINING:
        wait_settled(bpe_page)  # each starts on a page at rest, as it did on its own visit
        if check is check_a_long_training_can_be_stopped_from_the_page:
            check(bpe_page, tmp_path)
        else:
            check(bpe_page)
