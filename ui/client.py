"""Small pieces of JavaScript the pages run in the browser, as Streamlit components (v2, not iframed).

- ``pin_facts()``: mounted on every page by ``ui.nav.page_setup``. Three scripts: the spans' own
  (``assets/spans.js``: each token's facts derived from the compact markup, one hover tooltip for
  every span box, "Show more" pressed when a box's end scrolls into view), the pin panel
  (``assets/pin.js``: a click or tap on a token pins its facts; a span box scrolls itself only once
  clicked), and paint holding (``assets/page_hold.js``: a click on a link to another page, or on a
  button keyed ``GOTO_KEY_PREFIX…``, keeps the old page on screen until the new page's title is
  drawn, instead of the blank frame Streamlit's frontend showed while it built the new page).
- ``step_keys(...)``: the scrubber's queue of key presses and clicks (``assets/scrubber.js``), used by
  ``ui.scrubber``.

The scripts are ours and static (no user text goes into them), read once from ``assets/``. Their
elements are empty and hidden (``assets/spans.css``), so they take no room in the layout.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from ui.scripts import script

PIN_JS = script("pin.js")
SPANS_JS = script("spans.js")
STEP_JS = script("scrubber.js")
HOLD_JS = script("page_hold.js")

# A button under a key that starts with this switches pages when clicked (its run calls st.switch_page):
# assets/page_hold.js holds the old page on screen until the new page's title is drawn, as for a link.
GOTO_KEY_PREFIX = "tp_goto_"
PIN_KEY = "tp_pin_facts"
SPANS_KEY = "tp_span_tips"
HOLD_KEY = "tp_page_hold"
STEP_KEYS_PREFIX = "tp_steps_"  # + the scrubber's prefix; assets/spans.css hides these elements

_pin = st.components.v2.component("tp_pin_facts", js=PIN_JS, isolate_styles=False)
_spans = st.components.v2.component("tp_span_tips", js=SPANS_JS, isolate_styles=False)
_hold = st.components.v2.component("tp_page_hold", js=HOLD_JS, isolate_styles=False)
_steps = st.components.v2.component("tp_step_keys", js=STEP_JS, isolate_styles=False)


def pin_facts() -> None:
    """Install the spans' script, the pin panel, the boxes' wheel handling and the page switch's paint
    holding (once per browser tab; idempotent)."""
    with st.sidebar:
        _spans(key=SPANS_KEY)
        _pin(key=PIN_KEY)
        _hold(key=HOLD_KEY)


def step_keys(*, key: str, data: dict[str, Any], on_change: Callable[[], None]) -> Any:
    """Mount the scrubber's key and click queue; ``on_change`` runs when the browser sends presses.

    ``data`` tells the browser the scrubber's state (see ``assets/scrubber.js``); the presses come
    back as the component's ``ops`` state: ``[[seq, op], ...]``, every press since the last one the
    server acknowledged.
    """
    return _steps(key=key, data=data, default={"ops": []}, on_ops_change=on_change)
