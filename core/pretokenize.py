"""Pre-tokenization: cut text into the chunks that byte-level BPE never merges across.

A pattern is a regular expression for the ``regex`` package (``\\p{L}``, possessive quantifiers);
the named ones live in ``core.patterns``. Text the pattern does not match is kept as a chunk of its
own, so the chunks always cover the whole text and nothing is lost. Empty matches are skipped.

This module only cuts; it does not merge (``core.bpe``) and does not draw (``ui``).
"""

from __future__ import annotations

import functools

import regex


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
    compiled = compile_pattern(pattern)
    spans: list[tuple[int, int]] = []
    pos = 0
    for match in compiled.finditer(text):
        start, end = match.span()
        if start == end:
            continue
        if start > pos:
            spans.append((pos, start))
        spans.append((start, end))
        pos = end
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
    if compiled.groups == 0:  # with groups, findall gives the groups, not the matches
        found = compiled.findall(text)
        if sum(map(len, found)) == len(text):
            return found if "" not in found else [chunk for chunk in found if chunk]
    return [text[start:end] for start, end in split(text, pattern)]
