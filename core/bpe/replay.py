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

from core.bpe.history import NEVER, History, Merge, Merges, byte_owners, merge_lowest_first
from core.text.pretokenize import split
from core.text.textio import without_surrogates
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
    Offsets are into ``text`` even when the merges ran on its NFC form (``_align`` maps them).
    """

    text: str
    chunk_spans: tuple[tuple[int, int], ...]
    events: tuple[ReplayEvent, ...]
    _history: History = field(repr=False, compare=False)
    _info: Mapping[int, tuple[bytes, int, str]] = field(repr=False, compare=False)
    _align: tuple[list[int], list[int]] | None = field(default=None, repr=False, compare=False)

    @property
    def n_steps(self) -> int:
        return len(self.events)

    def segmentation(self, step: int) -> list[Token]:
        """Tokens after the first ``step`` events (clamped to ``0..n_steps``)."""
        tokens = self._history.tokens(max(0, min(step, self.n_steps)), self._info)
        if self._align is None:
            return tokens
        starts, ends = self._align
        return [t._replace(start=starts[t.start], end=ends[t.end - 1]) for t in tokens]

    def changed_spans(self, step: int) -> list[tuple[int, int]]:
        """Code-point spans of the token that event ``step - 1`` made (none for step 0)."""
        return [_mapped(span, self._align) for span in self._history.changed(step - 1, self._info)]


def replay(text: str, *, mergeable_ranks: Mapping[bytes, int], pattern: str, nfc: bool = False) -> Replay:
    """Replay a tiktoken-style vocabulary on ``text``: bytes first, then merges lowest rank first.

    Subtle: as tiktoken does, each pre-token repeatedly merges the adjacent pair whose joined bytes
    have the lowest rank (the leftmost on a tie); events of all pre-tokens are then ordered by rank,
    each pre-token keeping its own order, so scrubbing shows the vocabulary's merges as they apply.
    A pre-token of n bytes costs O(n log n) time and O(n) memory (``core.bpe.history``). Lone
    surrogates become U+FFFD first, one for one (``core.text.textio.without_surrogates``), and
    ``Replay.text`` is that text. With ``nfc`` the merges run on the NFC form of the text, as Qwen
    encodes it, and every offset is mapped back to the text as given (grapheme clusters that NFC
    changes are covered whole).

    >>> from core.text.patterns import GPT2_PATTERN
    >>> ranks = {bytes([i]): i for i in range(256)} | {b"hi": 256}
    >>> r = replay("hi", mergeable_ranks=ranks, pattern=GPT2_PATTERN)
    >>> [(t.id, t.bytes) for t in r.segmentation(r.n_steps)]
    [(256, b'hi')]
    """
    original = text = without_surrogates(text)
    align = None
    if nfc:
        from core.pretrained.tiktoken_adapter import nfc_with_alignment  # a text utility; no library import

        text, align = nfc_with_alignment(text)
    spans = split(text, pattern)
    memo: dict[str, Merges] = {}
    local = []
    for start, end in spans:
        chunk = text[start:end]
        if chunk not in memo:
            memo[chunk] = _rank_merges(chunk.encode(), mergeable_ranks)
        local.append(memo[chunk])
    order = heapq.merge(*[[(m[0], index, j) for j, m in enumerate(made.merges)] for index, made in enumerate(local)])
    steps: list[list[int]] = [[] for _ in spans]
    for step, (_, index, _) in enumerate(order):
        steps[index].append(step)
    rows, info, events = [], {}, []
    positions: dict[int, list[int]] = {}
    for index, ((start, end), made) in enumerate(zip(spans, local, strict=True)):
        owners = byte_owners(text[start:end])
        data = text[start:end].encode()
        for first, token_id in enumerate(made.ids):
            info[token_id] = (data[first : first + 1], 1, TEXT)
        for _, first, _, last, token_id in made.merges:
            info[token_id] = (data[first:last], last - first, TEXT)
        if id(made) not in positions:
            positions[id(made)] = _positions(len(made.ids), made.merges)
        keyed = Merges(made.ids, [(k, *m[1:]) for k, m in zip(steps[index], made.merges, strict=True)])
        rows.append((start, owners, keyed))
        for step, (rank, first, _, last, _), position in zip(
            steps[index], made.merges, positions[id(made)], strict=True
        ):
            events.append(ReplayEvent(step, rank, index, position, start + owners[first], start + owners[last - 1] + 1))
    events.sort(key=lambda event: event.step)
    if align is not None:
        spans = [_mapped(span, align) for span in spans]
        events = [
            ReplayEvent(e.step, e.rank, e.chunk, e.position, *_mapped((e.start, e.end), align)) for e in events
        ]
    return Replay(original, tuple(spans), tuple(events), History(rows), info, align)


def _mapped(span: tuple[int, int], align: tuple[list[int], list[int]] | None) -> tuple[int, int]:
    """A span of the normalized text as a span of the original one (``align``: per character)."""
    if align is None:
        return span
    start, end = span
    return align[0][start], align[1][end - 1]


def _rank_merges(data: bytes, ranks: Mapping[bytes, int]) -> Merges:
    """One pre-token's byte ids and its merges ``(rank, first, mid, end, rank)``, in the order made."""
    ids = []
    for i in range(len(data)):
        rank = ranks.get(data[i : i + 1])
        if rank is None:
            raise ValueError(f"the vocabulary has no token for the byte {data[i : i + 1]!r}; it cannot encode this text")
        ids.append(rank)

    def pair_rank(first: int, mid: int, end: int, left: int, right: int) -> int:
        return ranks.get(data[first:end], NEVER)

    _, merges = merge_lowest_first(ids, pair_rank)
    return Merges(ids, merges)


def _positions(n: int, merges: list[Merge]) -> list[int]:
    """For each merge, the index of its left part among the pre-token's parts at that moment.

    Subtle: a Fenwick tree over the n units, 1 where a part starts, so each answer is O(log n).
    """
    tree = [0] * (n + 1)
    for i in range(1, n + 1):  # every unit starts a part: build the tree of all ones in O(n)
        tree[i] += 1
        parent = i + (i & -i)
        if parent <= n:
            tree[parent] += tree[i]
    out = []
    for _, first, mid, _, _ in merges:
        i, before = first, 0
        while i > 0:
            before += tree[i]
            i -= i & -i
        out.append(before)
        i = mid + 1
        while i <= n:
            tree[i] -= 1
            i += i & -i
    return out
