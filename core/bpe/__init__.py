"""Byte-pair encoding trained here, and the replay of real tokenizers' merges.

- ``model``: ``train`` and the ``BPETokenizer`` it returns (the names below re-export it).
- ``pair_counts``: the incremental pair counts training runs on (the hot loop).
- ``history``: per-text merge histories behind ``segment`` and the scrubber.
- ``replay``: a real byte-level tokenizer's merges, replayed on the user's text.
- ``export``: ``tokenizer.json``, ``.tiktoken`` and JSON saving of a trained model.

What it does not hold: the real tokenizers whose merges it replays (``core.pretrained`` loads them),
the pre-tokenization patterns (``core.text.patterns``) or any drawing (``ui.bpe``).

>>> from core.bpe import train
>>> [step.count for step in train("aaabdaaabac", num_merges=2).trace]
[4, 2]
"""

from __future__ import annotations

from core.bpe.model import (
    END_OF_WORD,
    END_OF_WORDS,
    MODES,
    TIE_BREAKS,
    TIE_MATCHES,
    UNK,
    UNSEEN_CHARACTER,
    BPEResult,
    BPETokenizer,
    EndOfWord,
    MergeStep,
    Mode,
    default_name,
    piece_label,
    train,
)
from core.bpe.pair_counts import TieBreak

__all__ = [
    "END_OF_WORD", "END_OF_WORDS", "MODES", "TIE_BREAKS", "TIE_MATCHES", "UNK", "UNSEEN_CHARACTER", "BPEResult", "BPETokenizer",
    "EndOfWord", "MergeStep", "Mode", "TieBreak", "default_name", "piece_label", "train",
]
