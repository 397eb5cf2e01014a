"""Pre-tokenization: cut text into the chunks that byte-level BPE never merges across.

A pattern is a regular expression for the ``regex`` package (``\\p{L}``, possessive quantifiers);
the named ones live in ``core.text.patterns``. Text the pattern does not match is kept as a chunk of its
own, so the chunks always cover the whole text and nothing is lost. Empty matches are skipped.

Subtle: a user's pattern can backtrack exponentially (``(a|a)+$`` on "aaa…ab" tries 2**n cuts).
The match runs in C, where nothing can stop it (Streamlit stops a script only between Python
statements), so the session would hang for good with a CPU core busy. A pattern that is not one of
``core.text.patterns.NAMED_PATTERNS`` (possessive, linear, written for this project) therefore gets a
time budget; running out of it raises ``PatternTimeout``, a ``ValueError`` that says what to change.

This module only cuts; it does not merge (``core.bpe``) and does not draw (``ui``).
"""

from __future__ import annotations

import functools
import time
from collections import Counter

import regex

from core.text.patterns import NAMED_PATTERNS

# A user's pattern may spend this long cutting a text, plus MATCH_SECONDS_PER_MB per million
# characters: far beyond what a linear pattern needs (GPT-2's cuts 5 MB in about 3 s with a budget
# set, which makes regex check its clock), short enough that a runaway pattern ends with a message.
MATCH_SECONDS = 5.0
MATCH_SECONDS_PER_MB = 3.0
_TRUSTED = frozenset(NAMED_PATTERNS.values())


class PatternTimeout(ValueError):
    """A pattern took longer than its budget to cut a text (catastrophic backtracking, most likely)."""


def match_budget(pattern: str, text: str) -> float | None:
    """Seconds ``pattern`` may spend cutting ``text``; ``None`` (no limit) for the named patterns.

    >>> match_budget(r"(a|a)+$", "a" * 1_000_000)
    8.0
    """
    if pattern in _TRUSTED:
        return None
    return MATCH_SECONDS + MATCH_SECONDS_PER_MB * len(text) / 1_000_000


@functools.lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> regex.Pattern[str]:
    """Compile a pre-tokenization pattern once, or raise ``ValueError`` with a one-line reason.

    Subtle: a user's pattern may be invalid; the message names the problem and the position so the
    page can show it next to the text box.

    >>> compile_pattern(r"\\p{L}+").findall("hola mundo")
    ['hola', 'mundo']
    """
    if not isinstance(pattern, str):
        raise ValueError(f"the pattern must be a string, not {type(pattern).__name__}")
    try:
        compiled = regex.compile(pattern)
    except regex.error as exc:
        where = f" at position {exc.pos}" if exc.pos is not None else ""
        raise ValueError(f"invalid pattern: {exc.msg}{where}") from None
    if compiled.flags & regex.REVERSE:
        raise ValueError("invalid pattern: reverse matching (?r) cannot cut text from left to right")
    return compiled


def split(text: str, pattern: str) -> list[tuple[int, int]]:
    """Code-point spans ``(start, end)`` of the chunks of ``text``, in order, covering all of it.

    Subtle: text between two matches becomes its own chunk (a custom pattern may not match every
    character); an empty match is skipped, so a pattern like ``a*`` cannot loop or make empty chunks.

    >>> split("Hi there!", r"\\w+")
    [(0, 2), (2, 3), (3, 8), (8, 9)]
    """
    budget = match_budget(pattern, text)
    return _split(compile_pattern(pattern), text, budget, budget)


def _split(
    compiled: regex.Pattern[str], text: str, timeout: float | None, budget: float | None
) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    pos = 0
    try:
        for match in compiled.finditer(text, timeout=timeout):
            start, end = match.span()
            if start == end:
                continue
            if start > pos:
                spans.append((pos, start))
            spans.append((start, end))
            pos = end
    except TimeoutError:
        raise _timeout(text, budget) from None
    if pos < len(text):
        spans.append((pos, len(text)))
    return spans


def chunks(text: str, pattern: str) -> list[str]:
    """The chunk strings of ``text``; the same cut as ``split``, faster when offsets are not needed.

    Subtle: ``findall`` is about twice as fast as building spans, and when the matches add up to the
    whole text there were no gaps, so its answer is already right; otherwise fall back to ``split``.

    >>> chunks("Hello world", r" ?\\w+")
    ['Hello', ' world']
    """
    compiled = compile_pattern(pattern)
    budget = match_budget(pattern, text)
    began = time.monotonic()
    if compiled.groups == 0:  # with groups, findall gives the groups, not the matches
        try:
            found = compiled.findall(text, timeout=budget)
        except TimeoutError:
            raise _timeout(text, budget) from None
        if sum(map(len, found)) == len(text):
            return found if "" not in found else [chunk for chunk in found if chunk]
    left = None if budget is None else max(budget - (time.monotonic() - began), 0.001)
    return [text[start:end] for start, end in _split(compiled, text, left, budget)]


def _timeout(text: str, budget: float | None) -> PatternTimeout:
    return PatternTimeout(
        f"the pattern took more than {budget or 0:,.0f} s to cut {len(text):,} characters: it "
        "backtracks too much (a repeat inside a repeat, such as (a|aa)+, tries every way to cut a run); "
        "simplify it, for example with possessive quantifiers such as a++"
    )


# Training reads a word (pre-token) longer than this as pieces of this many characters. Subtle: a text
# without spaces is one pre-token; cut, no training step works on more than this many characters at
# once (Unigram's forward pass, BPE's merge of one word). It does not make a text that repeats no
# word cheap: that costs by its distinct characters (Unigram's budget, core.unigram.MAX_TRAINING_CHARS,
# and the pages' Stop button handle it). Encoding is not cut. 256 characters leave every word of real
# prose whole.
MAX_TRAINING_WORD = 256


def cut_long_words(counted: Counter[str], limit: int = MAX_TRAINING_WORD) -> Counter[str]:
    """Word counts with each word longer than ``limit`` characters cut into pieces of ``limit`` (the last
    shorter), for training; the counts of equal pieces add up. Returns ``counted`` itself when no word is
    that long.

    >>> cut_long_words(Counter({"abcde": 2, "ab": 1}), limit=2)
    Counter({'ab': 3, 'cd': 2, 'e': 2})
    """
    if limit < 1:
        raise ValueError("limit must be at least 1 character")
    if all(len(word) <= limit for word in counted):
        return counted
    out: Counter[str] = Counter()
    for word, count in counted.items():
        for start in range(0, len(word), limit):
            out[word[start : start + limit]] += count
    return out


def long_word_note(limit: int = MAX_TRAINING_WORD) -> str:
    """What the training pages say about the cut."""
    return f"Words longer than {limit:,} characters are cut into pieces of {limit:,} for training (not for encoding)."
