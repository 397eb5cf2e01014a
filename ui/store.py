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

    def get_with_bar(
        self, key: Hashable, make: Callable[[Any], Any], *, first: str = "Loading the corpus …", stop: str | None = None,
    ) -> Any:
        """``get``, where a value still to be made is made by ``make(bar)`` under a Streamlit progress bar
        (opened with ``first``, cleared afterwards, whatever happens); a kept value draws no bar. With
        ``stop`` (the page's name) a Stop button sits under the bar (``stop_button``)."""
        found = self.peek(key)
        if found is not None:
            return found
        import streamlit as st  # here, not at the top: the store itself is plain Python

        slot = st.empty()
        with slot.container():
            bar = st.progress(0.0, text=first)
            if stop is not None:
                stop_button(stop)
        try:
            return self.get(key, lambda: make(bar))
        finally:
            slot.empty()


def stop_button(page: str, on_stop: Callable[[], None] | None = None) -> None:
    """A "Stop training" button to draw beside a training's progress bar.

    Subtle: a click while the script trains makes Streamlit stop that run at its next call into
    Streamlit, which is the next progress report: the exception comes out of the progress callback
    and ends the training inside ``core`` (nothing is kept: the store keeps only what was made). The
    next run then finds ``was_stopped(page)`` true; ``on_stop`` runs first, before any widget is drawn.
    """
    import streamlit as st

    from ui import state

    def stopped() -> None:
        st.session_state[state.TRAINING_STOPPED] = page
        if on_stop is not None:
            on_stop()

    st.button("Stop training", key=f"{page}_stop_training", on_click=stopped, icon=":material/stop_circle:",
              help="Stops this training; the page keeps what it showed before.")


def was_stopped(page: str) -> bool:
    """Whether ``page``'s Stop button interrupted a training since the last call (then forgotten)."""
    import streamlit as st

    from ui import state

    if st.session_state.get(state.TRAINING_STOPPED) != page:
        return False
    del st.session_state[state.TRAINING_STOPPED]
    return True
