"""The characters table of the Unicode page: one row per grapheme cluster, one page at a time.

A megabyte of text is never turned into a million rows: the caller passes the cluster boundaries
(``core.text.unicode_info.grapheme_starts``) and asks for one page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.text.odd_chars import row_notes
from core.text.unicode_info import char_name, code_point, is_emoji, utf8, visible


@dataclass(frozen=True)
class CharRow:
    """One grapheme cluster of the text, as a row of the characters table."""

    index: int  # which grapheme, from 0
    start: int  # its first code point's offset
    text: str
    shown: str  # ``visible(text)``
    code_points: str  # "U+0065 U+0301"
    names: str  # "LATIN SMALL LETTER E + COMBINING ACUTE ACCENT"
    utf8_hex: str  # "65 CC 81"; "—" for a lone surrogate
    utf8_bytes: int
    flags: str  # short notes, "" for an ordinary character


def char_rows(
    text: str, starts: Sequence[int], first: int, count: int, *, confusable: frozenset[str] = frozenset()
) -> list[CharRow]:
    """Rows for graphemes ``first`` … ``first + count - 1`` (clipped to the text).

    ``confusable`` holds the characters ``flagged_chars`` found confusable in this text (that
    depends on the whole text, so the caller passes it in).

    >>> from core.text.unicode_info import grapheme_starts
    >>> [r.code_points for r in char_rows("ñe\\u0301", grapheme_starts("ñe\\u0301"), 0, 5)]
    ['U+00F1', 'U+0065 U+0301']
    """
    if first < 0 or count < 0:
        raise ValueError("first and count must be 0 or more")
    rows = []
    for index in range(first, min(first + count, len(starts))):
        start = starts[index]
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        grapheme = text[start:end]
        encoded = [utf8(ch) for ch in grapheme]
        data = b"".join(b if b is not None else "\ufffd".encode() for b in encoded)
        hex_parts = [b.hex(" ").upper() if b is not None else "—" for b in encoded]
        in_emoji = is_emoji(grapheme)
        notes = dict.fromkeys(
            note for ch in grapheme for note in row_notes(ch, in_emoji=in_emoji, confusable=confusable)
        )
        rows.append(
            CharRow(
                index, start, grapheme, visible(grapheme),
                " ".join(code_point(ch) for ch in grapheme),
                " + ".join(char_name(ch) for ch in grapheme),
                " | ".join(hex_parts), len(data), "; ".join(notes),
            )
        )
    return rows
