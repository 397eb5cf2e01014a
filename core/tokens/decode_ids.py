"""Ids back to text: a pasted list of token ids, read and turned into tokens with their bytes.

``parse_ids`` reads ``[9906, 11, 1917]``, ``9906, 11, 1917`` or ``9906 11 1917``. ``decode_ids``
gives each id its bytes from the tokenizer's own vocabulary (never by decoding one token alone,
which is where "�" comes from), then joins them: when the bytes are valid UTF-8 the result is a
text with ``Token`` offsets into it (tokens that split a character share its offsets, as
``encode``'s do); when they are not (a list cut inside a character), there is no text, only the
byte groups, and the caller says so.

>>> parse_ids("[1, 2,3]  4")
[1, 2, 3, 4]
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.pretrained.anatomy import UNICODE_TO_BYTE, hf_bytes, library_of
from core.types import BYTE_FALLBACK, SPECIAL, TEXT, UNKNOWN, Token

MAX_IDS = 100_000  # ids decoded at once; a longer list is refused with a message
_BYTE_PIECE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


@dataclass(frozen=True)
class Decoded:
    """What a list of ids stands for: its tokens (bytes and kinds) and, when valid UTF-8, its text."""

    tokens: tuple[Token, ...]  # offsets into ``text``; all 0 when ``text`` is None
    text: str | None  # None: the bytes are not valid UTF-8 on their own


def parse_ids(raw: str) -> list[int]:
    """The ids in ``raw``: a JSON list, or whole numbers separated by commas and/or spaces."""
    raw = raw.strip()
    if not raw:
        return []
    if raw.startswith("["):
        try:
            items = json.loads(raw)
        except json.JSONDecodeError:
            raise ValueError("that list is not valid JSON: write it as [9906, 11, 1917]") from None
        if not isinstance(items, list):
            raise ValueError("write the ids as a JSON list, [9906, 11, 1917]")
    else:
        items = [item for item in re.split(r"[,\s]+", raw) if item]
    if len(items) > MAX_IDS:
        raise ValueError(f"{len(items):,} ids is more than {MAX_IDS:,}: decode a shorter list")
    ids = []
    for item in items:
        whole = (isinstance(item, int) and item >= 0) or (isinstance(item, str) and item.isdigit())
        if isinstance(item, bool) or not whole:
            shown = str(item)[:20]
            raise ValueError(f"'{shown}' is not a token id: ids are whole numbers (0 or more), "
                             "separated by commas or spaces, or a JSON list")
        ids.append(int(item))
    return ids


def token_bytes(tokenizer: Any, token_id: int) -> tuple[bytes, str]:
    """The bytes ``token_id`` stands for in ``tokenizer``'s vocabulary, and its kind."""
    size = getattr(tokenizer, "vocab_size", None)
    name = getattr(tokenizer, "name", "the tokenizer")
    if token_id < 0 or (size is not None and token_id >= size):
        raise ValueError(f"id {token_id:,} is not in {name}'s vocabulary (its ids run from 0 to {size - 1:,})")
    try:
        piece = tokenizer.piece(token_id)
    except Exception:  # the libraries raise their own errors (a gap in the ids, an index error)
        raise ValueError(f"id {token_id:,} is not in {name}'s vocabulary") from None
    if token_id in getattr(tokenizer, "unknown_ids", ()):
        return piece.encode(), UNKNOWN
    if token_id in set(tokenizer.special_tokens.values()):
        return piece.encode(), SPECIAL
    library, _ = library_of(tokenizer)
    if library == "tiktoken":
        return bytes(UNICODE_TO_BYTE[c] for c in piece), TEXT
    byte = _BYTE_PIECE.fullmatch(piece)
    if byte:
        return bytes([int(byte.group(1), 16)]), BYTE_FALLBACK
    if library == "tokenizers":
        return hf_bytes(piece, getattr(tokenizer, "_style", "metaspace")), TEXT
    return piece.replace("\u2581", " ").encode(), TEXT


def decode_ids(tokenizer: Any, ids: Sequence[int]) -> Decoded:
    """Tokens for ``ids`` and their text when the joined bytes are valid UTF-8; ``ValueError`` names
    the first id outside the vocabulary."""
    parts = [(token_id, *token_bytes(tokenizer, token_id)) for token_id in ids]
    if getattr(tokenizer, "_style", None) == "wordpiece":
        parts = _wordpiece_spaces(tokenizer, parts)
    data = b"".join(part for _, part, _ in parts)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Decoded(tuple(Token(i, part, 0, 0, kind) for i, part, kind in parts), None)
    # character offsets of every byte: a token that ends inside a character takes the whole character
    char_at = []
    for index, char in enumerate(text):
        char_at.extend([index] * len(char.encode()))
    tokens, position = [], 0
    for token_id, part, kind in parts:
        start = char_at[position] if position < len(data) else len(text)
        position += len(part)
        end = char_at[position - 1] + 1 if part else start
        tokens.append(Token(token_id, part, start, end, kind))
    return Decoded(tuple(tokens), text)


def _wordpiece_spaces(tokenizer: Any, parts: list[tuple[int, bytes, str]]) -> list[tuple[int, bytes, str]]:
    """WordPiece writes no spaces: a word's first piece (no ``##``) after another token starts with one."""
    out = []
    for index, (token_id, part, kind) in enumerate(parts):
        starts_word = kind == TEXT and not tokenizer.piece(token_id).startswith("##")
        out.append((token_id, b" " + part if starts_word and index and parts[index - 1][2] != SPECIAL else part, kind))
    return out
