"""Entropy patches: cut a text's bytes where the next byte is hard to predict, as the Byte Latent Transformer does.

Given the entropy of the next byte at every position (``core.beyond.byte_ngram``), a new patch starts at
byte ``t`` when the rule fires. The two rules of the BLT paper (Pagnoni et al., 2024, section 2.3):

- ``"global"``: the entropy is above a global threshold, ``H(x_t) > θ``;
- ``"relative"``: the entropy rises by more than ``θ`` over the byte before, ``H(x_t) - H(x_{t-1}) > θ``
  (the paper's approximate monotonic constraint: a patch ends where predictability breaks).

Byte 0 always starts a patch. Both rules are monotone in ``θ``: a higher threshold keeps a subset of
the starts, so the patches only merge. With ``whole_chars`` a start that falls inside a UTF-8
character moves back to that character's first byte (the BLT cuts bytes anywhere; a cut inside a
character is drawn as the characters the two patches share). Patches come back as
``core.types.Token`` (id = patch index) so the one span renderer draws them.

>>> starts = patch_starts(np.array([5.0, 1.0, 0.5, 4.0, 0.2]), 3.0)
>>> starts.tolist()
[0, 3]
>>> [t.bytes for t in patch_tokens("hello", starts)]
[b'hel', b'lo']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.beyond.byte_tokenizer import char_of_byte
from core.text.textio import without_surrogates
from core.types import TEXT, Token

RULES: dict[str, str] = {
    "global": "global: H > θ",
    "relative": "relative: H − H₋₁ > θ",
}


@dataclass(frozen=True)
class PatchStats:
    """How a text was cut: number of patches, its bytes, and the mean and longest patch in bytes."""

    patches: int
    utf8_bytes: int
    longest: int

    @property
    def mean_bytes(self) -> float:
        return self.utf8_bytes / self.patches if self.patches else 0.0


def patch_starts(entropy: np.ndarray, threshold: float, *, rule: str = "global") -> np.ndarray:
    """Byte offsets where a patch starts: 0, and every position where ``rule`` fires at ``threshold``.

    >>> patch_starts(np.array([1.0, 3.0, 3.5, 0.5, 2.5]), 1.0, rule="relative").tolist()
    [0, 1, 4]
    """
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(RULES)}, not {rule!r}")
    entropy = np.asarray(entropy, dtype=np.float64)
    if len(entropy) == 0:
        return np.zeros(0, dtype=np.int64)
    if rule == "global":
        fires = entropy > threshold
    else:
        fires = np.zeros(len(entropy), dtype=bool)
        fires[1:] = np.diff(entropy) > threshold
    fires[0] = True
    return np.flatnonzero(fires)


def snap_to_chars(text: str, starts: np.ndarray) -> np.ndarray:
    """``starts`` with each offset inside a UTF-8 character moved back to the character's first byte.

    >>> snap_to_chars("né", np.array([0, 2])).tolist()
    [0, 1]
    """
    data = without_surrogates(text).encode()
    lead = np.flatnonzero((np.frombuffer(data, dtype=np.uint8) & 0xC0) != 0x80)  # each character's first byte
    return np.unique(lead[char_of_byte(data)[np.asarray(starts, dtype=np.int64)]])


def patch_tokens(text: str, starts: Sequence[int] | np.ndarray) -> list[Token]:
    """The patches of ``text`` cut at byte offsets ``starts`` (sorted, first 0) as ``Token``s.

    A patch's ``start``/``end`` are code-point offsets; a patch that holds part of a character gets
    that whole character's offsets, as every ``Token`` does (``core.types``).

    >>> [(t.id, t.start, t.end) for t in patch_tokens("né!", [0, 2])]
    [(0, 0, 2), (1, 1, 3)]
    """
    text = without_surrogates(text)
    data = text.encode()
    if not data:
        return []
    bounds = np.asarray(starts, dtype=np.int64)
    if len(bounds) == 0 or bounds[0] != 0:
        raise ValueError("the first patch must start at byte 0")
    owner = char_of_byte(data)
    ends = np.append(bounds[1:], len(data))
    rows = zip(bounds.tolist(), ends.tolist(), owner[bounds].tolist(), owner[ends - 1].tolist(), strict=True)
    return [Token(index, data[begin:end], first, last + 1, TEXT) for index, (begin, end, first, last) in enumerate(rows)]


def cut(
    text: str, entropy: np.ndarray, threshold: float, *, rule: str = "global", whole_chars: bool = False
) -> np.ndarray:
    """The patch starts of ``text`` for its per-byte ``entropy``: ``patch_starts``, snapped if asked.

    >>> cut("aé", np.array([0.0, 9.0, 9.0]), 5.0, whole_chars=True).tolist()
    [0, 1]
    """
    n_bytes = len(without_surrogates(text).encode())
    if len(entropy) != n_bytes:
        raise ValueError(f"entropy has {len(entropy):,} values for a text of {n_bytes:,} bytes")
    starts = patch_starts(entropy, threshold, rule=rule)
    return snap_to_chars(text, starts) if whole_chars and len(starts) else starts


def stats(starts: np.ndarray, n_bytes: int) -> PatchStats:
    """Counts of the patches that ``starts`` cut a text of ``n_bytes`` into.

    >>> stats(np.array([0, 3]), 5)
    PatchStats(patches=2, utf8_bytes=5, longest=3)
    """
    if n_bytes == 0:
        return PatchStats(0, 0, 0)
    lengths = np.diff(np.append(np.asarray(starts, dtype=np.int64), n_bytes))
    return PatchStats(len(lengths), n_bytes, int(lengths.max()))


def threshold_for_mean(entropy: np.ndarray, mean_bytes: float, *, rule: str = "global") -> float:
    """A threshold at which patches of the text average about ``mean_bytes`` bytes.

    Subtle: it is the score of the ``n / mean_bytes``-th highest position, so every position scoring
    above it starts a patch; ties can make the count land a little off.

    >>> threshold_for_mean(np.array([9.0, 1.0, 2.0, 8.0, 0.5, 7.0]), 2.0)
    2.0
    """
    if mean_bytes <= 0:
        raise ValueError("mean_bytes must be positive")
    entropy = np.asarray(entropy, dtype=np.float64)
    scores = entropy[1:] if rule == "global" else np.diff(entropy)
    wanted = int(round(len(entropy) / mean_bytes)) - 1  # starts besides byte 0
    if len(scores) == 0 or wanted <= 0:
        return float(scores.max()) if len(scores) else 0.0
    if wanted >= len(scores):
        return float(scores.min()) - 1e-9
    return float(np.sort(scores)[::-1][wanted])
