"""BPE step by step: watch byte-pair encoding learn its merges, or replay a real tokenizer's, one by one.

Reads top to bottom: the view → inputs (the training form in the sidebar, the user's text) → the
model (trained once, cached, with a progress bar) → the scrubber and the step views (one fragment,
so a step reruns only them) → all merges with downloads and a merge tree. The logic lives in
ui/bpe/views.py, ui/bpe/replay.py, ui/bpe/render.py and ui/scrubber.py; the spans come from
ui/spans.py.
"""

from __future__ import annotations

import streamlit as st

from ui import nav, scrubber, state, widgets
from ui.bpe import link as bpe_link
from ui.bpe import replay as bpe_replay
from ui.bpe import views as bpe_views

nav.page_setup("BPE step by step")
bpe_views.inject_css()
state.init_bpe()
bpe_link.sync()

VIEWS = {"train": "Train your own", "replay": "Replay a real tokenizer"}

st.title("BPE step by step")
nav.intro(
    "Byte-pair encoding starts from bytes and, merge after merge, glues the most frequent pair of "
    "neighbours into a new token; scrub through the merges and watch your sentence shrink."
)
view_col, ws_col = st.columns([2, 1], vertical_alignment="center")
view = view_col.segmented_control(
    "View", list(VIEWS), format_func=VIEWS.__getitem__, **state.kept(state.BPE_VIEW), required=True,
    label_visibility="collapsed",
)
show_whitespace = ws_col.toggle("Show whitespace (· ↵)", **state.kept(state.BPE_SHOW_WHITESPACE))

if view == "replay":
    st.caption(
        "A real tokenizer's merges on your text, lowest rank first, from single bytes to the tokens it "
        "returns. The rank of a merge is its place in the vocabulary: it was learned that early."
    )
    bpe_replay.replay_view(show_whitespace=show_whitespace)
    st.stop()

settings, result = bpe_views.current_model()
if st.session_state[state.BPE_TRAIN_ERROR]:
    st.error(st.session_state[state.BPE_TRAIN_ERROR], icon=":material/error:")
n = len(result.trace)
st.sidebar.caption(
    widgets.md_escape(
        f"Showing: {settings.describe(stopped_at=n if result.stopped_early else None)}. The corpus went "
        f"from {result.initial_tokens:,} to {result.corpus_tokens(n):,} tokens.{bpe_views.cut_note(result)}"
    )
)
if result.stop_reason:  # presentation mode draws it as one short line (assets/presentation.css)
    st.container(key="bpe_stop_note").info(f"Training {result.stop_reason}.", icon=":material/info:")

text = st.text_area("Your text", **state.kept(state.BPE_TEXT), height=68, help="Ctrl+Enter applies it.")
try:
    changes = bpe_views.text_changes(result, text)
except ValueError as exc:  # a custom pattern that runs out of time on this text: say so, keep the text
    st.error(f"Your text cannot be cut into pre-tokens: {exc}.", icon=":material/error:")
    text, changes = "", []
# A new model opens on the last merge that changed the text: the most telling step of the default.
scrubber.reset_step(bpe_views.TRAIN_SCRUBBER, state.BPE_STEP_FOR, settings, changes[-1] if changes else n)
scrubber.stepper(
    n, bpe_views.TRAIN_SCRUBBER, bpe_views.train_step_view(result, text, show_whitespace=show_whitespace),
    jumps=changes, label="Merges applied",
)

st.subheader("All merges")
bpe_views.merges_section(settings, result)
with st.expander("Why does the curve flatten?"):
    st.markdown(
        "The first merges join pairs that occur thousands of times (a space and a common letter, "
        "`t` and `h`), so each one removes thousands of tokens from the corpus. Later merges join "
        "rarer and rarer pairs: by the end each new token saves only a handful of occurrences, and "
        "ties between pairs with the same small count become the rule, settled by the tie rule."
    )
