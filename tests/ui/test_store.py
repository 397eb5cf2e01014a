"""KeptStore.get_with_bar: a value still to be made is made once under a progress bar; a kept one draws none."""

from __future__ import annotations

import pytest

from ui.store import KeptStore


def test_makes_once_with_a_bar_then_keeps() -> None:
    store = KeptStore(max_items=2)
    calls: list[object] = []

    def make(bar: object) -> str:
        calls.append(bar)
        bar.progress(0.5, text="half way")  # the bar is a real Streamlit progress element
        return "model"

    assert store.get_with_bar("k", make) == "model"
    assert store.get_with_bar("k", make) == "model"
    assert len(calls) == 1 and store.peek("k") == "model"


def test_a_failure_is_not_kept() -> None:
    store = KeptStore()

    def make(bar: object) -> str:
        raise ValueError("the corpus is too short")

    with pytest.raises(ValueError, match="too short"):
        store.get_with_bar("k", make)
    assert store.peek("k") is None
