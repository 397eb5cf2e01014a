"""The copy block (assets/copy_block.js) in chromium, without a server: its text is text, a rerun
replaces it in place, and Copy copies it, through the clipboard API or, where the page has none, the
selection."""

from __future__ import annotations

import pytest

from ui.scripts import script, style

pytestmark = pytest.mark.browser

# Loads the component's module into a blank page: window.__run(data) mounts or updates the block the
# way Streamlit calls a components-v2 element, with the same parent each run.
SETUP = """async ([source, css]) => {
  const module = await import("data:text/javascript;charset=utf-8," + encodeURIComponent(source));
  const parent = document.createElement("div");
  const sheet = document.createElement("style");  // where Streamlit puts the component's stylesheet
  sheet.textContent = css;
  parent.append(sheet);
  document.body.replaceChildren(parent);
  window.__run = (data) => module.default({ parentElement: parent, data });
  window.__block = () => parent.querySelector(":scope > .tp-copy");
}"""
HOSTILE = '<script>window.__ran = 1</script><img src=x onerror="window.__ran = 2"><b>bold</b> & [50256]'


@pytest.fixture()
def bare(browser: object) -> object:
    context = browser.new_context(viewport={"width": 600, "height": 400})
    page = context.new_page()
    page.evaluate(SETUP, [script("copy_block.js"), style("copy_block.css")])
    yield page
    context.close()


def run(page: object, text: str, **data: object) -> None:
    page.evaluate("(data) => window.__run(data)", {"label": "Copy ids", "height": 180, "wrap": True, "text": text} | data)


def test_the_text_is_text_and_a_rerun_replaces_it_in_place(bare) -> None:
    run(bare, HOSTILE)
    pre = bare.locator(".tp-copy pre")
    assert pre.inner_text() == HOSTILE
    assert bare.evaluate("window.__block().querySelectorAll('pre *').length") == 0  # no element made of it
    assert bare.evaluate("window.__ran === undefined")
    bare.evaluate("window.__block().dataset.mark = 'kept'")
    run(bare, "[15496, 11, 995, 0]", height=None, wrap=False)
    assert pre.inner_text() == "[15496, 11, 995, 0]"
    assert bare.evaluate("window.__block().dataset.mark") == "kept"  # the same element, updated
    assert bare.evaluate("getComputedStyle(window.__block().querySelector('pre')).whiteSpace") == "pre"
    assert bare.get_by_role("button", name="Copy ids").is_visible()
    # the component's stylesheet, beside the block in the same element, stays (replacing the element's
    # children once dropped it, and the block lost its frame, its wrapping and its button's place)
    assert bare.evaluate("getComputedStyle(window.__block().querySelector('pre')).overflowY") == "auto"


def test_a_long_text_scrolls_inside_its_height(bare) -> None:
    run(bare, "\n".join(str(n) for n in range(500)))
    height = bare.evaluate("window.__block().querySelector('pre').getBoundingClientRect().height")
    assert height <= 181
    assert bare.evaluate("(p => p.scrollHeight > p.clientHeight)(window.__block().querySelector('pre'))")


def test_copy_goes_through_the_clipboard_api(bare) -> None:
    bare.evaluate("""() => Object.defineProperty(navigator, "clipboard", {configurable: true,
        value: {writeText: async (text) => { window.__copied = text; }}})""")
    run(bare, "[15496, 11, 995, 0]")
    bare.get_by_role("button", name="Copy ids").click()
    bare.wait_for_function("window.__copied !== undefined")
    assert bare.evaluate("window.__copied") == "[15496, 11, 995, 0]"
    bare.locator(".tp-copy button", has_text="Copied").wait_for()


def test_without_a_clipboard_api_copy_selects_the_text_and_copies_the_selection(bare) -> None:
    bare.evaluate("""() => {
      Object.defineProperty(navigator, "clipboard", {configurable: true, value: undefined});
      document.addEventListener("copy", () => { window.__copied = String(window.getSelection()); });
    }""")
    run(bare, "41840: F0 9F 91\n247: A9", wrap=False)
    bare.get_by_role("button", name="Copy ids").click()
    bare.wait_for_function("window.__copied !== undefined")
    assert bare.evaluate("window.__copied") == "41840: F0 9F 91\n247: A9"
