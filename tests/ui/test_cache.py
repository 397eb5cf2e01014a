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
