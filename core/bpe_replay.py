"""Replay of a real tokenizer's merges on a text: which merge a ranked byte-level vocabulary applies where.

Only byte-level BPE has a merge order to replay: a rank per piece, and inside each pre-token the
adjacent pair whose joined bytes rank lowest merges first (as tiktoken encodes). ``replay`` records
every merge once; ``Replay.segmentation(step)`` and ``Replay.changed_spans(step)`` then show any step
cheaply. What this module does not do: train (``core.bpe``), load a vocabulary (``core.pretrained``),
draw (``ui``).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass, field

from core.bpe_history import NEVER, History, byte_owners
from core.pretokenize import split
from core.types import TEXT, Token


@dataclass(frozen=True, slots=True)
class ReplayEvent:
    """One merge as a real tokenizer applies it to a text: the token it made and where.

    ``position`` is the index of the left part among the pre-token's tokens at that moment;
    ``start``/``end`` are the code points the new token covers.
    """

    step: int
    rank: int
    chunk: int
    position: int
    start: int
    end: int


@dataclass(frozen=True)
class Replay:
    """The merges a ranked byte-level vocabulary applies to one text, in rank order.

    Step 0 is the text as bytes; step ``n_steps`` is the tokenizer's answer. Token ids are ranks.
    """

    text: str
    chunk_spans: tuple[tuple[int, int], ...]
    events: tuple[ReplayEvent, ...]
    _history: History = field(repr=False, compare=False)
    _info: Mapping[int, tuple[bytes, int, str]] = field(repr=False, compare=False)

    @property
    def n_steps(self) -> int:
        return len(self.events)

    def segmentation(self, step: int) -> list[Token]:
        """Tokens after the first ``step`` events (clamped to ``0..n_steps``)."""
        return self._history.tokens(max(0, min(step, self.n_steps)), self._info)

    def changed_spans(self, step: int) -> list[tuple[int, int]]:
        """Code-point spans of the token that event ``step - 1`` made (none for step 0)."""
        return self._history.changed(step - 1, self._info)


def replay(text: str, *, mergeable_ranks: Mapping[bytes, int], pattern: str) -> Replay:
    """Replay a tiktoken-style vocabulary on ``text``: bytes first, then merges lowest rank first.

    Subtle: as tiktoken does, each pre-token repeatedly merges the adjacent pair whose joined bytes
    have the lowest rank (the leftmost on a tie); events of all pre-tokens are then ordered by rank,
    each pre-token keeping its own order, so scrubbing shows the vocabulary's merges as they apply.
    Meant for short texts (the cost grows with the square of a pre-token's length).

    >>> from core.patterns import GPT2_PATTERN
    >>> ranks = {bytes([i]): i for i in range(256)} | {b"hi": 256}
    >>> r = replay("hi", mergeable_ranks=ranks, pattern=GPT2_PATTERN)
    >>> [(t.id, t.bytes) for t in r.segmentation(r.n_steps)]
    [(256, b'hi')]
    """
    spans = split(text, pattern)
    memo: dict[str, list[tuple[int, int, list[bytes]]]] = {}
    local = []
    for start, end in spans:
        chunk = text[start:end]
        if chunk not in memo:
            memo[chunk] = _rank_merges(chunk.encode(), mergeable_ranks)
        local.append(memo[chunk])
    order = heapq.merge(*[[(ev[0], index, j) for j, ev in enumerate(evs[1:])] for index, evs in enumerate(local)])
    steps: list[list[int]] = [[] for _ in spans]
    for step, (_, index, _) in enumerate(order):
        steps[index].append(step)
    rows, info, made = [], {}, []
    for index, ((start, end), evs) in enumerate(zip(spans, local, strict=True)):
        owners = byte_owners(text[start:end])
        for _, _, parts in evs:
            for part in parts:
                rank = mergeable_ranks[part]
                info[rank] = (part, len(part), TEXT)
        keys = [-1, *steps[index]]
        rows.append((start, owners, [(k, [mergeable_ranks[p] for p in ev[2]]) for k, ev in zip(keys, evs, strict=True)]))
        for step, (rank, position, parts) in zip(steps[index], evs[1:], strict=True):
            first = sum(map(len, parts[:position]))
            last = first + len(parts[position]) - 1
            made.append(ReplayEvent(step, rank, index, position, start + owners[first], start + owners[last] + 1))
    made.sort(key=lambda event: event.step)
    return Replay(text, tuple(spans), tuple(made), History(rows), info)


def _rank_merges(data: bytes, ranks: Mapping[bytes, int]) -> list[tuple[int, int, list[bytes]]]:
    """``[(rank, position, parts after)]`` for one pre-token, starting with ``(-1, -1, its bytes)``."""
    parts = [data[i : i + 1] for i in range(len(data))]
    for part in parts:
        if part not in ranks:
            raise ValueError(f"the vocabulary has no token for the byte {part!r}; it cannot encode this text")
    events = [(-1, -1, parts)]
    while len(parts) > 1:
        best, at = NEVER, -1
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1], NEVER)
            if rank < best:
                best, at = rank, i
        if at < 0:
            break
        parts = parts[:at] + [parts[at] + parts[at + 1]] + parts[at + 2 :]
        events.append((best, at, parts))
    return events
