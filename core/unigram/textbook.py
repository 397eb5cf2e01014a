"""The textbook chapter's Unigram recipe, beside SentencePiece's (``core.unigram.train``): ``train``,
``train_sizes`` and the ``TextbookUnigramTokenizer`` they return.

The recipe, exactly as the chapter runs it:

- pre-tokens: ``TEXTBOOK_PATTERN`` (GPT-2's pattern for Python's ``re``), counted; spaces are
  ordinary characters of the pre-tokens (no ``▁``);
- seed: every substring of at most ``L = 10`` characters of every pre-token, counted with the
  pre-token's count; those counted at least twice, plus every single character, with
  ``log(count / total)`` (see ``core.unigram.textbook_seed``);
- rounds: two EM iterations (E: forward–backward expected counts of every piece, per distinct
  pre-token times its count; M: ``p(s) = max(expected(s), 1e-9) / sum of all expected counts``),
  then stop when the vocabulary is at or below the target, else keep ``max(target, int(0.7 × size))``
  pieces: every single character plus the most probable longer pieces (ties: seed order);
- encoding: Viterbi per pre-token (``core.unigram.textbook_model``).

Why SentencePiece's recipe compresses better: it prunes the pieces the corpus misses least (what
the likelihood loses when each piece's best alternative cut replaces it), not the least probable
ones, so a piece with a good alternative (``the`` beside ``th`` + ``e``) goes before a rarer one
that nothing else can stand in for; its M-step (digamma) pushes rarely used pieces out between
prunings, and its seed ranks substrings by the characters they cover.

>>> result = train("hug hugs hugging pug pugs bun buns " * 3, vocab_size=14)
>>> [(r.pieces_before, r.pieces_kept) for r in result.trace]
[(58, 40), (40, 28), (28, 19), (19, 14), (14, 14)]
>>> [result.tokenizer.piece(t.id) for t in result.tokenizer.encode("hugs pug")]
['h', 'u', 'g', 's', ' pug']
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from core.text.pretokenize import cut_long_words
from core.text.textio import without_surrogates
from core.unigram import MAX_TRAINING_CHARS, check_budget
from core.unigram.lattice import Lattices
from core.unigram.textbook_model import TEXTBOOK_PATTERN, TextbookUnigramTokenizer, pretokens
from core.unigram.textbook_seed import make_textbook_seed

__all__ = ["TEXTBOOK_PATTERN", "TextbookResult", "TextbookRound", "TextbookUnigramTokenizer", "train", "train_sizes"]

MAX_PIECE_LEN = 10  # the chapter's L
EM_ITERATIONS = 2
KEEP_SHARE = 0.7
FLOOR = 1e-9  # the M-step's smallest expected count: no piece's probability becomes 0
MAX_PRETOKEN_CHARS = 1024  # longer pre-tokens (a run of spaces) are cut for training: one step per character


@dataclass(frozen=True, slots=True)
class TextbookRound:
    """One round: EM on ``pieces_before`` pieces, then pruning to ``pieces_kept`` (the same number
    when the round ended training).

    ``log_likelihoods`` are the training pre-tokens' log-likelihood per character (nats), measured
    in each EM iteration's E-step, so the last is under the probabilities the round's first M-step set.

    >>> TextbookRound(1, 500, (-2.5, -2.4), 350).log_likelihood_per_char
    -2.4
    """

    round: int
    pieces_before: int
    log_likelihoods: tuple[float, ...]
    pieces_kept: int

    @property
    def log_likelihood_per_char(self) -> float:
        return self.log_likelihoods[-1]


@dataclass(frozen=True)
class TextbookResult:
    """The tokenizer, one record per round, the seed's size and the training characters.

    ``stopped_early`` when the seed itself was at or below the target (``stop_reason`` says so).
    """

    tokenizer: TextbookUnigramTokenizer
    trace: tuple[TextbookRound, ...]
    stopped_early: bool
    stop_reason: str | None
    seed_pieces: int
    alphabet: tuple[str, ...]


def train(
    corpus: str,
    *,
    vocab_size: int,
    progress: Callable[[int, int], None] | None = None,
    name: str | None = None,
    max_chars: int | None = MAX_TRAINING_CHARS,
) -> TextbookResult:
    """Learn ``vocab_size`` pieces from ``corpus`` by the textbook recipe (``<unk>`` comes on top, id 0,
    for characters training never saw: the chapter's target counts pieces). Lone surrogates are read
    as U+FFFD; ``progress(done, total)`` is called after each round. ``max_chars`` bounds the characters
    of distinct pre-tokens, as ``core.unigram.train``'s budget does (``None`` lifts it: the command line)."""
    return train_sizes(corpus, vocab_sizes=[vocab_size], progress=progress, name=name, max_chars=max_chars)[vocab_size]


def train_sizes(
    corpus: str,
    *,
    vocab_sizes: Sequence[int],
    progress: Callable[[int, int], None] | None = None,
    name: str | None = None,
    max_chars: int | None = MAX_TRAINING_CHARS,
) -> dict[int, TextbookResult]:
    """Several targets from one run, each exactly what ``train`` gives for it alone.

    Subtle: the rounds of two targets are the same as long as ``int(0.7 × size)`` is above both; where
    a round would prune below a larger target, that target's run goes on from a copy, so nothing is
    approximated (unlike ``core.unigram.train_sizes``).
    """
    if not vocab_sizes or min(vocab_sizes) < 1:
        raise ValueError("give at least one vocabulary size, each 1 or more")
    counted = _count(corpus, max_chars)
    words = list(counted)
    weights = np.fromiter(counted.values(), dtype=np.float64, count=len(words))
    seed = make_textbook_seed(words, weights, max_len=MAX_PIECE_LEN)
    n_chars = int(seed.is_char.sum())
    if min(vocab_sizes) < n_chars:
        raise ValueError(
            f"vocab_size must be at least {n_chars:,}: the textbook recipe keeps every one of the "
            f"corpus's {n_chars:,} characters"
        )
    total_chars = float(weights @ np.fromiter(map(len, words), dtype=np.float64, count=len(words)))
    start = _State(seed.pieces, seed.scores, seed.is_char, np.arange(len(seed.pieces)), seed.lattices)
    targets = sorted(set(vocab_sizes), reverse=True)
    ticker = _Ticker(progress, len(seed.pieces), min(targets))
    finished = _run(start, targets, total_chars, ticker)
    ticker.done()
    alphabet = tuple(sorted(p for p, c in zip(seed.pieces, seed.is_char.tolist(), strict=True) if c))
    results = {}
    for target, (state, trace) in finished.items():
        short = len(trace) == 1 and trace[0].pieces_before < target
        reason = f"the seed has only {len(state.pieces):,} pieces, not {target:,}" if short else None
        ordered = sorted(zip(state.pieces, state.scores.tolist(), strict=True), key=lambda ps: (-ps[1], ps[0]))
        tokenizer = TextbookUnigramTokenizer(
            pieces=ordered, max_piece_len=MAX_PIECE_LEN, name=name or default_name(len(ordered))
        )
        results[target] = TextbookResult(tokenizer, tuple(trace), short, reason, len(seed.pieces), alphabet)
    return results


def default_name(pieces: int) -> str:
    """A readable name for a tokenizer trained by the recipe.

    >>> default_name(2000)
    'Unigram, textbook recipe (2,000 pieces)'
    """
    return f"Unigram, textbook recipe ({pieces:,} pieces)"


@dataclass
class _State:
    """The vocabulary while it shrinks; ``order`` is each piece's seed rank (pruning's tie rule)."""

    pieces: list[str]
    scores: np.ndarray
    is_char: np.ndarray
    order: np.ndarray
    lattices: Lattices

    def keep(self, mask: np.ndarray) -> _State:
        """A new state with only the pieces where ``mask`` holds (this one is left as it was)."""
        lattices = copy.copy(self.lattices)  # subtle: keep() rebinds its arrays, never writes into them
        lattices.keep(mask[lattices.piece], np.cumsum(mask) - 1)
        pieces = [p for p, k in zip(self.pieces, mask.tolist(), strict=True) if k]
        return _State(pieces, self.scores[mask], self.is_char[mask], self.order[mask], lattices)


def _run(
    state: _State, targets: list[int], total_chars: float, ticker: _Ticker
) -> dict[int, tuple[_State, list[TextbookRound]]]:
    """Rounds from ``state`` toward every target (largest first); each target's final state and trace."""
    finished: dict[int, tuple[_State, list[TextbookRound]]] = {}
    branches = [(state, targets, [])]
    while branches:
        state, pending, trace = branches.pop()
        lls = _em(state, total_chars)
        size = len(state.pieces)
        for target in [t for t in pending if size <= t]:  # training stops here for these
            finished[target] = (state, [*trace, TextbookRound(len(trace) + 1, size, lls, size)])
        pending = [t for t in pending if size > t]
        if not pending:
            continue
        share = int(KEEP_SHARE * size)
        for target in [t for t in pending if t > share]:  # pruned to the target itself: one last round
            branches.append((_prune(state, target), [target], [*trace, TextbookRound(len(trace) + 1, size, lls, target)]))
        rest = [t for t in pending if t <= share]
        if rest:
            pruned = _prune(state, share)
            ticker.tick(len(pruned.pieces))
            branches.append((pruned, rest, [*trace, TextbookRound(len(trace) + 1, size, lls, len(pruned.pieces))]))
    return finished


def _em(state: _State, total_chars: float) -> tuple[float, ...]:
    """The round's EM iterations; returns the log-likelihood per character each E-step measured."""
    return tuple(_em_step(state) / total_chars for _ in range(EM_ITERATIONS))


def _em_step(state: _State) -> float:
    """One EM iteration: ``state.scores`` becomes the M-step's log-probabilities; returns the corpus
    log-likelihood under the old ones (the E-step's)."""
    expected, log_likelihood = state.lattices.expected_counts(state.scores, len(state.pieces))
    state.scores = np.log(np.maximum(expected, FLOOR)) - np.log(expected.sum())
    return log_likelihood


def _prune(state: _State, size: int) -> _State:
    """Every single character and the most probable longer pieces, ``size`` pieces in all (more when
    the characters alone are more); ties go to the piece met first in the seed."""
    multi = np.flatnonzero(~state.is_char)
    room = max(size - (len(state.pieces) - len(multi)), 0)
    best = multi[np.lexsort((state.order[multi], -state.scores[multi]))[:room]]
    mask = state.is_char.copy()
    mask[best] = True
    return state.keep(mask)


def _count(corpus: str, max_chars: int | None = None) -> Counter[str]:
    """The pre-tokens and their counts, in the order they first appear; ``ValueError`` when none, or
    when their distinct characters are more than ``max_chars`` (before the seed: about 1 KB each)."""
    counted = Counter(pretokens(without_surrogates(corpus)))
    if not counted:
        raise ValueError("the corpus has no pre-tokens: give it some text to learn pieces from")
    counted = cut_long_words(counted, MAX_PRETOKEN_CHARS)
    check_budget(sum(map(len, counted)), max_chars, "pre-tokens", "the textbook's Unigram")
    return counted


class _Ticker:
    """``progress(done, total)`` on a log scale from the seed's size to the smallest target."""

    STEPS = 1000

    def __init__(self, progress: Callable[[int, int], None] | None, start: int, end: int) -> None:
        self.progress, self.start, self.end = progress, max(start, 1), max(end, 1)

    def tick(self, size: int) -> None:
        if self.progress is not None and self.start > self.end:
            done = np.log(self.start / max(size, self.end)) / np.log(self.start / self.end)
            self.progress(min(self.STEPS - 1, int(done * self.STEPS)), self.STEPS)

    def done(self) -> None:
        if self.progress is not None:
            self.progress(self.STEPS, self.STEPS)
