"""The Language tax page's further sections: heatmap, generations, practical units, your own
translation, and the sources and licences of what is shown.

Each function draws into the current container; the numbers come from ``core.tax.language_tax``, the
figures from ``ui.tax.figures``, the spans from ``ui.cache`` (``ui.spans.render_spans``).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.tax import language_tax as lt
from core.tax import parallel_corpus
from ui import cache, state, uploads, widgets
from ui.kept_figures import kept
from ui.tax import figures as tf
from ui.tax.views import Choice, loaded_tokenizers, measure
from ui.widgets import md_escape

OWN_MAX_CHARS = 20_000  # per box; counts cover all of it
OWN_SPANS_LIMIT = 2_000  # tokens drawn per text and tokenizer: a dozen span boxes stay quick to draw
ORDERS = {"premium": "sorted by premium", "script": "grouped by script"}
UNITS = {"words": "words per context", "segments": "segments per context", "cost": "cost of a million words"}


def heatmap(table: pd.DataFrame, tokenizer: str) -> None:
    """Languages × tokenizers on a diverging scale around 1×; big selections show the chart's subset."""
    order = st.segmented_control("Rows", list(ORDERS), format_func=ORDERS.__getitem__,
                                 **state.kept(state.LT_ORDER),
                                 required=True)
    shown = table
    if table["language"].nunique() > tf.MAX_BARS:
        keep = set(tf.chart_rows(table, tokenizer)["language"])
        shown = table[table["language"].isin(keep)]
        st.caption(f"The {len(keep)} languages of the bar chart (cheapest and dearest under "
                   f"{tf.short_name(tokenizer)}); the table has all {table['language'].nunique():,}.")
    widgets.chart(kept(tf.premium_heatmap, shown, order=order or "premium"), shown, key="lt_heatmap",
                  name="language_tax_heatmap")
    st.caption("Red: more tokens than the base language for the same content, blue: fewer. "
               "⚠ marks cells with unknown tokens: a tokenizer that maps a script to [UNK] looks cheap "
               "because it threw the text away.")


def generations(choice: Choice) -> None:
    """The slope chart of GPT-2 → cl100k → o200k and Llama 2 → Llama 3 over the chosen languages."""
    keys = tuple(key for keys in lt.GENERATIONS.values() for key in keys)
    tokenizers = loaded_tokenizers(keys, note=False)
    missing = [cache.registry_names().get(k, k) for k in keys if k not in tokenizers]
    if missing:
        st.caption(md_escape(f"Not available here: {', '.join(missing)}; see the note above the chart or "
                             "README (offline use)."))
    if not tokenizers:
        st.info("No slope chart: none of its tokenizers can be loaded here.", icon=":material/info:")
        return
    table = measure(choice, tokenizers)
    try:
        figure = kept(tf.generations_figure, table)
    except ValueError as exc:
        st.info(f"No slope chart: {exc}.", icon=":material/info:")
        return
    widgets.chart(figure, table, key="lt_generations", name="language_tax_generations")
    st.caption(
        "Each line is one language, from one generation of a vendor's tokenizer to the next (log scale). "
        "cl100k_base doubled GPT-2's vocabulary and o200k_base doubled it again, mostly with non-English "
        "tokens; Llama 3 took cl100k_base's 100k tokens and added 28k, while Llama 2's 32k SentencePiece "
        "vocabulary falls back to single bytes for scripts it barely knows."
    )


def practical_units(table: pd.DataFrame, base_name: str, unit_name: str) -> None:
    """How much of each language fits in N tokens, and what a million words of it cost."""
    names = {**UNITS, "segments": f"{unit_name}s per context"}
    unit = st.segmented_control("Show", list(UNITS), format_func=names.__getitem__,
                                **state.kept(state.LT_UNIT),
                                required=True) or "words"
    context_col, price_col, _ = st.columns([1, 1, 2], vertical_alignment="bottom")
    context = context_col.number_input("Context (tokens)", min_value=1, max_value=10_000_000, step=1_000,
                                       **state.kept(state.LT_CONTEXT))
    price = price_col.number_input("Price per million tokens", min_value=0.0, max_value=1_000.0, step=0.25,
                                   format="%.2f", **state.kept(state.LT_PRICE))
    fit = lt.context_fit(table, context_tokens=int(context), price_per_million=float(price))
    frame = tf.units_frame(table, fit, unit).round(2 if unit == "cost" else 0)
    number = "%.2f" if unit == "cost" else "localized"
    st.dataframe(frame, column_config={c: st.column_config.NumberColumn(c, format=number) for c in frame.columns},
                 height=min(35 * (len(frame) + 1) + 3, 500))
    explain = {
        "words": f"How much content fits in {int(context):,} tokens, measured in words of the {base_name} "
                 "text it translates (Thai, Chinese or Burmese words are not cut by spaces; the translation "
                 "of N words of the base is).",
        "segments": f"How many {unit_name}s of each language fit in {int(context):,} tokens.",
        "cost": f"What the translation of a million {base_name} words costs at {price:,.2f} per million tokens.",
    }
    st.caption(md_escape(explain[unit]))


def own_translation(tokenizers: dict[str, Any]) -> None:
    """Paste a text and its translation: the ratio under each tokenizer, and the spans side by side."""
    left, right = st.columns(2, gap="medium")
    text = left.text_area("Your text", **state.kept(state.LT_OWN_TEXT), height=110, max_chars=OWN_MAX_CHARS)
    translation = right.text_area("Its translation", **state.kept(state.LT_OWN_TRANSLATION), height=110,
                                  max_chars=OWN_MAX_CHARS)
    if not text.strip() or not translation.strip():
        st.info("Type a text on the left and its translation on the right to compare them.", icon=":material/edit:")
        return
    if not tokenizers:
        return
    corpus = parallel_corpus.parallel_from_texts({"text": text, "translation": translation})
    table = lt.language_tax(corpus, tokenizers, base="text")
    mine = table[table["language"] == "translation"].set_index("tokenizer")
    theirs = table[table["language"] == "text"].set_index("tokenizer")
    summary = pd.DataFrame({
        "tokenizer": [tf.short_name(k, mine.loc[k, "tokenizer_name"]) for k in mine.index],
        "text tokens": theirs["tokens"].to_numpy(), "translation tokens": mine["tokens"].to_numpy(),
        "translation ×": mine["premium"].to_numpy(), "unknown in translation": mine["unknown_share"].to_numpy(),
    })
    st.dataframe(summary, hide_index=True, column_config={
        "translation ×": st.column_config.NumberColumn(format="%.2f×"),
        "unknown in translation": st.column_config.NumberColumn(format="percent"),
    })
    for key in tokenizers:
        row, ref = mine.loc[key], uploads.resolve(key)
        st.markdown(f"**{md_escape(tf.short_name(key, row['tokenizer_name']))}**: "
                    f"{int(theirs.loc[key, 'tokens']):,} → {int(row['tokens']):,} tokens "
                    f"({tf.fmt_ratio(row['premium'])})")
        for column, piece in zip(st.columns(2, gap="medium"), (text, translation), strict=True):
            with column:
                st.html(ref.spans_html(piece, allow_special=False, show_whitespace=False, raw_pieces=False,
                                       limit=OWN_SPANS_LIMIT))


def sources(corpus: parallel_corpus.ParallelCorpus, tokenizers: dict[str, Any]) -> None:
    """Where the texts come from and under which licence, and each tokenizer's licence notice."""
    lines = [f"**{md_escape(corpus.title)}**: {md_escape(corpus.source)}. Licence: {md_escape(corpus.licence)}."]
    if corpus.notice:
        lines.append(md_escape(corpus.notice))
    unreviewed = [lang.name for lang in corpus.languages if "not reviewed" in lang.provenance]
    if unreviewed:
        lines.append(f"{len(unreviewed)} of its {len(corpus.languages)} translations are machine translations "
                     "not reviewed by a native speaker: read small differences between languages with care.")
    for tokenizer in tokenizers.values():
        attribution = getattr(tokenizer, "attribution", None)
        licence = getattr(tokenizer, "license", "")
        note = f"{tokenizer.name}: {licence}" + (f" · {attribution}" if attribution else "")
        lines.append(md_escape(note))
    st.markdown("  \n".join(lines))
    st.caption("Segments are tokenized one by one and the counts summed; a language is compared with the "
               "base on the segments both have.")
