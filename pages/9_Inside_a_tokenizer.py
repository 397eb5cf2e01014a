"""Inside a tokenizer: what its file gives away, and one text through each stage of its pipeline.

Reads top to bottom: the tokenizer (registry or uploaded in the sidebar) and the text → the view
(facts or pipeline) → one call into ui/inside.py, which reads core.pretrained.anatomy and
core.pretrained.pipeline and draws the result.
"""

from __future__ import annotations

import streamlit as st

from core.pretrained.adapter import TokenizerFailed
from ui import cache, inside, links, live_text, nav, state, uploads, widgets

nav.page_setup("Inside a tokenizer")
st.html(widgets.ASSETS_DIR / "inside.css")
state.init_inside()
links.sync({state.IT_TOKENIZER: "cl100k_base", state.IT_TEXT: state.IT_DEFAULT_TEXT, state.IT_VIEW: "facts",
            state.IT_SHOW_WHITESPACE: True}, {
    state.IT_TOKENIZER: links.one_of(cache.registry_names()), state.IT_TEXT: None,
    state.IT_VIEW: links.one_of(["facts", "pipeline"]), state.IT_SHOW_WHITESPACE: None,
}, page="inside")

VIEWS = {"facts": "What the file gives away", "pipeline": "Pipeline, stage by stage"}

st.title("Inside a tokenizer")
nav.intro(
    "Pick a tokenizer, or upload your own in the sidebar, to see what its file says about it and how "
    "one text goes through its normalizer, pre-tokenizer, model, post-processor and decoder."
)
with st.sidebar:
    uploads.sidebar_uploader("it_")
    show_whitespace = st.toggle("Show whitespace · → ↵", **state.kept(state.IT_SHOW_WHITESPACE))

uploads.prune(state.IT_TOKENIZER)
names = uploads.names()
pick_col, view_col = st.columns([2, 3], vertical_alignment="bottom")
key = pick_col.selectbox("Tokenizer", list(names), format_func=names.__getitem__,
                         **state.kept(state.IT_TOKENIZER))
view = view_col.segmented_control("View", list(VIEWS), format_func=VIEWS.__getitem__,
                                  **state.kept(state.IT_VIEW),
                                  required=True, label_visibility="collapsed")

ref = uploads.resolve(key, names.get(key))
tokenizer = ref.tokenizer
if isinstance(tokenizer, inside.cache.Unavailable):
    widgets.unavailable_card(tokenizer, retry_key="it_retry")
    st.stop()

st.markdown(f"### {widgets.md_escape(tokenizer.name)}")
st.caption(widgets.md_escape(f"{tokenizer.algorithm} · {tokenizer.family}"))
if getattr(tokenizer, "attribution", None):
    st.caption(widgets.md_escape(f"{tokenizer.attribution} · licence: {tokenizer.license}"))

if view == "pipeline":
    text = live_text.live_text("Text", key=state.IT_TEXT, height=90)  # applies as typed, no Ctrl+Enter
    if not text:
        st.info("Type some text above to follow it through the pipeline.")
        live_text.finished(state.IT_TEXT)
        st.stop()
    try:
        with st.spinner("Running the pipeline …"):
            result = inside.pipeline_for(ref, text)
    except TokenizerFailed as exc:  # an uploaded tokenizer that overran its time budget, or crashed
        st.error(widgets.md_escape(widgets.sentence(str(exc))), icon=":material/error:")
        live_text.finished(state.IT_TEXT)
        st.stop()
    inside.draw_pipeline(result, tokenizer, show_whitespace=show_whitespace)
    live_text.finished(state.IT_TEXT)
else:
    inside.draw_facts(ref)
