"""core.bpe.history through its callers: the O(n log n) merges agree with the plain rescanning algorithm,
and a long pre-token costs work linear (up to a log) in its length. No timings: work is counted.

The oracles below are the earlier quadratic implementations, kept tiny and slow on purpose.
"""

from __future__ import annotations

import heapq
import random
import tracemalloc
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import bpe
from core.bpe import replay as bpe_replay
from core.bpe.history import NEVER, byte_owners
from core.corpora import load_corpus
from core.text.patterns import CL100K_PATTERN, GPT2_PATTERN
from core.text.pretokenize import split

TEXTS = st.text(alphabet="aab bc漢é🙂\n", max_size=60)


class CountingRanks(Mapping):
    """A rank table that counts look-ups: the work a merge loop does, without a clock."""

    def __init__(self, ranks: Mapping) -> None:
        self.ranks, self.lookups = ranks, 0

    def __getitem__(self, key: object) -> int:
        self.lookups += 1
        return self.ranks[key]

    def __iter__(self) -> Iterator:
        return iter(self.ranks)

    def __len__(self) -> int:
        return len(self.ranks)


class CountingDict(dict):
    def get(self, key: object, default: object = None) -> object:
        self.lookups = getattr(self, "lookups", 0) + 1
        return super().get(key, default)


# -- the oracles ----------------------------------------------------------------------------------------


def oracle_chunk(data: bytes, ranks: Mapping[bytes, int]) -> list[tuple[int, int, list[bytes]]]:
    """Rescan every pair, merge the lowest rank (leftmost on a tie): ``[(rank, position, parts after)]``."""
    parts = [data[i : i + 1] for i in range(len(data))]
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


def oracle_replay(text: str, ranks: Mapping[bytes, int], pattern: str) -> tuple[list[tuple], list[list[bytes]]]:
    """The replay's events as tuples, and the pieces after every step."""
    spans = split(text, pattern)
    local = [oracle_chunk(text[s:e].encode(), ranks) for s, e in spans]
    order = heapq.merge(*[[(ev[0], i, j) for j, ev in enumerate(evs[1:])] for i, evs in enumerate(local)])
    events, done = [], [0] * len(spans)
    steps = [[p for evs in local for p in evs[0][2]]]
    for step, (rank, i, j) in enumerate(order):
        (start, end), (_, position, parts) = spans[i], local[i][j + 1]
        owners = byte_owners(text[start:end])
        first = sum(map(len, parts[:position]))
        last = first + len(parts[position]) - 1
        events.append((step, rank, i, position, start + owners[first], start + owners[last] + 1))
        done[i] += 1
        steps.append([p for evs, d in zip(local, done, strict=True) for p in evs[d][2]])
    return events, steps


def oracle_segment(tok: bpe.BPETokenizer, text: str, k: int) -> list[int]:
    """Ids of ``text`` after the first ``k`` merges: each rank replaces all its pairs, left to right."""
    out = []
    for start, end in split(text, tok.pattern):
        ids = list(text[start:end].encode())
        for rank, (left, right) in enumerate(tok.merges[:k]):
            merged, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == (left, right):
                    merged.append(tok.base_size + rank)
                    i += 2
                else:
                    merged.append(ids[i])
                    i += 1
            ids = merged
        out.extend(ids)
    return out


# -- fixtures -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cl100k(data_dir: Path) -> dict[bytes, int]:
    import tiktoken.load

    return tiktoken.load.load_tiktoken_bpe(str(data_dir / "tokenizers" / "cl100k_base.tiktoken"))


@pytest.fixture(scope="module")
def small_ranks() -> dict[bytes, int]:
    """A tiktoken-style table trained here on a sample plus the test alphabet."""
    tok = bpe.train(load_corpus("sample_essay_en") + " aab bc 漢漢漢 é🙂" * 20, vocab_size=500).tokenizer
    return {piece: rank for rank, piece in enumerate(tok.vocab)}


@pytest.fixture(scope="module")
def letters_tok() -> tuple[bpe.BPETokenizer, str]:
    """A tokenizer whose merges keep applying to one 20,000-character pre-token (pattern ``.+``)."""
    rng = random.Random(0)
    text = "".join(rng.choice("etaoinsh") for _ in range(20_000))
    return bpe.train(text, num_merges=600, pattern=".+").tokenizer, text


# -- replay ---------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(text=TEXTS)
def test_replay_matches_the_rescanning_oracle(small_ranks: dict[bytes, int], text: str) -> None:
    replayed = bpe_replay.replay(text, mergeable_ranks=small_ranks, pattern=GPT2_PATTERN)
    events, steps = oracle_replay(text, small_ranks, GPT2_PATTERN)
    assert [(e.step, e.rank, e.chunk, e.position, e.start, e.end) for e in replayed.events] == events
    for step, pieces in enumerate(steps):
        assert [t.bytes for t in replayed.segmentation(step)] == pieces


@settings(max_examples=100, deadline=None)
@given(text=st.text(alphabet="abc", max_size=40), extra=st.lists(st.text(alphabet="abc", min_size=2, max_size=4), max_size=12))
def test_replay_matches_the_oracle_when_ranks_are_not_ordered_by_length(text: str, extra: list[str]) -> None:
    # subtle: a made-up table where a longer piece may rank below its parts, so ties and re-merges abound
    ranks = {bytes([i]): i for i in range(256)} | {p.encode(): 300 - i for i, p in enumerate(dict.fromkeys(extra))}
    replayed = bpe_replay.replay(text, mergeable_ranks=ranks, pattern=".+")
    events, steps = oracle_replay(text, ranks, ".+")
    assert [(e.step, e.rank, e.chunk, e.position, e.start, e.end) for e in replayed.events] == events
    assert [t.bytes for t in replayed.segmentation(replayed.n_steps)] == steps[-1]


def test_a_9000_byte_chunk_replays_with_linear_work(cl100k: dict[bytes, int]) -> None:
    import tiktoken

    text = "漢" * 3000  # one pre-token of 9,000 bytes: the rescanning loop looked ranks up ~40 million times
    counting = CountingRanks(cl100k)
    replayed = bpe_replay.replay(text, mergeable_ranks=counting, pattern=CL100K_PATTERN)
    encoding = tiktoken.Encoding("cl100k", pat_str=CL100K_PATTERN, mergeable_ranks=cl100k, special_tokens={})
    assert [t.id for t in replayed.segmentation(replayed.n_steps)] == encoding.encode_ordinary(text)
    n = len(text.encode())
    assert replayed.n_steps == n - len(replayed.segmentation(replayed.n_steps))  # each event merges two parts
    # n byte look-ups, n - 1 starting pairs, at most 2 new pairs per merge
    assert counting.lookups <= n + (n - 1) + 2 * replayed.n_steps


# -- the history of a tokenizer trained here ---------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="etaoinsh é", max_size=150))
def test_segment_and_encode_match_the_oracle(letters_tok: tuple[bpe.BPETokenizer, str], text: str) -> None:
    tok = letters_tok[0]
    tok = bpe.BPETokenizer(merges=tok.merges[:200], pattern=".+")  # long chunks take the heap, short the rescan
    for k in (0, 1, 7, 50, 200):
        assert [t.id for t in tok.segment(text, k)] == oracle_segment(tok, text, k)
    assert [t.id for t in tok.encode(text)] == tok.encode_ids(text) == oracle_segment(tok, text, 200)


def test_a_20000_character_pre_token_segments_with_linear_work_and_memory(
    letters_tok: tuple[bpe.BPETokenizer, str],
) -> None:
    trained, text = letters_tok
    tok = bpe.BPETokenizer(merges=trained.merges, pattern=".+")
    tok._ranks = CountingDict(tok._ranks)  # the rank table every merge loop reads
    tracemalloc.start()
    try:
        final = tok.segment(text, len(tok.merges))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    n = len(text)
    assert b"".join(t.bytes for t in final) == text.encode()
    assert tok._ranks.lookups <= (n - 1) + 2 * (n - len(final))  # the rescan did ~n per distinct rank
    # one snapshot per rank used to be kept (hundreds of 20,000-id lists, over 50 MB)
    assert peak < 20_000_000
    steps = tok.change_steps(text)
    assert len(steps) > 300  # many ranks apply: the case that was quadratic
    assert tok.changed_spans(text, steps[-1]) and tok.segment(text, steps[-1]) == final
