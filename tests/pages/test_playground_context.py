"""Under each Playground column: the share of its model's context window and the text's cost."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.measures.context_window import context_windows
from tests.pages.apptest import cards, open_page, rerun
from tests.pages.live import live_box
from ui import state
from ui.context_view import PRICE_KEY, WINDOW_KEY_PREFIX

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def context_captions(at) -> list[str]:
    """The context lines under the columns (plain text, in each column's card: ui.card)."""
    return [card["foot"]["line"] for card in cards(at) if card["foot"]]


def one(key: str, text: str):
    at = open_page(APP, timeout=120, state={state.PG_TOKENIZERS: [key]})
    live_box(at, state.PG_TEXT).input(text)
    rerun(at)
    if any('class="tp-unavailable"' in h.proto.body for h in at.html):
        pytest.skip(f"{key} is unavailable here")
    return at


def test_every_registry_window_names_its_source() -> None:
    for key, window in context_windows().items():
        assert window.tokens > 0 and window.source and window.model, key


def test_the_share_of_the_context_and_the_cost_at_the_users_price() -> None:
    at = one("gpt2", "hello" + " hello" * 255)  # 256 tokens of GPT-2's 1,024
    assert context_captions(at) == ["25.0% of GPT-2's 1,024-token context"]
    at.number_input(key=PRICE_KEY).set_value(2.5)
    rerun(at)
    assert context_captions(at) == ["25.0% of GPT-2's 1,024-token context · 0.0006 at 2.50 per million tokens"]


def test_a_text_longer_than_the_window_says_by_how_much() -> None:
    at = one("bert_uncased", "word " * 600)
    (line,) = context_captions(at)
    assert "of BERT base uncased's 512-token context: 90 tokens too many" in line


def test_a_tokenizer_without_a_sourced_window_asks_for_it() -> None:
    missing = next(k for k in ("qwen3_5", "deepseek_v4", "llama4", "mistral_nemo") if k not in context_windows())
    at = one(missing, "hello world")
    assert context_captions(at) == []
    at.number_input(key=WINDOW_KEY_PREFIX + missing).set_value(1000)
    rerun(at)
    (line,) = context_captions(at)
    assert "of your model's 1,000-token context" in line
