"""A pretrained tokenizer's vocabulary as bytes (id → bytes), for scanning it.

Byte-level BPE adapters over tiktoken expose ``mergeable_ranks`` (bytes → id). The others are read
through ``piece(id)``: GPT-2-style byte-level pieces ("Ġworld") map back through the byte-level
alphabet, SentencePiece pieces ("▁world") read ``▁`` as a space. WordPiece's ``##`` pieces have no
byte form of their own, so WordPiece vocabularies are not offered (``None``).
"""

from __future__ import annotations

from typing import Any

from core.pretrained.adapter import UNICODE_TO_BYTE


def token_bytes(tokenizer: Any) -> dict[int, bytes] | None:
    """``{id: bytes}`` of every ordinary (not special) token, or ``None`` for WordPiece.

    Subtle: for SentencePiece the ``<0xNN>`` byte pieces and control pieces are left out; they
    are not text.
    """
    ranks = getattr(tokenizer, "mergeable_ranks", None)
    if ranks is not None:
        return {rank: data for data, rank in ranks.items()}
    algorithm = getattr(tokenizer, "algorithm", "")
    special = set(tokenizer.special_tokens.values())
    out: dict[int, bytes] = {}
    if algorithm == "byte-level BPE":
        for i in range(tokenizer.vocab_size):
            piece = tokenizer.piece(i)
            if i not in special and piece and all(ch in UNICODE_TO_BYTE for ch in piece):
                out[i] = bytes(UNICODE_TO_BYTE[ch] for ch in piece)
        return out
    if algorithm in ("SentencePiece BPE", "Unigram"):
        for i in range(tokenizer.vocab_size):
            piece = tokenizer.piece(i)
            if i in special or not piece or (piece.startswith("<0x") and piece.endswith(">")):
                continue
            out[i] = piece.replace("\u2581", " ").encode()
        return out
    return None
