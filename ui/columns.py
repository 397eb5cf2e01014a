"""The Playground's tokenizer columns, drawn progressively: the first screenful of tokens at once.

A column first draws the tokens over the first ``SCREEN_CHARS`` characters of the text (a box and a
quarter at that column width; between ``MIN_TOKENS`` and ``MAX_FIRST_TOKENS`` tokens) and says
how many there are in all; the counts above cover the whole text. Its "Show more" button doubles
what is drawn, and ``assets/spans.js`` presses it when the end of the box scrolls into view, so
scrolling reads on. Each column is an ``st.fragment``: showing more reruns that column alone, and
its box is the only element sent again.

How much a column shows lives in ``st.session_state[state.PG_SHOWN]`` under its *view* (tokenizer,
text, special-token switch): a new text starts again from the first screenful, while the display
switches (whitespace, raw pieces, columns) keep what was opened.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import streamlit as st

from core.types import Token
from ui import cache, card, context_view, state, widgets
from ui.cache import Analysis, TokenizerRef

# Characters of text a column draws first, by columns per row: a box is 34em high (16 lines), and
# at 1,440 px one column holds ~115 characters a line, two ~55, three ~35, four ~26; a box and a
# quarter, so scrolling has text to show while the next tokens come. Subtle: every pill drawn costs
# the browser (sanitizing, parsing and laying out ~15,000 pills for 21 columns took ~0.6 s a rerun).
SCREEN_CHARS = {1: 2_300, 2: 1_100, 3: 700, 4: 520}
MIN_TOKENS = 100
MAX_FIRST_TOKENS = 1_500
MAX_VIEWS = 64  # views remembered per session; the oldest is forgotten first


def view_name(key: str, text: str, allow_special: bool) -> str:
    return f"{key}|{cache.text_digest(text)}|{int(allow_special)}"


def first_screen(tokens: Sequence[Token], per_row: int) -> int:
    """How many tokens cover the first screenful of text at ``per_row`` columns per row."""
    chars = SCREEN_CHARS.get(per_row, SCREEN_CHARS[2])
    covering = bisect.bisect_left(tokens, chars, key=attrgetter("start"))  # starts only grow
    return min(len(tokens), max(MIN_TOKENS, min(MAX_FIRST_TOKENS, covering)))


def shown(view: str, first: int, total: int) -> int:
    """Tokens to draw for ``view``: the first screenful, or what "Show more" opened since."""
    return min(total, max(first, st.session_state.get(state.PG_SHOWN, {}).get(view, 0)))


def show_more(view: str, first: int, total: int) -> None:
    """The "Show more" callback: draw twice as many tokens as now (all of them at most).

    Subtle: "now" is read here, not passed in. A press that comes while the column's rerun is still
    drawing (the script presses the button when the box's end scrolls into view, and the user may
    press it right after) runs with the arguments of the button drawn before: a limit passed in was
    then the old one, and the second press doubled nothing.
    """
    views = dict(st.session_state.get(state.PG_SHOWN, {}))
    limit = shown(view, first, total)
    views.pop(view, None)
    views[view] = min(total, 2 * limit)
    while len(views) > MAX_VIEWS:
        views.pop(next(iter(views)))
    st.session_state[state.PG_SHOWN] = views


def card_data(
    ref: TokenizerRef, analysis: Analysis, text: str, *, allow_special: bool, show_whitespace: bool,
    raw_pieces: bool, per_row: int, price: float,
) -> dict[str, Any]:
    """What a column's card (``ui.card``) shows for ``text``: its spans (the first screenful, or what
    "Show more" opened), head and context line, and ``name``, its span box's key.

    The one source of a card's data: the column draws it, and a typed key (``ui.playground_live.follow``)
    patches the card with it, so the whole-page run after the key draws the very same markup.
    """
    key, total = ref.key, analysis.total
    _, _, limit = extent(key, text, allow_special, analysis, per_row)
    spans = ref.spans_html(
        text, allow_special=allow_special, show_whitespace=show_whitespace, raw_pieces=raw_pieces,
        limit=limit, more=more_key(key) if limit < total else None,
    )
    # what the model reads: the tokens the tokenizer adds (BOS) too
    foot = context_view.context_foot(key, ref.tokenizer.name, total, price)
    return card.card_data(ref.tokenizer, analysis, spans, key=card_key(key), foot=foot)


def extent(key: str, text: str, allow_special: bool, analysis: Analysis, per_row: int) -> tuple[str, int, int]:
    """A column's view name, its first screenful and how many tokens it draws now (``shown``)."""
    view = view_name(key, text, allow_special)
    first = first_screen(analysis.head, per_row)
    return view, first, shown(view, first, analysis.total)


def card_key(key: str) -> str:
    """The key of picker key ``key``'s card (its span box) in the Playground."""
    return f"pg_card_{key}_spans"


def more_key(key: str) -> str:
    """The key of the "Show more" button under picker key ``key``'s column."""
    return f"pg_more_{key}"


@st.fragment
def column(
    ref: TokenizerRef, analysis: Analysis, text: str, *, allow_special: bool, show_whitespace: bool,
    raw_pieces: bool, per_row: int, price: float = 0.0,
) -> None:
    """One tokenizer's card (name, counts, spans, the context line) with its "Show more" button and
    its exports.

    ``ref`` is the column's tokenizer as ``ui.uploads.resolve`` made it, registry or uploaded alike.
    """
    key, tokenizer, total = ref.key, ref.tokenizer, analysis.total
    view, first, limit = extent(key, text, allow_special, analysis, per_row)
    card.tokenizer_card(card_data(ref, analysis, text, allow_special=allow_special, show_whitespace=show_whitespace,
                                  raw_pieces=raw_pieces, per_row=per_row, price=price))
    if limit < total:
        # subtle: a constant label: a button whose label changes is a new widget to Streamlit, and the
        # old one lingers (stale) next to it while the fragment reruns
        st.button(
            "Show more", key=more_key(key), on_click=show_more, args=(view, first, total),
            icon=":material/expand_more:", type="tertiary",
        )
    widgets.export_menu(
        text, ref.tokens_later(text, allow_special), name=tokenizer.name,
        piece=getattr(tokenizer, "piece", None), show_whitespace=show_whitespace, key=f"pg_export_{key}",
        total=total,
    )
