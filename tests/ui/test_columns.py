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


def test_a_picker_drawn_with_its_value_is_not_written_back_but_comes_back_after_another_page(monkeypatch) -> None:
    """state.keep_declared: every declared key is written back on each run (so another page keeps it)
    except the keys a page draws with their value as default; those come back from a plain copy
    when another page's run has dropped them, and an upload made elsewhere is added to that copy."""
    import types

    from ui import uploads

    session: dict = {}
    monkeypatch.setattr(st, "session_state", session)
    monkeypatch.setattr(state, "_KEPT_BY_WIDGET", set())  # as before any widget was drawn with state.kept
    state.init({state.PG_TOKENIZERS: ["gpt2"], state.PG_SHOW_WHITESPACE: False})
    state.keep_drawn(state.PG_TOKENIZERS, ["gpt2", "t5"])  # the Playground drew the picker
    session[state.PG_TOKENIZERS] = ["gpt2", "t5"]
    written = []
    monkeypatch.setattr(st, "session_state", _Recording(session, written))
    state.keep_declared(drawn=(state.PG_TOKENIZERS,))
    assert state.PG_TOKENIZERS not in written and state.PG_SHOW_WHITESPACE in written
    del session[state.PG_TOKENIZERS]  # another page ran: Streamlit dropped the widget's state
    state.keep_declared()
    upload = types.SimpleNamespace(sha256="ab" * 32, tokenizer=types.SimpleNamespace(algorithm="BPE", vocab_size=9))
    uploads.select(upload, "mine.json")  # uploaded on that other page: picked in the Playground too
    state.keep_declared(drawn=(state.PG_TOKENIZERS,))  # back on the Playground
    assert session[state.PG_TOKENIZERS] == ["gpt2", "t5", uploads.slot_of(upload)]


class _Recording(dict):
    """A session state that records the keys written."""

    def __init__(self, data: dict, written: list) -> None:
        super().__init__()
        self.data, self.written = data, written

    def __contains__(self, key: object) -> bool:
        return key in self.data

    def __getitem__(self, key: str):
        return self.data[key]

    def __setitem__(self, key: str, value) -> None:
        self.written.append(key)
        self.data[key] = value

    def get(self, key: str, default=None):
        return self.data.get(key, default)
