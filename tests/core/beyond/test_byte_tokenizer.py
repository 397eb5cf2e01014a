"""core.beyond.byte_tokenizer: the ByT5-style byte tokenizer and the sequence cost arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.beyond.byte_tokenizer import BYT5_VOCAB, ByteTokenizer, SequenceCost, char_of_byte
from core.text.textio import without_surrogates
from core.types import Tokenizer


def test_ids_are_bytes_plus_three_and_offsets_are_characters() -> None:
    tokens = ByteTokenizer().encode("a🙂")
    assert [t.id for t in tokens] == [0x61 + 3, 0xF0 + 3, 0x9F + 3, 0x99 + 3, 0x82 + 3]
    assert [(t.start, t.end) for t in tokens] == [(0, 1)] + [(1, 2)] * 4
    assert isinstance(ByteTokenizer(), Tokenizer)


@given(st.text())
def test_one_token_per_byte_and_a_lossless_round_trip(text: str) -> None:
    tok = ByteTokenizer()
    tokens = tok.encode(text)
    clean = without_surrogates(text)  # lone surrogates are read as U+FFFD, as every tokenizer does
    assert len(tokens) == len(clean.encode())
    assert tok.decode([t.id for t in tokens]) == clean


def test_decode_refuses_ids_outside_the_vocabulary() -> None:
    with pytest.raises(ValueError, match="0 to 258"):
        ByteTokenizer().decode([BYT5_VOCAB])
    assert ByteTokenizer().decode([0, 1, 2, 107]) == "h"


def test_char_of_byte() -> None:
    assert char_of_byte("añ日🙂".encode()).tolist() == [0, 1, 1, 2, 2, 2, 3, 3, 3, 3]


def test_costs_relative_to_another_sequence() -> None:
    byte_seq, bpe_seq = SequenceCost("bytes", 400, 259), SequenceCost("cl100k", 100, 100_256)
    length, attention, output = byte_seq.relative_to(bpe_seq)
    assert (length, attention) == (4.0, 16.0)
    assert output == pytest.approx(400 * 259 / (100 * 100_256))
    with pytest.raises(ValueError, match="nothing to compare"):
        byte_seq.relative_to(SequenceCost("empty", 0, 10))
