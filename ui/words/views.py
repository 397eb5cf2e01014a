"""The sections of "Words & compression": word statistics, compression, units, the vocabulary calculator.

Each draws into the current container, reads its widgets' values from session state (keys in
``ui.state``), calls ``ui.words.cache`` for anything expensive and draws figures from
``ui.words.figures``. Every chart has a CSV download of its data next to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from core import compression, vocab_cost, wordstats
from core.patterns import NAMED_PATTERNS
from ui import cache as shared_cache
from ui import state, widgets
from ui.words import cache
from ui.words import figures as fig
from ui.words.cache import CorpusData, SweepSettings

RANK_STOPS = (1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1_000, 2_000, 3_000, 5_000, 10_000, 20_000,
              30_000, 50_000, 100_000, 200_000, 500_000, 1_000_000)
VOCAB_STOPS = (1_024, 2_048, 4_096, 8_192, 16_384, 32_768)
UNITS_STOPS = (256, 512, *VOCAB_STOPS)
ZIPF_WIDGET = "wc_zipf_window_slider"  # the slider's own key; the window lives in state.WC_ZIPF_WINDOW
PLOT_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


def csv_button(frame: pd.DataFrame, file_name: str, key: str, label: str = "Chart data (CSV)") -> None:
    """A download of ``frame`` as CSV, built only when clicked."""
    st.download_button(label, data=lambda: frame.to_csv(index=False), file_name=file_name, mime="text/csv",
                       on_click="ignore", key=key, icon=":material/download:")


def chart(figure: object, key: str) -> None:
    st.plotly_chart(figure, key=key, config=PLOT_CONFIG, width="stretch")


# -- word statistics ----------------------------------------------------------------------------------


def word_section(data: CorpusData) -> str:
    """Counts, Zipf, Heaps and the OOV curve of the corpus; returns the word rule chosen."""
    rules = wordstats.WORD_RULES
    rule = st.radio("What is a word?", list(rules), format_func=lambda k: rules[k].label, key=state.WC_RULE,
                    horizontal=True)
    st.caption(f"Rule: {rules[rule].description}.")
    report = cache.word_report(data, rule)
    stats = report.stats
    if stats.tokens < 2:
        st.info("This text has fewer than two words under this rule: pick a longer corpus.", icon=":material/info:")
        return rule
    cols = st.columns(4)
    cols[0].metric("Words (tokens)", f"{stats.tokens:,}")
    cols[1].metric("Distinct words (types)", f"{stats.types:,}", help="Type/token ratio: "
                   f"{stats.types / stats.tokens:.3f}")
    cols[2].metric("Hapax legomena", f"{stats.hapax:,}", help="Words that occur exactly once.")
    cols[3].metric("Hapax share of types", f"{stats.hapax_share_of_types:.1%}",
                   help=f"Hapax legomena are {stats.hapax_share_of_tokens:.1%} of all words.")
    zipf_col, heaps_col = st.columns(2, gap="large")
    with zipf_col:
        _zipf(stats)
    with heaps_col:
        _heaps(stats, report.heaps)
    if report.oov is None:
        st.info("The held-out part has no words, so there is no out-of-vocabulary rate to show.", icon=":material/info:")
        return rule
    chart(fig.oov_figure(report.oov), "wc_oov_chart")
    st.caption(
        f"A word vocabulary of the V most frequent words of the first 90 %, on the {report.oov.heldout_tokens:,} "
        "words of the held-out 10 %. However large V, the dotted floor remains: words never seen in training "
        "(names, rare forms, typos). Subwords close that gap: any word can be spelled from smaller pieces."
    )
    csv_button(fig.oov_frame(report.oov), "oov_rate.csv", "wc_oov_csv")
    return rule


def _zipf(stats: wordstats.WordStats) -> None:
    slot = st.container()  # the chart goes above the slider, level with Heaps' chart beside it
    # subtle: a select_slider is a range slider only when given a range as value=, so the widget has a
    # key of its own, seeded from the page's state key and copied back to it on change (as ui.nav does)
    st.select_slider("Fit window (ranks)", options=RANK_STOPS, value=st.session_state[state.WC_ZIPF_WINDOW],
                     key=ZIPF_WIDGET, on_change=_remember_window,
                     help="Drag either end to fit Zipf's line over other ranks (the shaded band).")
    lo, hi = st.session_state[state.WC_ZIPF_WINDOW]
    try:
        fit = wordstats.zipf_fit(stats, lo, hi)
    except ValueError:
        fit = None
    with slot:
        chart(fig.zipf_figure(stats, fit, (lo, hi)), "wc_zipf_chart")
    if fit is None:
        st.info(f"The window needs two ranks or more within the {_words(stats.types, 'distinct word')}: move it left.",
                icon=":material/info:")
    else:
        clamp = f" (the text has {stats.types:,})" if hi > stats.types else ""
        st.caption(
            f"Slope **{fit.exponent:.2f}** (R² {fit.r2:.3f}), fitted on {len(fit.x)} log-spaced ranks from "
            f"{int(fit.x[0]):,} to {int(fit.x[-1]):,}{clamp}. Zipf's law says about −1: the 2nd word occurs half "
            "as often as the 1st, the 10th a tenth as often."
        )
    csv_button(fig.zipf_frame(stats), "zipf_ranks.csv", "wc_zipf_csv")


def _words(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _remember_window() -> None:
    st.session_state[state.WC_ZIPF_WINDOW] = tuple(st.session_state[ZIPF_WIDGET])


def _heaps(stats: wordstats.WordStats, heaps: wordstats.PowerFit | None) -> None:
    chart(fig.heaps_figure(stats, heaps), "wc_heaps_chart")
    if heaps is not None:
        st.caption(
            f"β = **{heaps.exponent:.2f}**, K = {heaps.constant:.2f} (R² {heaps.r2:.4f}), fitted on the "
            f"{len(heaps.x)} log-spaced points marked, from {int(heaps.x[0]):,} to {int(heaps.x[-1]):,} words "
            "read: a fit over every position would be ruled by the tail. β below 1: new words slow down but never stop."
        )
    csv_button(fig.heaps_frame(stats, heaps), "heaps_curve.csv", "wc_heaps_csv")


# -- compression --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SweepOutcome:
    """What the compression section measured, for the units section too."""

    bpe: compression.BPESweep | None
    points: tuple[compression.TokenizerPoint, ...]


def _sweep_form() -> SweepSettings:
    """The sweep's settings form; the applied settings (kept until the next submit)."""
    others = [name for name in compression.ALGORITHMS if name != "BPE"]
    with st.form("wc_sweep_form", border=True):
        cols = st.columns([3, 2, 3, 2], vertical_alignment="bottom")
        cols[0].select_slider("Largest vocabulary", options=VOCAB_STOPS, key=state.WC_MAX_VOCAB, format_func="{:,}".format,
                              help="BPE is measured at every size up to this one, from one training run.")
        cols[1].selectbox("Pre-tokenization (BPE)", list(NAMED_PATTERNS), key=state.WC_PATTERN)
        cols[2].multiselect("Also train", others, key=state.WC_OTHERS, format_func=_algorithm_label,
                            help="Trained once per size, at the sizes below.")
        cols[3].number_input("Sizes", min_value=3, max_value=12, key=state.WC_POINTS,
                             help="How many log-spaced sizes WordPiece and Unigram train at (BPE: every size).")
        submitted = st.form_submit_button("Run the sweep", type="primary", key="wc_run_sweep",
                                          icon=":material/play_arrow:")
    ss = st.session_state
    if submitted or ss[state.WC_SWEEP] is None:
        ss[state.WC_SWEEP] = SweepSettings(
            int(ss[state.WC_MAX_VOCAB]), int(ss[state.WC_POINTS]), tuple(ss[state.WC_OTHERS]), ss[state.WC_PATTERN]
        )
    return ss[state.WC_SWEEP]


def _algorithm_label(name: str) -> str:
    missing = compression.unavailable_reason(compression.ALGORITHMS[name])
    return f"{name} (not in this build)" if missing else name


def compression_section(data: CorpusData, keys: Sequence[str]) -> SweepOutcome:
    """The sweep form, the chart of held-out bytes per token against vocabulary size, its notes and CSV."""
    settings = _sweep_form()
    if not data.heldout.strip() or not data.train.strip():
        st.info("This corpus is too short to hold out a part to measure on: pick or paste a longer one.",
                icon=":material/info:")
        return SweepOutcome(None, ())
    notes: list[str] = []
    try:
        bpe_sweep = cache.bpe_sweep(data, settings)
    except ValueError as exc:
        st.error(f"BPE could not be trained on this corpus: {exc}.", icon=":material/error:")
        return SweepOutcome(None, ())
    sizes = settings.sizes
    curves = [bpe_sweep.curve(sizes)]
    for name in settings.others:
        reason = compression.unavailable_reason(compression.ALGORITHMS[name])
        if reason:
            notes.append(reason)
            continue
        curves.append(cache.algorithm_curve(data, name, sizes))
    notes += [curve.note for curve in curves if curve.note]
    points, missing = [], []
    names = shared_cache.registry_names()
    for key in keys:
        found = cache.tokenizer_point(data, key, names.get(key, key))
        if isinstance(found, shared_cache.Unavailable):
            missing.append(found)
        else:
            points.append(found)
    ceiling = compression.pretoken_ceiling(data.heldout, settings.pattern)
    figure = fig.compression_figure(curves, points, ceiling=ceiling, notes=notes,
                                    ceiling_label=f"one token per pre-token ({settings.pattern_name} pattern)")
    chart(figure, "wc_compression_chart")
    st.caption(
        f"Each line is trained on the first 90 % and measured on the held-out {bpe_sweep.heldout_bytes:,} bytes. "
        f"BPE: one training run of {len(bpe_sweep.result.trace):,} merges gives every size (merge k of a longer run "
        f"is merge k of every shorter one), measured by one incremental encode; {bpe_sweep.seconds:.1f} s in all. "
        "Diamonds: real tokenizers on the same text, trained on far more (and more varied) text."
    )
    if missing:
        with st.expander(f"Not shown, unavailable here: {widgets.md_escape(', '.join(m.name for m in missing))}"):
            st.markdown("\n".join(f"- **{widgets.md_escape(m.name)}**: {widgets.md_escape(m.reason)}" for m in missing))
    csv_button(fig.compression_frame(curves, points, ceiling), "compression_vs_vocabulary.csv", "wc_compression_csv")
    with st.expander("Why does the curve flatten under the dashed line?"):
        st.markdown(
            "Byte-level BPE never merges across pre-tokens (the chunks the pattern cuts: a word with its "
            "leading space, a run of digits, punctuation), so one token per pre-token is the best any vocabulary "
            "can do on this text under this pattern. The first merges glue the most frequent pairs and pay off "
            "at once; later ones make rare words whole, which helps the held-out text only when those words "
            "come back. Past a few thousand tokens each doubling of the vocabulary buys less, while the "
            "embedding and output layers grow with every token (see *Vocabulary cost*).\n\n"
            "The dashed line holds for BPE under the pattern picked above. A real tokenizer that cuts differently "
            "can pass it: BERT drops spaces altogether (they are never tokens), and cl100k_base glues runs of line "
            "breaks and leading punctuation to their neighbours."
        )
    return SweepOutcome(bpe_sweep, tuple(points))


# -- units --------------------------------------------------------------------------------------------


def units_section(data: CorpusData, rule: str, outcome: SweepOutcome) -> None:
    """Words, characters, bytes and subwords of the held-out text: length, vocabulary, attention cost."""
    subwords: list[tuple[str, int, int]] = []
    algorithms: dict[str, str] = {}
    if outcome.bpe is not None:
        wanted = st.select_slider("BPE vocabulary size", options=UNITS_STOPS, key=state.WC_UNITS_VOCAB,
                                  format_func="{:,}".format, help="BPE trained here, from the compression sweep.")
        size = min(wanted, outcome.bpe.max_vocab)
        if size < wanted:
            st.caption(f"The sweep reached {outcome.bpe.max_vocab:,} tokens; showing BPE at that size.")
        name = f"BPE trained here ({size:,})"
        subwords.append((name, outcome.bpe.tokens_at(size), size))
        algorithms[name] = "byte-level BPE"
    for point in outcome.points:
        subwords.append((point.name, point.tokens, point.vocab_size))
        algorithms[point.name] = point.algorithm
    rows = cache.units(data, rule, subwords)
    frame = fig.units_frame(rows)
    st.dataframe(
        frame.drop(columns=["vocabulary"]), hide_index=True, width="stretch",
        column_config={
            "sequence length": st.column_config.NumberColumn(format="localized"),
            "vocabulary size": st.column_config.NumberColumn(format="localized"),
            "length × shortest": st.column_config.NumberColumn(format="%.2f×"),
            "attention cost × shortest": st.column_config.NumberColumn(format="%.1f×"),
        },
    )
    chart(fig.units_figure(rows, algorithms), "wc_units_chart")
    st.caption(
        f"The held-out {len(data.heldout):,} characters of the corpus. Words are counted by the rule of the first tab "
        "(spaces and, for letter words, punctuation dropped: not a lossless cut), and their vocabulary is the "
        "distinct words of this text alone: a word model needs every word it may ever meet. Bytes need only 256 "
        "symbols and never meet an unknown one, at the longest sequence. A subword vocabulary buys most of the "
        "words' shortness for a fixed, modest size."
    )
    csv_button(frame, "units.csv", "wc_units_csv", label="Table and chart data (CSV)")


# -- vocabulary cost calculator -----------------------------------------------------------------------


def _apply_preset() -> None:
    ss = st.session_state
    preset = next((p for p in vocab_cost.PRESETS if p.name == ss[state.WC_PRESET]), None)
    if preset is not None:
        ss[state.WC_V], ss[state.WC_D], ss[state.WC_N], ss[state.WC_TIED] = (
            preset.vocab_size, preset.d_model, preset.params, preset.tied,
        )


def _to_custom() -> None:
    st.session_state[state.WC_PRESET] = ""


def params(n: float) -> str:
    """A parameter count in a few characters: ``38.6 M``, ``1.05 B``.

    >>> params(38_597_376), params(1_050_673_152), params(950)
    ('38.6 M', '1.05 B', '950')
    """
    if n >= 1e9:
        return f"{n / 1e9:.2f} B"
    if n >= 1e6:
        return f"{n / 1e6:.1f} M"
    return f"{n:,.0f}"


def calculator_section() -> None:
    """V and d (and N) in, the vocabulary's parameters, share and output cost out; the published models below."""
    names = [""] + [p.name for p in vocab_cost.PRESETS]
    cols = st.columns([3, 2, 2, 3, 2], vertical_alignment="bottom")
    cols[0].selectbox("Start from", names, format_func=lambda n: n or "your own figures", key=state.WC_PRESET,
                      on_change=_apply_preset)
    cols[1].number_input("Vocabulary V", min_value=1, step=1_000, key=state.WC_V, on_change=_to_custom)
    cols[2].number_input("Width d", min_value=1, step=128, key=state.WC_D, on_change=_to_custom)
    cols[3].number_input("Parameters N (0: unknown)", min_value=0, step=1_000_000, key=state.WC_N,
                         on_change=_to_custom)
    cols[4].toggle("Tied", key=state.WC_TIED, on_change=_to_custom,
                   help="Tied: the output layer reuses the input embedding's matrix.")
    ss = st.session_state
    try:
        cost = vocab_cost.vocab_cost(int(ss[state.WC_V]), int(ss[state.WC_D]), tied=bool(ss[state.WC_TIED]),
                                     params=int(ss[state.WC_N]) or None)
    except ValueError as exc:
        st.error(f"{exc}.", icon=":material/error:")
        cost = None
    if cost is not None:
        out = st.columns(4)
        out[0].metric("Input embedding (V × d)", params(cost.embedding), help=f"{cost.embedding:,} parameters")
        out[1].metric("Output layer", params(cost.output) if cost.output else "shared (tied)",
                      help=f"{cost.output:,} parameters beyond the embedding")
        out[2].metric("Vocabulary's share of N", f"{cost.share:.1%}" if cost.share is not None else "—",
                      help=f"{cost.vocabulary_params:,} of {cost.params or 0:,} parameters")
        out[3].metric("Output multiply-adds per token", params(cost.output_macs),
                      help="V × d to compute one token's logits, tied or not.")
    st.markdown("**Published models**")
    frame = fig.vocab_cost_frame(vocab_cost.PRESETS)
    chart(fig.vocab_cost_figure(vocab_cost.PRESETS), "wc_cost_chart")
    shown = frame.drop(columns=["source"]).assign(
        **{"vocabulary share of N": frame["vocabulary share of N"] * 100}
    )
    st.dataframe(shown, hide_index=True, width="stretch", column_config={
        "V": st.column_config.NumberColumn(format="localized"),
        "d": st.column_config.NumberColumn(format="localized"),
        "N": st.column_config.NumberColumn(format="localized"),
        "embedding params": st.column_config.NumberColumn(format="localized"),
        "output-layer params": st.column_config.NumberColumn(format="localized"),
        "vocabulary share of N": st.column_config.NumberColumn(format="%.1f%%"),
        "output multiply-adds per token": st.column_config.NumberColumn(format="localized"),
    })
    st.caption(
        "Sources. V and d come from each model's config.json on the Hugging Face Hub (vocab_size, and "
        "hidden_size or n_embd), as does tying; N is counted from the same file's shapes (layers × widths), "
        "as the released weights have."
    )
    st.markdown("\n".join(
        f"- **{widgets.md_escape(p.name)}**: {widgets.md_escape(p.repo)}"
        + (f" ({widgets.md_escape(p.note)})" if p.note else "")
        for p in vocab_cost.PRESETS
    ))
    csv_button(frame, "vocabulary_cost.csv", "wc_cost_csv", label="Table (CSV)")
