"""Training a Unigram language model: seed, then rounds of EM and pruning down to the target size.

Each round: ``em_iterations`` EM steps (the E-step sums every segmentation of every word, weighted by
its probability, with forward–backward; the M-step turns the expected counts into log-probabilities),
then pruning. Pruning asks, for each piece, what the corpus would lose without it: every place the
best segmentations use the piece would use its best alternative segmentation instead (the best way to
cut the piece's own text with the other pieces). The pieces that cost least go; single characters
never do, so every text seen in training can still be written.

Where this follows SentencePiece's trainer (``unigram_model_trainer.cc``) and where not:

- the same seed rule (see ``core.unigram.seed``), the same Bayesian
  M-step (``digamma(count) - digamma(total)``, which favours dropping rare pieces), the same rule that
  EM drops pieces whose expected count falls under 0.5, and the same loss of a piece: its Viterbi
  frequency times the log-probability it had minus the log-probability of its alternative, with the
  alternative's pieces' frequencies raised by its own; pieces the best segmentations never use, or
  whose own best segmentation is not themselves, cost nothing and go first.
- unlike SentencePiece, pruning goes straight to the target size (SentencePiece stops at 1.1 times it
  and keeps the highest scores), and EM runs once more after the last pruning; EM and pruning never
  take the vocabulary below the target; a loss here is in nats over the corpus (SentencePiece divides
  by the number of words, which does not change the order).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress

import numpy as np

from core.unigram.lattice import Lattices, digamma
from core.unigram.seed import Seed

MIN_EXPECTED_COUNT = 0.5  # SentencePiece's kExpectedFrequencyThreshold
PROGRESS_STEPS = 1000


@dataclass(frozen=True, slots=True)
class PruneRound:
    """One round of training: EM on the vocabulary it started with, then pruning.

    ``log_likelihoods`` are the corpus log-likelihood per character (nats, ``▁`` counted) at each EM
    iteration, measured in its E-step; ``vanished`` are the pieces EM dropped because their expected
    count fell below 0.5, with that count; ``dropped`` are the pieces pruning removed with their loss
    (nats over the corpus; 0 for a piece the best segmentations do not use; below 0 when its
    alternative would even do better), cheapest first. A round that prunes nothing ends at a size
    asked for: the vocabulary of that size is the one its EM left.

    >>> PruneRound(1, 10, (-2.5, -2.4), (), (("ab", 0.0),), 9).log_likelihood_per_char
    -2.4
    """

    round: int
    pieces_before: int
    log_likelihoods: tuple[float, ...]
    vanished: tuple[tuple[str, float], ...]
    dropped: tuple[tuple[str, float], ...]
    pieces_kept: int

    @property
    def em_iterations(self) -> int:
        return len(self.log_likelihoods)

    @property
    def log_likelihood_per_char(self) -> float:
        return self.log_likelihoods[-1]


@dataclass(frozen=True)
class Snapshot:
    """The vocabulary when the run reached ``size`` pieces, and how many trace rounds led there."""

    size: int
    pieces: list[tuple[str, float]]
    rounds: int


class _Model:
    """The vocabulary while it shrinks: pieces, scores, where each occurs once, and the lattices."""

    def __init__(self, seed: Seed) -> None:
        self.pieces = seed.pieces
        self.scores = seed.scores
        self.n_chars = seed.n_chars
        self.lattices = seed.lattices
        self.rep_word, self.rep_start = seed.rep_word, seed.rep_start
        self.lengths = np.fromiter(map(len, self.pieces), dtype=np.int64, count=len(self.pieces))

    @property
    def size(self) -> int:
        return len(self.pieces)

    def remove(self, gone: np.ndarray) -> list[str]:
        """Drop the pieces at the indices ``gone``; return their strings."""
        keep = np.ones(self.size, dtype=bool)
        keep[gone] = False
        names = [self.pieces[i] for i in gone.tolist()]
        new_ids = np.cumsum(keep) - 1
        self.lattices.keep(keep[self.lattices.piece], new_ids)
        self.pieces = list(compress(self.pieces, keep.tolist()))
        self.scores, self.lengths = self.scores[keep], self.lengths[keep]
        self.rep_word, self.rep_start = self.rep_word[keep], self.rep_start[keep]
        return names


def run(
    seed: Seed,
    *,
    targets: Sequence[int],
    em_iterations: int,
    shrink: float,
    total_chars: float,
    progress: Callable[[int, int], None] | None,
) -> tuple[list[Snapshot], list[PruneRound]]:
    """EM and pruning from ``seed`` down to each of ``targets`` (numbers of pieces) in turn, largest
    first: one run passes through every size, and the vocabulary is taken when it gets there.

    ``progress(done, total)`` is called after every EM iteration; an exception it raises (a Stop
    button's) ends the run there, with nothing kept."""
    model = _Model(seed)
    trace: list[PruneRound] = []
    snapshots: list[Snapshot] = []
    pending = sorted(set(targets), reverse=True)
    start_size = model.size
    span = math.log(start_size / pending[-1]) if start_size > pending[-1] else 1.0

    def report() -> None:
        if progress is not None:
            done = math.log(start_size / model.size) / span if model.size < start_size else 0.0
            progress(min(PROGRESS_STEPS - 1, int(done * PROGRESS_STEPS)), PROGRESS_STEPS)

    report()
    while pending:
        target, before = pending[0], model.size
        lls, vanished = [], []
        for _ in range(em_iterations):
            counts, log_likelihood = model.lattices.expected_counts(model.scores, model.size)
            lls.append(log_likelihood / total_chars)
            vanished.extend(_m_step(model, counts, target))
            report()
        dropped = _prune(model, target, shrink) if model.size > target else []
        trace.append(PruneRound(len(trace) + 1, before, tuple(lls), tuple(vanished), tuple(dropped), model.size))
        if not dropped:  # EM ran on exactly the target vocabulary: it is done
            pieces = list(zip(model.pieces, model.scores.tolist(), strict=True))
            snapshots.append(Snapshot(target, pieces, len(trace)))
            pending.pop(0)
        report()
    if progress is not None:
        progress(PROGRESS_STEPS, PROGRESS_STEPS)
    return snapshots, trace


def _m_step(model: _Model, counts: np.ndarray, target: int) -> list[tuple[str, float]]:
    """New log-probabilities from expected counts; pieces under 0.5 expected go (never a character,
    never below ``target``). Returns what went, with its expected count."""
    rare = np.flatnonzero(counts < MIN_EXPECTED_COUNT)
    rare = rare[rare >= model.n_chars]
    room = model.size - target
    if len(rare) > room:
        rare = rare[np.argsort(counts[rare], kind="stable")[: max(room, 0)]]
    gone = list(zip([model.pieces[i] for i in rare.tolist()], counts[rare].tolist(), strict=True))
    kept_counts = np.delete(counts, rare)
    if len(rare):
        model.remove(rare)
    # subtle: a kept piece may have next to no expected count (a character always inside longer
    # pieces); digamma(0) is -inf, so such counts are floored at the threshold
    floored = np.maximum(kept_counts, MIN_EXPECTED_COUNT)
    model.scores = digamma(floored) - digamma(np.array([floored.sum()]))[0]
    return gone


def _prune(model: _Model, target: int, shrink: float) -> list[tuple[str, float]]:
    """Remove the pieces whose loss is smallest, down to ``max(target, shrink * size)``."""
    lattices, scores = model.lattices, model.scores
    _, used_word, used_piece = lattices.viterbi(scores)
    freq = np.bincount(used_piece, weights=lattices.weights[used_word], minlength=model.size)
    multi = np.arange(model.n_chars, model.size)
    loss = _losses(model, freq, multi)
    useless = int((loss <= 0).sum())
    size = model.size
    new_size = max(target, min(int(size * shrink), size - useless))
    order = np.lexsort((scores[multi], loss))[: size - new_size]  # cheapest first, then least probable
    gone = multi[order]
    names = model.remove(gone)
    return list(zip(names, loss[order].tolist(), strict=True))


def _losses(model: _Model, freq: np.ndarray, multi: np.ndarray) -> np.ndarray:
    """Per longer piece, the log-likelihood the corpus loses if its best alternative replaces it.

    0 for a piece the best segmentations never use, or whose own best segmentation is not itself.
    Subtle: the alternative of each piece is the Viterbi path of the piece's own text without the
    piece; all pieces' lattices are one ``Lattices`` batch, cut from the corpus lattices where each
    piece occurs once (``Lattices.inside``), so no string is looked up again.
    """
    owner, start, end, piece = model.lattices.inside(model.rep_word[multi], model.rep_start[multi], model.lengths[multi])
    alternatives = Lattices(model.lengths[multi], np.ones(len(multi)), owner, start, end, piece)
    alt_score, alt_owner, alt_piece = alternatives.viterbi(model.scores)
    f = freq[multi]
    total = freq.sum()
    n_alt = np.bincount(alt_owner, minlength=len(multi))
    with np.errstate(divide="ignore", invalid="ignore"):
        logprob_alt = np.bincount(alt_owner, weights=np.log(freq[alt_piece] + f[alt_owner]), minlength=len(multi))
        logprob_alt -= n_alt * np.log(total + f * (n_alt - 1))
        logprob_sp = np.log(f) - math.log(total)
        loss = f * (logprob_sp - logprob_alt)
    useless = (f <= 0) | (alt_score > model.scores[multi])
    return np.where(useless, 0.0, loss)
