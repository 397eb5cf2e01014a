"""Where a tokenizer's round trip changes a text: the first stretch that ``decode(encode(text))`` gives
back differently, for the lossy flag to say what was lost and where.

>>> first_difference("El niño", "El nino")
Difference(at=5, lost='ñ', got='n')
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

SHOWN_CHARS = 12  # at most this many characters of each side: the flag stays one or two lines
WINDOW_CHARS = 64  # how far past the first unequal character the two texts are aligned again


@dataclass(frozen=True)
class Difference:
    """From character ``at`` of the text, ``lost`` (the text's characters) came back as ``got``."""

    at: int
    lost: str
    got: str


def first_difference(text: str, decoded: str) -> Difference | None:
    """The first place ``decoded`` differs from ``text``, or ``None`` when they are equal.

    Subtle: past the first unequal character the two are aligned again (``difflib`` on a short window),
    so "ñ" read as "n" is one character lost, not the rest of the text; each side is cut to
    ``SHOWN_CHARS``.

    >>> first_difference("a\\u200db", "ab")
    Difference(at=1, lost='\\u200d', got='')
    >>> first_difference("el niño juega", "el nino juega")
    Difference(at=5, lost='ñ', got='n')
    >>> first_difference("same", "same") is None
    True
    """
    if text == decoded:
        return None
    start = 0
    limit = min(len(text), len(decoded))
    while start < limit and text[start] == decoded[start]:
        start += 1
    ours, theirs = text[start : start + WINDOW_CHARS], decoded[start : start + WINDOW_CHARS]
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    _, i1, i2, j1, j2 = next(op for op in matcher.get_opcodes() if op[0] != "equal")
    return Difference(start + i1, ours[i1:i2][:SHOWN_CHARS], theirs[j1:j2][:SHOWN_CHARS])
