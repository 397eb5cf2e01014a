"""AppTest smoke tests for "Pitfalls": every case renders live from the registry, opens in the Playground
with its text, and says what to do with no tokenizer chosen."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.pitfalls import CASES, glitch
from tests.pages.apptest import open_page
from tests.pages.live import live_box
from ui import client, state

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "7_Pitfalls.py")


@pytest.fixture(autouse=True)
def small_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """The glitch scan on the built-in samples only, so the page test takes seconds."""
    monkeypatch.setattr(glitch, "REFERENCE_KEYS", ())


def run_page(**values: object) -> AppTest:
    return open_page(PAGE, timeout=180, state=values)


def bodies(at: AppTest) -> str:
    return " ".join(h.proto.body for h in at.html)


@pytest.mark.parametrize("case", list(CASES))
def test_every_case_renders_with_its_explanation_and_a_playground_button(case: str) -> None:
    at = run_page(**{state.PF_CASE: case})
    assert any(CASES[case].summary in m.value for m in at.markdown)
    assert any(CASES[case].explanation == m.value for m in at.markdown)
    assert at.button(key=f"{client.GOTO_KEY_PREFIX}pf_open_{case}")
    assert 'class="tv-rows"' in bodies(at) or at.dataframe


def test_numbers_case_draws_the_place_value_grid() -> None:
    html = bodies(run_page(**{state.PF_CASE: "numbers"}))
    assert 'class="pf-grid"' in html and "<th>10⁵</th>" in html


def test_spelling_case_switches_words() -> None:
    at = run_page(**{state.PF_CASE: "spelling"})
    assert "strawberry" in bodies(at)
    at.segmented_control(key=state.PF_WORD).set_value("ferrocarril").run()
    assert not at.exception and "ferrocarril" in bodies(at) and "pf-hit" in bodies(at)


def test_glitch_case_scans_and_says_which_corpus() -> None:
    at = run_page(**{state.PF_CASE: "glitch"})
    assert any("never occur in" in m.value for m in at.markdown)
    assert any("built-in samples only" in c.value for c in at.caption)
    if len(at.dataframe):
        assert set(at.dataframe[0].value["shape"]) <= set(glitch.SHAPES)


def test_special_case_shows_the_token_typed_and_read() -> None:
    html = bodies(run_page(**{state.PF_CASE: "special"}))
    assert "tp-special" in html and "&lt;|endoftext|&gt;" in html


def test_open_in_the_playground_fills_in_the_text_and_tokenizers() -> None:
    # from the entry page, as a user would, so "app.py" is the app's own main page
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page("pages/7_Pitfalls.py")
    at.session_state[state.PF_CASE] = "trailing_space"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.button(key=client.GOTO_KEY_PREFIX + "pf_open_trailing_space").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[state.PG_TEXT] == CASES["trailing_space"].text
    assert at.session_state[state.PG_TOKENIZERS] == state.pitfalls_defaults()[state.PF_TOKENIZERS]
    assert live_box(at, state.PG_TEXT).value == CASES["trailing_space"].text  # the Playground is drawn


def test_no_tokenizer_chosen_says_what_to_do() -> None:
    at = run_page(**{state.PF_TOKENIZERS: [], state.PF_CASE: "numbers"})
    assert any("Pick one or more tokenizers" in i.value for i in at.info)


def test_next_and_previous_step_through_the_cases() -> None:
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    cases = list(CASES)
    start = at.session_state[state.PF_CASE]
    at.button(key=f"{state.PF_CASE}_next").click().run()
    assert at.session_state[state.PF_CASE] == cases[(cases.index(start) + 1) % len(cases)]
    at.button(key=f"{state.PF_CASE}_prev").click().run()
    at.button(key=f"{state.PF_CASE}_prev").click().run()
    assert at.session_state[state.PF_CASE] == cases[(cases.index(start) - 1) % len(cases)]
    assert not at.exception
