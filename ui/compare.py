"""Labelled rows of drawn tokens or chunks, one under the other, for comparing tokenizers or patterns.

The pre-tokenization and pitfalls pages show the same short text under several tokenizers; each row
is a label (tokenizer or pattern name, with a detail such as "7 tokens") and a body that is HTML from
``ui.spans.render_spans`` (already escaped there). Labels are escaped here. Also here: the style
sheet those pages share (``assets/text_views.css``).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from ui.widgets import ASSETS_DIR

TEXT_VIEWS_CSS = ASSETS_DIR / "text_views.css"


@dataclass(frozen=True)
class Row:
    """One row: ``label`` and ``detail`` are plain text; ``body`` is trusted HTML (a span renderer's)."""

    label: str
    detail: str
    body: str
    muted: bool = False  # an unavailable tokenizer, an error


def rows_html(rows: Sequence[Row]) -> str:
    """The rows as one HTML block: label column on the left, body on the right.

    >>> "&lt;b&gt;" in rows_html([Row("<b>", "2 tokens", "<i>x</i>")])
    True
    """
    out = ['<div class="tv-rows">']
    for row in rows:
        classes = "tv-row tv-muted" if row.muted else "tv-row"
        out.append(
            f'<div class="{classes}"><div class="tv-label"><strong>{html.escape(row.label)}</strong>'
            f'<span>{html.escape(row.detail)}</span></div><div class="tv-body">{row.body}</div></div>'
        )
    out.append("</div>")
    return "".join(out)


def message_html(text: str) -> str:
    """A plain escaped message, to stand as a row's body."""
    return f'<div class="tv-message">{html.escape(text)}</div>'


def inject_css() -> None:
    """Add the shared style sheet of these pages (a style tag only; takes no room)."""
    import streamlit as st

    st.html(TEXT_VIEWS_CSS)
