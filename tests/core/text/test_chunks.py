"""core.text.chunks: cuts that report bad patterns as values, chunk tokens for the span renderer, and the
time budget that stops a catastrophic pattern."""

from __future__ import annotations

import time

import pytest

from core.text import pretokenize
from core.text.chunks import chunk_tokens, cut
from core.text.patterns import GPT2_PATTERN


def test_a_cut_covers_the_text_and_names_its_pattern() -> None:
    result = cut("Hello world's 123!", GPT2_PATTERN, name="GPT-2")
    assert result.ok and result.name == "GPT-2"
    assert ["Hello world's 123!"[s:e] for s, e in result.spans] == ["Hello", " world", "'s", " 123", "!"]


@pytest.mark.parametrize(("pattern", "message"), [
    ("(", r"invalid pattern: missing \) at position 1"),
    (r"\p{Nope}", "invalid pattern: unknown property"),
    ("(?r)a", "reverse matching"),
])
def test_an_invalid_pattern_is_a_message_not_an_exception(pattern: str, message: str) -> None:
    result = cut("abc", pattern, name="mine")
    assert not result.ok and result.spans == ()
    assert pytest.importorskip("re").search(message, result.error)


def test_a_catastrophic_pattern_is_stopped_by_the_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pretokenize, "MATCH_SECONDS", 0.3)
    began = time.monotonic()
    result = cut("a" * 40 + "b", r"(a|aa)+$", name="runaway")
    assert time.monotonic() - began < 10
    assert not result.ok and "backtracks too much" in result.error and "possessive" in result.error


def test_chunk_tokens_number_chunks_from_one_and_keep_their_bytes() -> None:
    tokens = chunk_tokens("héllo wörld", [(0, 5), (5, 11)])
    assert [t.id for t in tokens] == [1, 2]
    assert [t.bytes for t in tokens] == ["héllo".encode(), " wörld".encode()]
    assert [(t.start, t.end) for t in tokens] == [(0, 5), (5, 11)]


def test_chunk_tokens_read_a_lone_surrogate_as_u_fffd() -> None:
    (token,) = chunk_tokens("a\ud800", [(0, 2)])
    assert token.bytes == "a\ufffd".encode()
