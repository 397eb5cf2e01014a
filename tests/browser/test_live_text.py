"""The Playground's live text box in chromium: typed text arrives whole, the columns follow it (a key
reruns them only; the rest of the page follows when typing pauses), and a server-set text (an upload)
replaces the browser's."""

from __future__ import annotations

import pytest

from core.measures.metrics import text_counts
from tests.browser.settle import wait_settled
from tests.browser.test_playground import TABLE_JS, wait_ready
from ui import state
from ui.live_text import PAUSE_CHARS, PAUSE_NOTE
from ui.span_facts import id36

pytestmark = pytest.mark.browser

BOX = ".tp-live-box"
TYPED = (
    "Speakers type a word and watch the tokens move: strawberry, 2026, naïve café, "
    "don't stop. Tokenizers cut text into pieces, and every key pressed here reaches "
    "the server; the caret stays at its end too"
)
# The whole page has drawn the box's last text (ui/live_text.py whole_page_drawn): typing has settled.
SETTLED_JS = f"""() => {{ const r = window.__tpLive, s = r && r.boxes['{state.PG_TEXT}'], w = r && r.whole && r.whole['{state.PG_TEXT}'];
    return Boolean(s && w && s.box.value === s.sentText && w.seq >= s.sentSeq); }}"""
# The ids each column's box lists (data-ids, base 36), in column order.
IDS_JS = "() => [...document.querySelectorAll('.tp-box > .tp-spans')].map(b => b.dataset.ids)"


@pytest.fixture(scope="module")
def tokenizers() -> dict:
    from core import pretrained

    try:
        return {key: pretrained.load(key) for key in state.DEFAULT_TOKENIZERS}
    except pretrained.TokenizerUnavailable as exc:  # type: ignore[attr-defined]
        pytest.skip(f"a default tokenizer is unavailable here: {exc}")


def expected_ids(tokenizers: dict, text: str) -> list[str]:
    return [",".join(id36(t.id) for t in tokenizers[key].encode(text)) for key in state.DEFAULT_TOKENIZERS]


def wait_columns(page, ids: list[str]) -> None:
    page.wait_for_function(f"want => JSON.stringify(({IDS_JS})()) === JSON.stringify(want)", arg=ids, timeout=60_000)


def clear_box(page) -> None:
    box = page.locator(BOX)
    box.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")


def test_typing_200_characters_arrives_whole_and_the_columns_follow(page, tokenizers) -> None:
    assert len(TYPED) == 200
    wait_ready(page, 4)
    clear_box(page)
    page.keyboard.type(TYPED, delay=40)
    box = page.locator(BOX)
    assert box.input_value() == TYPED  # no key lost, none doubled, none reordered
    wait_columns(page, expected_ids(tokenizers, TYPED))
    assert box.input_value() == TYPED  # no server run put an older text back
    caret = page.evaluate("() => { const b = document.querySelector('.tp-live-box');"
                          " return [b.selectionStart, b.selectionEnd, document.activeElement === b]; }")
    assert caret == [200, 200, True]


def test_the_columns_follow_while_typing_goes_on(page, tokenizers) -> None:
    """Not only when typing stops: a column shows a text typed mid-way before the last key."""
    wait_ready(page, 4)
    clear_box(page)
    page.evaluate("""() => { window.__tpSeen = new Set(); new MutationObserver(() => {
        for (const b of document.querySelectorAll('.tp-box > .tp-spans'))
            window.__tpSeen.add(b.textContent); }).observe(document.body, {subtree: true, childList: true}); }""")
    page.keyboard.type(TYPED[:120], delay=40)
    wait_columns(page, expected_ids(tokenizers, TYPED[:120]))
    seen = page.evaluate("() => [...window.__tpSeen]")
    prefixes = {text for text in seen if TYPED.startswith(text.rstrip("\n")) and 0 < len(text) < 110}
    assert len(prefixes) >= 3  # at least three texts in between were drawn while keys kept coming


def test_a_key_reruns_the_columns_only_and_the_rest_follows_when_typing_pauses(page, tokenizers) -> None:
    """A key reruns the box's fragment (the columns), not the whole page; once typing pauses one
    whole-page run draws the counts of the last text (ui/playground_live.py)."""
    wait_ready(page, 4)
    clear_box(page)
    page.keyboard.type("warm up", delay=40)
    page.wait_for_function(SETTLED_JS, timeout=60_000)
    page.evaluate(f"""() => {{ window.__tpRuns = {{whole: new Set(), done: new Set()}};
        const look = () => {{ const r = window.__tpLive;
            window.__tpRuns.whole.add(r.whole['{state.PG_TEXT}'].seq); window.__tpRuns.done.add(r.done['{state.PG_TEXT}']);
            requestAnimationFrame(look); }}; look(); }}""")
    page.keyboard.type(TYPED[:60], delay=40)
    text = "warm up" + TYPED[:60]
    wait_columns(page, expected_ids(tokenizers, text))
    runs = page.evaluate("() => ({whole: window.__tpRuns.whole.size, done: window.__tpRuns.done.size})")
    assert runs["done"] >= 4 and runs["whole"] <= 2, runs  # many column runs, at most one whole run mid-way
    counts = [text_counts(text, tokenizers[key].encode(text)).tokens for key in state.DEFAULT_TOKENIZERS]
    page.wait_for_function(
        f"want => want.every(n => ({TABLE_JS})().includes(String(n))) && ({TABLE_JS})().includes('{len(text)}')",
        arg=counts, timeout=60_000,
    )


# Every message the page receives, in order: whether it draws a column's box again (a tp_span_box
# element) or patches the cards (tp_live_cards); component names travel as plain bytes in the message.
WIRE = """(() => { const seen = window.__tpWire = []; const Native = window.WebSocket;
  window.WebSocket = function (...args) { const socket = new Native(...args);
    socket.addEventListener('message', (e) => { const bytes = new Uint8Array(e.data);
      const text = String.fromCharCode(...bytes.subarray(0, Math.min(bytes.length, 400)));
      seen.push(text.includes('tp_span_box') ? 'box' : text.includes('tp_live_cards') ? 'cards' : ''); });
    return socket; };
  window.WebSocket.prototype = Native.prototype; Object.assign(window.WebSocket, Native); })();"""


def test_a_key_patches_the_cards_and_draws_no_column_again(blank_page, app_url, tokenizers) -> None:
    """A key's run sends the columns' new cards as one element's data (assets/live_cards.js), and no
    column's element: the boxes, counts and spread line show the new text before any whole-page run
    draws the columns again (ui/playground_live.py follow)."""
    page = blank_page
    page.add_init_script(WIRE)  # this page's: not the worker's shared browser context
    page.goto(app_url)
    wait_ready(page, 4)
    clear_box(page)
    page.keyboard.type("warm up", delay=40)
    page.wait_for_function(SETTLED_JS, timeout=60_000)
    page.evaluate("() => { window.__tpWire.length = 0; }")
    # what the columns' Export buttons took when the key's cards were drawn (before any whole-page run)
    page.evaluate("""() => { window.__exportsAtPatch = null;
      const seen = new MutationObserver(() => { if (window.__exportsAtPatch) return;
        window.__exportsAtPatch = [...document.querySelectorAll('[class*="st-key-pg_export_"]')]
          .map(e => getComputedStyle(e).pointerEvents); });
      document.querySelectorAll('.tp-box > .tp-spans').forEach(b => seen.observe(b, {childList: true, subtree: true, characterData: true})); }""")
    page.keyboard.press("x")
    text = "warm upx"
    wait_columns(page, expected_ids(tokenizers, text))
    seen = page.evaluate("() => window.__tpWire.filter(Boolean)")
    counts = [f"{text_counts(text, tokenizers[key].encode(text)).tokens:,} token" for key in state.DEFAULT_TOKENIZERS]
    heads = page.evaluate("() => [...document.querySelectorAll('.tp-card-count strong')].map(e => e.textContent)")
    assert seen[:1] == ["cards"] and "box" not in seen[:seen.index("cards") + 1], seen
    assert [h[: len(c)] for h, c in zip(heads, counts, strict=True)] == counts  # "3 tokens": the heads followed
    assert "Tokens: " in page.locator(".tp-spread").inner_text()

    # until the whole-page run follows, the columns' Export and Show more still hold the last text the
    # page drew: marked behind, they take no click; once it came, they act on the new text
    assert page.evaluate("window.__exportsAtPatch") == ["none"] * len(tokenizers)
    page.wait_for_function(SETTLED_JS, timeout=60_000)
    page.wait_for_function("() => !document.querySelector('[data-tp-behind]')")
    exports = page.locator('[class*="st-key-pg_export_"]')
    assert exports.evaluate_all("es => es.map(e => getComputedStyle(e).pointerEvents)") == ["auto"] * len(tokenizers)


def test_a_paste_applies_at_once_and_an_upload_replaces_the_text(page, tokenizers, tmp_path) -> None:
    wait_ready(page, 4)
    clear_box(page)
    pasted = "Pasted text: 1,000,000 tokens!"
    page.locator(BOX).evaluate(
        """(box, text) => { box.setRangeText(text, box.selectionStart, box.selectionEnd, 'end');
            box.dispatchEvent(new InputEvent('input', {inputType: 'insertFromPaste', data: text, bubbles: true})); }""",
        pasted,
    )
    wait_columns(page, expected_ids(tokenizers, pasted))
    path = tmp_path / "notes.txt"
    path.write_text("from a file", encoding="utf-8")
    page.locator("[data-testid=stFileUploaderDropzoneInput]").first.set_input_files(str(path))
    page.wait_for_function("() => document.querySelector('.tp-live-box').value === 'from a file'")
    wait_columns(page, expected_ids(tokenizers, "from a file"))
    page.locator(BOX).click()
    page.keyboard.press("End")
    page.keyboard.type(" and typed", delay=40)
    wait_columns(page, expected_ids(tokenizers, "from a file and typed"))
    assert page.locator(BOX).input_value() == "from a file and typed"


def test_a_long_text_applies_when_typing_pauses_and_says_so(page) -> None:
    wait_ready(page, 4)
    note = page.locator(".tp-live-note")
    assert not note.is_visible()
    long = ("Long text for the pause rule. " * (PAUSE_CHARS // 30 + 50))[: PAUSE_CHARS + 500]
    page.locator(BOX).fill(long)
    note.wait_for(state="visible")
    assert note.inner_text() == PAUSE_NOTE
    page.wait_for_function("() => document.querySelector('.tp-box > .tp-spans')"
                           ".textContent.startsWith('Long text for the pause rule.')", timeout=60_000)


# Each column's box: the node a key patches (marked by the test), and where it stands in the page.
BOXES_JS = """(mark) => [...document.querySelectorAll('.tp-box')].map(box => {
    if (mark) box.__tpSeen = true;
    return {kept: box.__tpSeen === true, top: Math.round(box.getBoundingClientRect().top + window.scrollY)}; })"""


def test_the_columns_stay_where_they_were_after_a_first_load(browser, tmp_path) -> None:
    """A fresh server loads the four tokenizers on the first visit, a progress bar each. Neither the
    bars nor the slot they leave may move the columns: the first key would then redraw every box from
    nothing (boxes gone for a few frames), and the whole-page run once typing pauses put the columns
    17 px higher (the emptied slot's flex gap) than the first visit had."""
    from bench.browser_common import ROOT, serve

    with serve(ROOT, tmp_path / "server.log") as server:
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        try:
            page = context.new_page()
            page.goto(server.url)  # nothing loaded yet in this server
            wait_ready(page, 4)
            wait_settled(page)  # the first run is over (its bars emptied) and nothing else runs
            first = page.evaluate(BOXES_JS, True)
            page.locator(BOX).click()
            page.keyboard.press("Control+End")
            page.keyboard.type(" and a key.", delay=40)
            page.wait_for_function(SETTLED_JS, timeout=60_000)  # the whole-page run after the pause
            assert page.evaluate(BOXES_JS, False) == [{"kept": True, "top": box["top"]} for box in first]
            assert len(first) == 4
        finally:
            context.close()
