"""A widget keyed by a page's state is kept across pages by Streamlit itself (``state.kept``).

Before, ``state.keep_declared`` wrote every such value back on each run, and switches clicked just
before leaving a page could come back off: a run cut short by the page switch had moved the value
under the widget's id, which the switch drops, and a value written back went to the browser as set by
the app, undoing a click made while that run was on its way. Seen in a browser under load (three busy
loops on two cores): of 16 quick round trips Playground → BPE → Playground, two came back with Show
whitespace, Raw pieces and the column count at their defaults and one without its column count; none
of 14 since.
"""

from __future__ import annotations

import ast
from pathlib import Path

import streamlit as st

from ui import state

ROOT = Path(__file__).resolve().parents[2]
# Streamlit widgets that take ``persist_state`` (st.button, st.file_uploader and st.data_editor do not)
KEEPABLE = {
    "toggle", "checkbox", "radio", "selectbox", "multiselect", "slider", "select_slider", "text_area",
    "text_input", "number_input", "pills", "segmented_control",
}


def _widget_calls() -> list[tuple[str, ast.Call]]:
    calls = []
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "ui").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in KEEPABLE:
                calls.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return calls


def test_every_widget_keyed_by_page_state_is_kept_by_streamlit() -> None:
    keyed_by_state = [
        where for where, call in _widget_calls()
        for keyword in call.keywords
        if keyword.arg == "key" and ast.unparse(keyword.value).startswith("state.")
    ]
    assert keyed_by_state == []  # each is drawn with **state.kept(state.…) instead
    kept = [where for where, call in _widget_calls()
            if any(k.arg is None and ast.unparse(k.value).startswith("state.kept(") for k in call.keywords)]
    assert len(kept) > 100  # every page's controls, the Playground's switches among them
    assert any(where.startswith("app.py:") for where in kept)


def test_kept_asks_streamlit_to_keep_the_value_for_the_session_and_stops_the_write_back(monkeypatch) -> None:
    session: dict = {}
    monkeypatch.setattr(st, "session_state", session)
    monkeypatch.setattr(state, "_KEPT_BY_WIDGET", set())
    state.init({state.PG_SHOW_WHITESPACE: False, state.PG_SHOWN: {}})
    assert state.kept(state.PG_SHOW_WHITESPACE) == {"key": state.PG_SHOW_WHITESPACE, "persist_state": "session"}
    written = []

    class Recording(dict):
        def __setitem__(self, key, value) -> None:
            written.append(key)
            super().__setitem__(key, value)

    monkeypatch.setattr(st, "session_state", Recording(session))
    state.keep_declared()
    assert written == [state.PG_SHOWN]  # plain state is still written back; the kept switch is not
