"""The counts table as objects: rows, formatting, bold best values."""

from __future__ import annotations

from core.measures.metrics import text_counts
from core.types import ADDED, Token
from ui.tables import counts_frame, counts_styler

TEXT = "hello world"
SHORT = text_counts(TEXT, [Token(1, b"hello", 0, 5), Token(2, b" world", 5, 11)])
LONG = text_counts(
    TEXT, [Token(9, b"<s>", 0, 0, ADDED), Token(1, b"hello", 0, 5), Token(3, b" ", 5, 6), Token(2, b"world", 6, 11)]
)


def test_frame_has_the_measures_with_units_and_one_column_per_tokenizer() -> None:
    frame = counts_frame({"A": SHORT, "B": LONG})
    assert list(frame.columns) == ["A", "B"]
    for label in ("tokens", "characters", "UTF-8 bytes", "words", "characters / token", "bytes / token",
                  "tokens / word", "unknown tokens", "added by the tokenizer (BOS, [CLS] …)"):
        assert label in frame.index
    assert frame.at["tokens", "B"] == 3
    assert frame.at["added by the tokenizer (BOS, [CLS] …)", "B"] == 1


def test_optional_rows_hide_when_all_zero() -> None:
    frame = counts_frame({"A": SHORT})
    assert "added by the tokenizer (BOS, [CLS] …)" not in frame.index
    assert "byte-fallback tokens" not in frame.index
    assert "unknown tokens" in frame.index  # always shown: lossiness is news either way


def test_styler_formats_and_bolds_the_best_value() -> None:
    big = text_counts("x" * 1_234_567, 1_000_000)
    styler = counts_styler(counts_frame({"A": SHORT, "B": LONG, "C": big}))
    page = styler.to_html()
    assert "1,234,567" in page and "1,000,000" in page
    assert "5.50" in page and "3.67" in page
    assert "—" in page  # unknown count of a tokenizer given as a bare number
    styles = styler._compute().ctx  # (row, col) -> [(prop, value), ...]
    frame = styler.data
    tokens_row = list(frame.index).index("tokens")
    bold = {col for (row, col), props in styles.items() if row == tokens_row and ("font-weight", "700") in props}
    assert bold == {0}  # A has the fewest tokens
    assert all(dtype == "float64" for dtype in frame.dtypes)  # numeric: Streamlit right-aligns it


def test_no_bold_when_all_equal() -> None:
    styler = counts_styler(counts_frame({"A": SHORT, "B": SHORT}))
    assert not any(("font-weight", "700") in props for props in styler._compute().ctx.values())
