"""The textbook recipe's tokenizer: the pattern's pre-tokens, each cut by Viterbi over the pieces.

Pre-tokens come from ``TEXTBOOK_PATTERN`` with Python's ``re`` (not the ``regex`` package the rest
of the playground uses), as the textbook runs it. Text the pattern matches nowhere (an underscore:
it is neither a letter, a digit nor ``[^\\s\\w]``) gets no token, as in the textbook, so the tokenizer
is not lossless. A character training never saw has no piece: it becomes ``<unk>`` (id 0, no bytes),
scored far below every piece, so only characters nothing else covers take it.

Viterbi's tie rule, the textbook's: on equal scores the earlier split point wins (the longer last
piece), so the same text always gets the same cut.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from core.text.textio import without_surrogates
from core.types import TEXT, UNKNOWN, Token

UNK = "<unk>"
# The textbook chapter's pre-tokenization pattern (GPT-2's, written for Python's re: [^\W\d_] for a
# letter, \d for a digit, [^\s\w] for the rest), compiled with re as the chapter runs it.
TEXTBOOK_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d+| ?[^\s\w]+|\s+(?!\S)|\s+"""
TEXTBOOK_RE = re.compile(TEXTBOOK_PATTERN)
UNK_PENALTY = 10.0  # <unk> scores this far below the rarest piece
_CACHE_WORDS = 200_000


def pretokens(text: str) -> list[str]:
    """The pre-tokens of ``text`` under the textbook's pattern.

    >>> pretokens("Don't stop, 2 cats!\\n")
    ['Don', "'t", ' stop', ',', ' 2', ' cats', '!', '\\n']
    """
    return TEXTBOOK_RE.findall(text)


class TextbookUnigramTokenizer:
    """Pieces with log-probabilities, cut by Viterbi per pre-token; id 0 is ``<unk>``.

    Satisfies ``core.types.Tokenizer``; offsets are code points of the text as given (lone surrogates
    read as U+FFFD).

    >>> tok = TextbookUnigramTokenizer(pieces=[("a", -2.0), ("b", -2.0), ("ab", -3.0), (" ", -1.0)])
    >>> [(tok.piece(t.id), t.start, t.end) for t in tok.encode("ab ab")]
    [('ab', 0, 2), (' ', 2, 3), ('ab', 3, 5)]
    """

    family = "trained here"
    algorithm = "Unigram"
    lossless = False
    special_tokens: Mapping[str, int] = MappingProxyType({})
    pattern = TEXTBOOK_PATTERN

    def __init__(self, *, pieces: Sequence[tuple[str, float]], max_piece_len: int = 10, name: str | None = None) -> None:
        if not pieces:
            raise ValueError("a Unigram tokenizer needs at least one piece")
        self.vocab: tuple[str, ...] = (UNK, *(piece for piece, _ in pieces))
        self._ids = {piece: i for i, piece in enumerate(self.vocab[1:], start=1)}
        if len(self._ids) != len(pieces) or any(not piece for piece, _ in pieces):
            raise ValueError("pieces must be distinct, non-empty strings")
        scores = [float(score) for _, score in pieces]
        self.scores: tuple[float, ...] = (min(scores) - UNK_PENALTY, *scores)
        self.vocab_size = len(self.vocab)
        self.max_piece_len = max(max_piece_len, max(len(piece) for piece, _ in pieces))
        self.name = name or f"Unigram, textbook recipe ({len(pieces):,} pieces)"
        self._cache: dict[str, tuple[tuple[int, int, int], ...]] = {}

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_cache": {}}

    def __repr__(self) -> str:
        return f"TextbookUnigramTokenizer(name={self.name!r}, vocab_size={self.vocab_size})"

    def piece(self, token_id: int) -> str:
        """The piece of ``token_id`` (``<unk>`` for 0)."""
        return self.vocab[token_id]

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        """The Viterbi tokens of each pre-token of ``text``; there are no special tokens to allow."""
        tokens: list[Token] = []
        for match in TEXTBOOK_RE.finditer(without_surrogates(text)):
            word, offset = match.group(), match.start()
            for start, end, piece in self.best(word):
                if piece == 0:
                    tokens.append(Token(0, b"", offset + start, offset + end, UNKNOWN))
                else:
                    tokens.append(Token(piece, word[start:end].encode(), offset + start, offset + end, TEXT))
        return tokens

    def encode_ids(self, text: str) -> list[int]:
        """Only the ids: the fast path for counting."""
        return [piece for word in pretokens(without_surrogates(text)) for _, _, piece in self.best(word)]

    def decode(self, ids: Sequence[int]) -> str:
        """The pieces joined; ``<unk>`` is ``⁇``.

        >>> TextbookUnigramTokenizer(pieces=[("a", -1.0), (" b", -1.0)]).decode([1, 2, 0])
        'a b⁇'
        """
        for i in ids:
            if not 0 <= i < self.vocab_size:
                raise ValueError(f"token id {i} is not in this vocabulary (0 to {self.vocab_size - 1})")
        return "".join("\u2047" if i == 0 else self.vocab[i] for i in ids)

    def best(self, word: str) -> tuple[tuple[int, int, int], ...]:
        """The Viterbi path of one pre-token: ``(start, end, id)`` steps, left to right."""
        path = self._cache.get(word)
        if path is None:
            if len(self._cache) > _CACHE_WORDS:
                self._cache.clear()
            path = self._cache[word] = viterbi(word, self._ids, self.scores, self.max_piece_len)
        return path

    def log_prob(self, word: str) -> float:
        """The best path's log-probability of one pre-token."""
        return sum(self.scores[piece] for _, _, piece in self.best(word))


def viterbi(
    word: str, ids: Mapping[str, int], scores: Sequence[float], max_len: int
) -> tuple[tuple[int, int, int], ...]:
    """The most probable cut of ``word``; on equal scores the earlier split point wins.

    >>> viterbi("ab", {"a": 1, "b": 2, "ab": 3}, [-99.0, -1.0, -1.0, -2.0], 10)  # a+b ties ab: ab wins
    ((0, 2, 3),)
    """
    n = len(word)
    best = [0.0] + [-math.inf] * n
    back = [0] * (n + 1)
    piece_at = [0] * (n + 1)
    for end in range(1, n + 1):
        for start in range(max(0, end - max_len), end):  # earliest start first: a tie keeps it
            piece = ids.get(word[start:end])
            if piece is not None and best[start] + scores[piece] > best[end]:
                best[end], back[end], piece_at[end] = best[start] + scores[piece], start, piece
        if best[end] == -math.inf:  # an unseen character: <unk> over it alone
            best[end], back[end], piece_at[end] = best[end - 1] + scores[0], end - 1, 0
    path = []
    end = n
    while end > 0:
        path.append((back[end], end, piece_at[end]))
        end = back[end]
    return tuple(reversed(path))
