"""Words & compression: why subword vocabularies exist, and what a bigger vocabulary buys.

Reads top to bottom: the corpus (sidebar form, catalog, paste or upload) and the real tokenizers to
compare → four tabs: word statistics (Zipf, Heaps, out-of-vocabulary words), the same text in
different units, compression against vocabulary size, and what a vocabulary costs a model. The
logic lives in core/measures/wordstats.py, core/measures/compression.py, core/measures/units.py and core/measures/vocab_cost.py; the
drawing in ui/words/.
"""

from __future__ import annotations

import streamlit as st

from ui import nav, state, uploads, widgets
from ui.words import corpus, link, sweep_views, views

nav.page_setup("Words & compression")
state.init(state.words_defaults())
link.sync()
uploads.prune(state.WC_TOKENIZERS)  # a removed upload leaves the picker

st.title("Words & compression")
nav.intro(
    "Why language models read subwords, not words or bytes, and what a bigger vocabulary buys: measured "
    "live on a corpus of your choice."
)

data = corpus.corpus_sidebar()
names = uploads.names()  # the registry, then this session's uploaded tokenizers (Playground sidebar)
with st.sidebar:
    keys = st.multiselect(
        "Real tokenizers to compare", widgets.tokenizer_options(names), format_func=widgets.tokenizer_label(names),
        **state.kept(state.WC_TOKENIZERS), help="Measured on the same held-out text, in the Compression and Units tabs.",
    )
    widgets.model_finder(state.WC_TOKENIZERS, names, key="wc_find_model")

# Keyed tabs that rerun on a switch: only the open tab computes (the sweep waits until it is looked
# at, with its progress bar in view), and the open tab survives reruns and page switches.
words_tab, units_tab, compression_tab, cost_tab = st.tabs(list(state.WC_TABS), key=state.WC_TAB, on_change="rerun")
if words_tab.open:
    with words_tab:
        views.word_section(data)
if units_tab.open:
    with units_tab:
        sweep_views.units_section(data, keys)
if compression_tab.open:
    with compression_tab:
        sweep_views.compression_section(data, keys)
if cost_tab.open:
    with cost_tab:
        st.markdown(
            "A vocabulary of V tokens costs a model of width d an input embedding of V × d parameters, an output "
            "layer of another V × d unless the two are tied, and V × d multiply-adds for every generated token."
        )
        views.calculator_section()
