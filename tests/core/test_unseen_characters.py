"""A character never seen in training, per algorithm trained here: what each one does, shown honestly.

Byte-level BPE falls back to the character's bytes (nothing is lost); character BPE and Unigram make
that one character ``<unk>``; WordPiece makes the whole word ``[UNK]``. Lost text is always an
``UNKNOWN`` token with no bytes over exactly the characters it hides.
"""

from __future__ import annotations

from core import bpe, unigram, wordpiece
from core.types import TEXT, UNKNOWN

CORPUS = "the cat sat on the mat, the cat ate"
TEXT_WITH_UNSEEN = "the caž sat"  # "ž" never occurs in CORPUS


def test_byte_level_bpe_keeps_the_bytes() -> None:
    tok = bpe.train(CORPUS, vocab_size=270).tokenizer
    tokens = tok.encode(TEXT_WITH_UNSEEN)
    assert all(t.kind == TEXT for t in tokens)
    under = [t for t in tokens if t.start <= 6 < t.end]
    assert [t.bytes for t in under] == [b"\xc5", b"\xbe"] and {(t.start, t.end) for t in under} == {(6, 7)}
    assert tok.decode([t.id for t in tokens]) == TEXT_WITH_UNSEEN
    assert "bytes" in bpe.UNSEEN_CHARACTER["byte"]


def test_character_bpe_loses_only_that_character() -> None:
    decoded = {}
    for layout in ("separate", "glued"):
        tok = bpe.train(CORPUS, num_merges=10, mode="char", end_of_word=layout).tokenizer
        tokens = tok.encode(TEXT_WITH_UNSEEN)
        unknown = [t for t in tokens if t.kind == UNKNOWN]
        assert [(t.id, t.bytes, t.start, t.end) for t in unknown] == [(0, b"", 6, 7)]
        decoded[layout] = tok.decode([t.id for t in tokens])
    # glued, the word end rides on the last character ("ž</w>"), so an unknown last character loses it
    assert decoded == {"separate": "the ca<unk> sat", "glued": "the ca<unk>sat"}
    assert "<unk>" in bpe.UNSEEN_CHARACTER["char"]


def test_wordpiece_loses_the_whole_word() -> None:
    tok = wordpiece.train(CORPUS, vocab_size=40).tokenizer
    tokens = tok.encode(TEXT_WITH_UNSEEN)
    unknown = [t for t in tokens if t.kind == UNKNOWN]
    assert [(t.id, t.bytes, t.start, t.end) for t in unknown] == [(0, b"", 4, 7)]
    assert tok.decode([t.id for t in tokens]) == "the [UNK] sat"
    assert "whole word" in wordpiece.UNSEEN_CHARACTER


def test_unigram_loses_only_that_character() -> None:
    tok = unigram.train(CORPUS, vocab_size=30).tokenizer
    tokens = tok.encode(TEXT_WITH_UNSEEN)
    unknown = [t for t in tokens if t.kind == UNKNOWN]
    assert [(t.id, t.bytes, t.start, t.end) for t in unknown] == [(0, b"", 6, 7)]
    assert b"".join(t.bytes for t in tokens) == b"the ca sat"
