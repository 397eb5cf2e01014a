"""core.text.pretokenize: chunks cover the text, gaps are kept, bad, empty-matching and runaway patterns are handled."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.text import pretokenize
from core.text.patterns import GPT2_PATTERN, NAMED_PATTERNS
from core.text.pretokenize import PatternTimeout, chunks, compile_pattern, match_budget, split

STRINGS = [
    "",
    "a",
    "Hello world's 123 tokens!",
    "🙂👩‍💻 emoji",
    "日本語のテキスト",
    "مرحبا بالعالم",
    "tabs\tand    long     runs\n\n\n  of whitespace   ",
    "x = f(1_000_000) + 2026\r\n",
]


@pytest.mark.parametrize("name", sorted(NAMED_PATTERNS))
@pytest.mark.parametrize("text", STRINGS)
def test_spans_cover_the_text_in_order(name: str, text: str) -> None:
    spans = split(text, NAMED_PATTERNS[name])
    assert "".join(text[s:e] for s, e in spans) == text
    assert all(s < e for s, e in spans)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))
    assert chunks(text, NAMED_PATTERNS[name]) == [text[s:e] for s, e in spans]


def test_gpt2_cuts_words_with_their_leading_space() -> None:
    assert chunks("Hello world's 123!", GPT2_PATTERN) == ["Hello", " world", "'s", " 123", "!"]


def test_text_between_matches_is_its_own_chunk() -> None:
    assert split("Hi there!", r"\w+") == [(0, 2), (2, 3), (3, 8), (8, 9)]
    assert chunks("Hi there!", r"\w+") == ["Hi", " ", "there", "!"]


def test_a_pattern_with_groups_still_gives_whole_matches() -> None:
    assert chunks("ab cd", r"(a)b|(c)d") == ["ab", " ", "cd"]


@pytest.mark.parametrize("pattern", ["", "x*", r"\b", "(?=a)"])
def test_empty_matches_neither_loop_nor_make_empty_chunks(pattern: str) -> None:
    spans = split("abc abc", pattern)
    assert "".join("abc abc"[s:e] for s, e in spans) == "abc abc"
    assert all(s < e for s, e in spans)
    assert "".join(chunks("abc abc", pattern)) == "abc abc"


def test_an_invalid_pattern_says_what_and_where() -> None:
    with pytest.raises(ValueError, match=r"^invalid pattern: .* at position \d+$"):
        compile_pattern(r"(\p{L}+")
    with pytest.raises(ValueError, match="reverse matching"):
        compile_pattern(r"(?r)\w+")
    with pytest.raises(ValueError, match="must be a string"):
        compile_pattern(None)  # type: ignore[arg-type]


def test_compiled_patterns_are_cached() -> None:
    assert compile_pattern(GPT2_PATTERN) is compile_pattern(GPT2_PATTERN)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=60))
def test_any_text_survives_every_named_pattern(text: str) -> None:
    for pattern in NAMED_PATTERNS.values():
        assert "".join(chunks(text, pattern)) == text


# -- a user's pattern that backtracks catastrophically ---------------------------------------------

RUNAWAY = "a" * 40 + "!"  # (a|a)+$ tries 2**40 ways to cut the run before the "!" fails it


@pytest.mark.parametrize("pattern", [r"(a|a)+$", r"(?:a|a)+$"])  # with a group: split; without: findall
def test_a_runaway_pattern_stops_with_a_message(monkeypatch: pytest.MonkeyPatch, pattern: str) -> None:
    monkeypatch.setattr(pretokenize, "MATCH_SECONDS", 0.3)
    began = time.monotonic()
    with pytest.raises(PatternTimeout, match=r"took more than 0 s to cut 41 characters: it backtracks too much"):
        chunks(RUNAWAY, pattern)
    with pytest.raises(ValueError, match="simplify it"):  # a ValueError: callers already show those
        split(RUNAWAY, pattern)
    assert time.monotonic() - began < 5


def test_the_named_patterns_have_no_time_budget_and_others_one_that_grows_with_the_text() -> None:
    assert all(match_budget(pattern, "x" * 10_000_000) is None for pattern in NAMED_PATTERNS.values())
    short, long = match_budget(r"\w+", "x"), match_budget(r"\w+", "x" * 2_000_000)
    assert short is not None and long is not None and long > short >= pretokenize.MATCH_SECONDS

