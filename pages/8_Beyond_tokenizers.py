"""Beyond fixed tokenizers: bytes only, entropy patches and superwords, each against real tokenizers.

Reads top to bottom: the view → the shared inputs (text, tokenizers to compare with) → the view's
own form in the sidebar, its model (trained once, cached, with a progress bar) and its results.
The logic lives in ui/beyond/ (views, models, frames, figures) and core/ (byte_level, byte_ngram,
patches, superbpe); the spans come from ui/spans.py.
"""

from __future__ import annotations

import streamlit as st

from core.text.textio import without_surrogates
from ui import cache, nav, state, widgets
from ui.beyond import link as beyond_link
from ui.beyond import views

nav.page_setup("Beyond fixed tokenizers")
state.init_beyond()
beyond_link.sync()

VIEWS = {"bytes": "Bytes only", "patches": "Entropy patches", "superwords": "Superwords"}

st.title("Beyond fixed tokenizers")
nav.intro(
    "What happens when the tokenizer stops being a fixed list: raw bytes, patches cut where the text "
    "gets hard to predict, and tokens that cross spaces, each measured against real tokenizers."
)
view = st.segmented_control(
    "View", list(VIEWS), format_func=VIEWS.__getitem__, **state.kept(state.BT_VIEW), required=True,
    label_visibility="collapsed",
)
text_col, keys_col = widgets.columns([3, 2], gap="medium")
# lone surrogates (possible in pasted text) become U+FFFD once, here, as every tokenizer reads them
text = without_surrogates(
    text_col.text_area("Your text", **state.kept(state.BT_TEXT), height=110, help="Ctrl+Enter applies it.")
)
names = cache.registry_names()
keys = keys_col.multiselect(
    "Compare with", options=widgets.tokenizer_options(names), format_func=widgets.tokenizer_label(names),
    **state.kept(state.BT_TOKENIZERS),
    disabled=view == "superwords", help="Superwords are compared with plain BPE trained on the same text.",
)
with st.sidebar:
    show_whitespace = st.toggle("Show whitespace · → ↵", **state.kept(state.BT_SHOW_WHITESPACE))

if view == "bytes":
    views.bytes_view(text, keys, show_whitespace=show_whitespace)
elif view == "patches":
    views.patches_view(text, keys, show_whitespace=show_whitespace)
else:
    views.superwords_view(text, show_whitespace=show_whitespace)
