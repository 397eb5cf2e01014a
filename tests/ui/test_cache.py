"""The tokenizer store: load once, remember failures, retry on request, one load under contention."""

from __future__ import annotations

import sys
import threading
import time
import types

import pytest

import core
from ui.cache import TokenizerStore, Unavailable, load_from_registry


class CountingLoader:
    def __init__(self, result: object = "tokenizer", delay: float = 0.0) -> None:
        self.calls: list[str] = []
        self.result = result
        self.delay = delay

    def __call__(self, key: str, progress: object) -> object:
        self.calls.append(key)
        time.sleep(self.delay)
        return self.result


def test_loads_once_and_shares() -> None:
    loader = CountingLoader()
    store = TokenizerStore(loader)
    assert store.peek("gpt2") is None
    assert store.get("gpt2") == "tokenizer"
    assert store.get("gpt2") == "tokenizer"
    assert store.peek("gpt2") == "tokenizer"
    assert loader.calls == ["gpt2"]


def test_failures_are_remembered_until_forgotten() -> None:
    missing = Unavailable("llama2", "Llama 2", "set PLAYGROUND_DATA_DIR")
    loader = CountingLoader(missing)
    store = TokenizerStore(loader)
    assert store.get("llama2") is missing
    assert store.get("llama2") is missing
    assert loader.calls == ["llama2"]
    store.forget("llama2")
    store.get("llama2")
    assert loader.calls == ["llama2", "llama2"]


def test_concurrent_sessions_load_once() -> None:
    loader = CountingLoader(delay=0.2)
    store = TokenizerStore(loader)
    threads = [threading.Thread(target=store.get, args=("o200k_base",)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert loader.calls == ["o200k_base"]


@pytest.fixture()
def fake_registry(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A stand-in ``core.pretrained`` whose loads fail in the three ways the UI must survive."""

    class TokenizerUnavailable(Exception):
        def __init__(self, key: str, reason: str) -> None:
            super().__init__(reason)
            self.key, self.reason = key, reason

    def load(key: str, *, progress: object = None) -> object:
        if key == "missing":
            raise TokenizerUnavailable(key, "file not found; set PLAYGROUND_DATA_DIR")
        if key == "broken":
            raise RuntimeError("corrupt model file")
        return f"loaded {key}"

    spec = types.SimpleNamespace
    fake = types.ModuleType("core.pretrained")
    fake.TokenizerUnavailable = TokenizerUnavailable
    fake.load = load
    fake.registry = lambda: {k: spec(key=k, name=k.title()) for k in ("ok", "missing", "broken")}
    monkeypatch.setitem(sys.modules, "core.pretrained", fake)
    monkeypatch.setattr(core, "pretrained", fake, raising=False)
    return fake


def test_registry_failures_become_unavailable(fake_registry: types.ModuleType) -> None:
    assert load_from_registry("ok") == "loaded ok"
    missing = load_from_registry("missing")
    assert missing == Unavailable("missing", "Missing", "file not found; set PLAYGROUND_DATA_DIR")
    broken = load_from_registry("broken")
    assert isinstance(broken, Unavailable) and "corrupt model file" in broken.reason
    unknown = load_from_registry("nope")
    assert isinstance(unknown, Unavailable) and "not in the tokenizer registry" in unknown.reason


@pytest.mark.parametrize(("key", "bos"), [("llama3", "<|begin_of_text|>"), ("mistral_nemo", "<s>")])
def test_a_text_starting_with_the_bos_string_is_not_called_lossy(key: str, bos: str) -> None:
    """analyze() under the special-token switch: the BOS typed in the text comes back on decode."""
    from ui import cache

    if isinstance(cache.tokenizer_store().get(key), Unavailable):
        pytest.skip(f"{key} is not available here")
    analysis = cache.analyze(key, f"{bos}Hello", True)
    assert not analysis.lossy


@pytest.mark.parametrize("key", ["cl100k_base", "llama2", "bert_uncased", "t5", "xlmr"])
def test_a_long_text_is_counted_from_ids_and_builds_only_its_first_tokens(key: str) -> None:
    """Past WHOLE_CHARS the analysis is the same as the whole encoding's, with only its head built;
    more tokens ("Show more") and all of them (exports) are the whole encoding's too."""
    from core.measures.metrics import text_counts
    from core.types import ADDED
    from ui import cache
    from ui.bounded import SizedCache

    tok = cache.tokenizer_store().get(key)
    if isinstance(tok, Unavailable):
        pytest.skip(f"{key} is not available here")
    text = ("Ünïcode, 2026 and <s> [SEP] 🙂\nthe quick brown fox; 漢字 — café\u0301. " * 800)[: cache.WHOLE_CHARS + 9_000]
    for allow in (False, True):
        whole = tok.encode(text, allow_special=allow)
        analysis = cache.compute_analysis(key, tok, text, allow)
        assert not analysis.complete and 0 < len(analysis.head) < len(whole) // 4
        assert analysis.head == whole[: len(analysis.head)]
        assert list(analysis.ids) == [t.id for t in whole] and analysis.total == len(whole)
        assert analysis.counts == text_counts(text, whole)
        assert analysis.lossy == (tok.decode([t.id for t in whole if t.kind != ADDED]) != text)
        assert analysis.added == tuple(dict.fromkeys(t.bytes.decode() for t in whole if t.kind == ADDED))
        results = SizedCache(max_bytes=10**9, size=cache.result_size)
        more = cache.tokens(key, tok, analysis, text, allow, at_least=3 * len(analysis.head), results=results)
        assert len(more) >= 3 * len(analysis.head) and more == whole[: len(more)]
        assert cache.tokens(key, tok, analysis, text, allow, results=results) == whole


def test_a_short_text_holds_all_its_tokens() -> None:
    from ui import cache

    tok = cache.tokenizer_store().get("cl100k_base")
    if isinstance(tok, Unavailable):
        pytest.skip("cl100k_base is not available here")
    text = "Hello world " * 100
    analysis = cache.compute_analysis("cl100k_base", tok, text, False)
    assert analysis.complete and analysis.head == tok.encode(text)
    assert cache.tokens("cl100k_base", tok, analysis, text, False) is analysis.head


def test_a_load_freezes_the_heap_without_a_full_collection() -> None:
    """Issue 21, item 9: the full collection before freezing walked everything imported so far again
    (0.08 s of the first visit); the young generations hold the load's garbage."""
    import gc

    from tests.gc_seen import collections

    with collections() as generations:
        TokenizerStore(CountingLoader()).get("gpt2")
    assert generations and max(generations) < 2
    assert gc.get_freeze_count() > 0
