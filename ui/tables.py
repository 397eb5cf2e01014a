"""The counts table: one row per measure, one column per tokenizer, best value in a row in bold.

``counts_cells`` (the formatted cells) and ``counts_markdown`` (the table as GitHub-flavored Markdown)
are pure, tested as strings; ``counts_table`` draws it.

Subtle: drawn as a Markdown table, not with ``st.table``: ``st.table`` converts its data through pandas
and pyarrow, and importing pandas with its Styler was about 0.4 s of a fresh server's first Playground
visit (issue 21, item 9). Nothing here imports pandas or numpy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import streamlit as st

from core.measures.metrics import TextCounts
from ui.widgets import md_escape

MISSING = "—"  # a value a tokenizer does not have (an unknown count when only a token count was given)


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


@dataclass(frozen=True)
class Cell:
    """One value as shown: thousands separators, two decimals for ratios, "—" when missing; ``best`` is bold."""

    text: str
    best: bool = False


def visible_rows(columns: Mapping[str, TextCounts]) -> tuple[Row, ...]:
    """The rows to show: optional rows only when some tokenizer has a non-zero value in them."""
    return tuple(
        row for row in ROWS
        if not row.optional or any(getattr(counts, row.field) for counts in columns.values())
    )


def counts_cells(columns: Mapping[str, TextCounts]) -> dict[str, list[Cell]]:
    """Per visible row (by label), one cell per tokenizer in the order of ``columns``.

    Subtle: a row's best value is bold only when the values differ; a tie everywhere is no news.

    >>> from core.measures.metrics import text_counts
    >>> counts_cells({"A": text_counts("ab", 1), "B": text_counts("ab", 2)})["tokens"]
    [Cell(text='1', best=True), Cell(text='2', best=False)]
    """
    cells = {}
    for row in visible_rows(columns):
        values = [getattr(counts, row.field) for counts in columns.values()]
        present = [value for value in values if value is not None]
        target = None
        if row.best and len(set(present)) > 1:
            target = min(present) if row.best == "min" else max(present)
        pattern = "{:,.2f}" if row.ratio else "{:,.0f}"
        cells[row.label] = [
            Cell(MISSING if value is None else pattern.format(value), target is not None and value == target)
            for value in values
        ]
    return cells


def counts_markdown(columns: Mapping[str, TextCounts]) -> str:
    """The table in GitHub-flavored Markdown: a column of labels, then one right-aligned column per tokenizer.

    Every name and label is Markdown-escaped (an uploaded tokenizer's name is its file's name, and
    ``|`` would end a cell), so it shows as written, a line break in it as a space.
    """
    # a line break would end the row (a file's name may hold one): a space instead
    names = [md_escape(name).replace("\r", " ").replace("\n", " ") for name in columns]
    lines = [
        "| | " + " | ".join(names) + " |",
        "| :-- | " + " | ".join("--:" for _ in names) + " |",
    ]
    for label, cells in counts_cells(columns).items():
        shown = [f"**{cell.text}**" if cell.best else cell.text for cell in cells]
        lines.append(f"| {md_escape(label)} | " + " | ".join(shown) + " |")
    return "\n".join(lines)


def counts_table(columns: Mapping[str, TextCounts]) -> None:
    """Draw the Playground's counts table for ``columns`` (tokenizer name → counts); once per page run."""
    if not columns:
        return
    st.container(key="pg_counts_table").markdown(counts_markdown(columns))  # styled in assets/spans.css
