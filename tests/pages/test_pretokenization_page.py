"""AppTest smoke tests for "Pre-tokenization": patterns, your regex (invalid and runaway), digits under
real tokenizers, the fixed examples, and bad input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.text import pretokenize
from core.text.patterns import GPT2_PATTERN
from core.text.pretokenize import split
from tests.pages.apptest import open_page
from ui import state

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "6_Pre-tokenization.py")


def run_page(**values: object) -> AppTest:
    return open_page(PAGE, timeout=120, state=values)


def rows(at: AppTest) -> str:
    (found,) = [h.proto.body for h in at.html if 'class="tv-rows"' in h.proto.body]
    return found


def labels(at: AppTest) -> list[str]:
    return re.findall(r'<div class="tv-label"><strong>([^<]*)</strong>', " ".join(
        h.proto.body for h in at.html if 'class="tv-rows"' in h.proto.body))


def test_default_view_cuts_the_text_with_five_patterns_and_your_regex() -> None:
    at = run_page()
    assert labels(at) == ["GPT-2", "cl100k_base", "o200k_base", "Llama 3", "Whitespace", "Your regex"]
    body = rows(at)
    assert body.count('class="tp-spans"') == 6
    assert "chunk 1 of" in body  # the tooltip numbers the chunks


def test_an_invalid_regex_gets_a_clear_error_and_the_other_rows_stay() -> None:
    at = run_page(**{state.PT_CUSTOM: r"(\p{L}+"})
    assert any("missing )" in e.value and "position" in e.value for e in at.error)
    assert "could not cut" in rows(at) and rows(at).count('class="tp-spans"') == 5


def test_a_catastrophic_regex_is_stopped_by_the_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pretokenize, "MATCH_SECONDS", 0.3)
    at = run_page(**{state.PT_CUSTOM: r"(a|aa)+$", state.PT_TEXT: "a" * 40 + "b"})
    assert any("backtracks too much" in e.value for e in at.error)


def test_digits_view_shows_patterns_and_real_tokenizers() -> None:
    at = run_page(**{state.PT_VIEW: "digits", state.PT_DIGITS_TEXT: "2026"})
    shown = labels(at)
    assert shown[:5] == ["GPT-2", "cl100k_base", "o200k_base", "Llama 3", "Qwen"]
    assert len(shown) == 5 + len(state.pretokenization_defaults()[state.PT_TOKENIZERS])
    tokenizers = [h.proto.body for h in at.html if 'class="tv-rows"' in h.proto.body][1]
    if "Qwen 1.5" in tokenizers and "unavailable" not in tokenizers:
        assert "4 tokens" in tokenizers  # Qwen: one token per digit


@pytest.mark.parametrize("view", ["contractions", "spaces"])
def test_example_views_render_every_pattern(view: str) -> None:
    at = run_page(**{state.PT_VIEW: view})
    assert labels(at) == ["GPT-2", "cl100k_base", "o200k_base", "Llama 3", "Qwen", "Whitespace"]


def test_empty_text_and_empty_numbers_say_what_to_do() -> None:
    at = run_page(**{state.PT_TEXT: ""})
    assert any("Type or paste" in i.value for i in at.info)
    at = run_page(**{state.PT_VIEW: "digits", state.PT_DIGITS_TEXT: ""})
    assert any("Type some numbers" in i.value for i in at.info)


def test_a_megabyte_is_cut_with_exact_counts_and_capped_spans() -> None:
    text = "word, 123 " * 100_000
    at = run_page(**{state.PT_TEXT: text, state.PT_CUSTOM: ""})
    body = rows(at)
    gpt2 = len(split(text, GPT2_PATTERN))  # "word", ",", " 123", then " word" …
    assert gpt2 > 200_000 and f"<strong>GPT-2</strong><span>{gpt2:,} chunks" in body
    assert f"showing 5,000 of {gpt2:,} tokens" in body


def test_lone_surrogates_and_xss_stay_text() -> None:
    at = run_page(**{state.PT_TEXT: "<script>alert(1)</script> a\ud800b"})
    assert any("1 lone surrogate" in w.value for w in at.warning)
    body = rows(at)
    assert "<script>" not in body and "&lt;script&gt;" in body
