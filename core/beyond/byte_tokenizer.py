"""Bytes only: the text as a byte-level model such as ByT5 reads it, and what its length costs.

``ByteTokenizer`` is the trivial tokenizer: one token per UTF-8 byte, id ``byte + 3`` as in ByT5
(Xue et al., 2022: ids 0, 1, 2 are pad, end of sequence and unknown), so any text in any script is
covered and nothing is ever unknown. The price is length: ``SequenceCost`` puts a number on the two
parts of a transformer that grow with it, relative to another sequence:

- **attention**: every position attends to every other, so its cost grows as ``length²``;
- **output layer**: a softmax over the vocabulary at every position, ``length × vocabulary``
  (a byte model's is tiny: 259 entries instead of 50,000–200,000).

The feed-forward layers grow linearly with length too; they are left out because they do not
depend on the tokenizer's vocabulary and scale exactly as the length column does.

>>> [t.id for t in ByteTokenizer().encode("hé")]
[107, 198, 172]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from core.text.textio import without_surrogates
from core.types import TEXT, Token

BYT5_OFFSET = 3  # ByT5: 0 pad, 1 </s>, 2 <unk>, then the 256 bytes
BYT5_VOCAB = 256 + BYT5_OFFSET


class ByteTokenizer:
    """One token per UTF-8 byte (ids ``byte + 3``, as in ByT5); satisfies ``core.types.Tokenizer``.

    Subtle: the end-of-sequence token ByT5 appends is not added, so token counts compare with the
    other tokenizers' counts of the text alone.

    >>> ByteTokenizer().decode([107, 108])
    'hi'
    """

    name = "UTF-8 bytes (ByT5-style)"
    family = "byte-level models (ByT5, MambaByte, BLT's local layers)"
    algorithm = "bytes"
    vocab_size = BYT5_VOCAB
    special_tokens: Mapping[str, int] = MappingProxyType({"<pad>": 0, "</s>": 1, "<unk>": 2})
    lossless = True

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        """One ``Token`` per byte; the bytes of one character share that character's offsets."""
        data = without_surrogates(text).encode()
        owner = char_of_byte(data).tolist()
        return [
            Token(byte + BYT5_OFFSET, bytes([byte]), char, char + 1, TEXT)
            for byte, char in zip(data, owner, strict=True)
        ]

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids``; the three special ids decode to nothing."""
        for i in ids:
            if not 0 <= i < BYT5_VOCAB:
                raise ValueError(f"token id {i} is not in this vocabulary (0 to {BYT5_VOCAB - 1})")
        return bytes(i - BYT5_OFFSET for i in ids if i >= BYT5_OFFSET).decode("utf-8", errors="replace")

    def piece(self, token_id: int) -> str:
        """The byte as ``<0xNN>`` (what ByT5's vocabulary file calls it).

        >>> ByteTokenizer().piece(107)
        '<0x68>'
        """
        if token_id < BYT5_OFFSET:
            return ("<pad>", "</s>", "<unk>")[token_id]
        return f"<0x{token_id - BYT5_OFFSET:02X}>"


def char_of_byte(data: bytes) -> np.ndarray:
    """For each byte of UTF-8 ``data``, the index of the character it belongs to.

    >>> char_of_byte("aé!".encode()).tolist()
    [0, 1, 1, 2]
    """
    array = np.frombuffer(data, dtype=np.uint8)
    return np.cumsum((array & 0xC0) != 0x80) - 1


@dataclass(frozen=True)
class SequenceCost:
    """One way of cutting a text: its length in units and the vocabulary the units come from.

    >>> SequenceCost("bytes", 100, 259).relative_to(SequenceCost("BPE", 25, 50257))  # doctest: +ELLIPSIS
    (4.0, 16.0, 0.0206...)
    """

    name: str
    length: int
    vocab_size: int

    @property
    def attention(self) -> int:
        """Pairs of positions attention compares: ``length²``."""
        return self.length * self.length

    @property
    def output_layer(self) -> int:
        """Scores the output layer computes: ``length × vocabulary``."""
        return self.length * self.vocab_size

    def relative_to(self, other: SequenceCost) -> tuple[float, float, float]:
        """``(length, attention, output layer)`` of this sequence as multiples of ``other``'s."""
        if other.length == 0:
            raise ValueError(f"{other.name} has no units: nothing to compare with")
        return (
            self.length / other.length,
            self.attention / other.attention,
            self.output_layer / other.output_layer,
        )
