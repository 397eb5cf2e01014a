"""Which token holds which digit of a number, by place value (ones, tens, hundreds, …).

Works on any tokenizer's ``Token``s through their offsets: a digit belongs to the token whose span
covers it, so GPT-2's " 2026" (space and digits in one token) and Llama 2's single digits are
read the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import regex

from core.types import ADDED, Token

_NUMBER = regex.compile(r"\d+")


@dataclass(frozen=True)
class DigitCell:
    """One digit: its character, its place (0 = ones), and the token holding it."""

    digit: str
    place: int
    token_index: int  # position in the token list
    token_id: int


def number_spans(text: str) -> list[tuple[int, int]]:
    """Code-point spans of the digit runs of ``text``.

    >>> number_spans("in 2026, 1597 of")
    [(3, 7), (9, 13)]
    """
    return [match.span() for match in _NUMBER.finditer(text)]


def place_cells(tokens: Sequence[Token], start: int, end: int, text: str) -> list[DigitCell]:
    """The digits of ``text[start:end]`` with their place and the token that holds each.

    >>> toks = [Token(1, b"202", 0, 3), Token(2, b"6", 3, 4)]
    >>> [(c.digit, c.place, c.token_index) for c in place_cells(toks, 0, 4, "2026")]
    [('2', 3, 0), ('0', 2, 0), ('2', 1, 0), ('6', 0, 1)]
    """
    owner: dict[int, int] = {}
    for index, token in enumerate(tokens):
        if token.kind == ADDED or token.end <= start or token.start >= end:
            continue
        for position in range(max(token.start, start), min(token.end, end)):
            owner.setdefault(position, index)
    width = end - start
    return [
        DigitCell(text[position], width - 1 - (position - start), owner.get(position, -1),
                  tokens[owner[position]].id if position in owner else -1)
        for position in range(start, end)
    ]


def groups(cells: Sequence[DigitCell]) -> list[str]:
    """The digits of each token, in order: how the number is cut.

    >>> groups([DigitCell("2", 3, 0, 1), DigitCell("0", 2, 0, 1), DigitCell("2", 1, 0, 1), DigitCell("6", 0, 1, 2)])
    ['202', '6']
    """
    out: list[str] = []
    previous = None
    for cell in cells:
        if cell.token_index != previous or not out:
            out.append(cell.digit)
        else:
            out[-1] += cell.digit
        previous = cell.token_index
    return out
