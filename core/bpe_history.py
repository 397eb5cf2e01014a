"""The segmentations a text goes through as BPE merges apply, kept so any step is cheap to show.

Shared by ``core.bpe.BPETokenizer`` (keyed by merge rank) and ``core.bpe_replay`` (keyed by replay
step): each gives, per pre-token, its starting ids and the ids after every merge that touched it;
``History`` turns that into ``core.types.Token`` lists on demand. What this module does not do:
decide which merges happen (the callers do) or draw anything (``ui``).

>>> history = History([(0, [0, 1], [(-1, [104, 105]), (0, [256])])])
>>> info = {104: (b"h", 1, "text"), 105: (b"i", 1, "text"), 256: (b"hi", 2, "text")}
>>> [t.bytes for t in history.tokens(1, info)], history.changed(0, info)
([b'hi'], [(0, 2)])
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence

from core.types import Token

NEVER = 1 << 62  # the rank of a pair that is not a merge: larger than any real rank


def byte_owners(chunk: str) -> list[int]:
    """For each UTF-8 byte of ``chunk``, the index of the character it belongs to.

    >>> byte_owners("aé")
    [0, 1, 1]
    """
    if chunk.isascii():
        return list(range(len(chunk)))
    owners = []
    for i, char in enumerate(chunk):
        owners.extend([i] * len(char.encode()))
    return owners


class History:
    """Per pre-token, the segmentations it goes through, keyed by merge rank (or replay step).

    Subtle: identical pre-tokens share one computation, and a segmentation's ``Token`` objects are
    built the first time it is asked for; ``tokens(k)`` is then a bisect per pre-token.
    """

    def __init__(self, rows: list[tuple[int, list[int], list[tuple[int, list[int]]]]]) -> None:
        """``rows``: per pre-token its start, each unit's code point, and ``[(key, ids), ...]`` events
        whose first entry is ``(-1, starting ids)`` and whose keys then increase."""
        self.chunks: list[tuple[int, list[int], list[int], list[list[int]], list]] = []
        self.by_key: dict[int, list[int]] = {}
        for index, (start, owners, events) in enumerate(rows):
            keys = [k for k, _ in events[1:]]
            for k in keys:
                self.by_key.setdefault(k, []).append(index)
            segs = [seg for _, seg in events]
            self.chunks.append((start, owners, keys, segs, [None] * len(segs)))

    def tokens(self, limit: int, info: Sequence[tuple[bytes, int, str]] | Mapping) -> list[Token]:
        """All tokens once every event keyed below ``limit`` has happened."""
        out: list[Token] = []
        for index, (_, _, keys, _, built) in enumerate(self.chunks):
            at = bisect_left(keys, limit)
            made = built[at]
            if made is None:
                made = built[at] = self._build(index, at, info)
            out.extend(made)
        return out

    def changed(self, key: int, info: Sequence[tuple[bytes, int, str]] | Mapping) -> list[tuple[int, int]]:
        """Code-point spans of the tokens that the event ``key`` made."""
        spans: list[tuple[int, int]] = []
        for index in self.by_key.get(key, ()):
            at = self.chunks[index][2].index(key)
            before = {(t.start, t.end, t.id) for t in self._segment(index, at, info)}
            spans.extend(
                (t.start, t.end) for t in self._segment(index, at + 1, info) if (t.start, t.end, t.id) not in before
            )
        return sorted(set(spans))

    def _segment(self, index: int, at: int, info: Sequence | Mapping) -> list[Token]:
        built = self.chunks[index][4]
        if built[at] is None:
            built[at] = self._build(index, at, info)
        return built[at]

    def _build(self, index: int, at: int, info: Sequence | Mapping) -> list[Token]:
        start, owners, _, segs, _ = self.chunks[index]
        made, pos = [], 0
        for token_id in segs[at]:
            data, units, kind = info[token_id]
            made.append(Token(token_id, data, start + owners[pos], start + owners[pos + units - 1] + 1, kind))
            pos += units
        return made
