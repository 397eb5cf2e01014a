"""A least-recently-used cache bounded by the memory of what it holds, shared by every session.

Streamlit's ``max_entries`` bounds how many results a cache keeps, not how big they are: 48 analyses
of 5 MB texts are gigabytes. ``SizedCache`` counts each value's size (``size(value)``, in bytes)
and drops the least recently used values until the total is under ``max_bytes`` again, so a stream
of distinct megabyte texts cannot grow the server's memory without end. A value bigger than the
whole budget is returned but not kept.

It is thread-safe (Streamlit runs each session's script in its own thread), and two sessions asking
for the same missing key at once compute it once: the second waits for the first. Entries may also
expire after ``ttl`` seconds (uploaded tokenizers' results must not outlive their upload for long).

>>> cache = SizedCache(max_bytes=10, size=len)
>>> cache.get("a", lambda: "123456"), cache.get("b", lambda: "7890"), cache.get("c", lambda: "xy")
('123456', '7890', 'xy')
>>> sorted(cache.keys()), cache.total
(['b', 'c'], 6)
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class SizedCache(Generic[V]):
    """Values by key, the least recently used dropped first once their sizes pass ``max_bytes``."""

    def __init__(self, *, max_bytes: int, size: Callable[[V], int], ttl: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if max_bytes <= 0:
            raise ValueError("max_bytes must be positive (the memory the cache may hold)")
        self.max_bytes = max_bytes
        self._size = size
        self._ttl = ttl
        self._clock = clock
        self._items: OrderedDict[Hashable, tuple[V, int, float]] = OrderedDict()
        self._total = 0
        self._guard = threading.Lock()
        self._busy: dict[Hashable, threading.Lock] = {}
        self.evictions = 0

    @property
    def total(self) -> int:
        """The summed size of the values held now."""
        return self._total

    def keys(self) -> list[Hashable]:
        with self._guard:
            return list(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        """The value for ``key``, computing (and keeping) it when missing or expired."""
        found = self._lookup(key)
        if found is not None:
            return found[0]
        with self._guard:
            lock = self._busy.setdefault(key, threading.Lock())
        with lock:
            found = self._lookup(key)  # another session may have filled it while this one waited
            if found is not None:
                return found[0]
            try:
                value = compute()
                self._keep(key, value)
                return value
            finally:
                with self._guard:
                    self._busy.pop(key, None)

    def peek(self, key: Hashable) -> V | None:
        """The value for ``key`` if it is held (and fresh), else ``None``; nothing is computed."""
        found = self._lookup(key)
        return None if found is None else found[0]

    def put(self, key: Hashable, value: V) -> V:
        """Keep ``value`` under ``key`` (replacing what was there) and return it."""
        self._keep(key, value)
        return value

    def clear(self) -> None:
        with self._guard:
            self._items.clear()
            self._total = 0

    def _lookup(self, key: Hashable) -> tuple[V] | None:
        with self._guard:
            item = self._items.get(key)
            if item is None:
                return None
            if self._ttl is not None and self._clock() - item[2] > self._ttl:
                self._drop(key)
                return None
            self._items.move_to_end(key)
            return (item[0],)

    def _keep(self, key: Hashable, value: V) -> None:
        size = max(0, int(self._size(value)))
        if size > self.max_bytes:
            return  # bigger than the whole budget: used once, never kept
        with self._guard:
            if key in self._items:
                self._drop(key)
            self._items[key] = (value, size, self._clock())
            self._total += size
            while self._total > self.max_bytes:
                self._drop(next(iter(self._items)))
                self.evictions += 1

    def _drop(self, key: Hashable) -> None:
        _, size, _ = self._items.pop(key)
        self._total -= size
