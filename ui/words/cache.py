"""Cached computations of "Words & compression", each run once per server process and shared by sessions.

Subtle: as in ``ui.cache``, the cached resource is a ``Store`` (one per kind of result), not the
function that computes: a function wrapped in ``st.cache_resource`` would record the progress bar it
draws and replay it on every later hit. Here the bar is drawn outside, only when the work is done.
Results are frozen objects holding numpy arrays, shared as they are (``st.cache_data`` would pickle
a 400,000-word curve on every rerun).

Keys: a corpus is named by its ``CorpusChoice`` (catalog key, or own text's sha256), so a result is
reused by every session looking at the same text.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import streamlit as st

from core import corpora
from core.fetch.sources import SourceUnavailable
from core.measures import compression, wordstats
from core.measures.units import UnitRow, unit_rows
from core.text.patterns import NAMED_PATTERNS
from ui import cache as shared_cache
from ui import uploads
from ui.store import KeptStore

Progress = Callable[[float, str], None]


Store = KeptStore  # results by key (ui.store)


@st.cache_resource(show_spinner=False)
def stores() -> dict[str, Store]:
    """The stores of this server process: corpora, word reports, sweeps, tokenizer points."""
    return {"corpus": Store(6), "words": Store(12), "sweep": Store(8), "point": Store(64)}


@contextmanager
def progress_bar(label: str) -> Iterator[Progress]:
    """A progress bar in place while the block runs, removed afterwards."""
    slot = st.empty()
    bar = slot.progress(0.0, text=label)

    def report(fraction: float, message: str) -> None:
        bar.progress(min(max(float(fraction), 0.0), 1.0), text=message)

    try:
        yield report
    finally:
        slot.empty()


def cached(kind: str, key: Hashable, make: Callable[[Progress], Any], *, label: str) -> Any:
    """``make(progress)`` once per ``key`` in the store ``kind``, with a progress bar the first time."""
    store = stores()[kind]
    found = store.peek(key)
    if found is not None:
        return found
    with progress_bar(label) as report:
        return store.get(key, lambda: make(report))


# -- corpora ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusChoice:
    """Which text the page shows: a catalog key, or ``"paste"``/``"upload"`` with the text's title and sha256."""

    key: str
    title: str = ""
    digest: str = ""


@dataclass(frozen=True, eq=False)
class CorpusData:
    """A corpus ready to measure: its text, and the 90 % / 10 % split every section uses."""

    choice: CorpusChoice
    corpus: corpora.Corpus
    train: str
    heldout: str


def corpus_data(choice: CorpusChoice, own_text: str = "") -> CorpusData:
    """The corpus ``choice`` loaded and split; ``ValueError`` with one sentence when it cannot be had."""

    def make(report: Progress) -> CorpusData:
        if choice.digest:
            corpus = corpora.Corpus(choice.key, choice.title, own_text, "yours", f"{choice.title}, given on this page")
        else:
            try:
                corpus = corpora.get_corpus(choice.key, progress=lambda f, m: report(f, f"Loading the corpus: {m}"))
            except SourceUnavailable as exc:
                raise ValueError(str(exc)) from None
        train, heldout = corpora.split_heldout(corpus.text)
        return CorpusData(choice, corpus, train, heldout)

    return cached("corpus", choice, make, label="Loading the corpus …")


# -- word statistics ----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class WordReport:
    """Word statistics of the whole text and the OOV curve of the held-out part (the fits, cheap, are
    made on the page, with its choices)."""

    stats: wordstats.WordStats
    oov: wordstats.OOVCurve | None


def word_report(data: CorpusData, rule: str) -> WordReport:
    def make(report: Progress) -> WordReport:
        report(0.1, "Counting words …")
        stats, oov = wordstats.split_report(data.train, data.heldout, rule)
        return WordReport(stats, oov)

    return cached("words", (data.choice, rule), make, label="Counting words …")


# -- sweeps -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SweepSettings:
    """One compression sweep: the largest vocabulary, the sizes other algorithms train at, the pattern."""

    max_vocab: int = 8_192
    points: int = 8
    others: tuple[str, ...] = ()  # BPE alone at first: the others train on demand (ui.words.sweep_views)
    pattern_name: str = "GPT-2"

    @property
    def sizes(self) -> list[int]:
        return compression.default_sizes(top=self.max_vocab, points=self.points)

    @property
    def pattern(self) -> str:
        return NAMED_PATTERNS[self.pattern_name]


def bpe_sweep(data: CorpusData, settings: SweepSettings) -> compression.BPESweep:
    """The BPE sweep (one training run, one incremental encode) for ``settings``; ``ValueError`` if refused."""
    key = ("bpe", data.choice, settings.max_vocab, settings.pattern_name)

    def make(report: Progress) -> compression.BPESweep:
        return compression.bpe_sweep(
            data.train, data.heldout, max_vocab=settings.max_vocab, pattern=settings.pattern, progress=report
        )

    return cached("sweep", key, make, label="Training BPE …")


def algorithm_curve(data: CorpusData, name: str, sizes: Sequence[int]) -> compression.Curve:
    """The sweep of a trained-per-size algorithm (WordPiece, Unigram) at ``sizes``."""
    algorithm = compression.ALGORITHMS[name]

    def make(report: Progress) -> compression.Curve:
        return algorithm.sweep(data.train, data.heldout, list(sizes), progress=report)

    return cached("sweep", (name, data.choice, tuple(sizes)), make, label=f"Training {name} …")


def tokenizer_point(data: CorpusData, key: str, name: str) -> compression.TokenizerPoint | shared_cache.Unavailable:
    """A registry (or this session's uploaded) tokenizer measured on the held-out text, or why it is unavailable.

    Subtle: the point is kept under the ref's ``digest``, for an uploaded tokenizer its content hash
    (``Upload.key``), as its analyses are: only a session holding the same file can hit it.
    """
    ref = uploads.resolve(key, name)
    tokenizer, cache_id = ref.tokenizer, ref.digest
    if isinstance(tokenizer, shared_cache.Unavailable):
        return tokenizer

    def make(report: Progress) -> compression.TokenizerPoint:
        report(0.0, f"{name}: encoding the held-out text")
        return compression.tokenizer_point(tokenizer, data.heldout)

    return cached("point", (cache_id, data.choice), make, label=f"Encoding with {name} …")


def units(data: CorpusData, rule: str, subwords: Sequence[tuple[str, int, int]]) -> list[UnitRow]:
    """The units table of the held-out text (cheap enough not to cache: one pass of counting)."""
    return unit_rows(data.heldout, rule=rule, subwords=subwords)
