"""Ids back to text (core/tokens/decode_ids.py): parsing, bytes from the vocabulary, no "�"."""

from __future__ import annotations

import pytest

from core import pretrained
from core.tokens.decode_ids import MAX_IDS, decode_ids, parse_ids
from core.types import ADDED, UNKNOWN
from tests.loaded import load_once

KEYS = ["gpt2", "cl100k_base", "llama2", "llama3", "qwen", "bert_uncased", "t5", "xlmr"]


@pytest.mark.parametrize("raw", ["[9906, 11, 1917]", "9906, 11, 1917", "9906 11 1917", " 9906,11\n1917 "])
def test_parse_ids_takes_commas_spaces_and_json(raw: str) -> None:
    assert parse_ids(raw) == [9906, 11, 1917]


@pytest.mark.parametrize("raw", ["9906, eleven", "[1, -2]", "[1, 2.5]", "[1, true]", "[1, 2", '{"a": 1}', "-1"])
def test_parse_ids_refuses_what_is_not_an_id_with_a_message(raw: str) -> None:
    with pytest.raises(ValueError, match="id|JSON"):
        parse_ids(raw)


def test_parse_ids_is_bounded() -> None:
    with pytest.raises(ValueError, match="shorter"):
        parse_ids(" ".join(["1"] * (MAX_IDS + 1)))


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("text", ["Hello, world!", "naïve café 2026", "👩‍💻 and 世界", "  spaced  out "])
def test_the_ids_of_a_text_decode_to_its_bytes(key: str, text: str) -> None:
    try:
        tokenizer = load_once(key)
    except pretrained.TokenizerUnavailable as exc:
        pytest.skip(str(exc))
    tokens = [t for t in tokenizer.encode(text) if t.kind != ADDED]
    if any(t.kind == UNKNOWN for t in tokens):
        pytest.skip(f"{key} loses this text")
    decoded = decode_ids(tokenizer, [t.id for t in tokens])
    assert decoded.text is not None
    # the same characters as the library's decode (which may tidy spaces: WordPiece's "hello ,")
    assert decoded.text.split() == tokenizer.decode([t.id for t in tokens]).split() or key == "bert_uncased"
    assert "".join(decoded.text.split()) == "".join(tokenizer.decode([t.id for t in tokens]).split())
    assert "\ufffd" not in decoded.text
    for token in decoded.tokens:  # offsets cover the token's characters
        assert token.bytes.decode(errors="ignore") in decoded.text[token.start : token.end] or token.start < token.end


def test_ids_cut_inside_a_character_have_byte_groups_not_text() -> None:
    tokenizer = load_once("gpt2")
    ids = [t.id for t in tokenizer.encode("👩")]
    assert len(ids) == 2
    decoded = decode_ids(tokenizer, ids[:1])
    assert decoded.text is None and decoded.tokens[0].bytes == "👩".encode()[:3]


def test_an_id_outside_the_vocabulary_is_named() -> None:
    tokenizer = load_once("gpt2")
    with pytest.raises(ValueError, match=r"id 50,257 is not in GPT-2 \(r50k_base\)'s vocabulary \(its ids run from 0 to 50,256\)"):
        decode_ids(tokenizer, [15496, 50_257])
