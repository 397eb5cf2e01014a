"""Exports in a real browser: the spans SVG renders with its text, and the Playground offers the files."""

from __future__ import annotations

import pytest

from core.types import SPECIAL, Token
from ui import export

pytestmark = pytest.mark.browser


def test_the_svg_renders_in_chromium_with_its_text(browser, tmp_path) -> None:
    text = "Héllo 世界 <script>alert(1)</script>"
    tokens = [Token(1, b"H\xc3\xa9llo", 0, 5), Token(2, " 世界".encode(), 5, 8),
              Token(3, b" <script>", 8, 17, SPECIAL), Token(4, b"alert(1)</script>", 17, len(text))]
    path = tmp_path / "spans.svg"
    path.write_text(export.spans_svg(text, tokens, title="Export"), encoding="utf-8")
    page = browser.new_page()
    try:
        page.on("dialog", lambda d: pytest.fail(f"a dialog opened: {d.message}"))
        page.goto(path.as_uri())
        shown = page.evaluate("() => [...document.querySelectorAll('text')].map(t => t.textContent)")
        assert shown == ["Export", "Héllo", "·世界", " <script>", "alert(1)</script>"]
        assert page.evaluate("() => document.querySelectorAll('script').length") == 0
        box = page.evaluate("() => document.querySelector('svg').getBBox().width")
        assert box > 100
    finally:
        page.close()


def test_the_playground_cards_offer_svg_png_json_and_csv(page) -> None:
    page.wait_for_function(
        "() => document.querySelectorAll('.tp-box > .tp-spans').length === 4", timeout=60_000
    )
    page.get_by_role("button", name="Export").first.click()
    body = page.locator("[data-testid=stPopoverBody]", has_text="For slides")
    for label in ("SVG", "PNG", "JSON", "CSV"):
        body.get_by_role("button", name=label, exact=True).wait_for()
    with page.expect_download() as download:
        body.get_by_role("button", name="SVG", exact=True).click()
    assert download.value.suggested_filename.endswith(".svg")


def test_an_uploaded_tokenizers_column_exports_all_four_files(page, tmp_path) -> None:
    import csv as csvlib
    import io
    import json
    import xml.etree.ElementTree as ET

    from tests.browser.settle import wait_settled
    from tests.browser.test_playground import SPANS, set_text, wait_ready

    path = tmp_path / "vocab.txt"
    path.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "##s", "!"]) + "\n",
                    encoding="utf-8")
    wait_ready(page, 4)
    page.locator("[data-testid=stSidebar] [data-testid=stFileUploaderDropzoneInput]").nth(1).set_input_files(str(path))
    wait_ready(page, 5)
    set_text(page, "hello worlds!")
    page.wait_for_function(f"() => document.querySelectorAll('{SPANS}').length === 5", timeout=60_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.tp-card-count strong')]"
        ".some(e => e.textContent === '4 tokens')", timeout=60_000,
    )
    # a key patches the cards; the export menus (as the sidebar's downloads) follow once typing pauses
    wait_settled(page)
    page.get_by_role("button", name="Export").nth(4).click()  # the fifth column: the upload
    body = page.locator("[data-testid=stPopoverBody]", has_text="For slides")
    files = {}
    for label in ("SVG", "PNG", "JSON", "CSV"):
        with page.expect_download(timeout=90_000) as download:
            body.get_by_role("button", name=label, exact=True).click()
        files[label] = (tmp_path / f"out.{label.lower()}")
        download.value.save_as(files[label])
    svg = ET.fromstring(files["SVG"].read_bytes())
    assert "hello" in "".join(svg.itertext()) and "##s" in "".join(svg.itertext())
    assert files["PNG"].read_bytes().startswith(b"\x89PNG")
    data = json.loads(files["JSON"].read_text(encoding="utf-8"))
    assert data["tokenizer"] == "vocab.txt" and [t["piece"] for t in data["tokens"]] == [
        "[CLS]", "hello", "world", "##s", "!", "[SEP]"]
    rows = list(csvlib.DictReader(io.StringIO(files["CSV"].read_text(encoding="utf-8"), newline="")))
    assert [r["piece"] for r in rows] == ["[CLS]", "hello", "world", "##s", "!", "[SEP]"]
