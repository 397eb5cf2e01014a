"""The WordPiece tokenizer: greedy longest match from the start of each word, ``[UNK]`` for the whole word.

A word (a match of the pre-tokenization pattern, lowercased if asked) is cut from its start: the
longest vocabulary piece that begins the word, then the longest continuation piece (``##…``) that
begins the rest, and so on. When no piece matches at some position, or the word has more than
``max_chars_per_word`` characters, the whole word becomes ``[UNK]``: its text is lost, not just the
unmatched part (as in BERT and Hugging Face tokenizers).

What this module does not do: train (``core.wordpiece.training``), draw (``ui``).
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from core.text.patterns import BERT_PATTERN, WHITESPACE_WORDS_PATTERN
from core.text.pretokenize import compile_pattern, split
from core.text.textio import without_surrogates
from core.types import SPECIAL, TEXT, UNKNOWN, Token

UNK = "[UNK]"
PREFIX = "##"  # marks a continuation piece: a piece that does not start a word
MAX_CHARS_PER_WORD = 100  # BERT's and tokenizers' default
_MEMO_WORDS = 200_000  # the per-tokenizer memo of words is cleared past this many entries
# Pre-tokenizers offered for WordPiece, by the name a page shows.
PRE_TOKENIZERS: dict[str, str] = {
    "BERT: whitespace and punctuation": BERT_PATTERN,
    "Whitespace only": WHITESPACE_WORDS_PATTERN,
}
# Patterns whose matches take every character that is not whitespace: the text between two matches is
# only whitespace, so words come straight from the regex (twice as fast as core.text.pretokenize.split,
# which keeps the gaps as chunks of their own). Both are linear, so they need no time budget.
_GAPLESS = frozenset(PRE_TOKENIZERS.values())
_SEPARATORS = "\x1c\x1d\x1e\x1f"  # space to str.split, not to regex's \s
_ASCII_PUNCTUATION = string.punctuation  # each a word of its own in BERT_PATTERN (its ASCII ranges)


class Attempt(NamedTuple):
    """One look-up of greedy longest match: the candidate ``word[start:end]`` and whether it is a piece."""

    start: int
    end: int
    candidate: str  # as looked up: with ``##`` when ``start > 0``
    found: bool


class WordMatch(NamedTuple):
    """How one word was cut: every look-up in order, the pieces, and why it became ``[UNK]`` if it did.

    ``word`` is the word as matched (lowercased when the tokenizer lowercases); ``pieces`` are
    labels (``##`` on continuations), ``("[UNK]",)`` when ``unknown`` gives the reason.
    """

    word: str
    attempts: tuple[Attempt, ...]
    pieces: tuple[str, ...]
    unknown: str | None


class WordPieceTokenizer:
    """A WordPiece vocabulary and the rules to apply it; satisfies ``core.types.Tokenizer``.

    ``pieces`` are labels in BERT's ``vocab.txt`` convention (``##`` marks a continuation) and must
    hold ``[UNK]``. Subtle: with a whitespace pattern a word may itself start with ``##``, so the
    trainer passes ``continuation`` explicitly (``pieces[i]`` is then ``"##" + text`` exactly when
    ``continuation[i]``) and lookups keep the two kinds apart. Tokens carry the piece's text
    (lowercased if the tokenizer lowercases) as bytes and code-point offsets into the text as given;
    ``[UNK]`` has ``b""`` and covers the whole word. Lone surrogates read as U+FFFD.

    >>> tok = WordPieceTokenizer(pieces=["[UNK]", "un", "##able", "##a"])
    >>> [(t.id, t.bytes, t.start, t.end) for t in tok.encode("unable, unx")]
    [(1, b'un', 0, 2), (2, b'able', 2, 6), (0, b'', 6, 7), (0, b'', 8, 11)]
    """

    family = "trained here"
    algorithm = "WordPiece"
    lossless = False

    def __init__(
        self,
        *,
        pieces: Sequence[str],
        continuation: Sequence[bool] | None = None,
        pattern: str = BERT_PATTERN,
        lowercase: bool = False,
        max_chars_per_word: int = MAX_CHARS_PER_WORD,
        name: str | None = None,
    ) -> None:
        if max_chars_per_word < 1:
            raise ValueError("max_chars_per_word must be at least 1")
        compile_pattern(pattern)  # fail early on a bad pattern
        labels = tuple(pieces)
        if continuation is None:
            continuation = [label.startswith(PREFIX) for label in labels]
        flags = tuple(bool(f) for f in continuation)
        if len(flags) != len(labels):
            raise ValueError("continuation needs one flag per piece")
        if UNK not in labels:
            raise ValueError(f"the vocabulary must hold {UNK}, the token of words it cannot cut")
        self.unk_id = labels.index(UNK)
        texts = []
        for label, flag in zip(labels, flags, strict=True):
            if flag and not label.startswith(PREFIX):
                raise ValueError(f"continuation piece {label!r} must start with {PREFIX}")
            texts.append(label[len(PREFIX) :] if flag else label)
        self.pieces, self.continuation, self.texts = labels, flags, tuple(texts)
        numbered = list(enumerate(zip(texts, flags, strict=True)))
        self._starts = {t: i for i, (t, f) in numbered if not f and i != self.unk_id}
        self._conts = {t: i for i, (t, f) in numbered if f}
        self._longest = max(map(len, texts), default=1)
        self.pattern, self.lowercase, self.max_chars_per_word = pattern, lowercase, max_chars_per_word
        self.vocab_size = len(labels)
        self.special_tokens: Mapping[str, int] = MappingProxyType({UNK: self.unk_id})
        self.name = name or default_name(self.vocab_size, lowercase=lowercase)
        self._specs: dict[str, tuple[tuple[int, bytes, int, int, str], ...]] = {}  # chunk -> its tokens
        self._ids: dict[str, tuple[int, ...]] = {}  # chunk -> its ids

    def __reduce__(self):  # pickle the vocabulary and rules, not the memo
        rules = (self.pattern, self.lowercase, self.max_chars_per_word, self.name)
        return _rebuild, (self.pieces, self.continuation, *rules)

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        """Tokens of ``text``; with ``allow_special`` a literal ``[UNK]`` in the text is the special token.

        >>> tok = WordPieceTokenizer(pieces=["[UNK]", "a"])
        >>> [t.kind for t in tok.encode("a b [UNK]", allow_special=True)]
        ['text', 'unknown', 'special']
        """
        text = without_surrogates(text)
        if not allow_special or UNK not in text:
            return self._encode_plain(text, 0)
        tokens: list[Token] = []
        at = 0
        while True:
            found = text.find(UNK, at)
            if found < 0:
                break
            tokens += self._encode_plain(text[at:found], at)
            tokens.append(Token(self.unk_id, UNK.encode(), found, found + len(UNK), SPECIAL))
            at = found + len(UNK)
        return tokens + self._encode_plain(text[at:], at)

    def encode_ids(self, text: str) -> list[int]:
        """Only the ids of ``text``: the fast path for measuring (no offsets, no Token objects).

        >>> WordPieceTokenizer(pieces=["[UNK]", "a", "##b"]).encode_ids("ab a c")
        [1, 2, 1, 0]
        """
        ids: list[int] = []
        memo = self._ids
        if len(memo) > _MEMO_WORDS:
            memo.clear()
        for chunk in words(without_surrogates(text), self.pattern):
            found = memo.get(chunk)
            if found is None:
                found = memo[chunk] = tuple(spec[0] for spec in self._chunk_tokens(chunk))
            ids.extend(found)
        return ids

    def decode(self, ids: Sequence[int]) -> str:
        """The words of ``ids`` joined by single spaces, continuation pieces glued on (``[UNK]`` as is).

        >>> WordPieceTokenizer(pieces=["[UNK]", "un", "##able", "x"]).decode([1, 2, 3, 0])
        'unable x [UNK]'
        """
        parts: list[str] = []
        for i in ids:
            if not 0 <= i < self.vocab_size:
                raise ValueError(f"token id {i} is not in this vocabulary (0 to {self.vocab_size - 1})")
            if self.continuation[i] and parts:
                parts.append(self.texts[i])
            else:
                parts += [" ", self.texts[i]] if parts else [self.texts[i]]
        return "".join(parts)

    def label(self, token_id: int) -> str:
        """The piece as the vocabulary spells it: ``##ing`` for a continuation, ``[UNK]``."""
        return self.pieces[token_id]

    def match_steps(self, word: str) -> WordMatch:
        """Greedy longest match on one word, look-up by look-up, as a teacher would do it by hand.

        Each position tries the rest of the word first, then one character shorter, and so on, until
        a piece matches (the encoder skips candidates longer than the longest piece; same result).

        >>> tok = WordPieceTokenizer(pieces=["[UNK]", "u", "un", "##a", "##able"])
        >>> steps = tok.match_steps("unable")
        >>> [a.candidate for a in steps.attempts if a.found], steps.pieces
        (['un', '##able'], ('un', '##able'))
        """
        word, _ = self._normalize(without_surrogates(word))
        if not word:
            raise ValueError("give a word: the text is empty")
        if len(word) > self.max_chars_per_word:
            reason = f"{len(word):,} characters, more than max_chars_per_word ({self.max_chars_per_word:,})"
            return WordMatch(word, (), (UNK,), reason)
        attempts: list[Attempt] = []
        pieces: list[str] = []
        start = 0
        while start < len(word):
            table, prefix = (self._conts, PREFIX) if start else (self._starts, "")
            for end in range(len(word), start, -1):
                found = word[start:end] in table
                attempts.append(Attempt(start, end, prefix + word[start:end], found))
                if found:
                    pieces.append(prefix + word[start:end])
                    start = end
                    break
            else:
                what = "begins the word" if not start else f"continues it at character {start + 1}"
                reason = f"no piece {what} ({prefix + word[start]!r} is not in the vocabulary)"
                return WordMatch(word, tuple(attempts), (UNK,), reason)
        return WordMatch(word, tuple(attempts), tuple(pieces), None)

    # -- internals --------------------------------------------------------------------------------

    def _encode_plain(self, text: str, offset: int) -> list[Token]:
        tokens: list[Token] = []
        memo = self._specs
        if len(memo) > _MEMO_WORDS:
            memo.clear()
        for start, _, chunk in word_spans(text, self.pattern):
            specs = memo.get(chunk)
            if specs is None:
                specs = memo[chunk] = self._chunk_tokens(chunk)
            base = offset + start
            tokens += [Token(i, data, base + a, base + b, kind) for i, data, a, b, kind in specs]
        return tokens

    def _chunk_tokens(self, chunk: str) -> tuple[tuple[int, bytes, int, int, str], ...]:
        """The tokens of one word as ``(id, bytes, start, end, kind)``, offsets within the chunk."""
        word, owners = self._normalize(chunk)
        cut = self._cut(word)
        if cut is None:
            return ((self.unk_id, b"", 0, len(chunk), UNKNOWN),)
        texts = self.texts
        if owners is None:
            return tuple((i, texts[i].encode(), a, b, TEXT) for i, a, b in cut)
        return tuple((i, texts[i].encode(), owners[a], owners[b - 1] + 1, TEXT) for i, a, b in cut)

    def _normalize(self, chunk: str) -> tuple[str, list[int] | None]:
        """The word as matched, and for each of its characters the chunk character it came from
        (``None`` when they are the same, one for one).

        Subtle: lowercasing can lengthen a word ("İ" becomes "i" plus a combining dot); then each
        character is lowercased on its own so every lowered character knows its source. Otherwise the
        whole word is lowercased at once, which also gets the Greek final sigma right.
        """
        if not self.lowercase:
            return chunk, None
        lowered = chunk.lower()
        if len(lowered) == len(chunk):
            return lowered, None
        owners: list[int] = []
        parts = []
        for i, ch in enumerate(chunk):
            low = ch.lower()
            parts.append(low)
            owners += [i] * len(low)
        return "".join(parts), owners

    def _cut(self, word: str) -> tuple[tuple[int, int, int], ...] | None:
        """``(id, start, end)`` per piece of ``word`` by greedy longest match, or ``None`` for ``[UNK]``."""
        n = len(word)
        if n > self.max_chars_per_word:
            return None
        out = []
        start, table, longest = 0, self._starts, self._longest
        while start < n:
            for end in range(min(n, start + longest), start, -1):
                found = table.get(word[start:end])
                if found is not None:
                    out.append((found, start, end))
                    start = end
                    break
            else:
                return None
            table = self._conts
        return tuple(out)


def word_spans(text: str, pattern: str) -> list[tuple[int, int, str]]:
    """The words of ``text``: ``(start, end, word)`` for each chunk of ``pattern`` that is not only whitespace.

    Subtle: with a pattern of one's own, text the pattern does not match is a word too (as in
    ``core.text.pretokenize.split``): nothing is dropped silently except whitespace.

    >>> word_spans("Hi, you", BERT_PATTERN)
    [(0, 2, 'Hi'), (2, 3, ','), (4, 7, 'you')]
    """
    if pattern in _GAPLESS:
        return [(m.start(), m.end(), m.group()) for m in compile_pattern(pattern).finditer(text)]
    return [(start, end, text[start:end]) for start, end in split(text, pattern) if not text[start:end].isspace()]


def words(text: str, pattern: str) -> list[str]:
    """Only the words of ``word_spans``: the fast path when offsets are not needed.

    >>> words("Hi, you", BERT_PATTERN)
    ['Hi', ',', 'you']
    """
    if pattern in _GAPLESS:
        return compile_pattern(pattern).findall(text)
    return [word for _, _, word in word_spans(text, pattern)]


def count_words(text: str, pattern: str) -> Counter[str]:
    """The words of ``word_spans`` with how often each occurs, in order of first appearance.

    Subtle: with the offered patterns, ``str.split`` (in C) cuts the text first and the pattern only
    runs once per distinct chunk, twice as fast on a book; with BERT's, a chunk of letters and digits
    with ASCII punctuation around it (``"lord,"``, most of the rest) is cut by ``str.strip``, without
    the pattern. ``str.split`` also cuts at the separators U+001C to U+001F, which ``regex``'s ``\\s``
    does not count as space, so texts holding one take the slow path. Order: a word's first chunk
    comes before every later chunk, so first-seen order holds.

    >>> count_words("Hi, you, hi", BERT_PATTERN)
    Counter({',': 2, 'Hi': 1, 'you': 1, 'hi': 1})
    """
    if pattern not in _GAPLESS or any(ch in text for ch in _SEPARATORS):
        return Counter(m[2] for m in word_spans(text, pattern))
    by_space = Counter(text.split())
    if pattern == WHITESPACE_WORDS_PATTERN:
        return by_space
    findall = compile_pattern(pattern).findall
    strip = pattern == BERT_PATTERN
    counted: dict[str, int] = {}
    get = counted.get
    for chunk, n in by_space.items():
        if chunk.isalnum():  # letters and digits only: no punctuation to split off (most chunks)
            counted[chunk] = get(chunk, 0) + n
            continue
        for word in (strip and _around_punctuation(chunk)) or findall(chunk):
            counted[word] = get(word, 0) + n
    return Counter(counted)


def _around_punctuation(chunk: str) -> list[str] | None:
    """BERT's words of ``chunk`` when it is letters and digits between ASCII punctuation marks (each
    one a word), or only such marks; else None.

    >>> _around_punctuation("'tis,"), _around_punctuation("--"), _around_punctuation("don't")
    (["'", 'tis', ','], ['-', '-'], None)
    """
    core = chunk.strip(_ASCII_PUNCTUATION)
    if not core:
        return list(chunk)
    if not core.isalnum():
        return None
    head = len(chunk) - len(chunk.lstrip(_ASCII_PUNCTUATION))
    return [*chunk[:head], core, *chunk[head + len(core) :]]


def default_name(vocab_size: int, *, lowercase: bool = False) -> str:
    """A readable name for a WordPiece tokenizer trained here.

    >>> default_name(2000)
    'WordPiece trained here (2,000 tokens)'
    """
    case = ", lowercased" if lowercase else ""
    return f"WordPiece trained here ({vocab_size:,} tokens{case})"


def _rebuild(pieces, continuation, pattern, lowercase, max_chars_per_word, name) -> WordPieceTokenizer:
    return WordPieceTokenizer(
        pieces=pieces, continuation=continuation, pattern=pattern, lowercase=lowercase,
        max_chars_per_word=max_chars_per_word, name=name,
    )
