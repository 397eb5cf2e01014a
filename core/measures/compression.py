"""Compression against vocabulary size: held-out bytes per token as a vocabulary grows, per algorithm.

Train on the first part of a corpus, measure on the held-out rest (``core.corpora.split_heldout``):
bytes per token says how much text one token carries, so how long a sequence a model must read.

- **BPE** costs one training run for every size: merge k of a longer run is merge k of every shorter
  one (the greedy choice at step k does not depend on when training stops). Encoding is incremental
  too: within a pre-token the merges apply lowest rank first and a merge only makes pairs of higher
  rank, so the merges of rank below k made while encoding with *all* merges are exactly those made
  with the first k. One encode of each distinct held-out pre-token, keeping the rank of every merge
  it makes, gives the held-out token count at every vocabulary size at once (``bpe_sweep``).
- **Other algorithms** (WordPiece, Unigram, and Unigram by the textbook chapter's recipe) learn a different vocabulary for each size, so their
  sweep trains once per size. They plug in through ``ALGORITHMS``: a name, the module that implements
  it (imported lazily) and a sweep function. An algorithm whose module is missing from this build is
  reported by ``unavailable_reason`` and skipped, never an error.
- **The ceiling**: one token per pre-token (``pretoken_ceiling``). Byte-level BPE never merges across
  pre-tokens, so however large its vocabulary it cannot beat this on the held-out text.

What this module does not do: draw (``ui``), load pretrained tokenizers (``core.pretrained``; give
``tokenizer_point`` a loaded one).

>>> sweep = bpe_sweep("low lower lowest " * 20, "lowly low ", max_vocab=262)
>>> sweep.curve([256, 262]).tokens.tolist()  # "lowly low " is 10 bytes, then low·l·y, " low", " "
[10, 5]
"""

from __future__ import annotations

import importlib
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from core import bpe
from core.bpe.history import NEVER, merge_lowest_first
from core.text.patterns import GPT2_PATTERN
from core.text.pretokenize import chunks
from core.text.textio import without_surrogates
from core.types import ADDED

Progress = Callable[[float, str], None]  # (fraction done, what is happening)
BYTE_BASE = 256  # byte-level BPE starts from the 256 bytes
_SHIFT = 32


@dataclass(frozen=True, eq=False)
class Curve:
    """Held-out tokens at each vocabulary size of one algorithm's sweep.

    ``vocab_sizes[i]`` is the size the tokenizer really has (an engine may stop short of the size
    asked for) and ``tokens[i]`` the held-out text's length in tokens under it. Where one run gives
    every size (BPE), ``dense_sizes``/``dense_tokens`` hold all of them. ``note`` says what was
    skipped or cut short, in a sentence for the page.
    """

    algorithm: str
    vocab_sizes: np.ndarray
    tokens: np.ndarray
    heldout_bytes: int
    seconds: float
    note: str = ""
    dense_sizes: np.ndarray | None = None
    dense_tokens: np.ndarray | None = None

    @property
    def bytes_per_token(self) -> np.ndarray:
        return self.heldout_bytes / np.maximum(self.tokens, 1)


@dataclass(frozen=True, eq=False)
class BPESweep:
    """One BPE training run and the held-out token count after every number of merges it made.

    ``tokens_after[k]`` is the held-out text's length in tokens with the first ``k`` merges, i.e.
    with a vocabulary of ``256 + k``.
    """

    result: bpe.BPEResult
    tokens_after: np.ndarray
    heldout_bytes: int
    seconds: float

    @property
    def max_vocab(self) -> int:
        return BYTE_BASE + len(self.tokens_after) - 1

    def tokens_at(self, vocab_size: int) -> int:
        """Held-out tokens with a vocabulary of ``vocab_size`` (clamped to 256 … ``max_vocab``)."""
        k = min(max(int(vocab_size), BYTE_BASE), self.max_vocab) - BYTE_BASE
        return int(self.tokens_after[k])

    def curve(self, sizes: Sequence[int]) -> Curve:
        """The sweep at ``sizes`` (clamped to what training reached), with every size as the dense curve."""
        reached = sorted({min(max(int(s), BYTE_BASE), self.max_vocab) for s in sizes})
        note = ""
        if self.result.stop_reason:
            note = f"BPE {self.result.stop_reason}: the corpus has no more pairs to merge."
        return Curve(
            "BPE", np.asarray(reached), np.asarray([self.tokens_at(s) for s in reached]), self.heldout_bytes,
            self.seconds, note, np.arange(BYTE_BASE, self.max_vocab + 1), self.tokens_after,
        )


def bpe_heldout_tokens(tokenizer: bpe.BPETokenizer, heldout: str) -> np.ndarray:
    """``out[k]``: the length in tokens of ``heldout`` under the first ``k`` merges of ``tokenizer``, every k.

    One encode with all merges (see the module docstring for why it answers every k). Byte mode only.

    >>> tok = bpe.BPETokenizer(merges=[(104, 105), (32, 256)])
    >>> bpe_heldout_tokens(tok, "hi! hi").tolist()
    [6, 4, 3]
    """
    if tokenizer.mode != "byte":
        raise ValueError("the incremental sweep needs a byte-level BPE tokenizer")
    ranks = {(left << _SHIFT) | right: rank for rank, (left, right) in enumerate(tokenizer.merges)}
    get = ranks.get

    def pair_rank(first: int, mid: int, end: int, left: int, right: int) -> int:
        return get((left << _SHIFT) | right, NEVER)

    made_at = np.zeros(len(tokenizer.merges), dtype=np.int64)  # merges of each rank made, by frequency
    units = 0
    for chunk, freq in Counter(chunks(without_surrogates(heldout), tokenizer.pattern)).items():
        data = chunk.encode()
        units += len(data) * freq
        if len(data) > 1:
            for merge in merge_lowest_first(list(data), pair_rank, id_offset=BYTE_BASE)[1]:
                made_at[merge[0]] += freq
    return units - np.concatenate(([0], np.cumsum(made_at)))


def bpe_sweep(
    train: str, heldout: str, *, max_vocab: int, pattern: str = GPT2_PATTERN, progress: Progress | None = None
) -> BPESweep:
    """Train byte-level BPE once to ``max_vocab`` and measure ``heldout`` at every size up to it.

    Raises ``ValueError`` (from ``core.bpe.train``) for an empty corpus or a size below 256.
    """
    began = time.perf_counter()

    def trained(done: int, total: int) -> None:
        if progress is not None:
            progress(0.9 * done / max(total, 1), f"BPE: {done:,} of {total:,} merges")

    result = bpe.train(train, vocab_size=max_vocab, pattern=pattern, progress=trained)
    if progress is not None:
        progress(0.9, "BPE: encoding the held-out text")
    tokens_after = bpe_heldout_tokens(result.tokenizer, heldout)
    return BPESweep(result, tokens_after, len(without_surrogates(heldout).encode()), time.perf_counter() - began)


def pretoken_ceiling(heldout: str, pattern: str = GPT2_PATTERN) -> float:
    """Held-out bytes per pre-token: bytes per token if every pre-token were one token.

    >>> pretoken_ceiling("Hello world", GPT2_PATTERN)
    5.5
    """
    text = without_surrogates(heldout)
    pieces = chunks(text, pattern)
    if not pieces:
        raise ValueError("the held-out text is empty")
    return len(text.encode()) / len(pieces)


def heldout_tokens(tokenizer: object, heldout: str) -> int:
    """Tokens ``tokenizer`` makes of ``heldout``, not counting those it adds on its own (BOS, [CLS]).

    Works for any ``core.types.Tokenizer``, pretrained or trained here. Subtle: an engine trained here
    (``core.bpe``, ``core.wordpiece``, ``core.unigram``) has ``encode_ids``, the same ids without
    offsets or ``Token`` objects (and it adds none), so it is counted through that: building the tokens
    was two thirds of a WordPiece and Unigram sweep's time (a test checks the counts agree).
    """
    encode_ids = getattr(tokenizer, "encode_ids", None)
    if callable(encode_ids):
        return len(encode_ids(heldout))
    return sum(1 for token in tokenizer.encode(heldout) if token.kind != ADDED)


@dataclass(frozen=True)
class TokenizerPoint:
    """A real tokenizer measured on the same held-out text: one point on the chart."""

    name: str
    algorithm: str
    vocab_size: int
    tokens: int
    heldout_bytes: int

    @property
    def bytes_per_token(self) -> float:
        return self.heldout_bytes / max(self.tokens, 1)


def tokenizer_point(tokenizer: object, heldout: str) -> TokenizerPoint:
    """Measure a loaded tokenizer on ``heldout``."""
    return TokenizerPoint(
        tokenizer.name, tokenizer.algorithm, tokenizer.vocab_size, heldout_tokens(tokenizer, heldout),
        len(without_surrogates(heldout).encode()),
    )


# -- the algorithms a sweep can run -------------------------------------------------------------------

TEXTBOOK_UNIGRAM = "Unigram (textbook)"
SweepFunction = Callable[..., Curve]  # (train, heldout, sizes, *, pattern, progress) -> Curve


@dataclass(frozen=True)
class Algorithm:
    """One algorithm a sweep can run: where it lives and how to sweep it.

    ``module`` is imported only when the algorithm is used or checked; ``family`` is its name in
    ``core.types.ALGORITHMS`` (which picks its color on every chart).
    """

    name: str
    family: str
    module: str
    sweep: SweepFunction = field(repr=False)


def _bpe_curve(
    train: str, heldout: str, sizes: Sequence[int], *, pattern: str = GPT2_PATTERN, progress: Progress | None = None
) -> Curve:
    return bpe_sweep(train, heldout, max_vocab=max(sizes), pattern=pattern, progress=progress).curve(sizes)


def sweep_by_training(name: str, module: str) -> SweepFunction:
    """A sweep over ``module.train(corpus, vocab_size=..., progress=...)``, in as few runs as it allows.

    One ``train_sizes`` run where the engine has it (``core.unigram``), else one run to the largest
    size whose result's ``tokenizer_at`` serves the smaller ones (``core.wordpiece``), else a run per
    size (see ``_train_each``). The result's ``.tokenizer`` (or the result itself) must satisfy
    ``core.types.Tokenizer``. A size the engine refuses (``ValueError``: below its alphabet, say) is
    skipped and named in the note; the x of each point is the vocabulary the tokenizer really has.
    """

    def sweep(
        train: str, heldout: str, sizes: Sequence[int], *, pattern: str = GPT2_PATTERN,
        progress: Progress | None = None,
    ) -> Curve:
        engine = importlib.import_module(module)
        began = time.perf_counter()
        wanted = sorted(set(sizes))
        tokenizers, skipped = _train_each(engine, name, train, wanted, progress)
        reached = {int(tok.vocab_size): heldout_tokens(tok, heldout) for tok in tokenizers}
        note = f"{name} skipped vocabulary sizes: {'; '.join(skipped)}." if skipped else ""
        by_size = sorted(reached.items())
        return Curve(
            name, np.asarray([s for s, _ in by_size], dtype=np.int64), np.asarray([t for _, t in by_size], dtype=np.int64),
            len(without_surrogates(heldout).encode()), time.perf_counter() - began, note,
        )

    return sweep


def _train_each(
    engine: object, name: str, train: str, sizes: list[int], progress: Progress | None
) -> tuple[list[object], list[str]]:
    """Tokenizers for ``sizes`` and the refusals, from as few training runs as the engine allows.

    ``train_sizes`` (several sizes from one run, ``core.unigram``) is used when the engine has it. Else
    one run to the largest size; when its result has ``tokenizer_at(size)`` (a longer run holds every
    shorter one, ``core.wordpiece``) that run serves every size, otherwise each size trains alone.
    """
    if callable(getattr(engine, "train_sizes", None)):
        report = _scaled(progress, 0.0, 1.0, f"{name}: vocabularies up to {max(sizes):,}, one run")
        try:
            found = engine.train_sizes(train, vocab_sizes=sizes, progress=report)
        except ValueError:
            pass  # some size is refused: train each alone below, to name which
        else:
            return [_tokenizer(found[size]) for size in sizes], []
    report = _scaled(progress, 0.0, 1.0 / len(sizes), f"{name}: vocabulary {max(sizes):,}")
    try:
        largest = engine.train(train, vocab_size=max(sizes), progress=report)
    except ValueError as exc:
        return [], [f"{size:,} ({exc})" for size in sizes]
    full = _tokenizer(largest)
    prefix = getattr(largest, "tokenizer_at", None)
    tokenizers, skipped = [full], []
    for i, size in enumerate(sorted(set(sizes) - {max(sizes)})):
        try:
            if callable(prefix):
                tokenizers.append(full if size >= full.vocab_size else prefix(size))
            else:
                report = _scaled(progress, (i + 1) / len(sizes), 1 / len(sizes), f"{name}: vocabulary {size:,}")
                tokenizers.append(_tokenizer(engine.train(train, vocab_size=size, progress=report)))
        except ValueError as exc:
            skipped.append(f"{size:,} ({exc})")
    return tokenizers, skipped


def _tokenizer(result: object) -> object:
    return getattr(result, "tokenizer", result)


def _scaled(progress: Progress | None, offset: float, span: float, message: str) -> Callable[..., None]:
    """An engine's progress callback, whatever it reports (done and total, or a fraction), mapped into
    ``[offset, offset + span]`` of the whole sweep."""

    def report(*args: object) -> None:
        if progress is None:
            return
        numbers = [a for a in args if isinstance(a, int | float) and not isinstance(a, bool)]
        fraction = numbers[0] / numbers[1] if len(numbers) >= 2 and numbers[1] else (numbers[0] if numbers else 0.0)
        progress(offset + span * min(max(float(fraction), 0.0), 1.0), message)

    if progress is not None:
        progress(offset, message)
    return report


ALGORITHMS: Mapping[str, Algorithm] = MappingProxyType(
    {
        "BPE": Algorithm("BPE", "byte-level BPE", "core.bpe", _bpe_curve),
        "WordPiece": Algorithm("WordPiece", "WordPiece", "core.wordpiece", sweep_by_training("WordPiece", "core.wordpiece")),
        "Unigram": Algorithm("Unigram", "Unigram", "core.unigram", sweep_by_training("Unigram", "core.unigram")),
        # the textbook chapter's recipe (core.unigram.textbook): its own pre-tokens, seed and pruning rule
        TEXTBOOK_UNIGRAM: Algorithm(
            TEXTBOOK_UNIGRAM, "Unigram", "core.unigram.textbook",
            sweep_by_training(TEXTBOOK_UNIGRAM, "core.unigram.textbook"),
        ),
    }
)


def unavailable_reason(algorithm: Algorithm) -> str | None:
    """``None`` when ``algorithm`` can run here, else one sentence saying why not.

    >>> unavailable_reason(ALGORITHMS["BPE"]) is None
    True
    """
    try:
        engine = importlib.import_module(algorithm.module)
    except ImportError:
        return f"{algorithm.name}: not available in this build"
    if not callable(getattr(engine, "train", None)):
        return f"{algorithm.name}: not available in this build ({algorithm.module} has no train function)"
    return None


def default_sizes(*, top: int = 8_256, points: int = 8, base: int = BYTE_BASE) -> list[int]:
    """``points`` vocabulary sizes from ``base`` to ``top``, evenly spaced on a log axis.

    >>> default_sizes()
    [256, 420, 691, 1134, 1863, 3060, 5026, 8256]
    """
    if top < base:
        raise ValueError(f"the largest size must be at least {base:,}")
    if points < 2 or top == base:
        return [top]
    return sorted({int(round(v)) for v in np.geomspace(base, top, points)})
