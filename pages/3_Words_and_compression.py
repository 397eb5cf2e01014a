"""Words & compression: why subword vocabularies exist, and what a bigger vocabulary buys.

Reads top to bottom: the corpus (sidebar form, catalog, paste or upload) and the real tokenizers to
compare → four tabs: word statistics (Zipf, Heaps, out-of-vocabulary words), the same text in
different units, compression against vocabulary size, and what a vocabulary costs a model. The
logic lives in core/wordstats.py, core/compression.py, core/units.py and core/vocab_cost.py; the
drawing in ui/words/.
"""

from __future__ import annotations

import streamlit as st

from ui import cache, nav, state
from ui.words import corpus, views

nav.page_setup("Words & compression")
state.init(state.words_defaults())

st.title("Words & compression")
st.markdown(
    "Whole words make short sequences but a vocabulary that never ends; bytes never meet an unknown "
    "symbol but make long sequences. Measured live on a corpus of your choice: why subwords sit in between, "
    "and what each extra vocabulary entry buys."
)

data = corpus.corpus_sidebar()
names = cache.registry_names()
with st.sidebar:
    keys = st.multiselect(
        "Real tokenizers to compare", list(names), format_func=lambda key: names.get(key, key),
        key=state.WC_TOKENIZERS, help="Measured on the same held-out text, in the Compression and Units tabs.",
    )

words_tab, units_tab, compression_tab, cost_tab = st.tabs(
    ["Word statistics", "Units", "Compression vs vocabulary", "Vocabulary cost"]
)
# Filled in this order: the first tab paints before the sweeps run, and the units need the sweep.
with words_tab:
    rule = views.word_section(data)
with compression_tab:
    outcome = views.compression_section(data, keys)
with units_tab:
    views.units_section(data, rule, outcome)
with cost_tab:
    st.markdown(
        "A vocabulary of V tokens costs a model of width d an input embedding of V × d parameters, an output "
        "layer of another V × d unless the two are tied, and V × d multiply-adds for every generated token."
    )
    views.calculator_section()
