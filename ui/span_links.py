"""The Playground's columns read together: the caret and the pointer across columns, and where
the tokenizers disagree.

The browser side (``assets/span_links.js``) finds each token's character offsets by walking its
column's compact markup (the pills draw the original text in order), so nothing is added to the
markup; it outlines the token under the live box's caret in every column, marks the tokens of the
other columns that overlap a hovered or pinned one, and, with "Mark disagreements" on, notches the
end of every token whose end is not a boundary of all the columns. ``spread`` is the line above
the columns: the smallest and largest token counts and the gap between them.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from ui.scripts import script, style

DISAGREE_HELP = (
    "Notch the end of every token where not all the chosen tokenizers cut (compared on character "
    "offsets, over the characters every column draws). Tokens that split one character (an emoji's "
    "bytes) are one piece here: a cut inside a character is the character's own, not a word boundary. "
    "Special and unknown tokens count by the characters they cover; tokens a tokenizer adds (BOS, "
    "[CLS]) cover none. Off in the raw-pieces view, which draws vocabulary entries instead of the text."
)

_links = st.components.v2.component(
    "tp_span_links", js=script("span_links.js"),
    css=style("span_links.css"), isolate_styles=False,
)


VIEWS = ("Text", "Ids", "Both")  # what a pill shows: its text, its id, or both (the id small, beside it)


def mount(*, disagree: bool, view: str = "Text") -> None:
    """Install the cross-column script (once per tab); tell it whether to mark disagreements and
    what the pills show (one of ``VIEWS``)."""
    _links(key="tp_span_links", data={"disagree": disagree, "view": view.lower() if view in VIEWS else "text"})


_spread = st.components.v2.component("tp_spread", js=script("spread_line.js"), isolate_styles=False)


def spread_line(line: str) -> None:
    """Draw the spread line (``spread``) as plain text; a typed key rewrites it in place
    (``assets/live_cards.js``), with the columns' counts."""
    _spread(key="tp_spread", data={"line": line}, height="content")


def spread(counts: Mapping[str, int]) -> str | None:
    """"Tokens: 41 with Llama 3 to 52 with GPT-2, a gap of 27%." for two or more columns; else None.

    The gap is the largest count over the smallest, less one. Plain text (``spread_line`` writes it as text).
    "with", not parentheses: many names have their own ("o200k_base (GPT-4o)").

    >>> spread({"A": 40, "B": 50})
    'Tokens: 40 with A to 50 with B, a gap of 25%.'
    """
    if len(counts) < 2:
        return None
    low = min(counts, key=lambda name: counts[name])
    high = max(counts, key=lambda name: counts[name])
    if counts[low] == counts[high]:
        return f"Tokens: {counts[low]:,} in every column."
    gap = "∞" if counts[low] == 0 else f"{(counts[high] / counts[low] - 1) * 100:.0f}%"
    return f"Tokens: {counts[low]:,} with {low} to {counts[high]:,} with {high}, a gap of {gap}."
