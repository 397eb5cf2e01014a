"""The Unigram language model (Kudo 2018, SentencePiece's default), trained here: ``train``, and the
``UnigramTokenizer`` it returns.

A Unigram model gives every piece a probability and cuts a word into the pieces whose probabilities
multiply to the most (the Viterbi path through the word's lattice of all pieces that fit). Training
starts from far too many pieces (every frequent substring, every character) and alternates EM, which
re-estimates the probabilities from all segmentations of the corpus, with pruning, which removes the
pieces the corpus misses least, until the vocabulary has the size asked for. Unlike BPE nothing is
merged: the vocabulary shrinks from the top down, and any text has many segmentations with a
probability each (``nbest``, and ``sample`` for subword regularization).

Modules: ``words`` (pre-tokenization: SentencePiece's ``▁`` words or a pattern's chunks, and the
script rule), ``seed`` (the seed vocabulary and the corpus lattices), ``lattice`` (forward–backward
and Viterbi over all words at once, in numpy), ``trainer`` (EM and pruning, the trace), ``search``
(one word's Viterbi, n best and sampling), ``model`` (the tokenizer).
What it does not hold: SentencePiece's own trainer or files (real Unigram tokenizers such as T5's
and XLM-R's are loaded by ``core.pretrained``).

>>> result = train("hug hugs hugging pug pugs bun buns", vocab_size=14)
>>> [result.tokenizer.piece(t.id) for t in result.tokenizer.encode("hugs pug")]
['▁hug', 's', '▁pug']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from core.text.patterns import NAMED_PATTERNS
from core.text.pretokenize import MAX_TRAINING_WORD, compile_pattern, cut_long_words
from core.text.textio import without_surrogates
from core.unigram.model import UNK, LatticeEdge, Segmentation, UnigramTokenizer, WordLattice
from core.unigram.seed import make_seed
from core.unigram.trainer import PruneRound, run
from core.unigram.words import METASPACE, word_counts

__all__ = [
    "METASPACE",
    "UNK",
    "LatticeEdge",
    "PruneRound",
    "Segmentation",
    "UnigramResult",
    "UnigramTokenizer",
    "VocabSizeError",
    "WordLattice",
    "default_name",
    "train",
    "train_sizes",
]

MAX_PIECE_LEN = 64
# Training cuts longer words (a text without spaces is one word) into parts this long; no piece spans a cut.
MAX_WORD_CHARS = MAX_TRAINING_WORD  # longer words are cut for training (core.text.pretokenize.cut_long_words)
DEFAULT_SEED_SIZE = 1_000_000  # SentencePiece's seed_sentencepiece_size
# The training budget, in characters of distinct words (each counted once however often it occurs):
# the seed and its lattices take about 1 KB per such character (975 MB peak for 1,000,000 of them,
# a megabyte without spaces), so this bounds a training near half a gigabyte. Ordinary corpora have
# far fewer (the largest in the catalog, La Regenta's 1.8 MB, has 430,164).
MAX_TRAINING_CHARS = 500_000


class VocabSizeError(ValueError):
    """A vocabulary size the corpus cannot give; ``least`` and ``most`` say which sizes it can.

    >>> try:
    ...     train("ab ab", vocab_size=3)
    ... except VocabSizeError as exc:
    ...     exc.least
    4
    """

    def __init__(self, message: str, *, least: int | None = None, most: int | None = None) -> None:
        super().__init__(message)
        self.least, self.most = least, most


@dataclass(frozen=True)
class UnigramResult:
    """What training returns: the tokenizer, one trace record per round, and the seed it started from.

    ``stopped_early`` says whether the vocabulary came out smaller than asked (``stop_reason`` says
    why); ``seed_pieces`` counts the seed, characters included; ``alphabet`` is the characters.
    """

    tokenizer: UnigramTokenizer
    trace: tuple[PruneRound, ...]
    stopped_early: bool
    stop_reason: str | None
    seed_pieces: int
    alphabet: tuple[str, ...]


def train(
    corpus: str,
    *,
    vocab_size: int,
    pattern: str | None = None,
    max_piece_len: int = 16,
    seed_size: int = DEFAULT_SEED_SIZE,
    shrink: float = 0.75,
    em_iterations: int = 2,
    split_by_script: bool = True,
    progress: Callable[[int, int], None] | None = None,
    name: str | None = None,
    max_chars: int | None = MAX_TRAINING_CHARS,
) -> UnigramResult:
    """Learn ``vocab_size`` pieces (``<unk>`` included) from ``corpus``.

    ``pattern=None`` cuts words as SentencePiece does (``▁`` + word); a pattern uses its chunks (see
    ``core.unigram.words``). ``seed_size`` bounds the longer pieces EM starts from (every character
    comes on top); each pruning round keeps ``shrink`` of the vocabulary (or drops more, when more
    pieces are useless); ``em_iterations`` EM steps run per round. ``split_by_script`` forbids pieces
    that mix scripts (``o,``, ``a1``: digits and punctuation are one "common" script), as
    SentencePiece does by default. ``progress(done, total)`` is called once the seed is made and after
    every EM iteration; an exception it raises (a page's Stop button) ends the training there. Words
    longer than ``MAX_WORD_CHARS`` are cut into pieces that long (``core.text.pretokenize.cut_long_words``).
    ``max_chars`` bounds the characters of distinct words trained on (about 1 KB of memory each): a
    corpus over it is refused with a ``ValueError`` at once; ``None`` lifts the bound (the command line).
    Lone surrogates are read as U+FFFD.

    >>> result = train("hug hugs hugging pug pugs bun buns", vocab_size=14)  # 10 characters
    >>> [(r.pieces_before, r.pieces_kept) for r in result.trace]
    [(17, 13)]
    >>> sorted(piece for piece in result.tokenizer.vocab[1:] if len(piece) > 1)
    ['hug', '▁bun', '▁hug', '▁pug']
    """
    options = _Options(pattern, max_piece_len, seed_size, shrink, em_iterations, split_by_script, max_chars)
    return _train(corpus, [vocab_size], options, progress, name)[vocab_size]


def train_sizes(
    corpus: str,
    *,
    vocab_sizes: Sequence[int],
    pattern: str | None = None,
    max_piece_len: int = 16,
    seed_size: int = DEFAULT_SEED_SIZE,
    shrink: float = 0.75,
    em_iterations: int = 2,
    split_by_script: bool = True,
    progress: Callable[[int, int], None] | None = None,
    max_chars: int | None = MAX_TRAINING_CHARS,
) -> dict[int, UnigramResult]:
    """Several vocabulary sizes from one run: ``train`` to the largest, then onward to each smaller one.

    Subtle: a size reached on the way is exactly what ``train`` gives for the largest; a smaller one
    continues from there, so it can differ a little from training to it directly (pruning rounds fall
    at other sizes). Costs about one run of the smallest size. Options as for ``train``.

    >>> sorted(train_sizes("ab ab ab ab cd ce", vocab_sizes=[7, 8]))
    [7, 8]
    """
    if not vocab_sizes:
        raise ValueError("give at least one vocabulary size")
    options = _Options(pattern, max_piece_len, seed_size, shrink, em_iterations, split_by_script, max_chars)
    return _train(corpus, list(vocab_sizes), options, progress, None)


def default_name(vocab_size: int, pattern: str | None) -> str:
    """A readable name for a tokenizer trained here.

    >>> default_name(2000, None)
    'Unigram trained here (▁ words, 2,000 pieces)'
    """
    if pattern is None:
        return f"Unigram trained here ({METASPACE} words, {vocab_size:,} pieces)"
    pattern_name = next((n for n, p in NAMED_PATTERNS.items() if p == pattern), "custom")
    return f"Unigram trained here ({pattern_name} pattern, {vocab_size:,} pieces)"


@dataclass(frozen=True)
class _Options:
    pattern: str | None
    max_piece_len: int
    seed_size: int
    shrink: float
    em_iterations: int
    split_by_script: bool
    max_chars: int | None


def _train(
    corpus: str,
    sizes: list[int],
    options: _Options,
    progress: Callable[[int, int], None] | None,
    name: str | None,
) -> dict[int, UnigramResult]:
    _check(sizes, options)
    words, counts, alphabet = _count_words(corpus, options.pattern, min(sizes), options.max_chars)
    seed = make_seed(
        words,
        counts,
        max_len=options.max_piece_len,
        seed_size=options.seed_size,
        needed=max(sizes) - 1,
        by_script=options.split_by_script,
    )
    if max(sizes) > seed.possible + 1:
        raise VocabSizeError(
            f"vocab_size can be at most {seed.possible + 1:,} for this corpus: it holds only "
            f"{seed.possible:,} distinct substrings that may be pieces (plus <unk>)",
            least=len(alphabet) + 1,
            most=seed.possible + 1,
        )
    total_chars = float(counts @ np.fromiter(map(len, words), dtype=np.float64, count=len(words)))
    snapshots, trace = run(
        seed,
        targets=[size - 1 for size in sizes],
        em_iterations=options.em_iterations,
        shrink=options.shrink,
        total_chars=total_chars,
        progress=progress,
    )
    results = {}
    for snapshot in snapshots:
        size = snapshot.size + 1
        tokenizer = UnigramTokenizer(
            pieces=sorted(snapshot.pieces, key=lambda item: (-item[1], item[0])),  # most probable first
            pattern=options.pattern,
            max_piece_len=options.max_piece_len,
            name=name or default_name(size, options.pattern),
        )
        short = tokenizer.vocab_size < size
        reason = f"the vocabulary has {tokenizer.vocab_size:,} pieces, not {size:,}" if short else None
        rounds = tuple(trace[: snapshot.rounds])
        results[size] = UnigramResult(tokenizer, rounds, short, reason, len(seed.pieces), alphabet)
    return results


def _count_words(
    corpus: str, pattern: str | None, smallest: int, max_chars: int | None = MAX_TRAINING_CHARS,
) -> tuple[list[str], np.ndarray, tuple[str, ...]]:
    """The distinct words, their counts and the alphabet; ``ValueError`` when nothing fits."""
    counted = word_counts(without_surrogates(corpus), pattern)
    if not counted:
        raise ValueError("the corpus is empty: give it some text to learn pieces from")
    counted = cut_long_words(counted, MAX_WORD_CHARS)
    words = list(counted)
    check_budget(sum(map(len, words)), max_chars, "words", "Unigram")
    alphabet = tuple(sorted(set("".join(words))))
    if smallest < len(alphabet) + 1:
        raise VocabSizeError(
            f"vocab_size must be at least {len(alphabet) + 1:,}: every one of the corpus's "
            f"{len(alphabet):,} characters keeps a piece, and <unk> takes one more",
            least=len(alphabet) + 1,
        )
    return words, np.fromiter(counted.values(), dtype=np.float64, count=len(words)), alphabet


def _check(sizes: list[int], options: _Options) -> None:
    if min(sizes) < 2:
        raise VocabSizeError("vocab_size must be at least 2: <unk> and one character", least=2)
    if not 1 <= options.max_piece_len <= MAX_PIECE_LEN:
        raise ValueError(f"max_piece_len must be between 1 and {MAX_PIECE_LEN}, not {options.max_piece_len}")
    if options.seed_size < 1:
        raise ValueError("seed_size must be at least 1")
    if not 0.5 <= options.shrink <= 0.95:
        raise ValueError(f"shrink must be between 0.5 and 0.95 (the share each round keeps), not {options.shrink}")
    if not 1 <= options.em_iterations <= 10:
        raise ValueError(f"em_iterations must be between 1 and 10, not {options.em_iterations}")
    if options.pattern is not None:
        compile_pattern(options.pattern)  # fail early on a bad pattern


def check_budget(distinct: int, max_chars: int | None, units: str, recipe: str) -> None:
    """``ValueError`` when ``distinct`` characters of distinct ``units`` exceed the training budget
    ``max_chars`` (``None``: no budget); the seed and the lattices take about 1 KB per such character.

    >>> check_budget(10, 20, "words", "Unigram")
    >>> check_budget(30, 20, "words", "Unigram")
    Traceback (most recent call last):
    ...
    ValueError: the corpus has 30 characters in distinct words, and Unigram trains here on at most 20 (about 0.0 GB of memory); a text with few spaces repeats few words: train on a smaller part of it
    """
    if max_chars is not None and distinct > max_chars:
        raise ValueError(
            f"the corpus has {distinct:,} characters in distinct {units}, and {recipe} trains here on at most "
            f"{max_chars:,} (about {max_chars / 1e6:.1f} GB of memory); a text with few spaces repeats few "
            "words: train on a smaller part of it"
        )
