"""Which garbage collections ran: for tests of code that pauses, narrows or avoids them."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collections() -> Iterator[list[int]]:
    """The generation of every collection that runs inside the block, in order."""
    seen: list[int] = []

    def note(phase: str, info: dict) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
