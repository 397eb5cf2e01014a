"""The spread line above the Playground's columns (ui/span_links.py)."""

from __future__ import annotations

from ui.span_links import spread


def test_spread_names_the_smallest_and_largest_and_the_gap() -> None:
    assert spread({"GPT-2": 52, "Llama 3": 41, "o200k": 44}) == "Tokens: 41 with Llama 3 to 52 with GPT-2, a gap of 27%."


def test_spread_of_equal_counts_one_column_and_an_empty_text() -> None:
    assert spread({"a": 3, "b": 3}) == "Tokens: 3 in every column."
    assert spread({"a": 3}) is None
    assert spread({"a": 0, "b": 2}) == "Tokens: 0 with a to 2 with b, a gap of ∞."
