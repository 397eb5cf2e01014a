"""The one token type and the tokenizer protocol shared by every tokenizer, ours or wrapped.

Bytes are the truth: a token may hold part of a UTF-8 character (an emoji under GPT-2 is several
tokens). ``start``/``end`` are code-point offsets into the ``str`` that was encoded; a token that
holds part of a character gets the offsets of the whole character it falls in, so tokens that share
a character share offsets and can be grouped by the display layer.

Display is someone else's job: nothing here decodes a single token to a ``str``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple, Protocol, runtime_checkable

# Token kinds. A plain text token is the common case; the others get a distinct style.
TEXT = "text"
SPECIAL = "special"  # a special token read from the user's text (e.g. <|endoftext|> with the switch on)
ADDED = "added"  # inserted by the tokenizer on its own (BOS, [CLS], [SEP], </s>): zero-width
BYTE_FALLBACK = "byte"  # SentencePiece <0xNN> piece standing for one raw byte
UNKNOWN = "unknown"  # [UNK] / <unk>: the text under it is lost
TOKEN_KINDS = (TEXT, SPECIAL, ADDED, BYTE_FALLBACK, UNKNOWN)

ALGORITHMS = ("byte-level BPE", "SentencePiece BPE", "WordPiece", "Unigram", "character BPE")


class Token(NamedTuple):
    """One token: its id, the bytes it stands for, and the code points of the input it covers.

    Immutable. A ``NamedTuple`` rather than a frozen dataclass because a 1 MB text is ~400,000
    tokens and a frozen dataclass takes twice as long to build each one.

    Subtle: ``bytes`` of a WordPiece ``##ing`` is ``b"ing"``, of a SentencePiece ``▁the`` is
    ``b" the"`` (the meaning, not the symbol); an ``UNKNOWN`` token has ``b""`` (its text is
    lost); ``SPECIAL``/``ADDED`` tokens carry their literal text (``b"<s>"``). ``ADDED`` tokens are
    zero-width (``start == end``) at the place they were inserted.

    >>> Token(15339, b"hello", 0, 5)
    Token(id=15339, bytes=b'hello', start=0, end=5, kind='text')
    """

    id: int
    bytes: bytes
    start: int
    end: int
    kind: str = TEXT


@runtime_checkable
class Tokenizer(Protocol):
    """What every tokenizer offers the UI, pretrained or trained here.

    ``algorithm`` is one of ``ALGORITHMS``; ``lossless`` says whether decoding the ids of
    ``encode(x)`` gives ``x`` back for every string (byte-level BPE). The round trip leaves out the
    ``ADDED`` tokens (BOS, [CLS]) the tokenizer inserted on its own: they are not text.
    """

    name: str
    family: str
    algorithm: str
    vocab_size: int
    special_tokens: Mapping[str, int]
    lossless: bool

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        """Tokens of ``text``; with ``allow_special`` special-token strings become special tokens."""
        ...

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids``, as the library decodes it (pass the ids of the non-``ADDED`` tokens)."""
        ...
