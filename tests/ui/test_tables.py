"""The counts table as strings: rows, formatting, bold best values, names that stay text."""

from __future__ import annotations

import sys

from core.measures.metrics import text_counts
from core.types import ADDED, Token
from ui.tables import MISSING, counts_cells, counts_markdown

TEXT = "hello world"
SHORT = text_counts(TEXT, [Token(1, b"hello", 0, 5), Token(2, b" world", 5, 11)])
LONG = text_counts(
    TEXT, [Token(9, b"<s>", 0, 0, ADDED), Token(1, b"hello", 0, 5), Token(3, b" ", 5, 6), Token(2, b"world", 6, 11)]
)


def test_cells_have_the_measures_with_units_and_one_cell_per_tokenizer() -> None:
    cells = counts_cells({"A": SHORT, "B": LONG})
    for label in ("tokens", "characters", "UTF-8 bytes", "words", "characters / token", "bytes / token",
                  "tokens / word", "unknown tokens", "added by the tokenizer (BOS, [CLS] …)"):
        assert label in cells
        assert len(cells[label]) == 2
    assert cells["tokens"][1].text == "3"
    assert cells["added by the tokenizer (BOS, [CLS] …)"][1].text == "1"


def test_optional_rows_hide_when_all_zero() -> None:
    cells = counts_cells({"A": SHORT})
    assert "added by the tokenizer (BOS, [CLS] …)" not in cells
    assert "byte-fallback tokens" not in cells
    assert "unknown tokens" in cells  # always shown: lossiness is news either way


def test_cells_format_and_bold_the_best_value() -> None:
    big = text_counts("x" * 1_234_567, 1_000_000)
    cells = counts_cells({"A": SHORT, "B": LONG, "C": big})
    shown = [cell.text for row in cells.values() for cell in row]
    assert "1,234,567" in shown and "1,000,000" in shown
    assert "5.50" in shown and "3.67" in shown
    assert cells["unknown tokens"][2].text == MISSING  # unknown count of a tokenizer given as a bare number
    assert [cell.best for cell in cells["tokens"]] == [True, False, False]  # A has the fewest tokens
    assert [cell.best for cell in cells["characters / token"]] == [True, False, False]  # the most per token
    assert not any(cell.best for cell in cells["characters"])  # no best: the same text for all


def test_no_bold_when_all_equal() -> None:
    cells = counts_cells({"A": SHORT, "B": SHORT})
    assert not any(cell.best for row in cells.values() for cell in row)
    assert "**" not in counts_markdown({"A": SHORT, "B": SHORT})


def test_markdown_is_one_table_with_right_aligned_numbers_and_bold_best() -> None:
    lines = counts_markdown({"A": SHORT, "B": LONG}).splitlines()
    assert lines[0] == "| | A | B |"
    assert lines[1] == "| :-- | --: | --: |"  # labels left, numbers right
    assert lines[2] == "| tokens | **2** | 3 |"
    assert len(lines) == 2 + len(counts_cells({"A": SHORT, "B": LONG}))


def test_markdown_keeps_a_file_name_as_text() -> None:
    """An uploaded tokenizer's name is its file's name: a link, an image or a ``|`` must stay text."""
    header = counts_markdown({"![t](x.png) [a](b) c|d_1.txt": SHORT}).splitlines()[0]
    assert header == r"| | \!\[t\]\(x\.png\) \[a\]\(b\) c\|d\_1\.txt |"


def test_a_line_break_in_a_name_does_not_end_the_row() -> None:
    lines = counts_markdown({"a\nb\r\nc.txt": SHORT}).splitlines()
    assert lines[0] == r"| | a b  c\.txt |"
    assert len(lines) == 2 + len(counts_cells({"x": SHORT}))


def test_drawing_the_table_needs_no_pandas() -> None:
    """st.table converts through pandas and pyarrow: about 0.4 s of a fresh server's first Playground visit."""
    import subprocess

    code = "import sys, ui.tables; print(sorted(m for m in ('pandas', 'numpy', 'pyarrow') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
