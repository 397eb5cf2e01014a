"""Guards for texts kept in session state before a text widget draws them.

A text area's value travels to the browser as UTF-8, which a lone surrogate (half of a UTF-16 pair,
not a character) cannot be: Streamlit would raise. A browser never sends one, but another page or a
test can put one into the session, so pages repair the state first and say so.
"""

from __future__ import annotations

import streamlit as st

from core.text.textio import without_surrogates


def repair_surrogates(key: str) -> int:
    """Replace lone surrogates in ``st.session_state[key]`` by U+FFFD; return how many there were.

    Call before the widget with that key is drawn (a widget's state cannot change after it).
    """
    text = st.session_state.get(key)
    if not isinstance(text, str):
        return 0
    clean = without_surrogates(text)
    if clean is text:
        return 0
    st.session_state[key] = clean
    return sum(1 for a, b in zip(text, clean, strict=True) if a != b)


def surrogate_warning(count: int) -> None:
    """One sentence saying what happened to ``count`` lone surrogates, when there were any."""
    if count:
        st.warning(
            f"The text held {count:,} lone surrogate{'s' if count != 1 else ''} (half of a UTF-16 pair, not a "
            "character, with no UTF-8 form); each is shown as U+FFFD, which is what every tokenizer reads.",
            icon=":material/warning:",
        )
