"""Counting: tokens, characters, UTF-8 bytes and words of a text, and the ratios between them.

Pure functions over a text and its tokens; the Playground's counts table and any page that compares
tokenizers read them from here so every page counts the same way.

Definitions (stated once, here):

- **tokens**: tokens that stand for the text, i.e. every token except the ones the tokenizer adds on
  its own (``ADDED``: BOS, ``[CLS]``, ``[SEP]``). Those are counted separately as ``added``, so a
  BOS never makes a text look one token more expensive without saying so.
- **characters**: Unicode code points (``len(text)``), the unit of the tokens' offsets.
- **words**: runs of word characters (Unicode letters, combining marks, digits, connector
  punctuation: the ``regex`` package's ``\\w``, which keeps Hindi's vowel signs inside the word),
  except that every Han, Hiragana and Katakana character is one word on its own, because Chinese
  and Japanese are written without spaces and a whole sentence would otherwise be "one word".
  Apostrophes inside a word (don't) and separators inside a number (3.14159, 1,000,000) do not
  split it.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import regex

from core.types import ADDED, BYTE_FALLBACK, SPECIAL, UNKNOWN, Token

# One word: a single Han/Kana character; a number with inner separators (3.14159, 1,000,000); or a
# run of other word characters with inner apostrophes (don't, l'eau). Subtle: ``\w`` includes the
# zero-width joiners, which belong inside Persian and Indic words but must not make the ZWJ between
# two emoji a word, so a word cannot start with one. VERSION1 for set subtraction (``--``).
_NO_SPACE_SCRIPTS = r"\p{Han}\p{Hiragana}\p{Katakana}"
_WORD_CHAR = rf"[\w--[{_NO_SPACE_SCRIPTS}]]"
_WORD_START = rf"[\w--[{_NO_SPACE_SCRIPTS}\p{{Join_Control}}]]"
_WORD = regex.compile(
    rf"[{_NO_SPACE_SCRIPTS}]|\d+(?:[.,]\d+)+|{_WORD_START}{_WORD_CHAR}*(?:['’]{_WORD_CHAR}+)*",
    regex.VERSION1,
)


@dataclass(frozen=True, slots=True)
class TextCounts:
    """The counts of one text under one tokenizer; ratios are ``None`` when their divisor is 0.

    ``added``, ``unknown``, ``byte_fallback`` and ``special`` are ``None`` when only a token count
    was given (no token list to look into).
    """

    tokens: int
    characters: int
    utf8_bytes: int
    words: int
    added: int | None = None
    unknown: int | None = None
    byte_fallback: int | None = None
    special: int | None = None

    @property
    def chars_per_token(self) -> float | None:
        return self.characters / self.tokens if self.tokens else None

    @property
    def bytes_per_token(self) -> float | None:
        return self.utf8_bytes / self.tokens if self.tokens else None

    @property
    def tokens_per_word(self) -> float | None:
        return self.tokens / self.words if self.words else None


def count_words(text: str) -> int:
    """Words in ``text`` by the rule in the module docstring.

    >>> count_words("Hello, world! I don't owe 1,000,000 or 3.14")
    8
    >>> count_words("नमस्ते दुनिया")
    2
    >>> count_words("你好世界")
    4
    """
    return len(_WORD.findall(text))  # the pattern has no groups: one string per word, no match objects


def text_counts(text: str, tokens: Sequence[Token] | Mapping[str, int] | int) -> TextCounts:
    """Counts of ``text`` given its tokens, how many there are of each kind (``Outline.kinds``), or
    just their number (e.g. from ``tokenizer.count``).

    Subtle: with a number the kinds are unknown, so ``added``/``unknown``/... are ``None`` and the
    number is taken as it is (the caller decides whether it includes a BOS). The sizes of the text
    are measured once for the last few texts: a page counts one text under many tokenizers.

    >>> c = text_counts("héllo", [Token(1, b"h\\xc3\\xa9", 0, 2), Token(2, b"llo", 2, 5)])
    >>> (c.tokens, c.characters, c.utf8_bytes, c.words, c.bytes_per_token)
    (2, 5, 6, 1, 3.0)
    >>> text_counts("héllo", {"text": 2}) == c
    True
    """
    characters, utf8_bytes, words = _text_sizes(text)
    if isinstance(tokens, int):
        if tokens < 0:
            raise ValueError("a token count cannot be negative")
        return TextCounts(tokens, characters, utf8_bytes, words)
    kinds = tokens if isinstance(tokens, Mapping) else Counter(token.kind for token in tokens)
    added = kinds.get(ADDED, 0)
    return TextCounts(
        tokens=sum(kinds.values()) - added,
        characters=characters,
        utf8_bytes=utf8_bytes,
        words=words,
        added=added,
        unknown=kinds.get(UNKNOWN, 0),
        byte_fallback=kinds.get(BYTE_FALLBACK, 0),
        special=kinds.get(SPECIAL, 0),
    )


@functools.lru_cache(maxsize=4)
def _text_sizes(text: str) -> tuple[int, int, int]:
    """(characters, UTF-8 bytes, words) of ``text``; memoized (Python keeps a string's hash)."""
    return len(text), len(text.encode("utf-8", errors="surrogatepass")), count_words(text)
