"""The Playground's tokenizer columns, drawn progressively: the first screenful of tokens at once.

A column draws the first ``FIRST_TOKENS`` tokens (more than a span box shows without scrolling, at
any column width) and says how many there are in all; the counts above cover the whole text. Its
"Show more" button doubles what is drawn, and ``assets/spans.js`` presses it when the end of the box
scrolls into view, so scrolling reads on. Each column is an ``st.fragment``: showing more reruns
that column alone, and its box is the only element sent again.

How much a column shows lives in ``st.session_state[state.PG_SHOWN]`` under its *view* (tokenizer,
text, special-token switch): a new text starts again from the first screenful, while the display
switches (whitespace, raw pieces, columns) keep what was opened.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui import cache, state, uploads, widgets
from ui.cache import Analysis

FIRST_TOKENS = 1_000
MAX_VIEWS = 64  # views remembered per session; the oldest is forgotten first


def view_name(key: str, text: str, allow_special: bool) -> str:
    return f"{key}|{cache.text_digest(text)}|{int(allow_special)}"


def shown(view: str, total: int) -> int:
    """Tokens to draw for ``view``: the first screenful, or what "Show more" opened since."""
    return min(total, st.session_state.get(state.PG_SHOWN, {}).get(view, FIRST_TOKENS))


def show_more(view: str, total: int) -> None:
    """The "Show more" callback: draw twice as many tokens (all of them at most)."""
    views = dict(st.session_state.get(state.PG_SHOWN, {}))
    views.pop(view, None)
    views[view] = min(total, 2 * shown(view, total))
    while len(views) > MAX_VIEWS:
        views.pop(next(iter(views)))
    st.session_state[state.PG_SHOWN] = views


@st.fragment
def column(
    key: str, tokenizer: Any, analysis: Analysis, text: str, *, allow_special: bool, show_whitespace: bool,
    raw_pieces: bool,
) -> None:
    """One tokenizer's card (name, counts, spans) with its "Show more" button and its exports."""
    total = len(analysis.tokens)
    view = view_name(key, text, allow_special)
    limit = shown(view, total)
    more_key = f"pg_more_{key}"
    spans = uploads.spans_html(
        key, text, allow_special=allow_special, show_whitespace=show_whitespace, raw_pieces=raw_pieces,
        limit=limit, more=more_key if limit < total else None,
    )
    widgets.tokenizer_card(tokenizer, analysis, spans)
    if limit < total:
        step = min(total, 2 * limit) - limit
        st.button(
            f"Show {step:,} more tokens", key=more_key, on_click=show_more, args=(view, total),
            icon=":material/expand_more:", type="tertiary",
            help="Scrolling to the end of the box shows more too.",
        )
    widgets.export_menu(
        text, analysis.tokens, name=tokenizer.name, piece=getattr(tokenizer, "piece", None),
        show_whitespace=show_whitespace, key=f"pg_export_{key}",
    )
