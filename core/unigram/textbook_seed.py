"""The textbook recipe's seed: every substring of at most ``L`` characters of every pre-token, counted.

A substring's count is the sum, over the distinct pre-tokens it occurs in, of its occurrences times
the pre-token's count. The seed keeps the substrings counted at least twice, plus every single
character; a piece's first log-probability is ``log(count / total)``, ``total`` being the sum of
*all* substring counts before that filter (so the seed's probabilities sum to less than 1, as the
textbook has it).

Substrings are numbered without building them as strings (as ``core.unigram.seed`` does for the
SentencePiece-style seed): the distinct pre-tokens are laid end to end as an array of code points,
and the substrings of length ``l`` are numbered from those of length ``l - 1`` and their last
character. The same numbers give the lattice edges: every occurrence of a kept substring is an edge.

Pieces come in *seed order*: the order in which a reader scanning the distinct pre-tokens (in the
order they first appear in the text), each from left to right, shorter first at each start, meets
them first. Pruning breaks ties between equally probable pieces by it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.unigram.lattice import Lattices


@dataclass
class TextbookSeed:
    """The seed pieces in seed order, their counts and first log-probabilities, which of them are
    single characters, and the lattices of the distinct pre-tokens over them."""

    pieces: list[str]
    counts: np.ndarray
    scores: np.ndarray
    is_char: np.ndarray
    lattices: Lattices
    total: float  # the sum of every substring count, before keeping those seen twice


def make_textbook_seed(words: list[str], counts: np.ndarray, *, max_len: int) -> TextbookSeed:
    """The seed of the distinct pre-tokens ``words`` (in first-appearance order) counted ``counts``.

    >>> seed = make_textbook_seed(["ab", "b"], np.array([2.0, 1.0]), max_len=10)
    >>> seed.pieces, seed.counts.tolist(), seed.total
    (['a', 'ab', 'b'], [2.0, 2.0, 3.0], 7.0)
    """
    text = "".join(words)
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    word_of = np.repeat(np.arange(len(words)), lengths)
    room = (starts + lengths)[word_of] - np.arange(len(codes))  # characters left in the pre-token
    weight = np.asarray(counts, dtype=np.float64)[word_of]
    alphabet_size = int(codes.max(initial=0)) + 1
    positions = np.arange(len(codes))
    number = codes
    kept_keys, kept_counts, kept_reps, kept_lengths, edge_parts = [], [], [], [], []
    total = 0.0
    for length in range(1, max_len + 1):
        fits = room[positions] >= length
        positions, number = positions[fits], number[fits]
        if not len(positions):
            break
        key = number * alphabet_size + codes[positions + length - 1] if length > 1 else number
        # positions ascend, so return_index gives each distinct substring's first occurrence
        _, first, number = np.unique(key, return_index=True, return_inverse=True)
        level_counts = np.bincount(number, weights=weight[positions])
        total += float(level_counts.sum())
        keep = np.ones(len(first), dtype=bool) if length == 1 else level_counts >= 2
        local = np.full(len(first), -1, dtype=np.int64)
        local[keep] = np.arange(int(keep.sum())) + sum(len(k) for k in kept_keys)
        reps = positions[first[keep]]
        kept_keys.append(reps * max_len + (length - 1))
        kept_counts.append(level_counts[keep])
        kept_reps.append(reps)
        kept_lengths.append(np.full(len(reps), length, dtype=np.int64))
        hit = local[number] >= 0
        at = positions[hit]
        edge_parts.append((word_of[at], at - starts[word_of[at]], length, local[number[hit]]))
    # renumber every piece into seed order: by its first occurrence, then its length
    order = np.argsort(np.concatenate(kept_keys), kind="stable")
    seed_id = np.empty(len(order), dtype=np.int64)
    seed_id[order] = np.arange(len(order))
    reps, piece_lengths = np.concatenate(kept_reps)[order], np.concatenate(kept_lengths)[order]
    piece_counts = np.concatenate(kept_counts)[order]
    pieces = [text[p : p + n] for p, n in zip(reps.tolist(), piece_lengths.tolist(), strict=True)]
    word = np.concatenate([w for w, _, _, _ in edge_parts])
    start = np.concatenate([s for _, s, _, _ in edge_parts])
    end = np.concatenate([s + n for _, s, n, _ in edge_parts])
    piece = seed_id[np.concatenate([p for _, _, _, p in edge_parts])]
    return TextbookSeed(
        pieces=pieces,
        counts=piece_counts,
        scores=np.log(piece_counts) - np.log(total),
        is_char=piece_lengths == 1,
        lattices=Lattices(lengths, counts, word, start, end, piece),
        total=total,
    )
