"""The segmentations a text goes through as BPE merges apply, kept so any step is cheap to show.

Shared by ``core.bpe.BPETokenizer`` (keyed by merge rank) and ``core.bpe.replay`` (keyed by replay
step): ``merge_lowest_first`` runs the merges of one pre-token, and ``History`` keeps, per pre-token,
its starting ids and the merges that touched it, and turns them into ``core.types.Token`` lists on
demand. What this module does not do: decide which pairs merge (the callers give the ranks) or draw
anything (``ui``).

>>> history = History([(0, [0, 1], Merges([104, 105], [(0, 0, 1, 2, 256)]))])
>>> info = {104: (b"h", 1, "text"), 105: (b"i", 1, "text"), 256: (b"hi", 2, "text")}
>>> [t.bytes for t in history.tokens(1, info)], history.changed(0, info)
([b'hi'], [(0, 2)])
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from heapq import heapify, heappop, heappush

from core.types import Token

NEVER = 1 << 62  # the rank of a pair that is not a merge: larger than any real rank
CACHE_UNITS = 64  # pre-tokens up to this long keep every step's Token list they were asked for

# One merge inside a pre-token: (key, first unit, first unit of the right part, end unit, new id).
Merge = tuple[int, int, int, int, int]
Info = Sequence[tuple[bytes, int, str]] | Mapping[int, tuple[bytes, int, str]]


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


def merge_lowest_first(
    ids: Sequence[int],
    pair_rank: Callable[[int, int, int, int, int], int],
    *,
    id_offset: int = 0,
    skip: Callable[[], bool] | None = None,
) -> tuple[list[int], list[Merge]]:
    """Merge the adjacent pair of lowest rank (the leftmost on a tie) until no pair has a rank.

    ``pair_rank(first, mid, end, left_id, right_id)`` is the rank of the parts ``[first, mid)`` and
    ``[mid, end)`` (in units of ``ids``), or ``NEVER``; the new part's id is ``rank + id_offset``.
    Returns the final ids and every merge ``(rank, first, mid, end, new_id)`` in the order made.

    Subtle: O(n log n), as fast BPE encoders do it: a heap of ``(rank, first, end)`` over a linked
    list of parts, with lazy invalidation. Parts only grow, so ``(first, end)`` names one pair for
    good: an entry is stale exactly when ``first`` no longer starts a part or the part after it no
    longer ends at ``end``. Ordering by ``(rank, first)`` is "lowest rank, then leftmost".

    ``skip`` is BPE-dropout: each time a merge is about to apply, ``skip()`` may say no to it. A merge
    said no to waits aside and is back in the race once another merge has applied (as in Hugging
    Face tokenizers' BPE); when every merge left was said no to, merging ends.

    >>> merge_lowest_first([1, 1, 1], lambda f, m, e, a, b: 0 if (a, b) == (1, 1) else NEVER, id_offset=9)
    ([9, 1], [(0, 0, 1, 2, 9)])
    """
    n = len(ids)
    part = list(ids)  # part[s]: id of the part starting at unit s (while s starts one)
    ends = list(range(1, n + 1))
    prevs = list(range(-1, n - 1))
    live = [True] * n
    heap = []
    for s in range(n - 1):
        rank = pair_rank(s, s + 1, s + 2, part[s], part[s + 1])
        if rank < NEVER:
            heap.append((rank, s, s + 2))
    heapify(heap)
    merges: list[Merge] = []
    skipped: list[tuple[int, int, int]] = []
    while heap:
        entry = heappop(heap)
        rank, first, end = entry
        mid = ends[first] if live[first] else n
        if mid >= n or ends[mid] != end:
            continue  # stale: one of its parts has merged with something else since
        if skip is not None:
            if skip():
                skipped.append(entry)
                continue
            for waiting in skipped:
                heappush(heap, waiting)
            skipped.clear()
        new_id = rank + id_offset
        live[mid] = False
        ends[first], part[first] = end, new_id
        merges.append((rank, first, mid, end, new_id))
        before = prevs[first]
        if before >= 0:
            pushed = pair_rank(before, first, end, part[before], new_id)
            if pushed < NEVER:
                heappush(heap, (pushed, before, end))
        if end < n:
            prevs[end] = first
            pushed = pair_rank(first, end, ends[end], new_id, part[end])
            if pushed < NEVER:
                heappush(heap, (pushed, first, ends[end]))
    final, s = [], 0
    while s < n:
        final.append(part[s])
        s = ends[s]
    return final, merges


@dataclass(eq=False)
class Merges:
    """One pre-token's starting ids and its merges, keys never decreasing; shared by equal pre-tokens.

    Subtle: this is all a history keeps, O(length) per pre-token. Segmentation ``at`` (after the first
    ``at`` merges) is found by walking the parts from unit 0: the tokens that start at one unit are
    nested, each later one longer, so the part there is the last merge made before ``at``.
    """

    ids: list[int]
    merges: list[Merge]
    keys: list[int] = field(init=False)
    by_start: dict[int, list[int]] = field(init=False)  # first unit -> indices of merges starting there

    def __post_init__(self) -> None:
        self.keys = [m[0] for m in self.merges]
        self.by_start = {}
        for index, m in enumerate(self.merges):
            self.by_start.setdefault(m[1], []).append(index)

    def parts(self, at: int) -> list[tuple[int, int, int]]:
        """``(id, first unit, end unit)`` of each part after the first ``at`` merges."""
        out, s, n, merges, by_start = [], 0, len(self.ids), self.merges, self.by_start
        while s < n:
            made = by_start.get(s)
            last = bisect_left(made, at) - 1 if made else -1
            if last < 0:
                out.append((self.ids[s], s, s + 1))
                s += 1
            else:
                _, first, _, end, new_id = merges[made[last]]
                out.append((new_id, first, end))
                s = end
        return out


class History:
    """Per pre-token, the segmentations it goes through, keyed by merge rank (or replay step).

    Subtle: the merges take O(length) memory whatever a pre-token's length (no snapshot per step);
    building a step's tokens costs a dictionary look-up and a bisect per token. Built ``Token`` lists
    are kept per step for pre-tokens of up to ``CACHE_UNITS`` units (at most that many lists of at
    most that many tokens each: as before, scrubbing a short text is a bisect per pre-token); a longer
    pre-token keeps only the last step asked of it, so scrubbing it never holds one list per step.
    """

    def __init__(self, rows: list[tuple[int, list[int], Merges]]) -> None:
        """``rows``: per pre-token its start, each unit's code point, and its ``Merges``."""
        self.chunks = rows
        self.by_key: dict[int, list[int]] = {}
        for index, (_, _, made) in enumerate(rows):
            for k in sorted(set(made.keys)):
                self.by_key.setdefault(k, []).append(index)
        self._built: list[dict[int, list[Token]]] = [{} for _ in rows]

    def tokens(self, limit: int, info: Info) -> list[Token]:
        """All tokens once every event keyed below ``limit`` has happened."""
        out: list[Token] = []
        for index, (start, owners, made) in enumerate(self.chunks):
            at = bisect_left(made.keys, limit)
            built = self._built[index]
            tokens = built.get(at)
            if tokens is None:
                if len(made.ids) > CACHE_UNITS:
                    built.clear()
                tokens = built[at] = _tokens(made.parts(at), start, owners, info)
            out.extend(tokens)
        return out

    def changed(self, key: int, info: Info) -> list[tuple[int, int]]:
        """Code-point spans of the tokens that the event ``key`` made."""
        spans: set[tuple[int, int]] = set()
        for index in self.by_key.get(key, ()):
            start, owners, made = self.chunks[index]
            lo, hi = bisect_left(made.keys, key), bisect_right(made.keys, key)
            spans.update((start + owners[m[1]], start + owners[m[3] - 1] + 1) for m in made.merges[lo:hi])
        return sorted(spans)


def build_tokens(ids: Sequence[int], start: int, owners: Sequence[int], info: Info) -> list[Token]:
    """``Token``s of consecutive ``ids`` of a pre-token at ``start``; ``info[id]`` gives (bytes, units, kind).

    >>> build_tokens([104, 105], 3, [0, 1], {104: (b"h", 1, "text"), 105: (b"i", 1, "text")})[1].start
    4
    """
    made, pos = [], 0
    for token_id in ids:
        data, units, kind = info[token_id]
        made.append(Token(token_id, data, start + owners[pos], start + owners[pos + units - 1] + 1, kind))
        pos += units
    return made


def _tokens(parts: list[tuple[int, int, int]], start: int, owners: Sequence[int], info: Info) -> list[Token]:
    made = []
    for token_id, first, end in parts:
        data, _, kind = info[token_id]
        made.append(Token(token_id, data, start + owners[first], start + owners[end - 1] + 1, kind))
    return made
