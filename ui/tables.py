"""The counts table: one row per measure, one column per tokenizer, best value in a row in bold.

``counts_frame`` and ``counts_styler`` are pure (a DataFrame and its Styler), tested as objects;
``counts_table`` draws them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from core.measures.metrics import TextCounts
from ui.widgets import md_escape


@dataclass(frozen=True)
class Row:
    """One measure: its label (with unit), how to read it from TextCounts, and which value is best."""

    label: str
    field: str
    ratio: bool = False
    best: str | None = None  # "min", "max" or None (no best: the same for every tokenizer)
    optional: bool = False  # shown only when some tokenizer has a non-zero value


ROWS = (
    Row("tokens", "tokens", best="min"),
    Row("added by the tokenizer (BOS, [CLS] …)", "added", optional=True),
    Row("special tokens read from the text", "special", optional=True),
    Row("unknown tokens", "unknown", best="min"),
    Row("byte-fallback tokens", "byte_fallback", optional=True),
    Row("characters", "characters"),
    Row("UTF-8 bytes", "utf8_bytes"),
    Row("words", "words"),
    Row("characters / token", "chars_per_token", ratio=True, best="max"),
    Row("bytes / token", "bytes_per_token", ratio=True, best="max"),
    Row("tokens / word", "tokens_per_word", ratio=True, best="min"),
)


def visible_rows(columns: Mapping[str, TextCounts]) -> tuple[Row, ...]:
    """The rows to show: optional rows only when some tokenizer has a non-zero value in them."""
    return tuple(
        row for row in ROWS
        if not row.optional or any(getattr(counts, row.field) for counts in columns.values())
    )


def counts_frame(columns: Mapping[str, TextCounts]) -> pd.DataFrame:
    """Rows are measures (labels with units), columns are tokenizer names; missing values are NaN.

    Subtle: every column is float64 even for counts, because Streamlit right-aligns a column only
    when its dtype is numeric, and a column mixing ints and ratios would be ``object``; the Styler
    shows counts without decimals.
    """
    rows = visible_rows(columns)
    data = {
        name: [float("nan") if getattr(counts, row.field) is None else getattr(counts, row.field) for row in rows]
        for name, counts in columns.items()
    }
    return pd.DataFrame(data, index=[row.label for row in rows], dtype="float64")


def counts_styler(frame: pd.DataFrame) -> Styler:
    """Thousands separators, two decimals for ratios, "—" for missing, the best value in a row bold.

    Subtle: a row's best value is bold only when the values differ; a tie everywhere is no news.
    """
    by_label = {row.label: row for row in ROWS}
    styler = frame.style
    # one format call per kind of row, one frame of styles: a call per row was a third of a warm Playground run
    for ratio, pattern in ((True, "{:,.2f}"), (False, "{:,.0f}")):
        labels = [label for label in frame.index if by_label[label].ratio == ratio]
        if labels:
            styler = styler.format(pattern, subset=pd.IndexSlice[labels, :], na_rep="—")
    cells = []
    for label, values in zip(frame.index, frame.to_numpy(), strict=True):
        row, present = by_label[label], values[~np.isnan(values)]
        target = None
        if row.best and len(np.unique(present)) > 1:
            target = present.min() if row.best == "min" else present.max()
        cells.append(["font-weight: 700" if target is not None and value == target else "" for value in values])
    bold = pd.DataFrame(cells, index=frame.index, columns=frame.columns)
    return styler.apply(lambda _: bold, axis=None)


def counts_table(columns: Mapping[str, TextCounts]) -> None:
    """Draw the counts table for ``columns`` (tokenizer name → counts)."""
    if not columns:
        return
    # st.table renders headers as Markdown, and an uploaded tokenizer's name is its file's name
    st.table(counts_styler(counts_frame({md_escape(name): counts for name, counts in columns.items()})))
