"""The Playground's "Find a tokenizer by model name" field: the model-name table through the sidebar."""

from __future__ import annotations

from tests.pages.test_app import run_app
from ui import state


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
