"""How the Unigram engine cuts text into words, where each word's symbols sit in the text, and
which substrings a piece may be.

Two pre-tokenizations:

- ``pattern=None`` (the default, SentencePiece's): a word is a run of characters that are neither
  whitespace nor ``▁`` (U+2581), and the whitespace before it becomes a ``▁`` glued to its front, so
  "the cat" is ``▁the ▁cat`` and pieces never cross a word border. The ``▁`` of the text's first word
  stands for no character (SentencePiece's "dummy prefix"); the ``▁`` of a later word stands for the
  one whitespace character right before it, so a run of whitespace keeps only its last character
  (SentencePiece's ``remove_extra_whitespaces``) and a line break reads as a space.
- ``pattern=<regex>``: the words are the chunks of ``core.text.pretokenize.split`` (GPT-2's pattern gives
  ``Hello``, `` world``, ``!``), taken literally: spaces are ordinary symbols, nothing is dropped.

What this module does not do: learn (``core.unigram.trainer``) or segment (``core.unigram.model``).
"""

from __future__ import annotations

import functools
import unicodedata
from collections import Counter
from typing import NamedTuple

import regex

from core.text.pretokenize import chunks, split

METASPACE = "\u2581"  # SentencePiece's visible space, "▁"
# Python's str.split() whitespace is regex's \s plus the four separators \x1c-\x1f; training splits
# with str.split() (fast), encoding with this pattern (offsets): both cut at the same places.
_WORDS = regex.compile(r"[^\s\x1c-\x1f\u2581]+")
ANY = -1  # a symbol that fits with every script: whitespace and ▁
COMMON = 0  # punctuation, digits, symbols: Unicode's "Common" script
INHERITED = -2  # combining marks take the script of the character before them
_HAN_WORDS = ("CJK", "HIRAGANA", "KATAKANA", "IDEOGRAPHIC")  # SentencePiece merges Kana into Han
_NOT_SCRIPTS = {"FULLWIDTH", "HALFWIDTH", "MODIFIER", "SMALL", "CAPITAL", "LETTER", "SIGN"}
_SCRIPT_IDS: dict[str, int] = {}


class Word(NamedTuple):
    """One pre-token: its symbols, and where they come from in the text.

    Symbol ``i >= shift`` is the text's character ``start + i - shift``. With ``shift == 1`` symbol 0
    is the ``▁``: it stands for the whitespace character at ``lead``, or for nothing when ``lead`` is
    ``None`` (the text's first word). ``shift`` is 0 under a pattern.

    >>> words("hi  there")[1]
    Word(symbols='▁there', start=4, shift=1, lead=3)
    """

    symbols: str
    start: int
    shift: int
    lead: int | None

    def span(self, a: int, b: int) -> tuple[int, int]:
        """Code-point offsets in the text of symbols ``a`` to ``b`` (end excluded).

        Subtle: a dummy ``▁`` covers nothing, so the piece ``▁`` alone on the first word is zero-width.

        >>> words("a b")[1].span(0, 2)
        (1, 3)
        """
        shift, start = self.shift, self.start
        # where the ▁ stands: its whitespace character, or nowhere (zero-width) for a dummy one
        mark = (self.lead, self.lead + 1) if self.lead is not None else (start, start)
        first = start + a - shift if a >= shift else mark[0]
        last = start + b - shift if b > shift else mark[1]
        return first, last

    def meaning(self, a: int, b: int) -> bytes:
        """The bytes symbols ``a`` to ``b`` stand for: ``▁`` is a space, a dummy ``▁`` is nothing.

        >>> words("a b")[0].meaning(0, 2), words("a b")[1].meaning(0, 2)
        (b'a', b' b')
        """
        text = self.symbols[a:b]
        if not self.shift:
            return text.encode()
        if a == 0 and self.lead is None:
            text = text[1:]
        return text.replace(METASPACE, " ").encode()


def words(text: str, pattern: str | None = None) -> list[Word]:
    """The words of ``text`` in order: ``▁``-prefixed runs without whitespace, or a pattern's chunks.

    >>> [w.symbols for w in words("Hi there!")]
    ['▁Hi', '▁there!']
    >>> [w.symbols for w in words("Hi there!", r" ?\\w+|\\S")]
    ['Hi', ' there', '!']
    """
    if pattern is not None:
        return [Word(text[s:e], s, 0, None) for s, e in split(text, pattern)]
    out = []
    for match in _WORDS.finditer(text):
        s = match.start()
        out.append(Word(METASPACE + match.group(), s, 1, s - 1 if s else None))
    return out


def word_strings(text: str, pattern: str | None = None) -> list[str]:
    """Only the symbols of each word, in order: the fast path when offsets are not needed.

    >>> word_strings("a  b")
    ['▁a', '▁b']
    """
    if pattern is not None:
        return chunks(text, pattern)
    return [METASPACE + word for word in text.replace(METASPACE, " ").split()]


def word_counts(text: str, pattern: str | None = None) -> Counter[str]:
    """How often each word occurs, by its symbols: the fast path for training.

    >>> word_counts("a b a")
    Counter({'▁a': 2, '▁b': 1})
    """
    if pattern is not None:
        return Counter(chunks(text, pattern))
    counted = Counter(text.replace(METASPACE, " ").split())
    return Counter({METASPACE + word: count for word, count in counted.items()})


@functools.lru_cache(maxsize=65536)
def script(char: str) -> int:
    """A number for the writing system of ``char``, as SentencePiece's ``split_by_unicode_script`` uses it.

    ``ANY`` for whitespace and ``▁``, ``COMMON`` for digits, punctuation and symbols, a number per
    script for letters (Hiragana and Katakana count as Han, as in SentencePiece), and ``-2`` for a
    combining mark, which belongs to the letter before it. Subtle: Python has no Unicode script
    property, so a letter's script is read from its name ("LATIN SMALL LETTER A" → Latin); good for
    every script with a name prefix, which is all the common ones.

    >>> script("a") == script("Z") != script("α"), script(",") == script("7") == COMMON
    (True, True)
    """
    if char == METASPACE or char.isspace():
        return ANY
    category = unicodedata.category(char)
    if category.startswith("M"):
        return INHERITED
    if not category.startswith("L"):
        return COMMON
    name = unicodedata.name(char, "")
    if any(word in name for word in _HAN_WORDS):
        name = "CJK"
    first = next((part for part in name.split() if part not in _NOT_SCRIPTS), name)
    return _SCRIPT_IDS.setdefault(first, len(_SCRIPT_IDS) + 1) if first else COMMON
