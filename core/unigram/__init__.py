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

>>> result = train("low low low lower lower lowest lowest", vocab_size=12)
>>> [t.bytes for t in result.tokenizer.encode("lowest lower")]
[b'lowest', b' lower']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from core.textio import without_surrogates
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
    "WordLattice",
    "train",
]

MAX_PIECE_LEN = 64
DEFAULT_SEED_SIZE = 1_000_000  # SentencePiece's seed_sentencepiece_size


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
) -> UnigramResult:
    """Learn ``vocab_size`` pieces (``<unk>`` included) from ``corpus``.

    ``pattern=None`` cuts words as SentencePiece does (``▁`` + word); a pattern uses its chunks (see
    ``core.unigram.words``). ``seed_size`` bounds the longer pieces EM starts from (every character
    comes on top); each pruning round keeps ``shrink`` of the vocabulary (or drops more, when more
    pieces are useless); ``em_iterations`` EM steps run per round. ``split_by_script`` forbids pieces
    that mix scripts (``o,`` or ``a1``... digits and punctuation are one "common" script), as
    SentencePiece does by default. ``progress(done, total)`` is called after each round. Lone
    surrogates are read as U+FFFD.

    >>> result = train("ab ab ab ab cd", vocab_size=7)  # 5 characters, <unk> and one more piece
    >>> [(r.pieces_before, r.pieces_kept) for r in result.trace], result.tokenizer.piece(1)
    ([(8, 6)], '▁ab')
    """
    _check(vocab_size, max_piece_len, seed_size, shrink, em_iterations)
    counted = word_counts(without_surrogates(corpus), pattern)
    if not counted:
        raise ValueError("the corpus is empty: give it some text to learn pieces from")
    words = list(counted)
    counts = np.fromiter(counted.values(), dtype=np.float64, count=len(words))
    alphabet = sorted(set("".join(words)))
    if vocab_size < len(alphabet) + 1:
        raise ValueError(
            f"vocab_size must be at least {len(alphabet) + 1:,}: every one of the corpus's "
            f"{len(alphabet):,} characters keeps a piece, and <unk> takes one more"
        )
    seed = make_seed(
        words, counts, max_len=max_piece_len, seed_size=seed_size, needed=vocab_size - 1, by_script=split_by_script
    )
    if vocab_size > seed.possible + 1:
        raise ValueError(
            f"vocab_size can be at most {seed.possible + 1:,} for this corpus: it holds only "
            f"{seed.possible:,} distinct substrings that may be pieces (plus <unk>)"
        )
    if len(seed.pieces) < vocab_size - 1:
        raise ValueError(f"seed_size must be at least vocab_size ({vocab_size:,}) minus the characters")
    total_chars = float(counts @ np.fromiter(map(len, words), dtype=np.float64, count=len(words)))
    pieces, trace = run(
        seed, target=vocab_size - 1, em_iterations=em_iterations, shrink=shrink, total_chars=total_chars,
        progress=progress,
    )
    pieces.sort(key=lambda item: (-item[1], item[0]))
    tokenizer = UnigramTokenizer(pieces=pieces, pattern=pattern, max_piece_len=max_piece_len, name=name)
    short = tokenizer.vocab_size < vocab_size
    reason = f"the vocabulary has {tokenizer.vocab_size:,} pieces, not {vocab_size:,}" if short else None
    return UnigramResult(tokenizer, tuple(trace), short, reason, len(seed.pieces), tuple(alphabet))


def _check(vocab_size: int, max_piece_len: int, seed_size: int, shrink: float, em_iterations: int) -> None:
    if vocab_size < 2:
        raise ValueError("vocab_size must be at least 2: <unk> and one character")
    if not 1 <= max_piece_len <= MAX_PIECE_LEN:
        raise ValueError(f"max_piece_len must be between 1 and {MAX_PIECE_LEN}, not {max_piece_len}")
    if seed_size < 1:
        raise ValueError("seed_size must be at least 1")
    if not 0.5 <= shrink <= 0.95:
        raise ValueError(f"shrink must be between 0.5 and 0.95 (the share each round keeps), not {shrink}")
    if not 1 <= em_iterations <= 10:
        raise ValueError(f"em_iterations must be between 1 and 10, not {em_iterations}")
