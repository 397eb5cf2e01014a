"""A token box patched in place: the Playground's columns draw their spans through it.

``st.html`` re-creates its element on every run: each key typed in the Playground made the browser
sanitize, parse, style and lay out every pill of every column again (about 1,600 at 1 KB × 4). This
components-v2 element (``assets/span_box.js``) keeps the box it drew and swaps only the children that
changed. The markup is ``ui.spans.render_spans``'s, where every piece of text is escaped; the element
is trusted code that inserts only that markup.

A Playground column's head and foot (``ui.card``: name, count, facts, lossy flag, context line) ride
in the same element as plain text, written as text nodes, only where they changed.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from ui.scripts import script

_box = st.components.v2.component("tp_span_box", js=script("span_box.js"), isolate_styles=False)


def span_box(html: str, *, key: str, head: dict[str, Any] | None = None, foot: dict[str, str] | None = None) -> None:
    """Draw ``html`` (a ``render_spans`` box) under ``key``; the next run's box patches this one.

    ``head`` (``ui.card.card_head``) is drawn above the box and ``foot`` ({"line", "help"}: the context
    line) under it, both as plain text.

    Subtle: they travel as JSON text. Streamlit scans the values of an element's data for dataframes,
    and asking whether a dict or a list is one imports pandas and numpy (~0.4 s of a first visit).
    """
    _box(key=key, data=box_data(key, html, head, foot), height="content")


def show_box(data: dict[str, str]) -> None:
    """Draw a box from its ``box_data`` (``ui.card.card_data``), under its ``name``."""
    _box(key=data["name"], data=data, height="content")


def box_data(name: str, html: str, head: dict[str, Any] | None, foot: dict[str, str] | None) -> dict[str, str]:
    """The element's data: every value a string (``span_box``'s subtlety), read back by ``assets/span_box.js``."""
    return {"name": name, "html": html, "head": json.dumps(head), "foot": json.dumps(foot)}
