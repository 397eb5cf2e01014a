"""Many word lattices at once, as flat numpy arrays: forward–backward and Viterbi for every word of a
corpus in one sweep per position instead of one Python loop per word.

A lattice's nodes are the positions 0..n of a word of n symbols; an edge ``(start, end, piece)`` says
that ``word[start:end]`` is the vocabulary piece ``piece``. All words' nodes live in one array (word
``w``'s node ``i`` is ``base[w] + i``). The forward pass handles every edge ending at local position
``j`` of any word together, for ``j = 1, 2, …``: their start nodes are already done, so it is one
gather, one add and one segmented log-sum-exp. The backward pass does the same from the right.

Everything is in log space. Subtle: a segmented log-sum-exp subtracts each segment's maximum before
``exp``, so a word of 500 characters with scores around -15 per piece does not underflow to 0.
"""

from __future__ import annotations

import numpy as np

_NO_EDGE = np.iinfo(np.int64).max


class Lattices:
    """The lattices of ``len(lengths)`` words, each with a weight (how often the word occurs).

    Edges are given as four parallel arrays (word, start, end, piece) in any order; they are kept
    sorted for the forward pass, with a permutation for the backward pass. ``keep(mask)`` drops
    edges (the pieces a pruning round removed) without sorting again. Every node must be reachable
    (the trainer keeps every single character in the vocabulary, so it always is).
    """

    def __init__(
        self,
        lengths: np.ndarray,
        weights: np.ndarray,
        word: np.ndarray,
        start: np.ndarray,
        end: np.ndarray,
        piece: np.ndarray,
    ) -> None:
        self.lengths = np.asarray(lengths, dtype=np.int64)
        self.weights = np.asarray(weights, dtype=np.float64)
        self.base = np.concatenate(([0], np.cumsum(self.lengths + 1)[:-1])).astype(np.int64)
        self.n_nodes = int(self.lengths.sum() + len(self.lengths))
        word, start, end = (np.asarray(a, dtype=np.int64) for a in (word, start, end))
        span = int(self.lengths.max(initial=1)) + 1
        # forward order: by end position, then word, then longest piece first (so Viterbi's ties go
        # to the longer piece, as the first edge of its segment wins); the keys are unique, so the
        # default (unstable) sort is deterministic too
        order = np.argsort((end * len(self.lengths) + word) * span + (span - (end - start)))
        self.word = word[order]
        self.start = start[order]
        self.end = end[order]
        self.piece = np.asarray(piece, dtype=np.int64)[order]
        self._backward = np.argsort((-self.start * len(self.lengths) + self.word) * span + self.end)
        self._by_start = np.argsort(self.base[self.word] + self.start)
        self._plan()

    def keep(self, mask: np.ndarray, new_ids: np.ndarray) -> None:
        """Keep the edges where ``mask`` holds; their pieces are renumbered through ``new_ids``."""
        new_position = np.cumsum(mask) - 1
        self._backward = new_position[self._backward[mask[self._backward]]]
        self._by_start = new_position[self._by_start[mask[self._by_start]]]
        self.word, self.start, self.end = self.word[mask], self.start[mask], self.end[mask]
        self.piece = new_ids[self.piece[mask]]
        self._plan()

    def inside(
        self, word: np.ndarray, start: np.ndarray, length: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The edges lying inside each span ``word[start:start + length]``, except the one edge that
        covers the whole span: as ``(span index, start, end, piece)`` relative to the span.

        This is the lattice of a piece's own text without the piece, where pruning looks for the
        piece's best alternative.
        """
        first = self.base[word] + start
        sources = self._sources
        lo = np.searchsorted(sources, first)
        count = np.searchsorted(sources, first + length) - lo
        owner = np.repeat(np.arange(len(word)), count)
        offset = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
        edge = self._by_start[np.repeat(lo, count) + offset]
        begin = self.src[edge] - first[owner]
        finish = self.dst[edge] - first[owner]
        fits = (finish <= length[owner]) & ((begin > 0) | (finish < length[owner]))
        return owner[fits], begin[fits], finish[fits], self.piece[edge[fits]]

    # -- the passes -------------------------------------------------------------------------------

    def forward(self, scores: np.ndarray) -> np.ndarray:
        """``alpha``: the log of the summed probability of every path from a word's start to each node."""
        s = scores[self.piece]
        alpha = np.zeros(self.n_nodes)
        for lo, hi, idx, lens, nodes in self._forward_plan:
            alpha[nodes] = _segment_logsumexp(alpha[self.src[lo:hi]] + s[lo:hi], idx, lens)
        return alpha

    def backward(self, scores: np.ndarray) -> np.ndarray:
        """``beta``: the log of the summed probability of every path from each node to its word's end."""
        s = scores[self.piece][self._backward]
        beta = np.zeros(self.n_nodes)
        for lo, hi, idx, lens, nodes in self._backward_plan:
            beta[nodes] = _segment_logsumexp(beta[self._dst_b[lo:hi]] + s[lo:hi], idx, lens)
        return beta

    def expected_counts(self, scores: np.ndarray, n_pieces: int) -> tuple[np.ndarray, float]:
        """Each piece's expected count over all segmentations of all words, weighted, and the corpus
        log-likelihood ``sum(weight * log Z(word))``.

        The posterior of an edge is ``exp(alpha[start] + score + beta[end] - log Z)``: the share of
        the word's probability that flows through it.
        """
        alpha, beta = self.forward(scores), self.backward(scores)
        log_z = alpha[self.base + self.lengths]
        posterior = alpha[self.src] + scores[self.piece] + beta[self.dst] - log_z[self.word]
        np.exp(posterior, out=posterior)
        posterior *= self.weights[self.word]
        counts = np.bincount(self.piece, weights=posterior, minlength=n_pieces)
        return counts, float(self.weights @ log_z)

    def viterbi(self, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The best segmentation of every word: its log-probability per word, and its pieces as two
        parallel arrays ``(word, piece)`` (each word's pieces from right to left).

        Ties go to the longer piece at the right end, so the result is deterministic.
        """
        s = scores[self.piece]
        best = np.zeros(self.n_nodes)
        back = np.zeros(self.n_nodes, dtype=np.int64)
        for lo, hi, idx, lens, nodes in self._forward_plan:
            v = best[self.src[lo:hi]] + s[lo:hi]
            top = np.maximum.reduceat(v, idx)
            candidates = np.where(v >= np.repeat(top, lens), np.arange(lo, hi), _NO_EDGE)
            back[nodes] = np.minimum.reduceat(candidates, idx)
            best[nodes] = top
        ends = self.base + self.lengths
        words_out, pieces_out = [], []
        node, words = ends, np.arange(len(self.lengths))
        while len(node):
            edge = back[node]
            words_out.append(words)
            pieces_out.append(self.piece[edge])
            node = self.src[edge]
            more = node != self.base[words]
            node, words = node[more], words[more]
        if not words_out:
            return best[ends], np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return best[ends], np.concatenate(words_out), np.concatenate(pieces_out)

    # -- internals --------------------------------------------------------------------------------

    def _plan(self) -> None:
        """Slices of the sorted edges, one per local end (forward) or local start (backward)."""
        self.src = self.base[self.word] + self.start
        self.dst = self.base[self.word] + self.end
        self._forward_plan = _groups(self.end, self.dst)
        order = self._backward
        self._dst_b = self.dst[order]
        self._backward_plan = _groups(self.start[order], self.src[order])
        self._sources = self.src[self._by_start]


def _groups(position: np.ndarray, node: np.ndarray) -> list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray]]:
    """For edges sorted by ``position`` (then ``node``): per position, the slice and its node segments."""
    if not len(position):
        return []
    cuts = np.flatnonzero(np.diff(position)) + 1
    group_bounds = np.concatenate(([0], cuts, [len(position)]))
    segment_starts = np.flatnonzero(np.concatenate(([True], node[1:] != node[:-1])))
    plan = []
    first = np.searchsorted(segment_starts, group_bounds)
    for g in range(len(group_bounds) - 1):
        lo, hi = int(group_bounds[g]), int(group_bounds[g + 1])
        starts = segment_starts[first[g] : first[g + 1]]
        lens = np.diff(np.append(starts, hi))
        plan.append((lo, hi, starts - lo, lens, node[starts]))
    return plan


def _segment_logsumexp(values: np.ndarray, idx: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """``log(sum(exp(v)))`` of each segment of ``values`` (segments start at ``idx``), stably."""
    top = np.maximum.reduceat(values, idx)
    shifted = values - np.repeat(top, lens)
    np.exp(shifted, out=shifted)
    return top + np.log(np.add.reduceat(shifted, idx))


def digamma(x: np.ndarray) -> np.ndarray:
    """The digamma function ψ(x) for x > 0: the recurrence ψ(x) = ψ(x + 1) − 1/x up to x ≥ 6, then
    the asymptotic series ln x − 1/(2x) − 1/(12x²) + 1/(120x⁴) − 1/(252x⁶).

    >>> round(float(digamma(np.array([1.0]))[0]), 6)  # minus the Euler–Mascheroni constant
    -0.577216
    """
    x = np.array(x, dtype=np.float64)
    result = np.zeros_like(x)
    small = x < 6
    while small.any():
        result[small] -= 1.0 / x[small]
        x[small] += 1.0
        small = x < 6
    inv2 = 1.0 / (x * x)
    return result + np.log(x) - 0.5 / x - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 / 252))
