"""The Playground: one text, several tokenizers side by side, as colored token spans with counts.

Reads top to bottom: the sidebar's switches → the live text box (ui/playground_live.py, an st.fragment
that a typed key reruns alone, patching the columns' cards) → the tokenizers and, per column, its
analysis (cached) and spans → counts table → ids → decoder, which follow the text when typing pauses.
The logic lives in ui/ and core/.
"""

from __future__ import annotations

import streamlit as st

from ui import (
    cache,
    context_view,
    decode_view,
    links,
    live_text,
    nav,
    offline,
    playground_live,
    span_links,
    state,
    tables,
    uploads,
    widgets,
)

nav.page_setup("Playground", drawn=(state.PG_TOKENIZERS,))  # the picker (ui/playground_live.py)
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
nav.intro(
    "The same text as different language-model tokenizers cut it: each colored pill is one token "
    "(the same token id has the same color everywhere); hover a pill for its id and bytes, or click or "
    "tap it to pin them."
)

with st.sidebar:
    widgets.model_finder(state.PG_TOKENIZERS, names, key="pg_find_model")
    widgets.text_upload(
        upload_key=state.PG_UPLOAD, text_key=state.PG_TEXT, big_key=state.PG_BIG_TEXT,
        error_key=state.PG_UPLOAD_ERROR, note_key=state.PG_UPLOAD_NOTE,
    )
    uploads.sidebar_uploader("pg_")
    show_whitespace = st.toggle("Show whitespace · → ↵", **state.kept(state.PG_SHOW_WHITESPACE))
    raw_pieces = st.toggle(
        "Raw pieces", **state.kept(state.PG_RAW_PIECES),
        help="Show each token as its vocabulary entry (Ġworld, ▁world, ##ing) instead of the text.",
    )
    allow_special = st.toggle(
        "Read special tokens", **state.kept(state.PG_ALLOW_SPECIAL),
        help=(
            "Off: text such as <|endoftext|> is plain text. On: it becomes the special token. "
            "XLM-R reads <s>, </s>, <unk> and <mask> as its special tokens either way: its vocabulary "
            "holds them as pieces."
        ),
    )
    view = st.segmented_control(
        "Pills show", options=list(span_links.VIEWS), **state.kept(state.PG_VIEW), required=True,
        help="Each token's text, its id, or both (the id small, beside the text).",
    )
    disagree = st.toggle("Mark disagreements", **state.kept(state.PG_DISAGREE), help=span_links.DISAGREE_HELP)
    price = context_view.price_input()
    per_row = st.segmented_control(
        "Columns per row", options=[1, 2, 3, 4], **state.kept(state.PG_COLUMNS), required=True
    )

# the text box (an st.fragment: a typed key reruns only it, and it patches the columns), then the
# picker and the columns (ui/playground_live.py)
playground_live.begin_whole_run()
display = playground_live.Display(
    show_whitespace=show_whitespace, raw_pieces=raw_pieces, allow_special=allow_special, view=view or "Text",
    disagree=disagree, price=price, per_row=per_row or 2,
)
drawn = playground_live.columns_area(playground_live.live_area(display), names, display)
if drawn is None:
    live_text.whole_page_drawn(state.PG_TEXT)
    st.stop()
text, loaded, analyses = drawn.text, drawn.loaded, drawn.analyses
st.subheader("Counts")
tables.counts_table({loaded[key].name: analysis.counts for key, analysis in analyses.items()})
st.subheader("Token ids")
widgets.ids_view({loaded[key].name: analysis for key, analysis in analyses.items()}, key_prefix="pg_")
decode_view.decode_view({key: t for key, t in loaded.items() if not isinstance(t, cache.Unavailable)})
with st.sidebar:
    offline.download_button(
        analyses=analyses, refs=drawn.refs, text=text, allow_special=allow_special, show_whitespace=show_whitespace,
        raw_pieces=raw_pieces, per_row=per_row or 2, link=links.link(),
    )
live_text.whole_page_drawn(state.PG_TEXT)  # the last typed text is drawn everywhere: typing may pause
