"""Language tax: the same content in many languages and scripts, and what it costs in tokens.

Reads top to bottom: inputs (corpus, your own uploaded one included, languages, base, tokenizers in
the sidebar) → one table from
core.tax.language_tax (counted once per server process, with progress) → the premium chart with the
clicked language's tokens in place → tabs (only the open one computes): heatmap, table, generations,
practical units, your own translation, distributions, the compression leaderboard, sources. The logic
lives in ui/tax/ (views, sections, research, figures, stats_figures).
"""

from __future__ import annotations

import streamlit as st

from core.pretrained.adapter import TokenizerFailed
from ui import nav, state, widgets
from ui.tax import link as tax_link
from ui.tax import research as tax_research
from ui.tax import sections as tax_sections
from ui.tax import views as tax_views

nav.page_setup("Language tax")
state.init(state.language_tax_defaults())
tax_link.sync()
st.html(tax_views.CSS)

st.title("Language tax")
nav.intro(
    "The same text costs more tokens in some languages than in others: each bar is one language's "
    "token count over the base language's, for the same content, under one real tokenizer."
)

choice = tax_views.sidebar()
threshold = tax_research.validation_sidebar()
if choice is None:
    st.stop()
if not choice.tokenizers:
    st.info("Pick one or more tokenizers in the sidebar to measure the languages.", icon=":material/info:")
    st.stop()
if len(choice.languages) < 2:
    st.info("Pick at least one language besides the base language in the sidebar.", icon=":material/info:")
    st.stop()

tokenizers = tax_views.table_tokenizers(choice)  # those whose counts are kept are loaded when needed
if not tokenizers:
    st.warning("None of the chosen tokenizers can be loaded here; pick others in the sidebar.")
    st.stop()
try:
    table = tax_views.measure(choice, tokenizers)
except TokenizerFailed as exc:  # an uploaded tokenizer that overran its time budget, or crashed
    st.error(widgets.md_escape(widgets.sentence(f"{exc}; remove it from the tokenizers to see the others")),
             icon=":material/error:")
    st.stop()
base_name = choice.corpus.language(choice.base).name

# shown: without the pairs validation leaves out; kept with the table, so what is derived from
# ``marked`` (the wide table, the CSV) is found again on the next run instead of made anew
marked, shown = tax_views.derived(table, f"validated@{threshold}", lambda t: tax_research.validate(t, threshold))

tokenizer = tax_views.chart_tokenizer(shown)
tax_views.premium_chart(shown, tokenizer, st.session_state[state.LT_FOCUS])
tax_research.left_out_note(marked, threshold)
tax_views.focus_view(shown, choice, tokenizer, tokenizers)


def premium_table_tab() -> None:
    unit = choice.corpus.unit
    st.caption(widgets.md_escape(  # the base's name may come from an uploaded corpus
        f"Premium (×) = tokens of a language ÷ tokens of {base_name} for the same {unit}s. Bytes × and "
        "characters × are the same ratio for the text itself: script density, before any tokenizer. Median, "
        f"Q1 and Q3 are the premium taken {unit} by {unit} (half of the {unit}s lie between Q1 and Q3); "
        f"segments > 2× is the share of {unit}s that cost more than twice the base's. Click a column to sort, "
        "a row to see that language's tokens above."
    ))
    tax_views.premium_table(marked if threshold is not None else table)  # validation: pairs left out named


# Keyed tabs that rerun on a switch: only the open tab computes (its figures and tables are made and
# sent only when looked at), and the open tab survives reruns and page switches. In LT_TABS' order:
tab_bodies = (
    lambda: tax_sections.heatmap(shown, tokenizer),
    premium_table_tab,
    lambda: tax_research.distribution(choice, tokenizers, marked, tokenizer),
    lambda: tax_research.leaderboard(choice, threshold),
    lambda: tax_sections.generations(choice),
    lambda: tax_sections.practical_units(table, base_name, choice.corpus.unit),
    lambda: tax_sections.own_translation(tokenizers),
    lambda: tax_sections.sources(choice.corpus, tokenizers),
)
for tab, body in zip(st.tabs(list(state.LT_TABS), key=state.LT_TAB, on_change="rerun"), tab_bodies, strict=True):
    if tab.open:
        with tab:
            body()

with st.expander("Why do some languages cost more?"):
    st.markdown(
        "A BPE vocabulary is learned from a corpus, mostly English: common English words become single "
        "tokens, while a language the corpus barely holds is cut into short pieces, down to single bytes. "
        "Scripts outside ASCII also take more bytes per letter in UTF-8 (two for Cyrillic and Arabic, "
        "three for Devanagari, Thai or Burmese), and a byte-level tokenizer starts from bytes. Compare each "
        "bar with its ◆: the bytes ratio is what the script costs before any tokenizer; the rest is the "
        "vocabulary. A larger, more multilingual vocabulary (o200k_base, XLM-R) shrinks that rest."
    )
