"""Algorithms: BPE, WordPiece and Unigram trained on one corpus, cutting one text at several vocabulary sizes.

Reads top to bottom: inputs (the corpus form in the sidebar, the text, the sizes) → the models (each
algorithm trained once per corpus, cached, with a progress bar) → the grid of spans → what happens to
characters the corpus never had → a closer look at each algorithm at one size. The logic lives in
ui/algorithms/ (views, closer, store, render, figures, explain) and core/measures/vocab_grid.py.
"""

from __future__ import annotations

import streamlit as st

from ui import nav, state, widgets
from ui.algorithms import closer, explain, views
from ui.algorithms import link as al_link

nav.page_setup("Algorithms")
views.inject_css()
state.init_algorithms()
al_link.sync()

st.title("Algorithms: BPE, WordPiece, Unigram")  # the sidebar calls it "Algorithms"
nav.intro(explain.INTRO)  # hidden on a projector: the grid needs the room, and the speaker says this
presenting = st.session_state[state.PRESENTATION]
labels = "collapsed" if presenting else "visible"
# presenting, the sizes get more room: all eight pills on one line beside the sidebar
text_col, sizes_col = st.columns([4, 7] if presenting else [5, 6], gap="small")
text = text_col.text_area("Your text", **state.kept(state.AL_TEXT), height=68, help="Ctrl+Enter applies it.",
                          label_visibility=labels)
with sizes_col:
    sizes = views.size_picker(label_visibility=labels)
show_whitespace = st.sidebar.toggle("Show whitespace (· ↵)", **state.kept(state.AL_SHOW_WHITESPACE))
if not sizes:
    st.info("Pick two to four vocabulary sizes above to compare the algorithms.", icon=":material/view_column:")
    st.stop()

grid = views.current_grid(sizes)
if st.session_state[state.AL_TRAIN_ERROR]:
    st.error(st.session_state[state.AL_TRAIN_ERROR], icon=":material/error:")
st.sidebar.caption(widgets.md_escape(f"Trained on: {grid.settings.describe()}.{views.cut_note(grid)}"))
if len(sizes) == 1:
    st.caption("One size: pick another to compare sizes side by side.")
if not text:
    st.info("Type a sentence above to see how each algorithm cuts it.", icon=":material/edit:")
    st.stop()

views.grid_section(grid, text, show_whitespace=show_whitespace)
with st.expander("How to read the grid", icon=":material/help:"):
    st.markdown(explain.GRID_NOTE)
views.unseen_section(grid, text)

st.subheader("A closer look")
focus = views.focus_picker(sizes)
widgets.step_buttons(sizes, state.AL_FOCUS, noun="size")
views.downloads(grid, focus)
bpe_tab, wordpiece_tab, unigram_tab = st.tabs(["BPE and BPE-dropout", "WordPiece: greedy longest match",
                                               "Unigram: lattice, n best, sampling"])
with bpe_tab:
    closer.bpe_section(grid, focus, text, show_whitespace=show_whitespace)
with wordpiece_tab:
    closer.wordpiece_section(grid, focus, text)
with unigram_tab:
    closer.unigram_section(grid, focus, text, show_whitespace=show_whitespace)
