"""Unicode & bytes, Pre-tokenization, Pitfalls and Inside a tokenizer in a real browser: each page
renders without an exception, typed XSS stays text, a pitfall opens in the Playground with its text,
and the pipeline's live box applies as typed."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.browser.settle import wait_settled

pytestmark = pytest.mark.browser

XSS = "<script>alert(1)</script><img src=x onerror=alert(1)>"
IDLE_JS = "() => !document.querySelector('[data-testid=stStatusWidget]')"


@pytest.fixture()
def open_page(browser: object, app_url: str) -> Iterator[Callable[[str], object]]:
    """Open a page of the app by its URL path in a fresh 1440×900 context; dialogs are recorded."""
    contexts = []

    def opener(path: str) -> object:
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.dialogs = []  # type: ignore[attr-defined]
        page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
        page.set_default_timeout(90_000)
        page.goto(f"{app_url}/{path}")
        page.wait_for_selector("h1")
        return page

    yield opener
    for context in contexts:
        context.close()


def view(page: object, label: str) -> None:
    page.locator("[data-testid=stButtonGroup] button", has_text=label).first.click()


def type_text(page: object, text: str) -> None:
    """Into the page's live text box (it applies as typed), else its first text area (Ctrl+Enter)."""
    # subtle: wait until one of them is drawn; counting at once raced the live box's first mount
    page.locator(".tp-live-box, [data-testid=stTextArea] textarea").first.wait_for()
    if page.locator(".tp-live-box").count():
        page.locator(".tp-live-box").first.fill(text)
        return
    area = page.locator("[data-testid=stTextArea] textarea").first
    area.fill(text)
    area.press("Control+Enter")


def no_exception(page: object) -> None:
    page.wait_for_function(IDLE_JS, timeout=90_000)
    assert page.locator("[data-testid=stException]").count() == 0


def injected(page: object, selector: str) -> int:
    """Elements the XSS string would create if it were read as HTML, inside ``selector``."""
    return page.evaluate(
        "sel => [...document.querySelectorAll(sel)].reduce((n, e) => n + e.querySelectorAll('script, img').length, 0)",
        selector,
    )


def test_unicode_page_renders_every_view_and_keeps_xss_as_text(open_page) -> None:
    """Was two tests, each on a visit of its own to the page (issue 27: fewer visits)."""
    # was test_unicode_page_renders_every_view
    page = open_page("Unicode_and_bytes")
    page.wait_for_selector("[data-testid=stDataFrame]")
    no_exception(page)
    for label, selector in (("Normalization", ".uc-forms"), ("What tokenizers see", ".uc-forms"),
                            ("Odd characters", "[data-testid=stDataFrame]")):
        view(page, label)
        page.wait_for_selector(selector)
        no_exception(page)

    # was test_unicode_page_keeps_xss_as_text
    view(page, "Normalization")
    page.wait_for_selector(".uc-forms")
    type_text(page, XSS)
    page.wait_for_function("t => (document.querySelector('.uc-forms') || {}).innerText?.includes(t)", arg="<script>alert(1)</script>")
    no_exception(page)
    assert injected(page, ".uc-forms") == 0 and page.dialogs == []


def test_pretokenization_page_draws_chunks_keeps_xss_as_text_and_shows_a_regex_error(open_page) -> None:
    """Was two tests, each on a visit of its own to the page (issue 27: fewer visits)."""
    # was test_pretokenization_page_draws_chunks_and_keeps_xss_as_text
    page = open_page("Pre-tokenization")
    page.wait_for_function("() => document.querySelectorAll('.tv-rows .tp-spans').length === 6")
    no_exception(page)
    type_text(page, XSS)
    page.wait_for_function(
        "t => [...document.querySelectorAll('.tv-rows .tp-spans')].every(e => e.innerText.replace(/\\s/g, '').includes(t))",
        arg="<script>alert(1)</script>",
    )
    no_exception(page)
    assert injected(page, ".tv-rows") == 0 and page.dialogs == []
    # a chunk is a pill with its number in the tooltip
    assert "chunk 1 of" in page.locator(".tv-rows .tp-spans b").first.get_attribute("data-x")

    # was test_pretokenization_invalid_regex_shows_an_error
    wait_settled(page)  # it started on a page at rest
    regex_box = page.locator("[data-testid=stSidebar] input[aria-label='Your regex']")
    regex_box.fill("(\\p{L}+")
    regex_box.press("Enter")
    page.locator("[data-testid=stAlert]", has_text="missing )").first.wait_for()
    page.locator(".tv-rows", has_text="could not cut").first.wait_for()  # drawn after the error
    no_exception(page)


def test_pitfalls_page_renders_each_case_and_one_opens_in_the_playground(open_page) -> None:
    """Was two tests, each on a visit of its own to the page (issue 27: fewer visits)."""
    # was test_pitfalls_page_renders_each_case
    page = open_page("Pitfalls")
    page.wait_for_selector(".pf-grid")
    no_exception(page)
    for label, selector in (("Spelling", ".pf-letters"), ("Trailing space", ".tv-rows"),
                            ("Special tokens", ".tp-special"), ("Emoji", ".tp-group")):
        wait_settled(page)  # the last case's run is over: this test is about what each case draws
        view(page, label)
        page.wait_for_selector(selector)
        no_exception(page)

    # was test_a_pitfall_opens_in_the_playground_with_its_text
    wait_settled(page)  # it started on a page at rest
    view(page, "Spelling")
    page.wait_for_selector(".pf-letters")
    page.get_by_role("button", name="Open in the Playground").click()
    page.wait_for_function(
        "() => (document.querySelector('.tp-live-box') || {}).value?.startsWith('strawberry ferrocarril')"
    )
    page.wait_for_selector(".tp-box > .tp-spans")  # the Playground's columns
    no_exception(page)


def test_inside_pipeline_follows_typing_without_ctrl_enter(open_page) -> None:
    """Inside a tokenizer's pipeline text is the shared live box: keys typed there redraw the stages,
    with no Ctrl+Enter and no click elsewhere (the box keeps focus, the caret stays at the end)."""
    page = open_page("Inside_a_tokenizer?page=inside&view=pipeline")
    box = page.locator(".tp-live-box")
    box.wait_for()
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type("zebra crossing", delay=40)
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stHtml] .tp-spans')].some(b => b.textContent.includes('zebra') && b.textContent.includes('crossing'))",
        timeout=60_000,
    )
    assert page.evaluate("() => { const b = document.querySelector('.tp-live-box');"
                         " return [document.activeElement === b, b.value, b.selectionStart]; }") == [True, "zebra crossing", 14]
    no_exception(page)
