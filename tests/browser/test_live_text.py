"""The Playground's live text box in chromium: typed text arrives whole, the columns follow it, and a
server-set text (an upload) replaces the browser's."""

from __future__ import annotations

import pytest

from tests.browser.test_playground import wait_ready
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
# The ids each column's box lists (data-ids, base 36), in column order.
IDS_JS = "() => [...document.querySelectorAll('[data-testid=stHtml] > .tp-spans')].map(b => b.dataset.ids)"


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
        for (const b of document.querySelectorAll('[data-testid=stHtml] > .tp-spans'))
            window.__tpSeen.add(b.textContent); }).observe(document.body, {subtree: true, childList: true}); }""")
    page.keyboard.type(TYPED[:120], delay=40)
    wait_columns(page, expected_ids(tokenizers, TYPED[:120]))
    seen = page.evaluate("() => [...window.__tpSeen]")
    prefixes = {text for text in seen if TYPED.startswith(text.rstrip("\n")) and 0 < len(text) < 110}
    assert len(prefixes) >= 3  # at least three texts in between were drawn while keys kept coming


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
    page.wait_for_function("() => document.querySelector('[data-testid=stHtml] > .tp-spans')"
                           ".textContent.startsWith('Long text for the pause rule.')", timeout=60_000)
