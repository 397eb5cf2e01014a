"""Searching one word's lattice: the best segmentation (Viterbi), the n best, and random ones.

A word's lattice is given as ``incoming[j]``: the edges ``(start, id, score)`` that end at position
``j`` (``incoming[0]`` is empty). Every position must be reachable; the tokenizer makes sure of it by
adding an ``<unk>`` edge over each character that has no piece. Plain Python: a word is short, and
these run on the text a user typed, not on a corpus (``core.unigram.lattice`` does corpora).
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence

Edge = tuple[int, int, float]  # (start, id, score) of an edge ending at a known position
Path = list[tuple[int, int, int]]  # (start, end, id) from left to right


def viterbi(incoming: Sequence[Sequence[Edge]]) -> tuple[float, Path]:
    """The highest-scoring path and its score; ties go to the longer last piece.

    >>> viterbi([[], [(0, 1, -1.0)], [(0, 2, -1.5), (1, 3, -1.0)]])
    (-1.5, [(0, 2, 2)])
    """
    n = len(incoming) - 1
    best = [0.0] + [-math.inf] * n
    back: list[tuple[int, int]] = [(0, 0)] * (n + 1)
    for j in range(1, n + 1):
        top, arg = -math.inf, (0, 0)
        for start, piece, score in incoming[j]:
            value = best[start] + score
            if value > top or (value == top and start < arg[0]):
                top, arg = value, (start, piece)
        best[j], back[j] = top, arg
    return best[n], _walk_back(back, n)


def nbest(incoming: Sequence[Sequence[Edge]], n: int) -> list[tuple[float, Path]]:
    """The ``n`` highest-scoring paths, best first (fewer when the word has fewer segmentations).

    Exact: each position keeps its ``n`` best partial paths, and a best path's prefix is among the
    ``n`` best paths to where that prefix ends.

    >>> [path for _, path in nbest([[], [(0, 1, -1.0)], [(0, 2, -1.5), (1, 3, -1.0)]], 5)]
    [[(0, 2, 2)], [(0, 1, 1), (1, 2, 3)]]
    """
    size = len(incoming) - 1
    # per position: (score, start, rank at start, id) of its best partial paths, best first
    kept: list[list[tuple[float, int, int, int]]] = [[(0.0, -1, -1, -1)]]
    for j in range(1, size + 1):
        options = (
            (total + score, start, rank, piece)
            for start, piece, score in incoming[j]
            for rank, (total, *_) in enumerate(kept[start])
        )
        kept.append(heapq.nlargest(n, options, key=lambda option: option[0]))
    out = []
    for rank in range(len(kept[size])):
        path, j, r = [], size, rank
        while j > 0:
            _, start, previous, piece = kept[j][r]
            path.append((start, j, piece))
            j, r = start, previous
        out.append((kept[size][rank][0], path[::-1]))
    return out


def sample(incoming: Sequence[Sequence[Edge]], alpha: float, rng: random.Random) -> tuple[float, Path]:
    """A path drawn with probability proportional to ``exp(alpha * score)``, and its score.

    Forward filtering, backward sampling: the forward pass sums (in log space) the weight of every
    path into each position; walking back from the end, each step picks an incoming edge with
    probability proportional to the weight of the paths through it. ``alpha = 0`` draws uniformly
    among all segmentations; a large ``alpha`` nearly always gives the Viterbi path.
    """
    size = len(incoming) - 1
    forward = [0.0] + [-math.inf] * size
    for j in range(1, size + 1):
        forward[j] = _logsumexp([forward[start] + alpha * score for start, _, score in incoming[j]])
    path: Path = []
    total, j = 0.0, size
    while j > 0:
        edges = incoming[j]
        logs = [forward[start] + alpha * score for start, _, score in edges]
        top = max(logs)
        start, piece, score = rng.choices(edges, weights=[math.exp(v - top) for v in logs])[0]
        path.append((start, j, piece))
        total += score
        j = start
    return total, path[::-1]


def _walk_back(back: Sequence[tuple[int, int]], n: int) -> Path:
    path: Path = []
    j = n
    while j > 0:
        start, piece = back[j]
        path.append((start, j, piece))
        j = start
    return path[::-1]


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    if top == -math.inf:
        return top
    return top + math.log(sum(math.exp(v - top) for v in values))
