"""The Language tax page's research views: validated pairs, the per-segment premium's distribution,
and the compression leaderboard (your own parallel corpus is the page's corpus, ``ui.tax.views``).

Each function draws into the current container. Counts come from ``ui.tax.views.measure`` (the
process-wide counts memo), statistics from ``core.tax.tax_stats``, figures from ``ui.tax.stats_figures``.
The leaderboard's tables and the per-segment premiums are kept in process-wide ``SizedCache``s
(bounded in memory).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.tax import tax_stats
from ui import export, state, uploads, widgets
from ui.bounded import SizedCache
from ui.kept_figures import kept
from ui.tax import figures as tf
from ui.tax import stats_figures as sf
from ui.tax.views import Choice, _memo_key, counts_memo, loaded_tokenizers, measure
from ui.widgets import md_escape

BOARD_MB = 32  # leaderboard tables of every corpus, together
BOARD_PICK = "lt_board_pick"  # the leaderboard's multiselect (state.LT_BOARD_TOKENIZERS keeps the choice)
PREMIUMS_MB = 32  # per-segment premiums (the Distribution tab) of every choice, together
ORDERS = {"median": "sorted by median", "corpus": "corpus order"}


def validation_sidebar() -> float | None:
    """The "validated pairs" switch and threshold in the sidebar; the threshold as a share, or None when off."""
    with st.sidebar:
        on = st.toggle("Validated pairs only", **state.kept(state.LT_VALIDATE),
                       help="Leave out language × tokenizer pairs whose unknown-token share is above the threshold: "
                            "a tokenizer that maps a script to unknown tokens looks cheap because it lost the text.")
        if on:
            st.number_input("Unknown tokens above (%)", min_value=0.0, max_value=100.0, step=1.0,
                            **state.kept(state.LT_UNKNOWN_MAX))
    return float(st.session_state[state.LT_UNKNOWN_MAX]) / 100.0 if on else None


def validate(table: pd.DataFrame, threshold: float | None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the table with a ``valid`` column, the rows a chart shows): invalid pairs are left out of the
    second unless they are the base's; without a threshold every pair is valid."""
    marked = tax_stats.validated(table, threshold=threshold if threshold is not None else 1.0)
    shown = marked[marked["valid"] | marked["is_base"]] if threshold is not None else marked
    return marked, shown


def left_out_note(marked: pd.DataFrame, threshold: float | None) -> None:
    """One caption naming the pairs validation left out (or nothing)."""
    out = marked[~marked["valid"] & ~marked["is_base"]]
    if threshold is None or out.empty:
        return
    pairs = [f"{row['name']} under {tf.short_name(row['tokenizer'], row['tokenizer_name'])}"
             for _, row in out.head(12).iterrows()]
    more = f" and {len(out) - 12:,} more" if len(out) > 12 else ""
    st.caption(md_escape(f"⚠ Left out ({len(out):,} pairs with more than {threshold:.0%} unknown tokens): "
                         f"{', '.join(pairs)}{more}."))


def distribution(choice: Choice, tokenizers: dict[str, Any], marked: pd.DataFrame, tokenizer: str) -> None:
    """Box plot of the per-segment premium under ``tokenizer``, and the table of medians and quartiles."""
    premiums = segment_premiums(choice, {_memo_key(key): key for key in tokenizers}, tokenizers)
    order = st.segmented_control("Boxes", list(ORDERS), format_func=ORDERS.__getitem__,
                                 **state.kept(state.LT_DIST_ORDER),
                                 required=True) or "median"
    figure = kept(sf.distribution_figure, premiums, marked, tokenizer, order=order, unit=choice.corpus.unit,
                  presenting=bool(st.session_state.get(state.PRESENTATION)))
    widgets.chart(figure, premiums[premiums["tokenizer"] == tokenizer], key="lt_distribution",
                  name=f"language_tax_distribution_{tokenizer}")
    st.caption(f"Each box is one language's premium {choice.corpus.unit} by {choice.corpus.unit} (its tokens over "
               f"the base's for the same {choice.corpus.unit}): the box holds the middle half, ◆ marks the median "
               "(hover a box or a ◆ for the values). "
               "Grey boxes marked ⚠ have more unknown tokens than the threshold.")
    summary = research_table(marked)  # core.tax.language_tax made the spread from the same counts
    st.dataframe(summary, hide_index=True, height=min(35 * (len(summary) + 1) + 3, 500), column_config={
        **{c: st.column_config.NumberColumn(c, format="%.2f×") for c in ("premium", "median", "q1", "q3")},
        "above 2×": st.column_config.NumberColumn(format="percent"),
        "unknown": st.column_config.NumberColumn(format="percent"),
    })
    st.download_button("Download the distribution table (CSV)", export.frame_csv(summary),
                       file_name="language_tax_distribution.csv", mime="text/csv", key="lt_dist_download",
                       on_click="ignore", icon=":material/download:")


@st.cache_resource(show_spinner=False)
def premium_frames() -> SizedCache[pd.DataFrame]:
    """Per-segment premiums by (corpus, fingerprint, base, languages, tokenizers), at most ``PREMIUMS_MB``."""
    return SizedCache(max_bytes=PREMIUMS_MB * 1_000_000, size=lambda frame: int(frame.memory_usage(deep=True).sum()))


def segment_premiums(choice: Choice, keys: dict[str, str], tokenizers: dict[str, Any]) -> pd.DataFrame:
    """``core.tax.tax_stats.segment_premiums`` for ``choice`` (``keys``: memo key → picker key), made once per
    process: every view of the page drew the Distribution tab's frame anew (0.2 s of its 1.1 s of CPU).
    Callers must not change the frame they get."""
    corpus = choice.corpus
    key = (corpus.key, corpus.fingerprint, choice.base, tuple(choice.languages), tuple(keys.items()))

    def compute() -> pd.DataFrame:
        def read() -> pd.DataFrame:
            return tax_stats.segment_premiums(corpus, counts_memo(), base=choice.base, languages=choice.languages,
                                              tokenizers=list(keys))

        try:
            premiums = read()
        except KeyError:  # another session's corpus pushed these counts out of the bounded memo: count again
            measure(choice, tokenizers, recount=True)
            premiums = read()
        return premiums.assign(tokenizer=premiums["tokenizer"].map(keys))

    return premium_frames().get(key, compute)


def research_table(table: pd.DataFrame) -> pd.DataFrame:
    """Per language and tokenizer: premium, median, quartiles, share above 2×, unknown share, validated."""
    return pd.DataFrame({
        "language": table["name"], "code": table["language"],
        "tokenizer": [tf.short_name(k, n) for k, n in zip(table["tokenizer"], table["tokenizer_name"], strict=True)],
        "premium": table["premium"], "median": table["median"], "q1": table["q1"], "q3": table["q3"],
        "above 2×": table["share_above_2x"], "unknown": table["unknown_share"],
        "validated": ["✓" if v else "✗ left out" for v in table["valid"]],
    })


@st.cache_resource(show_spinner=False)
def boards() -> SizedCache[pd.DataFrame]:
    """Leaderboard tables by (corpus, fingerprint, base, languages, tokenizers), at most ``BOARD_MB``."""
    return SizedCache(max_bytes=BOARD_MB * 1_000_000, size=lambda frame: int(frame.memory_usage(deep=True).sum()))


def leaderboard(choice: Choice, threshold: float | None = None) -> None:
    """Tokenizers × languages (every registry and uploaded tokenizer by default): a heatmap, its table and
    CSV; with a validation ``threshold``, the pairs above it are marked "⚠" and left out of the means."""
    names = uploads.names()
    chosen = st.session_state[state.LT_BOARD_TOKENIZERS]
    # the widget mirrors LT_BOARD_TOKENIZERS, which stays None while every tokenizer is picked, so a
    # link names the leaderboard's tokenizers only when someone narrowed them
    st.session_state[BOARD_PICK] = list(names) if chosen is None else [k for k in chosen if k in names]
    keys = st.multiselect("Tokenizers of the leaderboard", list(names), format_func=lambda k: names.get(k, k),
                          key=BOARD_PICK, on_change=_board_picked, args=(list(names),))
    value = st.segmented_control("Cells", list(sf.BOARD_VALUES), format_func=sf.BOARD_VALUES.__getitem__,
                                 **state.kept(state.LT_BOARD_VALUE), required=True) or "bytes_per_token"
    if not st.session_state[state.LT_BOARD]:
        if st.button("Build the leaderboard", key="lt_board_go", icon=":material/leaderboard:"):
            st.session_state[state.LT_BOARD] = True
            st.rerun()
        st.caption("Counts every chosen tokenizer on the chosen languages (once per server; then it is instant).")
        return
    tokenizers = loaded_tokenizers(tuple(keys))
    if not tokenizers:
        st.info("Pick at least one tokenizer that loads here.", icon=":material/info:")
        return
    key = (choice.corpus.key, choice.corpus.fingerprint, choice.base, choice.languages,
           tuple(_memo_key(k) for k in tokenizers))
    board = boards().get(key, lambda: _board(choice, tokenizers))
    matrix = tax_stats.leaderboard_matrix(board, value, unknown_max=threshold)
    left_out = tax_stats.leaderboard_left_out(board, threshold) if threshold is not None else None
    widgets.chart(sf.leaderboard_heatmap(board, matrix, value, left_out), board, key="lt_board_chart",
                  name=f"compression_leaderboard_{value}")
    st.dataframe(board_table(board, matrix, left_out), hide_index=True, key="lt_board_table",
                 height=min(35 * (len(matrix) + 1) + 3, 500))
    note = "" if left_out is None or not left_out.to_numpy(dtype=bool).any() else (
        f" ⚠: more than {threshold:.0%} unknown tokens, left out of the means (validated pairs).")
    st.caption(md_escape(
        f"Over the {choice.corpus.unit}s each language shares with {choice.corpus.language(choice.base).name}. "
        "Bytes and characters per token: higher is better compression; premium: lower is fairer. "
        "Rows are sorted by their mean, best first." + note))


def board_table(board: pd.DataFrame, matrix: pd.DataFrame, left_out: pd.DataFrame | None) -> pd.DataFrame:
    """The leaderboard's matrix as a table of names: a tokenizer column, one number column per language
    (blank where validation leaves the pair out), and then, if any pair is left out, a column naming
    each tokenizer's languages left out (``ui.tax.figures.LEFT_OUT``)."""
    names = board.drop_duplicates("language").set_index("language")["name"]
    tokenizer_names = board.drop_duplicates("tokenizer").set_index("tokenizer")["tokenizer_name"]
    table = matrix.round(2)
    table.columns = [str(names[c]) for c in matrix.columns]
    table.insert(0, "tokenizer", [tf.short_name(k, str(tokenizer_names[k])) for k in matrix.index])
    if left_out is not None:
        flags = left_out.reindex_like(matrix).fillna(False).astype(bool)
        if flags.to_numpy().any():
            table[tf.LEFT_OUT] = [", ".join(str(names[c]) for c in matrix.columns if flags.loc[k, c])
                                  for k in matrix.index]
    return table.reset_index(drop=True)


def _board_picked(names: list[str]) -> None:
    picked = list(st.session_state[BOARD_PICK])
    st.session_state[state.LT_BOARD_TOKENIZERS] = None if set(picked) == set(names) else picked


def _board(choice: Choice, tokenizers: dict[str, Any]) -> pd.DataFrame:
    # counts into the process-wide memo, with a progress bar
    return tax_stats.leaderboard_of(measure(choice, tokenizers))
