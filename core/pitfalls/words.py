"""Words under a tokenizer: the letters inside each piece (spelling), and the trailing space that
token healing repairs.

Pieces are read from the original text through each token's offsets, never decoded alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.types import ADDED, Token


@dataclass(frozen=True)
class PieceLetters:
    """One piece of a word: its letters, the token's whole text (with a glued space), id, letter count."""

    text: str
    token_text: str
    token_id: int
    hits: int


def word_pieces(text: str, tokens: Sequence[Token], start: int, end: int, *, letter: str) -> list[PieceLetters]:
    """The pieces of ``text[start:end]`` (tokens overlapping it, clipped to it) with ``letter`` counts.

    >>> toks = [Token(1, b"str", 0, 3), Token(2, b"aw", 3, 5), Token(3, b"berry", 5, 10)]
    >>> [(p.text, p.hits) for p in word_pieces("strawberry", toks, 0, 10, letter="r")]
    [('str', 1), ('aw', 0), ('berry', 2)]
    """
    pieces = []
    covered = -1
    for token in tokens:
        if token.kind == ADDED or token.end <= start or token.start >= end or token.start < covered:
            continue  # a token sharing a character with the previous one adds no letters
        piece = text[max(token.start, start) : min(token.end, end)]
        pieces.append(
            PieceLetters(piece, text[token.start : token.end], token.id, piece.casefold().count(letter.casefold()))
        )
        covered = token.end
    return pieces


@dataclass(frozen=True)
class TrailingSpace:
    """A prompt with and without a trailing space, and what token healing would do about it."""

    last_token: bytes  # the last token of the prompt with the space: b" " for byte-level BPE
    natural_next: bytes  # the token the full sentence has right after the prompt (b" j")
    natural_next_id: int
    candidates: int | None  # vocabulary tokens starting with ``last_token`` (None: vocabulary unknown)
    natural_allowed: bool | None  # ``natural_next`` is among them
    examples: tuple[bytes, ...]  # candidates that are prefixes of the continuation, shortest first


def trailing_space(
    spaced_tokens: Sequence[Token], full_tokens: Sequence[Token], prompt_length: int, continuation: str,
    vocabulary: Mapping[int, bytes] | None, *, examples: int = 8,
) -> TrailingSpace:
    """Compare ``prompt + " "`` with ``prompt + continuation`` under one tokenizer.

    ``natural_next`` is the first token of the full text that reaches past the prompt. With a
    vocabulary, token healing's candidates are the tokens whose bytes start with the spaced prompt's
    last token; the examples are those of them that are prefixes of the continuation (" j", " ja",
    " jard" …), the ones that lead where the text was going.

    >>> spaced = [Token(1, b"el", 0, 2), Token(2, b" ", 2, 3)]
    >>> full = [Token(1, b"el", 0, 2), Token(3, b" j", 2, 4), Token(4, b"ard", 4, 7)]
    >>> view = trailing_space(spaced, full, 2, " jard", {2: b" ", 3: b" j", 5: b" ja", 6: b"x"})
    >>> (view.candidates, view.natural_allowed, view.examples)
    (2, True, (b' j', b' ja'))
    """
    text_tokens = [t for t in spaced_tokens if t.kind != ADDED]
    last = text_tokens[-1].bytes if text_tokens else b""
    following = [t for t in full_tokens if t.kind != ADDED and t.end > prompt_length]
    natural = following[0] if following else Token(-1, b"", 0, 0)
    if vocabulary is None or not last:
        return TrailingSpace(last, natural.bytes, natural.id, None, None, ())
    matching = [data for data in vocabulary.values() if data.startswith(last) and len(data) > len(last)]
    target = continuation.encode()
    leading = sorted((data for data in matching if target.startswith(data)), key=len)
    return TrailingSpace(
        last, natural.bytes, natural.id, len(matching), natural.bytes.startswith(last), tuple(leading[:examples]),
    )
