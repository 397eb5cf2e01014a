"""The memory-bounded cache: it evicts the least recently used values, holds at most its budget, shares
one computation between concurrent sessions, and expires entries."""

from __future__ import annotations

import threading
import time

import pytest

from ui.bounded import SizedCache


def test_the_limit_evicts_the_least_recently_used() -> None:
    cache = SizedCache(max_bytes=100, size=len)
    cache.get("a", lambda: "x" * 40)
    cache.get("b", lambda: "y" * 40)
    cache.get("a", lambda: pytest.fail("a is cached"))  # a is now the most recently used
    cache.get("c", lambda: "z" * 40)  # 120 > 100: b goes, not a
    assert sorted(cache.keys()) == ["a", "c"]
    assert cache.total == 80 and cache.evictions == 1


def test_a_stream_of_distinct_megabyte_texts_stays_within_the_budget() -> None:
    """What the issue asks: distinct 1 MB results one after another never grow the cache past its limit."""
    cache = SizedCache(max_bytes=5_000_000, size=len)
    for i in range(40):
        value = cache.get(("text", i), lambda i=i: str(i % 10) * 1_000_000)
        assert len(value) == 1_000_000
        assert cache.total <= 5_000_000 and len(cache) <= 5
    assert cache.evictions == 35
    assert sorted(cache.keys()) == [("text", i) for i in range(35, 40)]


def test_a_value_bigger_than_the_budget_is_returned_not_kept() -> None:
    cache = SizedCache(max_bytes=10, size=len)
    cache.get("small", lambda: "abc")
    assert cache.get("huge", lambda: "x" * 11) == "x" * 11
    assert cache.keys() == ["small"] and cache.total == 3


def test_concurrent_sessions_compute_a_missing_key_once() -> None:
    cache = SizedCache(max_bytes=1_000, size=len)
    calls = []

    def slow() -> str:
        calls.append(1)
        time.sleep(0.2)
        return "value"

    results = []
    threads = [threading.Thread(target=lambda: results.append(cache.get("k", slow))) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert calls == [1] and results == ["value"] * 6


def test_a_failed_computation_is_not_kept_and_can_be_retried() -> None:
    cache = SizedCache(max_bytes=1_000, size=len)

    def broken() -> str:
        raise RuntimeError("encode failed")

    with pytest.raises(RuntimeError):
        cache.get("k", broken)
    assert cache.get("k", lambda: "ok") == "ok"


def test_entries_expire_after_their_ttl() -> None:
    now = [0.0]
    cache = SizedCache(max_bytes=1_000, size=len, ttl=600, clock=lambda: now[0])
    cache.get("k", lambda: "first")
    now[0] = 599
    assert cache.get("k", lambda: "second") == "first"
    now[0] = 1_300
    assert cache.get("k", lambda: "second") == "second"


def test_the_budget_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_bytes"):
        SizedCache(max_bytes=0, size=len)


def test_analyses_are_packed_and_counted_by_their_real_size() -> None:
    """A cached analysis holds packed tokens (~20 bytes each), and the cache counts those bytes."""
    from core.tokens.packed import PackedTokens
    from ui.cache import analysis_size, compute_analysis

    class Chars:
        def encode(self, text: str, *, allow_special: bool = False):
            from core.types import Token

            return [Token(ord(c), c.encode(), i, i + 1) for i, c in enumerate(text)]

        def decode(self, ids):
            return "".join(map(chr, ids))

    analysis = compute_analysis("chars", Chars(), "abc" * 10_000, False)
    assert isinstance(analysis.head, PackedTokens) and len(analysis.head) == 30_000 and analysis.complete
    assert list(analysis.ids) == [ord(c) for c in "abc" * 10_000]
    assert 30_000 * 16 < analysis_size(analysis) < 30_000 * 24
    assert analysis.counts.tokens == 30_000 and not analysis.lossy
