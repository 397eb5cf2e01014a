"""Pre-tokenization: the text cut into the chunks byte-level BPE never merges across.

Reads top to bottom: the text and the patterns (sidebar: named patterns, your own regex) → one view:
your text under every pattern, digits (patterns and real tokenizers side by side), contractions,
leading spaces. Cuts are cached; the logic lives in core/text/chunks.py, core/text/pretokenize.py and
ui/pretokenization/; chunks are drawn by the one span renderer.
"""

from __future__ import annotations

import streamlit as st

from core.text.patterns import NAMED_PATTERNS
from ui import cache, compare, links, live_text, nav, state, text_state, widgets
from ui.pretokenization import examples, views

nav.page_setup("Pre-tokenization")
compare.inject_css()
state.init(state.pretokenization_defaults())
repaired = text_state.repair_surrogates(state.PT_TEXT)  # before anything sends the text to the browser

VIEWS = {"patterns": "Your text", "digits": "Digits", "contractions": "Contractions", "spaces": "Leading spaces"}
links.sync(state.pretokenization_defaults(), {
    state.PT_TEXT: None, state.PT_VIEW: links.one_of(VIEWS), state.PT_PATTERNS: links.one_of(NAMED_PATTERNS),
    state.PT_CUSTOM: None, state.PT_SHOW_WHITESPACE: None, state.PT_DIGITS_TEXT: None,
    state.PT_TOKENIZERS: links.one_of(cache.registry_names()),
}, page="pretokenization")

st.title("Pre-tokenization")
nav.intro("A regular expression cuts the text into chunks first; no token ever crosses from one chunk into the next.")
with st.sidebar:
    names = st.multiselect("Patterns", list(NAMED_PATTERNS), **state.kept(state.PT_PATTERNS))
    custom = st.text_input(
        "Your regex", **state.kept(state.PT_CUSTOM), placeholder=r"e.g. \w+|\s+",
        help="A pattern for Python's regex package (\\p{L}, possessive quantifiers). Empty hides it. "
        "Text it does not match stays as chunks of its own.",
    )
    show_whitespace = st.toggle("Show whitespace · → ↵", **state.kept(state.PT_SHOW_WHITESPACE))
    registry = cache.registry_names()
    keys = st.multiselect("Tokenizers (digits view)", widgets.tokenizer_options(registry), format_func=widgets.tokenizer_label(registry),
                          **state.kept(state.PT_TOKENIZERS))
    widgets.model_finder(state.PT_TOKENIZERS, registry, key="pt_find_model")

view = st.segmented_control(
    "View", list(VIEWS), format_func=VIEWS.__getitem__, **state.kept(state.PT_VIEW), required=True,
    label_visibility="collapsed",
)

if view == "patterns":
    text = live_text.live_text("Text", key=state.PT_TEXT, height=120)
    if not text:
        st.info("Type or paste some text above to see how each pattern cuts it.")
        live_text.finished(state.PT_TEXT)
        st.stop()
    text_state.surrogate_warning(repaired)
    found = views.cuts(text, names, custom)
    for item in found:
        if not item.ok:
            st.error(f"Your regex cannot be used: {item.error}.", icon=":material/error:")
    views.pattern_rows(text, found, show_whitespace=show_whitespace)
    live_text.finished(state.PT_TEXT)
elif view == "digits":
    digits = st.text_input("Numbers", **state.kept(state.PT_DIGITS_TEXT))
    if digits:
        st.markdown("**The patterns' chunks**")
        views.pattern_rows(digits, views.cuts(digits, [n for n in NAMED_PATTERNS if n != "Whitespace"]),
                           show_whitespace=show_whitespace)
        st.markdown("**The real tokenizers' tokens**")
        views.tokenizer_rows(digits, keys, show_whitespace=show_whitespace)
        st.markdown(examples.DIGITS_NOTE)
    else:
        st.info("Type some numbers above.")
elif view == "contractions":
    views.pattern_rows(examples.CONTRACTIONS_TEXT, views.cuts(examples.CONTRACTIONS_TEXT, list(NAMED_PATTERNS)),
                       show_whitespace=show_whitespace)
    st.markdown(examples.CONTRACTIONS_NOTE)
else:
    views.pattern_rows(examples.SPACES_TEXT, views.cuts(examples.SPACES_TEXT, list(NAMED_PATTERNS)),
                       show_whitespace=True)
    st.markdown(examples.SPACES_NOTE)
