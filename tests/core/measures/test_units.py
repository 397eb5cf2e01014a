"""core.measures.units: the same text as words, characters, bytes and subwords; attention cost relative to the shortest."""

from __future__ import annotations

import pytest

from core.measures.units import relative_attention, unit_rows


def test_units_checked_by_hand() -> None:
    rows = unit_rows("Él dijo: ¡olé!", rule="letters", subwords=[("toy", 7, 500)])
    by_unit = {r.unit: r for r in rows}
    assert [r.unit for r in rows] == ["words", "characters", "bytes", "toy"]
    assert (by_unit["words"].length, by_unit["words"].vocab_size) == (3, 3)  # él, dijo, olé
    assert (by_unit["characters"].length, by_unit["characters"].vocab_size) == (14, 11)  # É l · d i j o : ¡ é !
    assert (by_unit["bytes"].length, by_unit["bytes"].vocab_size) == (17, 256)  # É, ¡, é are two bytes each
    assert (by_unit["toy"].length, by_unit["toy"].vocab_size, by_unit["toy"].kind) == (7, 500, "subwords")
    costs = dict(zip([r.unit for r in rows], relative_attention(rows), strict=True))
    assert costs["words"] == 1.0
    assert costs["bytes"] == pytest.approx((17 / 3) ** 2)
    assert costs["toy"] == pytest.approx((7 / 3) ** 2)


def test_whitespace_words_and_an_empty_text() -> None:
    rows = unit_rows("a  b\nb", rule="whitespace")
    assert rows[0].length == 3 and rows[0].vocab_size == 2
    empty = unit_rows("", rule="letters")
    assert [r.length for r in empty] == [0, 0, 0]
    assert relative_attention(empty) == [0.0, 0.0, 0.0]
