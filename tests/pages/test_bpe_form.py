"""AppTest: the BPE training settings show only the fields that apply, say what the model really is,
and the merge search takes a pair as the table shows it."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.bpe import MergeStep
from tests.pages.apptest import open_page
from ui import state
from ui.bpe import render
from ui.bpe import views as bpe_views

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "1_BPE_step_by_step.py")


def run_page() -> AppTest:
    return open_page(PAGE, timeout=60)


def shown(at: AppTest) -> set[str]:
    return {w.key for w in [*at.sidebar.selectbox, *at.sidebar.text_input, *at.sidebar.text_area] if w.key}


def test_only_the_fields_that_apply_are_shown() -> None:
    at = run_page()
    assert state.BPE_PATTERN in shown(at)  # byte mode, a named pattern: no custom regex box
    assert state.BPE_CUSTOM_PATTERN not in shown(at) and state.BPE_PASTE not in shown(at)
    at.selectbox(key=state.BPE_PATTERN).set_value(bpe_views.CUSTOM).run()
    assert state.BPE_CUSTOM_PATTERN in shown(at)
    radios = lambda: {r.key for r in at.sidebar.radio}  # noqa: E731
    assert state.BPE_END_OF_WORD not in radios()  # byte mode: no end-of-word layout
    at.radio(key=state.BPE_MODE).set_value("char").run()
    assert not {state.BPE_PATTERN, state.BPE_CUSTOM_PATTERN} & shown(at)  # character mode: no pattern
    assert state.BPE_END_OF_WORD in radios()
    at.selectbox(key=state.BPE_CORPUS).set_value(bpe_views.PASTE).run()
    assert state.BPE_PASTE in shown(at)
    assert not at.exception


def test_a_field_hidden_and_shown_again_keeps_its_value() -> None:
    at = run_page()
    at.selectbox(key=state.BPE_PATTERN).set_value(bpe_views.CUSTOM).run()
    at.text_input(key=state.BPE_CUSTOM_PATTERN).set_value(r"\w+|\W").run()
    at.radio(key=state.BPE_MODE).set_value("char").run()
    at.radio(key=state.BPE_MODE).set_value("byte").run()
    assert at.text_input(key=state.BPE_CUSTOM_PATTERN).value == r"\w+|\W"


def test_a_run_that_stopped_early_says_how_many_merges_it_learned() -> None:
    at = run_page()
    at.selectbox(key=state.BPE_CORPUS).set_value(bpe_views.PASTE).run()
    at.text_area(key=state.BPE_PASTE).set_value("ab ab ab")
    at.button(key="bpe_train").click().run()
    (showing,) = [c.value for c in at.sidebar.caption if c.value.startswith("Showing")]
    assert "merges \\(stopped early; asked for 300 merges\\)" in showing
    assert "300 merges ·" not in showing


def test_an_error_message_starts_with_a_capital() -> None:
    at = run_page()
    at.selectbox(key=state.BPE_CORPUS).set_value(bpe_views.PASTE).run()
    at.text_area(key=state.BPE_PASTE).set_value("   ")
    at.button(key="bpe_train").click().run()
    (error,) = [e.value for e in at.error]
    assert error[0].isupper() and error.endswith(".")


def test_the_merge_search_takes_a_pair_as_the_table_shows_it() -> None:
    trace = [
        MergeStep(0, 101, 114, 256, b"er", 9, 1, (), 0),
        MergeStep(1, 32, 116, 257, b" t", 8, 1, (), 0),
        MergeStep(2, 116, 104, 258, b"th", 7, 1, (), 0),
    ]
    frame = render.merges_frame(trace, piece=lambda i: bytes([i]) if i < 256 else trace[i - 256].piece, base=256)
    assert list(render.filter_merges(frame, "e + r")["merge"]) == [1]
    assert list(render.filter_merges(frame, "E + R")["merge"]) == [1]
    assert list(render.filter_merges(frame, "  + t")["merge"]) == [2]  # a space typed as itself
    assert list(render.filter_merges(frame, "· + t")["merge"]) == [2]
    assert list(render.filter_merges(frame, "t + h")["merge"]) == [3]


def test_a_corpus_with_words_too_long_says_they_were_cut() -> None:
    at = run_page()
    (showing,) = [c.value for c in at.sidebar.caption if c.value.startswith("Showing")]
    assert "cut into pieces" not in showing  # the default corpus has no such word
    at.selectbox(key=state.BPE_CORPUS).set_value(bpe_views.PASTE).run()
    at.text_area(key=state.BPE_PASTE).set_value("ab" * 300 + " then ordinary words")
    at.button(key="bpe_train").click().run()
    (showing,) = [c.value for c in at.sidebar.caption if c.value.startswith("Showing")]
    assert "One word longer than 256 characters was cut into pieces of 256 for training" in showing
