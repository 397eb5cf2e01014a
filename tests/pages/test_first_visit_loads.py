"""What a first visit loads (issue 21, item 9): the Playground only the tokenizers of its columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.pretrained import DEFAULT_KEYS
from tests.pages.apptest import open_page
from ui import cache

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_a_playground_visit_loads_only_the_tokenizers_of_its_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[str] = []
    store = cache.TokenizerStore(lambda key, progress: loaded.append(key) or cache.load_from_registry(key, progress))
    monkeypatch.setattr(cache, "tokenizer_store", lambda: store)  # a fresh process's: nothing loaded yet
    open_page(APP, timeout=120)
    assert sorted(loaded) == sorted(DEFAULT_KEYS)
