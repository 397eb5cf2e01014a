"""Tokens spent on indentation: how much of a code snippet's token count is leading whitespace."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import regex

from core.types import ADDED, Token

_INDENT = regex.compile(r"(?m)^[ \t]+")


@dataclass(frozen=True)
class IndentCost:
    """Tokens of a snippet, and those that are only whitespace and touch a line's indentation."""

    tokens: int
    indentation_tokens: int
    indentation_chars: int

    @property
    def share(self) -> float:
        return self.indentation_tokens / self.tokens if self.tokens else 0.0


def indentation_cost(text: str, tokens: Sequence[Token]) -> IndentCost:
    """Count the whitespace-only tokens that overlap the leading whitespace of some line.

    Subtle: a token holding a line break and the indentation after it (GPT-2's "\\n   ") counts, as
    it is spent on layout; a token holding a word with its leading space does not.

    >>> toks = [Token(1, b"a", 0, 1), Token(2, b"\\n", 1, 2), Token(3, b"    ", 2, 6), Token(4, b"b", 6, 7)]
    >>> indentation_cost("a\\n    b", toks)
    IndentCost(tokens=4, indentation_tokens=1, indentation_chars=4)
    """
    indents = [match.span() for match in _INDENT.finditer(text)]
    text_tokens = [t for t in tokens if t.kind != ADDED]
    spent = 0
    for token in text_tokens:
        covered = text[token.start : token.end]
        if not covered or covered.strip():
            continue
        if any(token.start < end and token.end > start for start, end in indents):
            spent += 1
    return IndentCost(len(text_tokens), spent, sum(end - start for start, end in indents))
