"""core.wordpiece.training and Python's cycle collector: no collection walks the training's sets and
records while it merges, and the collector is left as training found it."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from core import wordpiece
from core.corpora import load_corpus
from core.wordpiece import training
from core.wordpiece.pair_scores import PairScores
from tests import gc_seen


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generation of every collection that ends while the test runs."""
    with gc_seen.collections() as seen:
        yield seen


def test_no_collection_runs_while_training_merges(collections: list[int]) -> None:
    """The essay trained as far as it goes (about a thousand merges) makes thousands of sets and step
    records: with the collector on throughout, ten collections ran between the first and the last
    progress report."""
    during: list[int] = []

    def progress(done: int, total: int) -> None:
        if not during:
            collections.clear()
        during[:] = [len(collections)]

    assert gc.isenabled()
    result = wordpiece.train(load_corpus("sample_essay_en"), vocab_size=1_500, progress=progress)
    assert len(result.trace) > 900
    assert during == [0]
    assert gc.isenabled()


def test_the_collector_is_left_as_training_found_it() -> None:
    gc.disable()
    try:
        wordpiece.train("hug pug pun bun hugs " * 5, vocab_size=10)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_stopped_training_switches_the_collector_back_on() -> None:
    """The page's Stop button raises from ``progress``, in the middle of the merges."""

    def stop(done: int, total: int) -> None:
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        wordpiece.train(load_corpus("sample_essay_en"), vocab_size=1_500, progress=stop)
    assert gc.isenabled()


def test_the_pair_scores_are_let_go_before_the_collector_is_back_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first collection after training walks every object made meanwhile and still alive: the
    pair scores' tens of thousands of sets must be gone by then, leaving only the trace."""
    refs: list[weakref.ref] = []

    class Watched(PairScores):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            refs.append(weakref.ref(self))

    alive: list[bool] = []

    def note(phase: str, info: dict) -> None:
        if phase == "start" and refs:
            alive.append(refs[0]() is not None)

    monkeypatch.setattr(training, "PairScores", Watched)
    gc.callbacks.append(note)
    try:
        wordpiece.train(load_corpus("sample_essay_en"), vocab_size=1_500)
        gc.collect()
    finally:
        gc.callbacks.remove(note)
    assert refs and alive and not any(alive)


def test_the_tokenizer_is_built_while_the_collector_is_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its short-lived tuples (two per piece) would set off collections that walk the whole trace."""
    enabled: list[bool] = []

    class Watched(training.WordPieceTokenizer):
        def __init__(self, *args, **kwargs) -> None:
            enabled.append(gc.isenabled())
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(training, "WordPieceTokenizer", Watched)
    assert gc.isenabled()
    wordpiece.train(load_corpus("sample_essay_en"), vocab_size=1_500)
    assert enabled == [False]
    assert gc.isenabled()
