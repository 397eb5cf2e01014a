"""The first tokens of a long text's encoding, without building a ``Token`` for all of it.

A page that draws the first screenful of a 400 KB text needs its first few hundred tokens, not
~150,000 ``Token`` objects with their offsets (most of what an adapter's ``encode`` costs). Its
counts come from the library's ids alone (``PretrainedTokenizer.outline``); this module gives the
tokens to draw: ``leading_tokens`` encodes a *prefix* of the text and keeps the tokens that end at
least ``MARGIN`` characters before the cut, as far as their ids are exactly the first ids of the
whole text's encoding.

Why that is the same as encoding everything: a token's bytes and offsets depend on its id and on the
text around it (pre-tokens, normalization, grapheme clusters), never on text hundreds of characters
further on. A prefix changes the encoding only near its end, where the margin leaves it out; and
the ids check refuses anything else. Subtle: a long run the pre-tokenizer keeps whole (a line of
Chinese without punctuation, a base64 blob) can change merges far back in that run; the ids check
then stops the kept tokens at the first difference, and when too few are left the prefix grows,
up to the whole text (``None``: encode it all).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.types import ADDED, Token

MARGIN = 256  # characters before the cut whose tokens are not trusted


def leading_tokens(
    tokenizer: Any, text: str, *, ids: Sequence[int], at_least: int, chars: int, allow_special: bool = False,
) -> list[Token] | None:
    """At least ``at_least`` of the first tokens of ``tokenizer.encode(text)`` (or all of them).

    ``ids`` are the ids of the whole encoding (``Outline.ids``); ``chars`` is a first guess of how
    many characters hold ``at_least`` tokens (doubled until enough are found). ``None`` when a
    prefix would be most of the text anyway: the caller then encodes the whole text.

    >>> class Chars:
    ...     def encode(self, text, *, allow_special=False):
    ...         return [Token(ord(c), c.encode(), i, i + 1) for i, c in enumerate(text)]
    >>> text = "ab" * 5_000
    >>> head = leading_tokens(Chars(), text, ids=[ord(c) for c in text], at_least=10, chars=100)
    >>> len(head) >= 10 and head == Chars().encode(text)[: len(head)]
    True
    """
    at_least = min(at_least, len(ids))
    chars = max(chars, 1)
    while 2 * (chars + MARGIN) < len(text):
        kept = _verified(tokenizer.encode(text[: chars + MARGIN], allow_special=allow_special), chars, ids)
        if len(kept) >= at_least:
            return kept
        chars *= 2
    return None


def _verified(tokens: Sequence[Token], before: int, ids: Sequence[int]) -> list[Token]:
    """The leading ``tokens`` that end by ``before`` (an added one: that stands there), as far as
    their ids are those of the whole encoding."""
    kept: list[Token] = []
    for k, token in enumerate(tokens):
        ends = token.start if token.kind == ADDED else token.end
        if ends > before or k >= len(ids) or token.id != ids[k]:
            break
        kept.append(token)
    return kept
