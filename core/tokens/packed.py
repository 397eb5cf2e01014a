"""A compact, read-only sequence of ``Token``s: what a cached analysis keeps instead of a tuple.

A ``Token`` object costs about 190 bytes of memory (the tuple, its ints, its ``bytes``); a 1 MB text
is 250,000-450,000 of them, so one analysis of it holds ~80 MB. ``PackedTokens`` keeps the same
tokens in flat arrays (ids, starts, ends, kinds, and all bytes joined in one ``bytes`` with the cut
points): about 20 bytes a token. Tokens are rebuilt on access, so it reads like the tuple it
replaces: ``len``, indexing, slicing (a ``PackedTokens`` again), iteration, equality with any
sequence of tokens. ``ids`` gives the ids array without building tokens.

>>> packed = PackedTokens([Token(15496, b"Hello", 0, 5), Token(995, b" world", 5, 11)])
>>> packed[1], len(packed), list(packed.ids)
(Token(id=995, bytes=b' world', start=5, end=11, kind='text'), 2, [15496, 995])
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate
from operator import itemgetter
from typing import overload

from core.types import ADDED, BYTE_FALLBACK, SPECIAL, TEXT, UNKNOWN, Token

_KINDS = (TEXT, SPECIAL, ADDED, UNKNOWN, BYTE_FALLBACK)
_CODE = {kind: code for code, kind in enumerate(_KINDS)}


class PackedTokens(Sequence[Token]):
    """Tokens in flat arrays; immutable, so it is safe to share between sessions."""

    __slots__ = ("_blob", "_cuts", "_ends", "_ids", "_kinds", "_starts")

    def __init__(self, tokens: Iterable[Token] = ()) -> None:
        tokens = tokens if isinstance(tokens, (list, tuple)) else list(tokens)
        # subtle: one pass per field through itemgetter is several times faster than zip(*tokens)
        self._ids = array("i", map(itemgetter(0), tokens))
        self._blob = b"".join(map(itemgetter(1), tokens))
        self._cuts = array("i", accumulate(map(len, map(itemgetter(1), tokens)), initial=0))
        self._starts = array("i", map(itemgetter(2), tokens))
        self._ends = array("i", map(itemgetter(3), tokens))
        kinds = list(map(itemgetter(4), tokens))
        # almost every token is TEXT; a text without other kinds stores no kind array at all
        self._kinds = None if kinds.count(TEXT) == len(kinds) else bytes(_CODE[kind] for kind in kinds)

    @classmethod
    def _parts(cls, ids: array, starts: array, ends: array, blob: bytes, cuts: array, kinds: bytes | None) -> PackedTokens:
        packed = cls.__new__(cls)
        packed._ids, packed._starts, packed._ends = ids, starts, ends
        packed._blob, packed._cuts, packed._kinds = blob, cuts, kinds
        return packed

    def __len__(self) -> int:
        return len(self._ids)

    @overload
    def __getitem__(self, index: int) -> Token: ...

    @overload
    def __getitem__(self, index: slice) -> PackedTokens: ...

    def __getitem__(self, index: int | slice) -> Token | PackedTokens:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return PackedTokens([self[i] for i in range(start, stop, step)])
            stop = max(start, stop)
            first, last = self._cuts[start], self._cuts[stop]
            cuts = self._cuts[start : stop + 1]
            if first:  # rebased to the sliced bytes (a head slice, the common one, needs nothing)
                cuts = array("i", (cut - first for cut in cuts))
            kinds = None if self._kinds is None else self._kinds[start:stop]
            return PackedTokens._parts(self._ids[start:stop], self._starts[start:stop], self._ends[start:stop],
                                       self._blob[first:last], cuts, kinds)
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("token index out of range")
        kind = TEXT if self._kinds is None else _KINDS[self._kinds[index]]
        data = self._blob[self._cuts[index] : self._cuts[index + 1]]
        return Token(self._ids[index], data, self._starts[index], self._ends[index], kind)

    def __iter__(self) -> Iterator[Token]:
        blob, cuts = self._blob, self._cuts
        kinds = self._kinds
        for i, (token_id, start, end) in enumerate(zip(self._ids, self._starts, self._ends, strict=True)):
            kind = TEXT if kinds is None else _KINDS[kinds[i]]
            yield Token(token_id, blob[cuts[i] : cuts[i + 1]], start, end, kind)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PackedTokens({len(self):,} tokens, {self.nbytes:,} bytes)"

    @property
    def ids(self) -> Sequence[int]:
        """The token ids, without building any ``Token``."""
        return self._ids

    @property
    def nbytes(self) -> int:
        """The memory the arrays hold (what a size-bounded cache counts)."""
        arrays = (self._ids, self._starts, self._ends, self._cuts)
        return sum(a.itemsize * len(a) for a in arrays) + len(self._blob) + len(self._kinds or b"")
