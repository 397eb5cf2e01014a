"""Pitfalls: where tokenization trips models up, each case live through the real tokenizers.

Reads top to bottom: the case (a gallery of seven) and the tokenizers (sidebar) → the case's
explanation → its view, computed from the registry's tokenizers (ui/pitfalls/views.py) → a button
that opens the case's text in the Playground. The cases live in core/pitfalls/.
"""

from __future__ import annotations

import streamlit as st

from core.pitfalls import CASES, catalog
from ui import cache, client, compare, links, nav, state, widgets
from ui.pitfalls import views

nav.page_setup("Pitfalls")
compare.inject_css()
state.init(state.pitfalls_defaults())
links.sync(state.pitfalls_defaults(), {
    state.PF_CASE: links.one_of(CASES), state.PF_TOKENIZERS: links.one_of(cache.registry_names()),
    state.PF_GLITCH_TOKENIZER: links.one_of(views.byte_level_keys()), state.PF_INDENT: links.one_of(catalog.INDENT_UNITS),
    state.PF_WORD: links.one_of(catalog.SPELLING_WORDS),
}, page="pitfalls")

st.title("Pitfalls")
nav.intro("Why models trip over numbers, spelling and spaces: each case, live through real tokenizers.")
with st.sidebar:
    names = cache.registry_names()
    keys = st.multiselect("Tokenizers", widgets.tokenizer_options(names), format_func=widgets.tokenizer_label(names),
                          **state.kept(state.PF_TOKENIZERS))
    widgets.model_finder(state.PF_TOKENIZERS, names, key="pf_find_model")

key = st.segmented_control(
    "Case", list(CASES), format_func=lambda k: CASES[k].title, **state.kept(state.PF_CASE), required=True,
    label_visibility="collapsed",
)
widgets.step_buttons(list(CASES), state.PF_CASE, noun="case")
case = CASES[key]
st.markdown(f"**{case.summary}**")
if not keys and key != "glitch":
    st.info("Pick one or more tokenizers in the sidebar to see this case.")
    st.stop()
views.CASE_VIEWS[key](keys)
st.markdown(case.explanation)
playground_keys = [st.session_state[state.PF_GLITCH_TOKENIZER]] if key == "glitch" else keys
views.open_in_playground(case.text, playground_keys, button_key=f"{client.GOTO_KEY_PREFIX}pf_open_{key}")
