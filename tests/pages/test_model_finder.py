"""The Playground's "Find a tokenizer by model name" field: the model-name table through the sidebar."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pages.apptest import open_page
from tests.pages.test_app import run_app
from ui import state

ROOT = Path(__file__).resolve().parents[2]


def finder(at):
    return next(t for t in at.sidebar.text_input if t.key == "pg_find_model")


def test_a_model_name_the_picker_cannot_find_adds_its_tokenizer_and_says_so() -> None:
    at = run_app()
    before = list(at.session_state[state.PG_TOKENIZERS])
    assert "mistral_nemo" not in before
    finder(at).input("Pixtral").run()
    assert not at.exception
    assert list(at.session_state[state.PG_TOKENIZERS]) == [*before, "mistral_nemo"]
    assert any("Pixtral" in c.value and "added" in c.value for c in at.sidebar.caption)
    assert finder(at).value == ""  # ready for the next name
    finder(at).input("pixtral").run()
    assert list(at.session_state[state.PG_TOKENIZERS]) == [*before, "mistral_nemo"]  # not twice
    assert any("already shown" in c.value for c in at.sidebar.caption)


def test_an_unknown_model_name_says_so_and_changes_nothing() -> None:
    at = run_app()
    before = list(at.session_state[state.PG_TOKENIZERS])
    finder(at).input("<b>no such model</b>").run()
    assert not at.exception
    assert list(at.session_state[state.PG_TOKENIZERS]) == before
    notes = [c.value for c in at.sidebar.caption if "No tokenizer here is known" in c.value]
    assert notes and "<b>" not in notes[0].replace("\\<b\\>", "")  # Markdown-escaped, shown as text


# Every other page with a tokenizer picker has the same field under it (issue 24: "gpt-4o" finds
# o200k_base, and names the picker's chips do not hold, like "pixtral", find Mistral NeMo's tokenizer).
OTHER_PAGES = [
    ("5_Unicode_and_bytes.py", state.UC_TOKENIZERS, "uc_find_model", {state.UC_VIEW: "tokenizers"}),
    ("6_Pre-tokenization.py", state.PT_TOKENIZERS, "pt_find_model", {}),
    ("7_Pitfalls.py", state.PF_TOKENIZERS, "pf_find_model", {}),
    ("3_Words_and_compression.py", state.WC_TOKENIZERS, "wc_find_model", {}),
    ("4_Language_tax.py", state.LT_TOKENIZERS, "lt_find_model", {}),
]


@pytest.mark.parametrize(("page", "picker", "field", "values"), OTHER_PAGES, ids=[p[0] for p in OTHER_PAGES])
def test_every_tokenizer_picker_finds_a_model_by_its_name(page: str, picker: str, field: str, values: dict) -> None:
    at = open_page(str(ROOT / "pages" / page), timeout=120, state=values)
    before = list(at.session_state[picker])
    assert "mistral_nemo" not in before
    (found,) = [t for t in at.sidebar.text_input if t.key == field] or [
        t for t in at.text_input if t.key == field]
    found.input("pixtral").run()
    assert not at.exception
    assert list(at.session_state[picker]) == [*before, "mistral_nemo"]
    assert any("pixtral" in c.value.lower() and "added" in c.value for c in [*at.sidebar.caption, *at.caption])
