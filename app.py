"""The Playground: one text, several tokenizers side by side, as colored token spans with counts.

Reads top to bottom: inputs → tokenizers (loaded once per server process) → per column, its analysis
(cached) and its spans → counts table → ids. The logic lives in ui/ and core/.
"""

from __future__ import annotations

import streamlit as st

from core.pretrained.adapter import TokenizerFailed
from ui import (
    cache,
    columns,
    context_view,
    decode_view,
    links,
    live_text,
    nav,
    offline,
    span_links,
    state,
    tables,
    uploads,
    widgets,
)

nav.page_setup("Playground")
state.init_playground()
names = cache.registry_names()
links.sync(state.playground_defaults(), {
    state.PG_TEXT: None, state.PG_TOKENIZERS: uploads.registry_only(names), state.PG_SHOW_WHITESPACE: None,
    state.PG_RAW_PIECES: None, state.PG_ALLOW_SPECIAL: None, state.PG_COLUMNS: links.one_of([1, 2, 3, 4]),
    state.PG_DISAGREE: None, state.PG_VIEW: links.one_of(list(span_links.VIEWS)),
}, page="playground")
uploads.prune(state.PG_TOKENIZERS)
names = uploads.names()  # the registry, then this session's uploaded tokenizers

st.title("Tokenizer Playground")
st.container(key="page_intro").markdown(  # presentation mode hides it: the speaker says it
    "The same text as different language-model tokenizers cut it: each colored pill is one token "
    "(the same token id has the same color everywhere); hover a pill for its id and bytes, or click or "
    "tap it to pin them."
)

if st.session_state[state.PG_BIG_TEXT]:
    # subtle: Streamlit drops a widget's state on a run that does not draw it; writing it back keeps
    # what was typed before the upload for the "back" button
    st.session_state[state.PG_TEXT] = st.session_state[state.PG_TEXT]
    text = st.session_state[state.PG_BIG_TEXT]
    widgets.big_text_preview(text, big_key=state.PG_BIG_TEXT, button_key="pg_back_to_editing")
else:
    text = live_text.live_text("Text", key=state.PG_TEXT, height=170)
keys = st.multiselect(
    "Tokenizers", options=widgets.tokenizer_options(names), format_func=widgets.tokenizer_label(names), key=state.PG_TOKENIZERS
)
with st.sidebar:
    widgets.model_finder(state.PG_TOKENIZERS, names, key="pg_find_model")
    widgets.text_upload(
        upload_key=state.PG_UPLOAD, text_key=state.PG_TEXT, big_key=state.PG_BIG_TEXT,
        error_key=state.PG_UPLOAD_ERROR, note_key=state.PG_UPLOAD_NOTE,
    )
    uploads.sidebar_uploader("pg_")
    show_whitespace = st.toggle("Show whitespace · → ↵", key=state.PG_SHOW_WHITESPACE)
    raw_pieces = st.toggle(
        "Raw pieces", key=state.PG_RAW_PIECES,
        help="Show each token as its vocabulary entry (Ġworld, ▁world, ##ing) instead of the text.",
    )
    allow_special = st.toggle(
        "Read special tokens", key=state.PG_ALLOW_SPECIAL,
        help=(
            "Off: text such as <|endoftext|> is plain text. On: it becomes the special token. "
            "XLM-R reads <s>, </s>, <unk> and <mask> as its special tokens either way: its vocabulary "
            "holds them as pieces."
        ),
    )
    view = st.segmented_control(
        "Pills show", options=list(span_links.VIEWS), key=state.PG_VIEW, required=True,
        help="Each token's text, its id, or both (the id small, beside the text).",
    )
    disagree = st.toggle("Mark disagreements", key=state.PG_DISAGREE, help=span_links.DISAGREE_HELP)
    price = context_view.price_input()
    per_row = st.segmented_control(
        "Columns per row", options=[1, 2, 3, 4], key=state.PG_COLUMNS, required=True
    )

if not text:
    st.info("Type or paste some text above, or upload a .txt file in the sidebar, to see how it is tokenized.")
    live_text.finished(state.PG_TEXT)
    st.stop()
if not keys:
    st.info("Pick one or more tokenizers above to compare them.")
    live_text.finished(state.PG_TEXT)
    st.stop()

loaded = {key: uploads.get_tokenizer(key, names.get(key)) for key in keys}
analyses: dict[str, cache.Analysis] = {}
widgets.span_legend()
span_links.mount(disagree=disagree, view=view or "Text")
spread = st.empty()
for key, column in widgets.grid(keys, per_row or 2):
    with column:
        tokenizer = loaded[key]
        if isinstance(tokenizer, cache.Unavailable):
            widgets.unavailable_card(tokenizer, retry_key=f"pg_retry_{key}")
            continue
        # each column is drawn as soon as its own tokens are ready: the first shows while the rest encode
        try:
            with st.spinner(f"Tokenizing with {tokenizer.name} …"):
                analyses[key] = uploads.analyze(key, text, allow_special)
            columns.column(
                key, tokenizer, analyses[key], text, allow_special=allow_special,
                show_whitespace=show_whitespace, raw_pieces=raw_pieces, per_row=per_row or 2,
            )
        except TokenizerFailed as exc:  # an uploaded tokenizer that overran its time budget, or crashed
            analyses.pop(key, None)
            widgets.failed_card(tokenizer.name, str(exc))
            continue
        context_view.context_line(key, tokenizer.name, analyses[key].total, price)  # what the model reads: BOS too

line = span_links.spread({loaded[key].name: analysis.counts.tokens for key, analysis in analyses.items()})
if line:
    spread.caption(widgets.md_escape(line))
# the columns are drawn: the next typed text may go now (it stops this run's table and ids, which
# the last run of a pause draws)
live_text.finished(state.PG_TEXT)
st.subheader("Counts")
tables.counts_table({loaded[key].name: analysis.counts for key, analysis in analyses.items()})
st.subheader("Token ids")
widgets.ids_view({loaded[key].name: analysis for key, analysis in analyses.items()}, key_prefix="pg_")
decode_view.decode_view({key: t for key, t in loaded.items() if not isinstance(t, cache.Unavailable)})
with st.sidebar:
    offline.download_button(
        analyses=analyses, loaded=loaded, text=text, allow_special=allow_special, show_whitespace=show_whitespace,
        raw_pieces=raw_pieces, per_row=per_row or 2, link=links.link(),
    )
