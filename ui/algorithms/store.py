"""Trained models of the Algorithms page, kept per (corpus, algorithm) for the whole server process.

- ``GridStore`` holds, per corpus, the characters it has and one ``core.measures.vocab_grid.Models`` per
  algorithm (and BPE flavour), which serves every vocabulary size it was trained for: BPE and
  WordPiece at several sizes cost one run to the largest, Unigram one run for the whole ladder
  (``core.measures.vocab_grid``). A size a model does not cover trains again, once, to the new largest.
- ``grid_store()`` is an ``st.cache_resource``: one store shared by every session. Subtle: the store,
  not a training function, is the cached resource, so the progress bar is drawn outside any cached
  function and never replayed on a cache hit (as in ``ui.bpe.views``).
- ``trained_grid(settings, sizes)`` returns a ``Grid``, training what is missing under one progress bar.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import streamlit as st

from core import corpora
from core.fetch.sources import SourceUnavailable
from core.measures.vocab_grid import (
    ALGORITHMS,
    BPE_FLAVOURS,
    UNIGRAM_RECIPES,
    Cell,
    Models,
    Progress,
    train_models,
    unseen_characters,
)
from ui.store import stop_button

PASTE, UPLOAD = "paste", "upload"
MAX_CORPORA = 6  # corpora whose models are kept; the least recently used goes first


@dataclass(frozen=True)
class GridSettings:
    """What the grid is trained on: hashable, so it keys the store.

    ``corpus`` is a catalog key, or ``PASTE`` / ``UPLOAD`` with the text's title and digest.
    """

    corpus: str = corpora.DEFAULT_KEY
    bpe_flavour: str = "byte"
    own_title: str = ""
    own_digest: str = ""
    unigram_recipe: str = "sentencepiece"

    @property
    def corpus_id(self) -> str:
        """The corpus's identity in the store: its catalog key, or the digest of the own text."""
        return f"{self.corpus}:{self.own_digest}" if self.own_digest else self.corpus

    def corpus_title(self) -> str:
        return self.own_title or corpora.entry(self.corpus).title

    def describe(self) -> str:
        """One line for the page: the corpus, the BPE row's flavour and the Unigram row's recipe."""
        recipe = UNIGRAM_RECIPES[self.unigram_recipe].split(":")[0]
        return f"{self.corpus_title()} · BPE row: {BPE_FLAVOURS[self.bpe_flavour][2]} · Unigram row: {recipe}"

    def model_key(self, algorithm: str) -> str:
        """Which models of the corpus an algorithm uses: BPE's depend on its flavour, Unigram's on its recipe."""
        if algorithm == "bpe":
            return f"bpe/{self.bpe_flavour}"
        if algorithm == "unigram" and self.unigram_recipe != "sentencepiece":
            return f"unigram/{self.unigram_recipe}"
        return algorithm


DEFAULT_SETTINGS = GridSettings()


def own_settings(corpus: str, title: str, text: str, bpe_flavour: str, unigram_recipe: str = "sentencepiece") -> GridSettings:
    """Settings for a pasted or uploaded corpus, keyed by the digest of its text."""
    return GridSettings(corpus, bpe_flavour, title, hashlib.sha256(text.encode()).hexdigest()[:16], unigram_recipe)


@dataclass
class _CorpusModels:
    chars: frozenset[str]
    models: dict[str, Models] = field(default_factory=dict)


class GridStore:
    """Models per corpus and algorithm, the most recent ``max_corpora`` corpora kept; one lock per
    corpus, so two sessions asking for the same model train it once."""

    def __init__(self, max_corpora: int = MAX_CORPORA) -> None:
        self._corpora: OrderedDict[str, _CorpusModels] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._max = max_corpora

    def peek(self, corpus_id: str, key: str, sizes: Sequence[int]) -> Models | None:
        """The models for ``key`` (``GridSettings.model_key``) if they serve ``sizes`` already."""
        with self._guard:
            found = self._corpora.get(corpus_id)
            models = found.models.get(key) if found else None
        return models if models is not None and models.covers(sizes) else None

    def chars(self, corpus_id: str) -> frozenset[str] | None:
        """The characters of a corpus this store has trained on, or ``None``."""
        with self._guard:
            found = self._corpora.get(corpus_id)
        return found.chars if found else None

    def get(
        self, corpus_id: str, key: str, sizes: Sequence[int], *, load: Callable[[], str], bpe_flavour: str = "byte",
        unigram_recipe: str = "sentencepiece", progress: Progress | None = None,
    ) -> Models:
        """The models for ``key`` serving ``sizes``, trained now (``load()`` gives the corpus) if needed."""
        with self._guard:
            lock = self._locks.setdefault(corpus_id, threading.Lock())
        with lock:
            found = self.peek(corpus_id, key, sizes)
            if found is not None:
                return found
            text = load()
            with self._guard:
                entry = self._corpora.get(corpus_id)
                old = entry.models.get(key) if entry else None
            wanted = list(sizes)
            largest = getattr(old, "largest", None)
            if largest:  # a new run to a larger size keeps every size the old one served
                wanted.append(largest)
            algorithm = key.split("/")[0]
            models = train_models(algorithm, text, sizes=wanted, bpe_flavour=bpe_flavour,
                                  unigram_recipe=unigram_recipe, progress=progress)
            with self._guard:
                entry = self._corpora.get(corpus_id) or _CorpusModels(frozenset(text))
                entry.models[key] = models
                self._corpora[corpus_id] = entry
                self._corpora.move_to_end(corpus_id)
                while len(self._corpora) > self._max:
                    gone, _ = self._corpora.popitem(last=False)
                    self._locks.pop(gone, None)
            return models


@st.cache_resource(show_spinner=False)
def grid_store() -> GridStore:
    """The one store of this server process, shared by all sessions."""
    return GridStore()


@dataclass(frozen=True)
class Grid:
    """The models on screen: one ``Models`` per algorithm, and the corpus's characters."""

    settings: GridSettings
    sizes: tuple[int, ...]
    models: dict[str, Models]
    corpus_chars: frozenset[str]

    def cell(self, algorithm: str, size: int) -> Cell:
        return self.models[algorithm].cell(size)

    def unseen(self, text: str) -> list[str]:
        """Characters of ``text`` the corpus never has (``core.measures.vocab_grid.unseen_characters``)."""
        return unseen_characters(self.corpus_chars, text)


def load_corpus(settings: GridSettings, own_text: str, progress: Progress | None = None) -> str:
    """The text to train on: the pasted or uploaded one, or the catalog's (``ValueError`` if missing)."""
    if settings.own_digest:
        return own_text
    try:
        return corpora.load_corpus(settings.corpus, progress=progress)
    except SourceUnavailable as exc:
        raise ValueError(str(exc)) from None


def trained_grid(
    settings: GridSettings, sizes: Sequence[int], own_text: str = "", *, on_stop: Callable[[], None] | None = None,
) -> Grid:
    """Every algorithm's models for ``settings`` serving ``sizes``; what is missing trains now under a
    progress bar with a Stop button (``ui.store.stop_button``; ``on_stop`` runs on its click).
    ``ValueError`` with one sentence when the corpus cannot be had."""
    store, corpus_id = grid_store(), settings.corpus_id
    found = {alg: store.peek(corpus_id, settings.model_key(alg), sizes) for alg in ALGORITHMS}
    missing = [alg for alg, models in found.items() if models is None]
    chars = store.chars(corpus_id)
    if missing or chars is None:
        slot = st.empty()
        with slot.container():
            bar = st.progress(0.0, text="Loading the corpus …")
            stop_button("algorithms", on_stop)
        loaded: list[str] = []

        def load() -> str:  # once for all three algorithms
            if not loaded:
                loaded.append(load_corpus(settings, own_text, _loading(bar)))
            return loaded[0]

        try:
            for done, algorithm in enumerate(missing):
                def progress(fraction: float, message: str, done: int = done) -> None:
                    share = (done + min(max(fraction, 0.0), 1.0)) / len(missing)
                    bar.progress(share, text=f"{message} ({done + 1} of {len(missing)}) …")

                found[algorithm] = store.get(
                    corpus_id, settings.model_key(algorithm), sizes, bpe_flavour=settings.bpe_flavour,
                    unigram_recipe=settings.unigram_recipe, load=load, progress=progress,
                )
            chars = store.chars(corpus_id)
            if chars is None:  # every model was there but the corpus was evicted meanwhile
                chars = frozenset(load())
        finally:
            slot.empty()
    return Grid(settings, tuple(sizes), found, chars)


def _loading(bar: object) -> Progress:
    def progress(fraction: float, message: str) -> None:
        bar.progress(min(max(fraction, 0.0), 1.0), text=f"Loading the corpus: {message}")

    return progress
