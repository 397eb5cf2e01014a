"""Counts and ratios: definitions, kinds counted apart, exactness on a megabyte of text."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.measures.metrics import TextCounts, count_words, text_counts
from core.types import ADDED, BYTE_FALLBACK, SPECIAL, UNKNOWN, Token


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", 0),
        ("   \n\t", 0),
        ("Hello, world!", 2),
        ("El niño juega en el jardín.", 6),
        ("नमस्ते, आप कैसे हैं?", 4),  # vowel signs stay inside their word
        ("مرحبا بالعالم", 2),
        ("我喜欢学习", 5),  # one word per Han character
        ("日本語のテキスト", 8),
        ("I don't know", 3),
        ("1,000,000 and 3.14159 and 2026", 5),
        ("snake_case camelCase", 2),
        ("👩‍💻 🙂", 0),  # the joiner between the emoji is not a word
        ("می‌خواهم", 1),  # ...but a zero-width non-joiner inside a Persian word keeps it one
    ],
)
def test_count_words(text: str, words: int) -> None:
    assert count_words(text) == words


def test_counts_from_tokens_keep_kinds_apart() -> None:
    text = "hi <|endoftext|>😀"
    tokens = [
        Token(1, b"<s>", 0, 0, ADDED),
        Token(2, b"hi", 0, 2),
        Token(3, b" ", 2, 3),
        Token(4, b"<|endoftext|>", 3, 16, SPECIAL),
        Token(5, b"\xf0", 16, 17, BYTE_FALLBACK),
        Token(6, b"", 16, 17, UNKNOWN),
    ]
    counts = text_counts(text, tokens)
    assert counts == TextCounts(
        tokens=5, characters=17, utf8_bytes=len(text.encode()), words=2,
        added=1, unknown=1, byte_fallback=1, special=1,
    )


def test_ratios() -> None:
    counts = text_counts("héllo wörld", [Token(1, b"h\xc3\xa9llo", 0, 5), Token(2, " wörld".encode(), 5, 11)])
    assert counts.chars_per_token == pytest.approx(11 / 2)
    assert counts.bytes_per_token == pytest.approx(13 / 2)
    assert counts.tokens_per_word == pytest.approx(1.0)


def test_ratios_are_none_without_a_divisor() -> None:
    counts = text_counts("", [])
    assert (counts.chars_per_token, counts.bytes_per_token, counts.tokens_per_word) == (None, None, None)
    only_bos = text_counts("", [Token(1, b"<s>", 0, 0, ADDED)])
    assert only_bos.tokens == 0 and only_bos.added == 1 and only_bos.chars_per_token is None


def test_counts_from_a_number() -> None:
    counts = text_counts("a b c", 3)
    assert (counts.tokens, counts.words, counts.added, counts.unknown) == (3, 3, None, None)
    with pytest.raises(ValueError, match="negative"):
        text_counts("a", -1)


def test_exact_for_a_megabyte() -> None:
    unit = "Hello wörld, नमस्ते 你好 👩‍💻 3.14\n"
    text = unit * (1_000_000 // len(unit.encode()) + 1)
    assert len(text.encode()) >= 1_000_000
    tokens = [Token(i, ch.encode(), i, i + 1) for i, ch in enumerate(text)]
    began = time.perf_counter()
    counts = text_counts(text, tokens)
    assert time.perf_counter() - began < 5
    repeats = len(text) // len(unit)
    assert counts.tokens == len(text)
    assert counts.characters == len(text)
    assert counts.utf8_bytes == len(unit.encode()) * repeats
    assert counts.words == count_words(unit) * repeats


@given(st.text(max_size=200))
def test_counts_never_fail_and_agree_with_python(text: str) -> None:
    counts = text_counts(text, len(text))
    assert counts.characters == len(text)
    assert counts.utf8_bytes == len(text.encode("utf-8", errors="surrogatepass"))
    assert 0 <= counts.words <= len(text)


def test_metrics_do_not_import_streamlit() -> None:
    import subprocess
    import sys

    code = "import sys, core.measures.metrics; print('streamlit' in sys.modules or 'plotly' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
