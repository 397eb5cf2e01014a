"""AppTest: strings from an uploaded tokenizer stay plain text, and a runaway one fails in its column (issue 19).

Markdown in a file's strings (``![t](track.png)`` is an image, ``[x](y)`` a link) must reach the
page escaped: the Inside page's settings table and pipeline headings, the Playground's counts table
and ids tabs. Hostile files are built here.
"""

from __future__ import annotations

import json

from core.pretrained.sandbox import BASE_BUDGET_S
from tests.pages.apptest import cards, counts_table
from tests.pages.live import live_box
from tests.pages.test_inside_page import APP, PAGE, run
from ui import state

IMAGE = "![t](track.png)"
LINK_NAME = "[x](y) vocab.txt"
VOCAB = "\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world"]).encode()


def tokenizer_json(*, pre_tokenizer: dict | None = None) -> bytes:
    """A WordLevel tokenizer.json whose normalizer and post-processor carry Markdown."""
    document = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": 3, "content": IMAGE, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True}],
        "normalizer": {"type": "Replace", "pattern": {"String": "q"}, "content": IMAGE},
        "pre_tokenizer": pre_tokenizer or {"type": "Whitespace"},
        "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": IMAGE, "type_id": 0}},
                                                                     {"Sequence": {"id": "A", "type_id": 0}}],
                           "pair": [{"Sequence": {"id": "A", "type_id": 0}}],
                           "special_tokens": {IMAGE: {"id": IMAGE, "ids": [3], "tokens": [IMAGE]}}},
        "decoder": None,
        "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "hello": 1, "world": 2, IMAGE: 3}, "unk_token": "[UNK]"},
    }
    return json.dumps(document).encode()


def unescaped(text: str) -> bool:
    return IMAGE in text or "[x](y)" in text


def test_the_inside_pages_settings_and_pipeline_keep_file_strings_as_text() -> None:
    at = run(PAGE)
    at.file_uploader(key="it_tokenizer_upload").set_value(("md.json", tokenizer_json(), "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]
    cells = " ".join(str(v) for table in at.table for v in table.value.to_numpy().ravel())
    assert "track" in cells and not unescaped(cells)
    at.segmented_control(key=state.IT_VIEW).set_value("pipeline").run()
    assert not at.exception, [e.value for e in at.exception]
    headings = [m.value for m in at.markdown if m.value.startswith("#####")]
    post = next(h for h in headings if "Post-processor" in h)
    assert "track" in post and not unescaped(post)


def test_the_playgrounds_counts_table_and_ids_tabs_keep_a_file_name_as_text() -> None:
    at = run(APP)
    at.file_uploader(key="pg_tokenizer_upload").set_value((LINK_NAME, VOCAB, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    headers = [str(c) for c in counts_table(at).columns]
    assert any("vocab" in h for h in headers) and not any(unescaped(h) for h in headers)
    labels = [tab.label for tab in at.tabs]
    assert any("vocab" in label for label in labels) and not any(unescaped(label) for label in labels)


def test_a_runaway_uploaded_tokenizer_fails_in_its_column_with_a_sentence() -> None:
    split = {"type": "Split", "pattern": {"Regex": "(a+)+$"}, "behavior": "Isolated", "invert": False}
    at = run(APP)
    at.file_uploader(key="pg_tokenizer_upload").set_value(
        ("runaway.json", tokenizer_json(pre_tokenizer=split), "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]
    live_box(at, state.PG_TEXT).input(("a" * 23 + "b ") * 60).run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any(f"could not encode the text in {BASE_BUDGET_S:.0f} s" in e for e in errors), errors
    assert [m.value for m in at.markdown if m.value.startswith("#### ")] == ["#### runaway\\.json"]
    assert len([c for c in cards(at) if c["head"].get("name")]) == 4  # the four others still drawn
