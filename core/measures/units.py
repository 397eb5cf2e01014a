"""The same text in different units: words, characters, bytes and subword tokens, and what each costs.

A smaller unit needs a smaller vocabulary but makes a longer sequence, and self-attention costs
grow with the square of the length: ``relative_attention`` gives that cost per unit, the shortest
sequence counted as 1. Pure counting; the subword lengths come from the caller (a sweep or a
tokenizer), so this module loads nothing.

>>> rows = unit_rows("a cat, a hat", rule="letters", subwords=[("BPE", 6, 300)])
>>> [(r.unit, r.length, r.vocab_size) for r in rows]
[('words', 4, 3), ('characters', 12, 6), ('bytes', 12, 256), ('BPE', 6, 300)]
>>> relative_attention(rows)
[1.0, 9.0, 9.0, 2.25]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.measures.wordstats import WORD_RULES, words
from core.text.textio import without_surrogates


@dataclass(frozen=True)
class UnitRow:
    """One way to cut the text: its length in units and the vocabulary that unit needs."""

    unit: str
    kind: str  # "words", "characters", "bytes" or "subwords"
    length: int
    vocab_size: int
    vocab_note: str


def unit_rows(text: str, *, rule: str, subwords: Sequence[tuple[str, int, int]] = ()) -> list[UnitRow]:
    """Words (under ``rule``), characters, bytes, then each ``(name, tokens, vocab_size)`` in ``subwords``."""
    text = without_surrogates(text)
    found = words(text, rule)
    rows = [
        UnitRow("words", "words", len(found), len(set(found)),
                f"distinct words in this text ({WORD_RULES[rule].label}); a word model needs every word it may meet"),
        UnitRow("characters", "characters", len(text), len(set(text)), "distinct characters in this text"),
        UnitRow("bytes", "bytes", len(text.encode()), 256, "every byte value: nothing is ever unknown"),
    ]
    rows += [UnitRow(name, "subwords", int(tokens), int(size), "the tokenizer's vocabulary") for name, tokens, size in subwords]
    return rows


def relative_attention(rows: Sequence[UnitRow]) -> list[float]:
    """Self-attention cost of each row relative to the shortest non-empty one: (length / shortest)²."""
    lengths = [r.length for r in rows if r.length > 0]
    if not lengths:
        return [0.0 for _ in rows]
    shortest = min(lengths)
    return [(r.length / shortest) ** 2 for r in rows]
