"""BPE, WordPiece and Unigram at several vocabulary sizes, each trained once: the Algorithms page's grid.

A cell of the grid is one algorithm at one vocabulary size. Each algorithm trains once per corpus
and serves every size from that run:

- BPE: training is greedy and deterministic, so a run to the largest size passes through every
  smaller one; size ``n`` is the first ``n - base`` merges of the longest run.
- WordPiece: the same, through ``WordPieceResult.tokenizer_at``.
- Unigram: pruning goes from large to small, so one ``train_sizes`` run gives every size of
  ``SIZE_OPTIONS`` from the smallest asked for up. Subtle: a size continues from the next larger one,
  so it can differ a little from training to it alone; since the run always passes through every
  larger size of the ladder (and what comes after a size cannot change it), each size comes out the
  same whichever sizes are on screen.

A size the corpus cannot give gets a cell without a tokenizer and one sentence why; a size beyond
what training could reach gets the largest model there is, with a note. What this module does not
do: keep models between requests, draw (``ui.algorithms``).

>>> models = train_models("wordpiece", "hug " * 10 + "pug " * 5 + "hugs " * 5, sizes=[10, 11])
>>> [models.cell(size).tokenizer.vocab_size for size in (10, 11)]
[10, 11]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from core import bpe, unigram, wordpiece
from core.text.textio import without_surrogates
from core.unigram import textbook

ALGORITHMS: dict[str, str] = {"bpe": "BPE", "wordpiece": "WordPiece", "unigram": "Unigram"}
# The Unigram row's recipes: what differs (pre-tokens, seed, pruning rule), in the page's words.
UNIGRAM_RECIPES: dict[str, str] = {
    "sentencepiece": (
        "SentencePiece's recipe: ▁ words, a seed of the substrings covering the most characters, "
        "prunes what the corpus misses least"
    ),
    "textbook": "the textbook's recipe: GPT-2-style pre-tokens, a seed of every substring seen twice, prunes the least probable",
}
# The BPE row's flavours: (mode, end-of-word layout) and the words the page shows.
BPE_FLAVOURS: dict[str, tuple[bpe.Mode, bpe.EndOfWord, str]] = {
    "byte": ("byte", "glued", "byte-level, GPT-2 pattern"),
    "char_separate": ("char", "separate", "character, l o w </w>"),
    "char_glued": ("char", "glued", "character, l o w</w>"),
}
SIZE_OPTIONS = (100, 200, 300, 500, 1000, 2000, 4000, 8000)
UNSEEN_CHARACTER: dict[str, str] = {
    "byte": bpe.UNSEEN_CHARACTER["byte"],
    "char_separate": bpe.UNSEEN_CHARACTER["char"],
    "char_glued": bpe.UNSEEN_CHARACTER["char"],
    "wordpiece": wordpiece.UNSEEN_CHARACTER,
    "unigram_textbook": (
        "A character never seen in training has no piece: it becomes <unk>, one unknown token over that "
        "character, and its text is lost. Text the chapter's pattern matches nowhere (an underscore) gets no "
        "token at all."
    ),
    "unigram": (
        "A character never seen in training has no piece: it becomes <unk>, one unknown token over that "
        "character alone (neighbouring unknown characters share one), and its text is lost. "
        "SentencePiece can fall back to bytes instead (byte_fallback), which is not trained here."
    ),
}

Progress = Callable[[float, str], None]  # (fraction done, what is happening)


@dataclass(frozen=True)
class Cell:
    """One algorithm at one vocabulary size: the tokenizer, or ``None`` with ``note`` saying why.

    ``detail`` says what the vocabulary is made of ("256 bytes + 44 merges"); ``note`` is empty
    unless the tokenizer is smaller than asked, or missing.
    """

    algorithm: str
    size: int
    tokenizer: Any | None
    detail: str = ""
    note: str = ""


class Models(Protocol):
    """One algorithm trained once on one corpus, serving every size it ``covers``."""

    algorithm: str

    def covers(self, sizes: Iterable[int]) -> bool: ...

    def cell(self, size: int) -> Cell: ...


class _OneRun:
    """Every size up to one training run's own, each made on first use from that run and kept."""

    algorithm = ""

    def __init__(self, result: Any, largest: int) -> None:
        self.result, self.largest = result, largest
        self._cells: dict[int, Cell] = {}

    def covers(self, sizes: Iterable[int]) -> bool:
        return self.result.stopped_early or all(size <= self.largest for size in sizes)

    def cell(self, size: int) -> Cell:
        found = self._cells.get(size)
        if found is None:
            found = self._cells[size] = self._make(size)
        return found

    def _make(self, size: int) -> Cell:
        raise NotImplementedError


class BPEModels(_OneRun):
    """Every BPE size up to the run's own: the first ``size - base`` merges of one training run."""

    algorithm = "bpe"

    def _make(self, size: int) -> Cell:
        full = self.result.tokenizer
        base, n = full.base_size, len(self.result.trace)
        if full.mode == "byte":
            made_of, least = "256 bytes", f"Byte-level BPE needs more than {base:,}: the 256 bytes come first."
        else:
            made_of = f"{base:,} symbols"
            least = (f"Character BPE needs at least {base:,} here: {bpe.UNK} and the corpus's "
                     f"{base - 1:,} symbols ({bpe.END_OF_WORD} included) come first.")
        if size < base or (full.mode == "byte" and size == base):
            return Cell(self.algorithm, size, None, note=least)
        k = min(size - base, n)
        tokenizer = full if k == n else bpe.BPETokenizer(
            merges=full.merges[:k], mode=full.mode, pattern=full.pattern, alphabet=full.alphabet,
            end_of_word=full.end_of_word,
        )
        note = ""
        if size - base > n:
            note = f"Stopped at {base + n:,}: no pair is left to merge in this corpus."
        return Cell(self.algorithm, size, tokenizer, f"{made_of} + {k:,} merges", note)


class WordPieceModels(_OneRun):
    """Every WordPiece size up to the run's own: a prefix of its vocabulary."""

    algorithm = "wordpiece"

    def _make(self, size: int) -> Cell:
        full, base = self.result.tokenizer, self.result.base_size
        if size < base:
            note = (f"WordPiece needs at least {base:,} here: {wordpiece.UNK} and the corpus's alphabet "
                    f"({base - 1:,} pieces: each character that starts a word, and with ## each one "
                    "that continues a word) come first.")
            return Cell(self.algorithm, size, None, note=note)
        vocab = min(size, full.vocab_size)
        tokenizer = full if vocab == full.vocab_size else self.result.tokenizer_at(vocab)
        note = ""
        if size > full.vocab_size:
            note = f"Stopped at {full.vocab_size:,}: every word of this corpus is one piece already."
        return Cell(self.algorithm, size, tokenizer, f"{base:,} base + {vocab - base:,} merged pieces", note)


class UnigramModels:
    """Every Unigram size of one ``train_sizes`` run down the ladder of sizes.

    ``least`` and ``most`` are the sizes the corpus allows (``most`` is ``None`` when every size
    asked for fitted under it).
    """

    algorithm = "unigram"

    def __init__(self, results: dict[int, unigram.UnigramResult], least: int, most: int | None) -> None:
        self.results, self.least, self.most = results, least, most

    def covers(self, sizes: Iterable[int]) -> bool:
        return all(self._fits(size) is not None or size < self.least for size in sizes)

    def _fits(self, size: int) -> int | None:
        if self.most is not None and size > self.most:
            return self.most if self.most in self.results else None
        return size if size in self.results else None

    def cell(self, size: int) -> Cell:
        if size < self.least:
            note = (f"Unigram needs at least {self.least:,} here: every one of the corpus's "
                    f"{self.least - 1:,} characters keeps a piece, and {unigram.UNK} takes one more.")
            return Cell(self.algorithm, size, None, note=note)
        have = self._fits(size)
        if have is None:
            raise ValueError(f"size {size:,} was not trained: train with it among the sizes")
        result = self.results[have]
        tokenizer = result.tokenizer
        chars = len(result.alphabet)
        note = result.stop_reason or ""
        if have < size:
            note = (f"This corpus has room for at most {have:,} pieces (its distinct substrings that may "
                    "be pieces, and <unk>).")
        longer = tokenizer.vocab_size - 1 - chars
        return Cell(self.algorithm, size, tokenizer, f"{chars:,} characters + {longer:,} longer pieces", note)


class TextbookModels:
    """Every Unigram size of one ``textbook.train_sizes`` run (each exactly what training to it alone gives)."""

    algorithm = "unigram"

    def __init__(self, results: dict[int, textbook.TextbookResult], least: int) -> None:
        self.results, self.least = results, least

    def covers(self, sizes: Iterable[int]) -> bool:
        return all(size in self.results or size < self.least for size in sizes)

    def cell(self, size: int) -> Cell:
        if size < self.least:
            note = (f"The textbook's Unigram needs at least {self.least:,} pieces here: it keeps every one of "
                    f"the corpus's {self.least:,} characters.")
            return Cell(self.algorithm, size, None, note=note)
        if size not in self.results:
            raise ValueError(f"size {size:,} was not trained: train with it among the sizes")
        result = self.results[size]
        chars = len(result.alphabet)
        pieces = result.tokenizer.vocab_size - 1
        detail = f"{chars:,} characters + {pieces - chars:,} longer pieces (+ <unk>)"
        return Cell(self.algorithm, size, result.tokenizer, detail, result.stop_reason or "")


class Unavailable:
    """An algorithm that could not be trained on this corpus at all: every cell says why."""

    def __init__(self, algorithm: str, reason: str, sizes: Iterable[int]) -> None:
        self.algorithm, self.reason, self.sizes = algorithm, reason, frozenset(sizes)

    def covers(self, sizes: Iterable[int]) -> bool:
        return all(size <= max(self.sizes) for size in sizes)

    def cell(self, size: int) -> Cell:
        return Cell(self.algorithm, size, None, note=self.reason)


def train_models(
    algorithm: str,
    corpus: str,
    *,
    sizes: Sequence[int],
    bpe_flavour: str = "byte",
    unigram_recipe: str = "sentencepiece",
    progress: Progress | None = None,
) -> Models:
    """Train ``algorithm`` once on ``corpus`` so that it serves every size in ``sizes``.

    BPE and WordPiece train to the largest size; Unigram trains ``sizes`` and every size of
    ``SIZE_OPTIONS`` above the smallest of them at once (``unigram_recipe``: a key of ``UNIGRAM_RECIPES``).
    Never raises on a corpus that cannot give the sizes: the result is an
    ``Unavailable`` whose cells say why. ``progress(fraction, message)`` reports the training.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}, not {algorithm!r}")
    if not sizes or min(sizes) < 1:
        raise ValueError("give at least one vocabulary size, each 1 or more")
    if bpe_flavour not in BPE_FLAVOURS:
        raise ValueError(f"bpe_flavour must be one of {', '.join(BPE_FLAVOURS)}, not {bpe_flavour!r}")
    if unigram_recipe not in UNIGRAM_RECIPES:
        raise ValueError(f"unigram_recipe must be one of {', '.join(UNIGRAM_RECIPES)}, not {unigram_recipe!r}")
    name = ALGORITHMS[algorithm]

    def report(done: int, total: int) -> None:
        if progress is not None:
            progress(done / max(total, 1), f"Training {name}")

    largest = max(sizes)
    try:
        if algorithm == "bpe":
            mode, end_of_word, _ = BPE_FLAVOURS[bpe_flavour]
            wanted = max(largest, 256) if mode == "byte" else largest
            result = bpe.train(corpus, vocab_size=wanted, mode=mode, end_of_word=end_of_word, progress=report)
            return BPEModels(result, largest)
        if algorithm == "wordpiece":
            return WordPieceModels(wordpiece.train(corpus, vocab_size=largest, progress=report), largest)
        ladder = {size for size in SIZE_OPTIONS if size >= min(sizes)} | set(sizes)
        if unigram_recipe == "textbook":
            return _train_textbook(corpus, sorted(ladder), report)
        return _train_unigram(corpus, sorted(ladder), report)
    except ValueError as exc:
        return Unavailable(algorithm, f"{name} could not be trained on this corpus: {exc}.", sizes)


def _train_unigram(corpus: str, ladder: list[int], report: Callable[[int, int], None]) -> Models:
    """``train_sizes`` over the ladder, narrowed to the sizes the corpus allows (learnt from the
    first attempts' ``VocabSizeError``), plus the largest allowed when the ladder goes beyond it."""
    least, most = 2, None
    for _ in range(3):
        fit = {size for size in ladder if size >= least and (most is None or size <= most)}
        if most is not None and max(ladder) > most:
            fit.add(most)
        if not fit:
            return UnigramModels({}, least, most)
        try:
            results = unigram.train_sizes(corpus, vocab_sizes=sorted(fit), progress=report)
        except unigram.VocabSizeError as exc:
            least = exc.least or least
            most = exc.most if exc.most is not None else most
            continue
        return UnigramModels(results, least, most)
    raise ValueError("the corpus allows no vocabulary size on the ladder")


def _train_textbook(corpus: str, ladder: list[int], report: Callable[[int, int], None]) -> Models:
    """``textbook.train_sizes`` over the sizes of the ladder the corpus allows (at least its characters)."""
    least = len({ch for word in textbook.pretokens(without_surrogates(corpus)) for ch in word})
    fit = [size for size in ladder if size >= least]
    if not fit:
        return TextbookModels({}, least)
    return TextbookModels(textbook.train_sizes(corpus, vocab_sizes=fit, progress=report), least)


def unseen_characters(corpus_chars: Iterable[str], text: str) -> list[str]:
    """The characters of ``text`` (not whitespace) that never occur in the corpus, each once, in order.

    >>> unseen_characters(set("hello world"), "hello, wörld 🙂")
    [',', 'ö', '🙂']
    """
    seen = set(corpus_chars)
    return [ch for ch in dict.fromkeys(text) if ch not in seen and not ch.isspace()]
