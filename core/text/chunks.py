"""Pre-token chunks as data the span renderer draws, and cuts that report a bad pattern as a value.

``cut`` runs ``core.text.pretokenize.split`` and keeps an invalid or runaway pattern's message instead of
raising, so a page can show it next to the pattern (and a cache can keep it). ``chunk_tokens``
turns chunk spans into ``Token``s (id = the chunk's number, from 1), so chunks are drawn by the one span
renderer (``ui.spans.render_spans``): neighbouring chunks get different colors, and a hover
shows the chunk's bytes.

What this module does not do: define the patterns (``core.text.patterns``) or cut (``core.text.pretokenize``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.text.pretokenize import split
from core.text.textio import without_surrogates
from core.types import Token


@dataclass(frozen=True)
class Cut:
    """A text cut by one pattern: the chunk spans, or the one-line reason it could not be cut."""

    name: str
    pattern: str
    spans: tuple[tuple[int, int], ...]
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error


def cut(text: str, pattern: str, *, name: str) -> Cut:
    """``text`` cut by ``pattern``; an invalid pattern or one that runs out of time gives ``error``.

    >>> cut("Hi there", r"\\w+", name="words").spans
    ((0, 2), (2, 3), (3, 8))
    >>> cut("x", "(", name="bad").error
    'invalid pattern: missing ) at position 1'
    """
    try:
        return Cut(name, pattern, tuple(split(text, pattern)))
    except ValueError as exc:  # an invalid pattern, or PatternTimeout
        return Cut(name, pattern, (), str(exc))


def chunk_tokens(text: str, spans: Sequence[tuple[int, int]]) -> list[Token]:
    """One ``Token`` per chunk: id = its number counted from 1, bytes = its UTF-8 (a lone surrogate
    as U+FFFD), so a tooltip's "id" reads as the chunk's number.

    >>> chunk_tokens("ab c", [(0, 2), (2, 4)])
    [Token(id=1, bytes=b'ab', start=0, end=2, kind='text'), Token(id=2, bytes=b' c', start=2, end=4, kind='text')]
    """
    clean = without_surrogates(text)
    return [Token(index, clean[start:end].encode(), start, end) for index, (start, end) in enumerate(spans, 1)]
