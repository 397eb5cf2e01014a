"""The Playground columns' "Show more" callback (ui/columns.py)."""

from __future__ import annotations

import streamlit as st

from ui import columns, state


def test_each_press_doubles_what_is_shown_even_with_the_arguments_of_an_older_button(monkeypatch) -> None:
    """Two presses of buttons drawn with the same arguments (the second came while the column was still
    redrawing, so Streamlit called the older button's callback) show four times the first screenful."""
    monkeypatch.setattr(st, "session_state", {})
    view, first, total = "gpt2|digest|0", 100, 1_000
    assert columns.shown(view, first, total) == 100
    columns.show_more(view, first, total)
    assert columns.shown(view, first, total) == 200
    columns.show_more(view, first, total)  # the same arguments: the button of the run before
    assert columns.shown(view, first, total) == 400
    for _ in range(3):
        columns.show_more(view, first, total)
    assert columns.shown(view, first, total) == total  # never past the end
    assert st.session_state[state.PG_SHOWN] == {view: total}
