"""PackedTokens reads like the tuple of tokens it replaces, at a tenth of the memory."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.tokens.packed import PackedTokens
from core.types import ADDED, BYTE_FALLBACK, SPECIAL, TEXT, UNKNOWN, Token

TOKENS = st.lists(
    st.builds(Token, st.integers(0, 2**31 - 1), st.binary(max_size=6), st.integers(0, 10**6), st.integers(0, 10**6),
              st.sampled_from([TEXT, TEXT, SPECIAL, ADDED, UNKNOWN, BYTE_FALLBACK])),
    max_size=40,
)


@given(TOKENS, st.integers(-45, 45), st.integers(-45, 45))
def test_reads_like_a_tuple(tokens: list[Token], start: int, stop: int) -> None:
    packed = PackedTokens(tokens)
    assert len(packed) == len(tokens)
    assert list(packed) == tokens and packed == tokens and packed == tuple(tokens)
    assert [packed[i] for i in range(-len(tokens), len(tokens))] == tokens + tokens
    assert list(packed[start:stop]) == tokens[start:stop]
    assert list(packed[start:stop].ids) == [t.id for t in tokens[start:stop]]
    assert list(packed[::2]) == tokens[::2]


def test_out_of_range_and_empty() -> None:
    empty = PackedTokens([])
    assert len(empty) == 0 and list(empty) == [] and empty == ()
    with pytest.raises(IndexError):
        empty[0]
    with pytest.raises(IndexError):
        PackedTokens([Token(1, b"a", 0, 1)])[1]


def test_memory_is_a_tenth_of_the_tokens() -> None:
    tokens = [Token(1000 + i % 500, b" word", 5 * i, 5 * i + 5) for i in range(10_000)]
    packed = PackedTokens(tokens)
    assert packed.nbytes <= 10_000 * 22  # four 4-byte arrays and the bytes themselves
    assert packed._kinds is None  # all TEXT: no kind array at all
