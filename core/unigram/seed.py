"""The seed vocabulary: every single character, and the most frequent longer substrings of the words.

Substrings are counted without building them as strings: all words are laid end to end as an
array of character codes, and the substrings of length ``l`` are numbered from those of length
``l - 1`` (a substring is its prefix's number and its last character; ``np.unique`` turns the pair
into a dense number again). Counting a million substring occurrences so takes a few sorts of the
array instead of a million dictionary updates, and the same numbers give the lattice's edges: every
occurrence of a seed piece is an edge of its word's lattice.

Which substrings may be pieces (``valid_ends``): at most ``max_len`` characters, ``▁`` only at the
start, and (``by_script``) one script per piece, ``▁``, whitespace and combining marks fitting with
any, as SentencePiece's trainer allows. A substring is a seed candidate when it occurs at least twice
and is followed by two different symbols (the end of a word counting as one): the inner nodes of a
suffix tree, which is what SentencePiece's suffix array enumerates (``▁Citize``, always followed by
``n``, is not one; ``▁Citizen`` is). Its rank is its count times its length, the characters it covers
(SentencePiece's order too); ties go to the shorter, then in code-point order. Only when that leaves
fewer pieces than the vocabulary needs (a tiny corpus) do other substrings join, best first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.unigram.lattice import Lattices
from core.unigram.words import METASPACE, script


@dataclass
class Seed:
    """The seed pieces (characters first) with their counts and first log-probabilities, the corpus
    lattices over them, and where each piece occurs once (``rep_word``, ``rep_start``)."""

    pieces: list[str]
    counts: np.ndarray
    scores: np.ndarray
    n_chars: int
    lattices: Lattices
    rep_word: np.ndarray
    rep_start: np.ndarray
    possible: int  # how many distinct substrings could be pieces at all


def make_seed(
    words: list[str], counts: np.ndarray, *, max_len: int, seed_size: int, needed: int, by_script: bool
) -> Seed:
    """The seed: every character, and up to ``seed_size`` longer pieces (at least ``needed`` when the
    words hold that many distinct substrings).

    Ids: the characters first (in code-point order), then the longer pieces, best first. A piece's
    first log-probability is its count times its length, over the sum of those.
    """
    levels = _Levels(words, counts, max_len, by_script)
    n_chars = len(levels.levels[0].counts)
    chosen = [np.arange(n_chars)] + [_offset(ids, n_chars) for ids in _choose(levels.levels[1:], seed_size, needed - n_chars)]
    size = n_chars + sum(int((ids >= 0).sum()) for ids in chosen[1:])
    pieces: list[str] = [""] * size
    piece_counts, raw, rep = np.zeros(size), np.zeros(size), np.zeros(size, dtype=np.int64)
    edges = []
    for level, ids in zip(levels.levels, chosen, strict=True):
        picked = np.flatnonzero(ids >= 0)
        new = ids[picked]
        piece_counts[new] = level.counts[picked]
        raw[new] = level.counts[picked] * level.length  # a character's is its count
        rep[new] = level.rep[picked]
        length, text = level.length, levels.text
        for i, p in zip(new.tolist(), level.rep[picked].tolist(), strict=True):
            pieces[i] = text[p : p + length]
        edges.append(_edges(levels, level, ids))
    word, start, end, piece = (np.concatenate(parts) for parts in zip(*edges, strict=True))
    return Seed(
        pieces=pieces,
        counts=piece_counts,
        scores=np.log(raw) - np.log(raw.sum()),
        n_chars=n_chars,
        lattices=Lattices(levels.lengths, counts, word, start, end, piece),
        rep_word=levels.word_of[rep],
        rep_start=rep - levels.starts[levels.word_of[rep]],
        possible=levels.possible,
    )


@dataclass
class _Level:
    length: int
    rep: np.ndarray  # a position where each distinct substring of this length occurs
    counts: np.ndarray  # its weighted count
    positions: np.ndarray  # every position where a valid substring of this length starts
    number: np.ndarray  # the distinct substring at each of those positions
    branching: np.ndarray  # whether a substring is followed by two different symbols (or word ends)


class _Levels:
    """Distinct substrings of each length 1..max_len, numbered level by level."""

    def __init__(self, words: list[str], counts: np.ndarray, max_len: int, by_script: bool) -> None:
        self.text = "".join(words)
        codes = np.frombuffer(self.text.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
        self.lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        self.starts = np.concatenate(([0], np.cumsum(self.lengths)[:-1])).astype(np.int64)
        self.word_of = np.repeat(np.arange(len(words)), self.lengths)
        alphabet, first, symbol = np.unique(codes, return_index=True, return_inverse=True)
        weight = np.asarray(counts, dtype=np.float64)[self.word_of]
        room = valid_ends(codes, alphabet, symbol, self.starts, self.lengths, self.word_of, max_len, by_script)
        room -= np.arange(len(codes))
        positions = np.arange(len(codes))
        # what follows each position inside its word: the next symbol, or len(alphabet) at the end
        following = np.append(symbol[1:], len(alphabet))
        following[(self.starts + self.lengths)[self.word_of] - 1] = len(alphabet)
        self.levels = [_Level(1, first, np.bincount(symbol, weights=weight), positions, symbol, np.ones(0, bool))]
        number, n_distinct = symbol, len(alphabet)
        for length in range(2, max_len + 1):
            fits = room[positions] >= length
            positions, number = positions[fits], number[fits]
            if not len(positions):
                break
            key = number * len(alphabet) + symbol[positions + length - 1]
            _, rep, number = np.unique(key, return_index=True, return_inverse=True)
            level_counts = np.bincount(number, weights=weight[positions])
            branches = _distinct_per(number, following[positions + length - 1], len(alphabet) + 1, len(rep))
            self.levels.append(_Level(length, positions[rep], level_counts, positions, number, branches >= 2))
            n_distinct += len(rep)
        self.possible = n_distinct


def _distinct_per(group: np.ndarray, value: np.ndarray, n_values: int, n_groups: int) -> np.ndarray:
    """For each group, how many distinct values its members have."""
    pairs = np.unique(group * n_values + value)
    return np.bincount(pairs // n_values, minlength=n_groups)


def valid_ends(
    codes: np.ndarray,
    alphabet: np.ndarray,
    symbol: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    word_of: np.ndarray,
    max_len: int,
    by_script: bool,
) -> np.ndarray:
    """For each position, the end of the longest substring starting there that may be a piece."""
    n = len(codes)
    position = np.arange(n)
    word_end = (starts + lengths)[word_of]
    limit = np.minimum(word_end, position + max_len)
    # ▁ inside a word (only under a pattern): a piece may start with it but not hold it further in
    inner = (codes == ord(METASPACE)) & (position != starts[word_of])
    limit = np.minimum(limit, _next_after(inner, n))
    if by_script:
        classes = np.array([script(chr(c)) for c in alphabet.tolist()], dtype=np.int64)[symbol]
        real = classes >= 0
        last_real = np.maximum.accumulate(np.where(real, position, -1))
        before = np.concatenate(([-1], last_real[:-1]))
        same_word = before >= starts[word_of]
        change = real & same_word & (classes[np.maximum(before, 0)] != classes)
        # from a start, the first character with a script binds the piece; the next change ends it
        first_real = np.minimum.accumulate(np.where(real, position, n)[::-1])[::-1]
        change_after = np.append(_next_after(change, n), n)
        limit = np.minimum(limit, change_after[first_real])
    return limit


def _next_after(flags: np.ndarray, n: int) -> np.ndarray:
    """For each position, the first flagged position strictly after it (``n`` when none)."""
    at = np.where(flags, np.arange(n), n)
    following = np.minimum.accumulate(at[::-1])[::-1]
    return np.append(following[1:], n)


def _choose(levels: list[_Level], seed_size: int, needed: int) -> list[np.ndarray]:
    """Seed ids for each level's distinct substrings: the ``seed_size`` best by count × length among
    those seen twice or more and followed by two different symbols somewhere (or ending a word
    once); the others only when that leaves fewer than ``needed`` (a tiny corpus), best first."""
    if not levels:
        return []
    counts = np.concatenate([lv.counts for lv in levels])
    lengths = np.concatenate([np.full(len(lv.counts), lv.length) for lv in levels])
    candidate = (counts >= 2) & np.concatenate([lv.branching for lv in levels])
    order = np.lexsort((-counts * lengths, ~candidate))  # candidates first, each part by score
    order = order[: max(min(seed_size, int(candidate.sum())), needed)]
    ids = np.full(len(counts), -1, dtype=np.int64)
    ids[order] = np.arange(len(order))
    bounds = np.cumsum([0] + [len(lv.counts) for lv in levels])
    return [ids[bounds[i] : bounds[i + 1]] for i in range(len(levels))]


def _offset(ids: np.ndarray, by: int) -> np.ndarray:
    return np.where(ids >= 0, ids + by, -1)


def _edges(levels: _Levels, level: _Level, ids: np.ndarray) -> tuple[np.ndarray, ...]:
    """The lattice edges of every occurrence of a seed piece of this level's length."""
    piece = ids[level.number]
    hit = piece >= 0
    positions = level.positions[hit]
    word = levels.word_of[positions]
    start = positions - levels.starts[word]
    return word, start, start + level.length, piece[hit]
