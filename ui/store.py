"""Results kept per server process: made once per key even when sessions ask at once, the most recent kept.

A trained model, a sweep or a word report is expensive and the same for every session that asks for
it, so it lives in one process-wide store (the page wraps one in ``st.cache_resource``). Two sessions
asking for the same key at once wait on one lock per key and share one computation; the ``max_items``
most recently used are kept, the oldest dropped, so memory stays bounded.

>>> store = KeptStore(max_items=2)
>>> store.get("a", lambda: 1), store.get("a", lambda: 2), store.peek("b")
(1, 1, None)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class KeptStore:
    """Values by hashable key, the ``max_items`` most recently used kept; one lock per key."""

    def __init__(self, max_items: int = 8) -> None:
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()
        self._max = max_items

    def peek(self, key: Hashable) -> Any | None:
        """The value for ``key`` if it was made already (and is still kept), else None."""
        with self._guard:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value for ``key``, made by ``make()`` once even when two sessions ask at once."""
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            found = self.peek(key)
            if found is None:
                found = make()
                with self._guard:
                    self._items[key] = found
                    while len(self._items) > self._max:
                        old, _ = self._items.popitem(last=False)
                        self._locks.pop(old, None)
            return found

    def get_with_bar(self, key: Hashable, make: Callable[[Any], Any], *, first: str = "Loading the corpus …") -> Any:
        """``get``, where a value still to be made is made by ``make(bar)`` under a Streamlit progress bar
        (opened with ``first``, cleared afterwards, whatever happens); a kept value draws no bar."""
        found = self.peek(key)
        if found is not None:
            return found
        import streamlit as st  # here, not at the top: the store itself is plain Python

        slot = st.empty()
        bar = slot.progress(0.0, text=first)
        try:
            return self.get(key, lambda: make(bar))
        finally:
            slot.empty()
