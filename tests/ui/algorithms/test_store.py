"""ui.algorithms.store: models are trained once per corpus and algorithm, and serve every size after."""

from __future__ import annotations

import threading

import pytest

from core import corpora
from ui.algorithms import store
from ui.algorithms.store import GridSettings, GridStore

ESSAY = corpora.load_corpus("sample_essay_en")


@pytest.fixture()
def counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[int, ...]]]:
    """Every training the store asks for: (algorithm, sizes)."""
    calls: list[tuple[str, tuple[int, ...]]] = []
    real = store.train_models

    def counting(algorithm, corpus, *, sizes, **kwargs):
        calls.append((algorithm, tuple(sizes)))
        return real(algorithm, corpus, sizes=sizes, **kwargs)

    monkeypatch.setattr(store, "train_models", counting)
    return calls


def test_bpe_at_two_sizes_is_one_run_and_later_sizes_within_it_are_free(counted: list) -> None:
    grid = GridStore()
    loads = []

    def load() -> str:
        loads.append(1)
        return ESSAY

    models = grid.get("essay", "bpe/byte", [300, 500], load=load)
    assert counted == [("bpe", (300, 500))] and len(loads) == 1
    assert [models.cell(s).tokenizer.vocab_size for s in (300, 500)] == [300, 500]
    assert grid.get("essay", "bpe/byte", [500], load=load) is models
    assert grid.peek("essay", "bpe/byte", [300, 500]) is models
    assert counted == [("bpe", (300, 500))] and len(loads) == 1


def test_a_larger_size_trains_once_more_and_keeps_the_smaller_ones(counted: list) -> None:
    grid = GridStore()
    grid.get("essay", "wordpiece", [300, 500], load=lambda: ESSAY)
    assert grid.peek("essay", "wordpiece", [1000]) is None
    bigger = grid.get("essay", "wordpiece", [1000], load=lambda: ESSAY)
    assert counted == [("wordpiece", (300, 500)), ("wordpiece", (1000, 500))]
    assert bigger.covers([300, 500, 1000])
    assert grid.get("essay", "wordpiece", [300, 1000], load=lambda: ESSAY) is bigger
    assert len(counted) == 2


def test_flavours_and_corpora_are_kept_apart_and_the_oldest_corpus_goes_first(counted: list) -> None:
    grid = GridStore(max_corpora=2)
    grid.get("a", "bpe/byte", [300], load=lambda: "ab " * 50)
    grid.get("a", "bpe/char_separate", [30], load=lambda: "ab " * 50, bpe_flavour="char_separate")
    assert len(counted) == 2 and grid.chars("a") == frozenset("ab ")
    grid.get("b", "bpe/byte", [300], load=lambda: "cd " * 50)
    grid.get("c", "bpe/byte", [300], load=lambda: "ef " * 50)
    assert grid.chars("a") is None and grid.peek("a", "bpe/byte", [300]) is None
    assert grid.chars("c") == frozenset("ef ")


def test_two_sessions_asking_at_once_train_once(counted: list) -> None:
    grid = GridStore()
    results = []
    threads = [threading.Thread(target=lambda: results.append(grid.get("essay", "unigram", [500], load=lambda: ESSAY)))
               for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(counted) == 1 and len({id(r) for r in results}) == 1


def test_settings_name_their_corpus_and_flavour() -> None:
    default = GridSettings()
    assert default.corpus_id == corpora.DEFAULT_KEY and default.model_key("bpe") == "bpe/byte"
    assert default.model_key("unigram") == "unigram"
    own = store.own_settings(store.PASTE, "Pasted text", "hola hola", "char_glued")
    assert own.corpus_id.startswith("paste:") and len(own.corpus_id) == len("paste:") + 16
    assert own.corpus_id != store.own_settings(store.PASTE, "Pasted text", "hola", "char_glued").corpus_id
    assert "character, l o w</w>" in own.describe() and "Pasted text" in own.describe()


def test_a_missing_public_corpus_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    from core.fetch.sources import SourceUnavailable

    def missing(key: str, **_: object) -> str:
        raise SourceUnavailable("tinyshakespeare.txt is not in the data folder; set PLAYGROUND_DATA_DIR")

    monkeypatch.setattr(store.corpora, "load_corpus", missing)
    with pytest.raises(ValueError, match="PLAYGROUND_DATA_DIR"):
        store.load_corpus(GridSettings("tinyshakespeare"), "")
