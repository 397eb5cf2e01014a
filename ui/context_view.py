"""Under each Playground column: the share of its model's context window the text fills, and its
cost at the user's price per million input tokens (no price is built in: they change).

Registry tokenizers take their window from ``core.measures.context_window`` (with its source, in the caption's
help); an uploaded tokenizer, or one without a sourced number, asks for it.
"""

from __future__ import annotations

import streamlit as st

from core.measures.context_window import ContextWindow, context_windows, cost, share
from ui import state

PRICE_KEY = "pg_price"  # the price per million input tokens; 0: no cost shown
WINDOW_KEY_PREFIX = "pg_window_"  # + tokenizer key: a window the user entered


def price_input() -> float:
    """The sidebar's price per million input tokens (0: none)."""
    return float(st.number_input(
        "Price per million input tokens", min_value=0.0, max_value=1_000.0, value=0.0, step=0.05, format="%.2f",
        **state.kept(PRICE_KEY), help="Your provider's price, in any currency; none is built in (prices change). "
        "0 shows no cost.",
    ))


def window_for(key: str, name: str, *, draw: bool = True) -> ContextWindow | None:
    """The sourced window of ``key``, or the one the user enters for it (None until they do).

    Without a sourced window, ``draw`` puts the field to enter it in the page; without ``draw`` the
    value already entered is read from the session (the field is drawn later in the run).
    """
    known = context_windows().get(key)
    if known is not None:
        return known
    if draw:
        entered = st.number_input(
            f"Context window of the model you use with {name} (tokens)", min_value=0, max_value=100_000_000,
            value=0, step=1_024, **state.kept(WINDOW_KEY_PREFIX + key),
            help="No sourced number for this tokenizer: enter your model's context length to see the share.",
        )
    else:
        entered = st.session_state.get(WINDOW_KEY_PREFIX + key) or 0
    return ContextWindow("your model", int(entered), "entered by you") if entered else None


def context_foot(key: str, name: str, tokens: int, price: float) -> dict[str, str] | None:
    """"0.4% of GPT-4 (gpt-4-0613)'s 8,192-token context · 0.0001 at 2.50 per million" as plain text,
    with the window's source as its help ({"line", "help"}); None when there is nothing to say.

    ``tokens`` is every token the model reads, the ones the tokenizer adds (BOS, [CLS]) included.
    A window the user enters is read from the session here: its field (``window_field``) is drawn
    under the column, after the card that shows this line.
    """
    window = window_for(key, name, draw=False)
    parts = []
    if window is not None:
        fraction = share(tokens, window.tokens)
        fits = "" if fraction <= 1 else f": {tokens - window.tokens:,} tokens too many"
        parts.append(f"{fraction:.1%} of {window.model}'s {window.tokens:,}-token context{fits}")
    if price:
        parts.append(f"{cost(tokens, price):,.4f} at {price:,.2f} per million tokens")
    if not parts:
        return None
    return {"line": " · ".join(parts), "help": f"Context window: {window.source}." if window is not None else ""}


def window_field(key: str, name: str) -> None:
    """The field to enter the context window of a tokenizer without a sourced one (nothing otherwise)."""
    window_for(key, name)
