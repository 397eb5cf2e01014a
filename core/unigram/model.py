"""The Unigram tokenizer: pieces with log-probabilities; a text's tokens are the most probable
segmentation of each word (Viterbi), and the lattice, the n best and random samples are there to look at.

Unknown characters: a character that was never seen in training has no piece, so it becomes the
``<unk>`` token (id 0, kind ``UNKNOWN``, no bytes: its text is lost), with SentencePiece's score (the
lowest piece score minus 10); neighbouring unknown characters share one ``<unk>``, as in SentencePiece.
That is why ``lossless`` is ``False``, and why whitespace runs (see ``core.unigram.words``) are too.

Subtle: the string "<unk>" written in a word is a piece like any other (id 0, that score), because
the ``tokenizers`` library reads the exported ``tokenizer.json`` that way (its Unigram matches every
vocabulary string, the unknown one included) and the export must give our ids; SentencePiece's own
encoder never matches its unknown piece. Special tokens there are none.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from core.text.textio import without_surrogates
from core.types import TEXT, UNKNOWN, Token
from core.unigram import search
from core.unigram.words import METASPACE, Word, word_strings, words

UNK = "<unk>"
UNK_PENALTY = 10.0  # SentencePiece's kUnkPenalty: <unk> scores this far below the rarest piece
_CACHE_WORDS = 200_000
MAX_NBEST = 100


@dataclass(frozen=True, slots=True)
class LatticeEdge:
    """One piece that fits a word: symbols ``start`` to ``end`` are ``piece`` (``<unk>`` for an
    unknown character), whose log-probability is ``log_prob``."""

    start: int
    end: int
    id: int
    piece: str
    log_prob: float


@dataclass(frozen=True, slots=True)
class WordLattice:
    """Every piece that fits a word, and which of them the Viterbi path takes.

    ``symbols`` is what the lattice runs over (``▁hello`` for "hello" by default); ``best`` are
    indices into ``edges``, left to right; ``log_prob`` is the best path's score.
    """

    symbols: str
    edges: tuple[LatticeEdge, ...]
    best: tuple[int, ...]
    log_prob: float


@dataclass(frozen=True, slots=True)
class Segmentation:
    """One way to cut a text into pieces, and its log-probability (the sum of its pieces')."""

    tokens: tuple[Token, ...]
    log_prob: float


class UnigramTokenizer:
    """Pieces and their log-probabilities; id 0 is ``<unk>``. Satisfies ``core.types.Tokenizer``.

    ``pattern`` is ``None`` for SentencePiece's ``▁`` words, else the pre-tokenization pattern (see
    ``core.unigram.words``). Tokens carry what pieces mean (``▁the`` is ``b" the"``) and code-point
    offsets into the text as given; lone surrogates are read as U+FFFD.

    >>> tok = UnigramTokenizer(pieces=[("▁", -2.0), ("a", -2.0), ("b", -2.0), ("▁ab", -1.0)])
    >>> [(t.bytes, t.start, t.end) for t in tok.encode("ab ba")]
    [(b'ab', 0, 2), (b' ', 2, 3), (b'b', 3, 4), (b'a', 4, 5)]
    """

    family = "trained here"
    algorithm = "Unigram"
    lossless = False
    special_tokens: Mapping[str, int] = MappingProxyType({})  # "<unk>" in a word is a piece, not a switch

    def __init__(
        self,
        *,
        pieces: Sequence[tuple[str, float]],
        pattern: str | None = None,
        max_piece_len: int | None = None,
        name: str | None = None,
    ) -> None:
        if not pieces:
            raise ValueError("a Unigram tokenizer needs at least one piece")
        self.pattern = pattern
        self.vocab: tuple[str, ...] = (UNK, *(piece for piece, _ in pieces))
        ids = {piece: i for i, piece in enumerate(self.vocab[1:], start=1)}
        if len(ids) != len(pieces) or any(not piece for piece, _ in pieces):
            raise ValueError("pieces must be distinct, non-empty strings")
        scores = [float(score) for _, score in pieces]
        unk_score = min(scores) - UNK_PENALTY
        self.scores: tuple[float, ...] = (unk_score, *scores)
        self.vocab_size = len(self.vocab)
        self.max_piece_len = max_piece_len or max(len(piece) for piece, _ in pieces)
        self.name = name or f"Unigram ({self.vocab_size:,} pieces)"
        ids.setdefault(UNK, 0)  # a trained piece spelled "<unk>" wins, as the later id does in tokenizers
        self._ids = ids
        self._longest = max(self.max_piece_len, len(UNK))
        self._cache: dict[str, tuple[tuple[int, int, int], ...]] = {}

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_cache": {}}

    def __repr__(self) -> str:
        return f"UnigramTokenizer(name={self.name!r}, vocab_size={self.vocab_size})"

    def piece(self, token_id: int) -> str:
        """The piece of ``token_id`` as stored, ``▁`` included (``<unk>`` for 0).

        >>> UnigramTokenizer(pieces=[("▁a", -1.0)]).piece(1)
        '▁a'
        """
        return self.vocab[token_id]

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        """The Viterbi tokens of ``text``; there are no special tokens to allow."""
        tokens: list[Token] = []
        for word in words(without_surrogates(text), self.pattern):
            tokens.extend(self._tokens(word, self._best(word.symbols)))
        return tokens

    def encode_ids(self, text: str) -> list[int]:
        """Only the ids: the fast path for counting.

        >>> UnigramTokenizer(pieces=[("▁a", -1.0), ("▁", -2.0), ("b", -2.0)]).encode_ids("a b")
        [1, 2, 3]
        """
        ids: list[int] = []
        for symbols in word_strings(without_surrogates(text), self.pattern):
            ids.extend(piece for _, _, piece in self._best(symbols))
        return ids

    def decode(self, ids: Sequence[int]) -> str:
        """The pieces joined, ``▁`` read as a space and the text's leading one dropped; ``<unk>`` is ``⁇``.

        >>> UnigramTokenizer(pieces=[("▁a", -1.0), ("▁b", -1.0)]).decode([1, 2, 0])
        'a b⁇'
        """
        for i in ids:
            if not 0 <= i < self.vocab_size:
                raise ValueError(f"token id {i} is not in this vocabulary (0 to {self.vocab_size - 1})")
        text = "".join("\u2047" if i == 0 else self.vocab[i] for i in ids)
        if self.pattern is not None:
            return text
        return text.replace(METASPACE, " ").removeprefix(" ")

    def lattice(self, word: str) -> WordLattice:
        """Every piece that fits ``word`` (one word: "hello", or " world" under a pattern), with the
        Viterbi path; positions count the symbols of ``symbols`` (``▁hello``)."""
        only = self._one_word(word)
        incoming = self._incoming(only.symbols)
        edges = [
            LatticeEdge(start, end, piece, self.vocab[piece], score)
            for end in range(1, len(incoming))
            for start, piece, score in incoming[end]
        ]
        edges.sort(key=lambda e: (e.start, e.end))
        log_prob, path = search.viterbi(incoming)
        where = {(e.start, e.end, e.id): i for i, e in enumerate(edges)}
        return WordLattice(only.symbols, tuple(edges), tuple(where[step] for step in path), log_prob)

    def nbest(self, text: str, n: int) -> list[Segmentation]:
        """The ``n`` most probable segmentations of ``text``, best first, with their log-probabilities.

        Subtle: words are segmented independently, so the n best of a text are the n best sums of one
        segmentation per word, merged word by word.
        """
        if not 1 <= n <= MAX_NBEST:
            raise ValueError(f"n must be between 1 and {MAX_NBEST}, not {n}")
        found: list[tuple[float, list[Token]]] = [(0.0, [])]
        for word in words(without_surrogates(text), self.pattern):
            options = [
                (score, self._tokens(word, path)) for score, path in search.nbest(self._incoming(word.symbols), n)
            ]
            combined = ((a + b, first + second) for a, first in found for b, second in options)
            found = heapq.nlargest(n, combined, key=lambda option: option[0])
        return [Segmentation(tuple(tokens), score) for score, tokens in found]

    def sample(self, text: str, *, alpha: float = 0.1, seed: int | None = None) -> Segmentation:
        """A random segmentation of ``text`` (subword regularization): each word's with probability
        proportional to ``p(segmentation) ** alpha``. ``alpha = 0`` is uniform over segmentations;
        large values approach the Viterbi one. The same ``seed`` gives the same draw.
        """
        if not (alpha >= 0 and math.isfinite(alpha)):
            raise ValueError(f"alpha must be a finite number of 0 or more, not {alpha}")
        rng = random.Random(seed)
        tokens: list[Token] = []
        total = 0.0
        for word in words(without_surrogates(text), self.pattern):
            score, path = search.sample(self._incoming(word.symbols), alpha, rng)
            tokens.extend(self._tokens(word, path))
            total += score
        return Segmentation(tuple(tokens), total)

    # -- internals --------------------------------------------------------------------------------

    def _incoming(self, symbols: str) -> list[list[search.Edge]]:
        """Per end position, the pieces that end there; an ``<unk>`` edge over each unknown character."""
        ids, scores, longest = self._ids, self.scores, self._longest
        incoming: list[list[search.Edge]] = [[]]
        for end in range(1, len(symbols) + 1):
            edges = []
            for start in range(max(0, end - longest), end):
                piece = ids.get(symbols[start:end])
                if piece is not None:
                    edges.append((start, piece, scores[piece]))
            if not edges or edges[-1][0] != end - 1:  # no piece for the single character
                edges.append((end - 1, 0, scores[0]))
            incoming.append(edges)
        return incoming

    def _best(self, symbols: str) -> tuple[tuple[int, int, int], ...]:
        path = self._cache.get(symbols)
        if path is None:
            if len(self._cache) > _CACHE_WORDS:
                self._cache.clear()
            path = self._cache[symbols] = _join_unknown(search.viterbi(self._incoming(symbols))[1])
        return path

    def _tokens(self, word: Word, path: Sequence[tuple[int, int, int]]) -> list[Token]:
        """Tokens of one word's path; neighbouring ``<unk>`` pieces become one."""
        tokens: list[Token] = []
        for start, end, piece in _join_unknown(path):
            first, last = word.span(start, end)
            if piece == 0:
                tokens.append(Token(0, b"", first, last, UNKNOWN))
            else:
                tokens.append(Token(piece, word.meaning(start, end), first, last, TEXT))
        return tokens

    def _one_word(self, word: str) -> Word:
        found = words(without_surrogates(word), self.pattern)
        if len(found) != 1:
            raise ValueError(f"give exactly one word (no spaces between), not {len(found)}: {word!r}")
        return found[0]


def _join_unknown(path: Sequence[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    """``path`` with each run of neighbouring ``<unk>`` steps made one step, as SentencePiece does.

    >>> _join_unknown([(0, 1, 0), (1, 2, 0), (2, 3, 5)])
    ((0, 2, 0), (2, 3, 5))
    """
    out: list[tuple[int, int, int]] = []
    for step in path:
        if step[2] == 0 and out and out[-1][2] == 0:
            out[-1] = (out[-1][0], step[1], 0)
        else:
            out.append(step)
    return tuple(out)
