"""The compact span markup in a real browser: the script derives every token's facts exactly, the
tooltip and the pinned panel keep user text as text, a long text draws its first screenful and shows
more on scroll, and a display switch does not resend the ids view."""

from __future__ import annotations

import pytest

from tests.browser.settle import wait_settled
from tests.browser.test_playground import SPANS, set_text, wait_ready

pytestmark = pytest.mark.browser

BOXES = f"[...document.querySelectorAll('{SPANS}')]"
# Every token element of every box, in order, as the page's script reads it.
FACTS_JS = f"""() => {BOXES}.map(box => [...box.querySelectorAll('b:not(.tp-cont)')].map(el => {{
    const f = window.tpFacts(el); return [f.id, f.hex, f.piece]; }}))"""
TIP_JS = "() => { const t = document.querySelector('.tp-tip'); return t ? [t.textContent, t.children.length] : null; }"
EVIL = ['<img src=x onerror=alert(1)>', '"><svg onload=alert(2)>', "</b><script>alert(3)</script>", "&amp;'x'"]


def hover_tip(page, locator) -> str:
    locator.hover()
    # read where it is found: a run that moves the page afterwards hides the tip (it follows the pointer)
    text, children = page.wait_for_function(TIP_JS).json_value()
    assert children == 0  # the tooltip holds text only, never elements
    return text


def test_the_script_reads_every_tokens_facts_exactly(page, data_dir) -> None:
    """id, bytes and piece of every token of the four default columns, against the tokenizers here."""
    from core import pretrained
    from ui import state

    wait_ready(page, 4)
    page.wait_for_function("() => typeof window.tpFacts === 'function'")
    seen = page.evaluate(FACTS_JS)
    text = state.playground_sample()
    for key, facts in zip(pretrained.DEFAULT_KEYS, seen, strict=True):
        tokenizer = pretrained.load(key)
        tokens = tokenizer.encode(text)
        wanted = [[t.id, t.bytes.hex(" ").upper(), tokenizer.piece(t.id)] for t in tokens]
        assert facts == wanted, key


def test_tooltips_and_pins_keep_user_text_as_text(page) -> None:
    wait_ready(page, 4)
    set_text(page, " ".join(EVIL))
    page.wait_for_function(f"() => {BOXES}.length === 4 && {BOXES}.every(b => b.textContent.includes('onerror=alert(1)'))")
    wait_settled(page)  # the counts and ids below follow the typing: the page grows, then stays
    page.wait_for_function("() => typeof window.tpFacts === 'function'")
    box = page.locator(SPANS).first
    shown = []
    for i in range(box.locator("b").count()):
        shown.append(hover_tip(page, box.locator("b").nth(i)))
    tips = "\n".join(shown)
    assert "<img" not in box.inner_html() and "<svg" not in box.inner_html() and "<script" not in box.inner_html()
    assert "piece Ġsrc" in tips and "piece img" in tips
    hexes = [line.split(" · ")[0].removeprefix("bytes ") for line in tips.splitlines() if line.startswith("bytes ")]
    assert bytes.fromhex(" ".join(hexes)).decode() == " ".join(EVIL)  # the tooltips spell the whole text
    box.locator("b").nth(1).click()
    panel = page.locator(".tp-pin")
    panel.wait_for()
    assert panel.locator("img, svg, script").count() == 0
    for toggle in ("Raw pieces", "Show whitespace"):  # the same probes through the other views
        page.locator("[data-testid=stSidebar]").get_by_text(toggle).click()
    page.wait_for_function(f"() => {BOXES}.every(b => b.classList.contains('tp-raw'))")
    raw = page.locator(SPANS).first
    for i in range(min(raw.locator("b").count(), 12)):
        hover_tip(page, raw.locator("b").nth(i))
    page.wait_for_timeout(500)  # give an injected handler time to fire, if one got in
    assert page.dialogs == []
    assert page.locator(f"{SPANS} img, {SPANS} svg, {SPANS} script, .tp-tip *, .tp-pin img").count() == 0


def test_a_long_text_draws_its_first_screenful_and_more_on_scroll(page) -> None:
    wait_ready(page, 4)
    set_text(page, "Tokens, one after another. " * 900)
    page.wait_for_function(f"() => {BOXES}.length === 4 && {BOXES}.every(b => b.querySelector('.tp-limit'))")
    box = page.locator(SPANS).first
    first = box.locator("b:not(.tp-cont)").count()
    note = box.locator(".tp-limit").inner_text()
    total = int(note.split(" of ")[1].split(" tokens")[0].replace(",", ""))
    assert note.startswith(f"showing {first:,} of") and total > 4 * first
    # a screenful: the box is full and scrolls, the text goes on below
    assert box.evaluate("b => b.scrollHeight > b.clientHeight")
    assert page.get_by_text(f"{total:,} tokens", exact=True).first.is_visible()  # the count covers it all
    # scrolling the box to its end shows more (the script presses the column's "Show more")
    box.evaluate("b => { b.scrollIntoView(); b.scrollTop = b.scrollHeight; }")
    page.wait_for_function(
        f"n => {BOXES}[0].querySelectorAll('b:not(.tp-cont)').length === n", arg=2 * first, timeout=60_000)
    assert f"showing {2 * first:,} of" in page.locator(SPANS).first.locator(".tp-limit").inner_text()
    # the button does the same
    page.locator(".st-key-pg_more_gpt2 button").click()
    page.wait_for_function(
        f"n => {BOXES}[0].querySelectorAll('b:not(.tp-cont)').length === n", arg=4 * first, timeout=60_000)
    assert page.get_by_text(f"{total:,} tokens", exact=True).count() >= 1


def test_a_display_switch_does_not_resend_the_ids_view(blank_page, app_url) -> None:
    """A rerun that leaves the ids and counts as they were receives only the redrawn boxes."""
    page = blank_page  # the frames are watched from the first visit on
    received = []

    def watch(socket) -> None:
        socket.on("framereceived", lambda payload: received.append(len(payload)))

    page.on("websocket", watch)
    page.goto(app_url)
    wait_ready(page, 4)
    set_text(page, "An ordinary sentence, said again and again. " * 1_100)  # ~50 KB, ~10,000 tokens each
    page.wait_for_function(f"() => {BOXES}.length === 4 && {BOXES}.every(b => b.textContent.slice(0, 60).includes('An ordinary'))")
    wait_settled(page)  # the ids follow the typed text in the whole-page run once typing pauses
    ids_text = page.locator(".tp-copy pre").first.inner_text()
    assert len(ids_text) > 40_000  # the ids view holds a big list
    received.clear()
    page.locator("[data-testid=stSidebar]").get_by_text("Show whitespace").click()
    page.wait_for_function(f"() => {BOXES}.length === 4 && {BOXES}.every(b => b.querySelector('i'))")
    wait_settled(page)
    assert sum(received) < 250_000, f"{sum(received):,} bytes received for a whitespace switch"
    assert page.locator(".tp-copy pre").first.inner_text() == ids_text
