"""The Playground in a real browser: spans and counts follow the text and the tokenizer choice; no XSS."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

SPANS = ".tp-box > .tp-spans"  # the columns' spans, not the legend's examples
XSS = "<script>alert(1)</script>\n<img src=x onerror=alert(1)>\n</span><b>x"

# The token count headline of each column ("184 tokens"), in page order (ui/card.py).
HEADLINES_JS = """() => [...document.querySelectorAll('.tp-card-count strong')]
    .map(e => e.textContent).filter(t => /^[0-9,]+ tokens$/.test(t))"""
COUNTS = ".st-key-pg_counts_table table"  # the counts table (ui/tables.py: a Markdown table)
TABLE_JS = f"() => (document.querySelector('{COUNTS}') || {{}}).innerText || ''"


def wait_ready(page, columns: int) -> None:
    """Wait until ``columns`` span boxes are drawn and the app is not running."""
    page.wait_for_function(
        """n => document.querySelectorAll('.tp-box > .tp-spans').length === n
               && !document.querySelector('[data-testid=stStatusWidget] [data-testid=stSpinner]')""",
        arg=columns,
        timeout=60_000,
    )


def set_text(page, text: str) -> None:
    """Put ``text`` into the live text box (it applies without Ctrl+Enter or blur)."""
    page.locator(".tp-live-box").fill(text)


def test_opens_with_four_tokenizers_spans_and_counts_and_typing_changes_them(page) -> None:
    """Was two tests, each on a visit of its own: the page as it opens, then typing."""
    wait_ready(page, 4)
    page.wait_for_selector(COUNTS)
    assert len(page.evaluate(HEADLINES_JS)) == 4
    assert "tokens / word" in page.evaluate(TABLE_JS)
    assert page.locator(f"{SPANS} b").count() > 100
    assert page.locator(f"{SPANS} .tp-group").count() > 0  # the emoji and Hindi under GPT-2
    # The CSS reached the page (a sanitizer drops a style element it distrusts).
    assert page.evaluate(f"getComputedStyle(document.querySelector('{SPANS}')).whiteSpace") == "pre-wrap"

    # was test_typing_changes_spans_and_counts
    wait_ready(page, 4)
    before_table = page.evaluate(TABLE_JS)
    set_text(page, "hello hello hello")
    page.wait_for_function(
        """() => { const boxes = [...document.querySelectorAll('.tp-box > .tp-spans')];
                   return boxes.length === 4 && boxes.every(b => b.textContent.startsWith('hello hello hello')
                          || b.textContent.includes('hello hello hello')); }""",
        timeout=60_000,
    )
    page.wait_for_function(f"before => ({TABLE_JS})() !== before", arg=before_table, timeout=60_000)
    headlines = page.evaluate(HEADLINES_JS)
    assert headlines == ["3 tokens"] * 4  # "hello", " hello", " hello" in every one of the four
    assert page.locator(f"{SPANS} b").count() >= 12


def test_switching_tokenizers(page) -> None:
    wait_ready(page, 4)
    page.locator("[data-testid=stMultiSelect] button[aria-label^='Remove GPT-2 (r50k_base) ·']").click()
    wait_ready(page, 3)
    assert "GPT-2 (r50k_base)" not in page.evaluate(TABLE_JS)
    combo = page.locator("[data-testid=stMultiSelect] input")
    combo.click()
    combo.fill("p50k")
    page.locator("[role=option]", has_text="p50k_base").first.click()
    page.keyboard.press("Escape")
    wait_ready(page, 4)
    page.wait_for_function(f"() => ({TABLE_JS})().includes('p50k_base')", timeout=60_000)


def test_xss_strings_stay_text(page) -> None:
    wait_ready(page, 4)
    set_text(page, XSS)
    page.wait_for_function(
        """() => { const boxes = [...document.querySelectorAll('.tp-box > .tp-spans')];
                   return boxes.length === 4 && boxes.every(b => b.textContent.includes('onerror=alert(1)')); }""",
        timeout=60_000,
    )
    page.wait_for_timeout(1_000)  # give an injected handler time to fire, if one got in
    assert page.dialogs == []
    assert page.locator(f"{SPANS} script, {SPANS} img, {SPANS} b:not([class])").count() == 0  # pills have a class
    text = page.locator(SPANS).first.text_content()
    for literal in ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "</span><b>x"):
        assert literal in text


def test_an_uploaded_file_name_stays_text(page, tmp_path) -> None:
    """The name shows in the note under the uploader: no element, link, color or emoji may come of it."""
    name = "<img src=x onerror=alert(1)> [link](evil.example) :red[red] :smile:.txt"
    path = tmp_path / name
    path.write_text("hello from a file", encoding="utf-8")
    wait_ready(page, 4)
    page.locator("[data-testid=stFileUploaderDropzoneInput]").first.set_input_files(str(path))  # the text uploader
    note = page.locator("[data-testid=stSidebar] [data-testid=stCaptionContainer]", has_text="Loaded")
    note.wait_for(timeout=60_000)
    page.wait_for_timeout(1_000)  # give an injected handler time to fire, if one got in
    assert note.inner_text() == f"Loaded {name} (17 characters)."
    assert note.locator("img, a, .stMarkdownColoredText").count() == 0
    assert page.dialogs == []


def test_a_refused_upload_says_so_and_keeps_the_text(page, tmp_path) -> None:
    """A file over the limit is refused in the browser (the server never sees it): the note of the
    file loaded before gives way to a visible line saying it was refused and the text is unchanged."""
    wait_ready(page, 4)
    small, big = tmp_path / "small.txt", tmp_path / "big.txt"
    small.write_text("hello from a small file", encoding="utf-8")
    big.write_bytes(b"a" * 6_000_000)
    uploader = page.locator("[data-testid=stFileUploaderDropzoneInput]").first
    uploader.set_input_files(str(small))
    note = page.locator("[data-testid=stSidebar] [data-testid=stCaptionContainer]", has_text="Loaded small.txt")
    note.wait_for(timeout=60_000)
    box = page.locator(".st-key-pg_upload_box")
    refusal = "() => getComputedStyle(document.querySelector('.st-key-pg_upload_box'), '::after').content"
    assert page.evaluate(refusal) in ("none", "normal", "")  # nothing refused yet
    uploader.set_input_files(str(big))
    box.locator("[data-testid=stFileChipIconError]").wait_for()
    page.wait_for_function(f"() => ({refusal})().includes('refused')")
    assert "over 5 MB" in page.evaluate(refusal)
    assert not note.is_visible()  # the old "Loaded" line no longer claims the new file
    page.wait_for_function("() => document.querySelector('.tp-box > .tp-spans')"
                           ".textContent.includes('hello from a small file')")


def test_text_typed_before_the_picker_has_loaded_keeps_the_chosen_tokenizers(browser, app_url) -> None:
    """The browser loads the picker's code after the columns: text typed in that moment reruns the live
    fragment first, and the picker must still mount with the four tokenizers (it mounted empty, and
    the next pick replaced them all). The picker's code is held back until the typed text is drawn."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        held = []
        page.route("**/Multiselect.*.js", lambda route: held.append(route))  # answered once the text is drawn
        page.goto(app_url)
        wait_ready(page, 4)
        assert held and page.locator("[data-testid=stMultiSelect]").count() == 0  # not mounted yet
        set_text(page, "Typed while the page was loading.")
        page.wait_for_function(
            f"() => [...document.querySelectorAll('{SPANS}')].every(b => b.textContent.includes('Typed while'))"
        )
        for route in held:
            route.continue_()
        page.wait_for_selector("[data-testid=stMultiSelect]")
        page.wait_for_timeout(1_000)  # a picker mounted empty would have sent its value by now
        chips = page.locator("[data-testid=stMultiSelect]").inner_text()
        for name in ("GPT-2", "cl100k_base", "o200k_base", "Llama 3"):
            assert name in chips, chips
        wait_ready(page, 4)
    finally:
        context.close()


def test_a_filter_typed_in_the_picker_survives_the_runs_that_follow_typing(page) -> None:
    """Runs come on their own here (the text's columns, then the whole page once typing pauses): one
    that came while a filter was typed in the picker cleared it, and the click meant for the one
    match landed on "Select all" in its place (every tokenizer chosen)."""
    from tests.browser.settle import wait_settled

    wait_ready(page, 4)
    wait_settled(page)
    combo = page.locator("[data-testid=stMultiSelect] input")
    combo.click()
    combo.fill("FLAN-T5")
    only_t5 = """() => { const o = [...document.querySelectorAll('[role=option]')];
        return o.length === 1 && o[0].innerText.includes('T5 / FLAN-T5'); }"""
    page.wait_for_function(only_t5)
    # text arrives in the box (as from a second window of the live box) while the picker is open
    # and filtered: its columns' run, then the whole-page run when typing pauses
    page.evaluate("""() => { const box = document.querySelector('.tp-live-box');
        box.value = 'Typed while the picker was open.'; box.dispatchEvent(new Event('input', {bubbles: true})); }""")
    page.wait_for_function(f"() => document.querySelector('{SPANS}').textContent.includes('Typed while')")
    wait_settled(page)
    page.evaluate("() => { const w = Object.values(window.__tpLive.whole)[0]; w.ask(w.seq + 1); }")  # one more
    wait_settled(page)
    assert combo.input_value() == "FLAN-T5"
    page.wait_for_function(only_t5)
    page.locator("[role=option]", has_text="T5 / FLAN-T5").click()
    page.keyboard.press("Escape")
    wait_ready(page, 5)
    chips = page.locator("[data-testid=stMultiSelect]").inner_text()
    assert all(name in chips for name in ("GPT-2", "cl100k_base", "o200k_base", "Llama 3", "T5 / FLAN-T5"))
