"""What every page starts with: page config, the span CSS, the sidebar's page links, presentation mode.

The sidebar is drawn here rather than by Streamlit's automatic page list (switched off in
.streamlit/config.toml), so the main page reads "Playground" instead of its file name "app".
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import streamlit as st

from ui import client, state
from ui.widgets import ASSETS_DIR, inject_css

PRESENTATION_CSS = ASSETS_DIR / "presentation.css"
ROOT = Path(__file__).resolve().parent.parent

# (path relative to the app's folder, label, icon), in the order the sidebar lists them.
PAGES: tuple[tuple[str, str, str], ...] = (
    ("app.py", "Playground", "🔤"),
    ("pages/1_BPE_step_by_step.py", "BPE step by step", "🧩"),
    ("pages/2_Algorithms.py", "Algorithms", "⚖️"),
    ("pages/3_Words_and_compression.py", "Words & compression", "📉"),
    ("pages/4_Language_tax.py", "Language tax", "🌍"),
    ("pages/5_Unicode_and_bytes.py", "Unicode & bytes", "🔣"),
    ("pages/6_Pre-tokenization.py", "Pre-tokenization", "✂️"),
    ("pages/7_Pitfalls.py", "Pitfalls", "⚠️"),
    ("pages/8_Beyond_tokenizers.py", "Beyond fixed tokenizers", "🛸"),
    ("pages/9_Inside_a_tokenizer.py", "Inside a tokenizer", "🔬"),
    ("pages/10_Chat_formats.py", "Chat formats", "💬"),
)


def page_setup(title: str, *, drawn: Collection[str] = ()) -> None:
    """Configure the page, add the shared CSS, draw the sidebar; call first on every page.

    ``drawn``: keys of widgets the page draws on every run with ``default=`` their value
    (``state.keep_declared``)."""
    st.set_page_config(page_title=f"{title} · Tokenizer Playground", page_icon="🔤", layout="wide")
    inject_css()
    state.keep_declared(drawn)
    state.init({state.PRESENTATION: False})
    _presentation_from_link()
    with st.sidebar:
        st.markdown("**Tokenizer Playground**")
        for path, label, icon in PAGES:
            if (ROOT / path).exists():
                _page_link(path, label, icon)
        st.divider()
        # subtle: a widget's own key is dropped on pages that do not draw it, so the value lives in
        # a plain key and the toggle is re-seeded from it on every page
        st.toggle(
            "Presentation mode", value=st.session_state[state.PRESENTATION], key="nav_presentation",
            on_change=_remember_presentation,
            help="Larger type and stronger contrast, for projectors and screen sharing.",
        )
        client.pin_facts()
    if st.session_state[state.PRESENTATION]:
        st.html(PRESENTATION_CSS)


def intro(text: str) -> None:
    """The page's intro paragraph, under its title. Presentation mode hides it (assets/presentation.css):
    on a projector the speaker says it, and the screen keeps the room for what the page shows."""
    st.container(key="page_intro").markdown(text)


def _presentation_from_link() -> None:
    """``?present=1`` in a link opens the page in presentation mode (once per value, so the toggle still works)."""
    present = st.query_params.get("present")
    if present is not None and st.session_state.get(state.PRESENT_SEEN) != present:
        st.session_state[state.PRESENTATION] = present == "1"
        st.session_state.pop("nav_presentation", None)  # the toggle is drawn from the value above
    st.session_state[state.PRESENT_SEEN] = present


def _remember_presentation() -> None:
    st.session_state[state.PRESENTATION] = st.session_state["nav_presentation"]


def _page_link(path: str, label: str, icon: str) -> None:
    try:
        st.page_link(path, label=label, icon=icon)
    except Exception:  # noqa: BLE001 — AppTest runs a page alone, where other pages are not registered
        st.markdown(f"{icon} {label}")
