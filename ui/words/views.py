"""The "Word statistics" and "Vocabulary cost" tabs of "Words & compression", and the chart helpers.

Each section draws into the current container, reads its widgets' values from session state (keys in
``ui.state``), calls ``ui.words.cache`` for anything expensive and draws figures from
``ui.words.figures``. Every chart has a CSV download of its data next to it. The compression and
units tabs are in ``ui.words.sweep_views``.
"""

from __future__ import annotations

import streamlit as st

from core.measures import vocab_cost, wordstats
from ui import state, widgets
from ui.words import cache
from ui.words import figures as fig
from ui.words.cache import CorpusData

RANK_STOPS = (1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1_000, 2_000, 3_000, 5_000, 10_000, 20_000,
              30_000, 50_000, 100_000, 200_000, 500_000, 1_000_000)
ZIPF_WIDGET = "wc_zipf_window_slider"  # the slider's own key; the window lives in state.WC_ZIPF_WINDOW
HEAPS_STARTS = (0, 1, 10, 100, 1_000, 10_000)  # 0: core.measures.wordstats.heaps_start's rule


# -- word statistics ----------------------------------------------------------------------------------


def word_section(data: CorpusData) -> None:
    """Counts, Zipf, Heaps and the OOV curve of the corpus under the word rule picked here."""
    rules = wordstats.WORD_RULES
    rule = st.radio("What is a word?", list(rules), format_func=lambda k: rules[k].label,
                    **state.kept(state.WC_RULE),
                    horizontal=True)
    st.caption(f"Rule: {rules[rule].description}.")
    report = cache.word_report(data, rule)
    stats = report.stats
    if stats.tokens < 2:
        st.info("This text has fewer than two words under this rule: pick a longer corpus.", icon=":material/info:")
        return
    cols = st.columns(4)
    cols[0].metric("Words (tokens)", f"{stats.tokens:,}")
    cols[1].metric("Distinct words (types)", f"{stats.types:,}", help="Type/token ratio: "
                   f"{stats.types / stats.tokens:.3f}")
    cols[2].metric("Hapax legomena", f"{stats.hapax:,}", help="Words that occur exactly once.")
    cols[3].metric("Hapax share of types", f"{stats.hapax_share_of_types:.1%}",
                   help=f"Hapax legomena are {stats.hapax_share_of_tokens:.1%} of all words.")
    st.caption(f"Every count above: words by the rule “{rules[rule].label}”.")
    zipf_col, heaps_col = widgets.columns(2, gap="large")
    with zipf_col:
        _zipf(stats, rules[rule].label)
    with heaps_col:
        _heaps(stats, rules[rule].label)
    if report.oov is None:
        st.info("The held-out part has no words, so there is no out-of-vocabulary rate to show.", icon=":material/info:")
        return
    widgets.chart(fig.oov_figure(report.oov), fig.oov_frame(report.oov), key="wc_oov_chart", name="oov_rate")
    st.caption(
        f"A word vocabulary of the V most frequent words of the first 90 %, on the {report.oov.heldout_tokens:,} "
        f"words of the held-out 10 % (words by the rule “{rules[rule].label}”). However large V, the dotted floor "
        "remains: words never seen in training "
        "(names, rare forms, typos). Subwords close that gap: any word can be spelled from smaller pieces."
    )


def _zipf(stats: wordstats.WordStats, rule: str) -> None:
    slot = st.container()  # the chart goes above the slider, level with Heaps' chart beside it
    methods = wordstats.ZIPF_METHODS
    # subtle: a select_slider is a range slider only when given a range as value=, so the widget has a
    # key of its own, seeded from the page's state key and copied back to it on change (as ui.nav does)
    st.select_slider("Fit window (ranks)", options=RANK_STOPS, value=st.session_state[state.WC_ZIPF_WINDOW],
                     key=ZIPF_WIDGET, on_change=_remember_window,
                     help="Drag either end to fit Zipf's line over other ranks (the shaded band).")
    method = st.radio("Zipf's fit through", list(methods),
                      **state.kept(state.WC_ZIPF_METHOD), horizontal=True,
                      format_func=lambda k: methods[k][0],
                      help=" ".join(f"{label.capitalize()}: {how}." for label, how in methods.values()))
    lo, hi = st.session_state[state.WC_ZIPF_WINDOW]
    try:
        fit = wordstats.zipf_fit(stats, lo, hi, method=method)
    except ValueError:
        fit = None
    with slot:
        widgets.chart(fig.zipf_figure(stats, fit, (lo, hi)), fig.zipf_frame(stats), key="wc_zipf_chart",
                      name="zipf_ranks")
    if fit is None:
        st.info(f"The window needs two ranks or more within the {_words(stats.types, 'distinct word')}: move it left.",
                icon=":material/info:")
    else:
        clamp = f" (the text has {stats.types:,})" if hi > stats.types else ""
        through = "every rank in the window" if method == "every_rank" else f"{len(fit.x)} log-spaced ranks"
        st.caption(
            f"Slope **{fit.exponent:.2f}** (R² {fit.r2:.3f}), a least-squares fit through {through}, ranks from "
            f"{int(fit.x[0]):,} to {int(fit.x[-1]):,}{clamp}; words by the rule “{rule}”. "
            "Zipf's law says about −1: the 2nd word occurs half as often as the 1st, the 10th a tenth as often."
        )


def _words(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _remember_window() -> None:
    st.session_state[state.WC_ZIPF_WINDOW] = tuple(st.session_state[ZIPF_WIDGET])


def _heaps(stats: wordstats.WordStats, rule: str) -> None:
    slot = st.container()
    st.selectbox("Heaps' fit starts at", HEAPS_STARTS,
                 **state.kept(state.WC_HEAPS_START), format_func=_start_label,
                 help="The first words of a text are nearly all new, which bends the curve; the fit starts "
                      f"further in. Automatic: {wordstats.TEXTBOOK_HEAPS_START:,} words in once the text has "
                      f"{wordstats.TEXTBOOK_HEAPS_MIN_TOKENS:,} (the textbook's start), else 100 (fewer in a tiny text).")
    start = st.session_state[state.WC_HEAPS_START] or None
    try:
        heaps = wordstats.heaps_fit(stats, start=start)
    except ValueError as exc:
        heaps = None
        st.info(widgets.sentence(f"{exc}: pick an earlier start"), icon=":material/info:")
    with slot:
        widgets.chart(fig.heaps_figure(stats, heaps), fig.heaps_frame(stats, heaps), key="wc_heaps_chart",
                      name="heaps_curve")
    if heaps is not None:
        st.caption(
            f"β = **{heaps.exponent:.2f}**, K = {heaps.constant:.2f} (R² {heaps.r2:.4f}), a least-squares fit "
            f"through the {len(heaps.x)} log-spaced points marked, from {int(heaps.x[0]):,} to {int(heaps.x[-1]):,} "
            f"words read; words by the rule “{rule}”. A fit over every position would be ruled "
            "by the tail. β below 1: new words slow down but never stop."
        )


def _start_label(start: int) -> str:
    return "automatic" if start == 0 else f"word {start:,}"


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
    cols[0].selectbox("Start from", names, format_func=lambda n: n or "your own figures",
                      **state.kept(state.WC_PRESET),
                      on_change=_apply_preset)
    cols[1].number_input("Vocabulary V", min_value=1, step=1_000,
                         **state.kept(state.WC_V), on_change=_to_custom)
    cols[2].number_input("Width d", min_value=1, step=128, **state.kept(state.WC_D), on_change=_to_custom)
    cols[3].number_input("Parameters N (0: unknown)", min_value=0, step=1_000_000, **state.kept(state.WC_N),
                         on_change=_to_custom)
    cols[4].toggle("Tied", **state.kept(state.WC_TIED), on_change=_to_custom,
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
    widgets.chart(fig.vocab_cost_figure(vocab_cost.PRESETS), frame, key="wc_cost_chart", name="vocabulary_cost")
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
