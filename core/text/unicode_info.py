"""What a text is made of below the tokens: grapheme clusters, code points, UTF-8 bytes, and odd characters.

- Grapheme clusters (what a reader calls one character: "é" written as e + ◌́, a family emoji) come
  from the ``regex`` package's ``\\X``; names and categories from Python's ``unicodedata``. The two
  follow different Unicode versions (``UNICODE_VERSION``, ``regex_unicode_version()``): a character
  newer than Python's tables has no name here, and the page says so instead of inventing one.
- ``counts`` is exact for the whole text; ``visible`` draws an invisible character as a label.
- Also here: ``core.text.odd_chars`` flags invisible, bidi, control and look-alike characters;
  ``core.text.char_table`` turns one page of clusters into table rows.

Lone surrogates (U+D800–U+DFFF on their own) are not characters and have no UTF-8 form: they are
listed with no bytes and counted as U+FFFD, which is what every tokenizer here reads instead.

What this module does not do: flag (``core.text.odd_chars``), normalize (``core.text.normalization``) or
draw (``ui.unicode``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import regex

from core.text.textio import without_surrogates

UNICODE_VERSION = unicodedata.unidata_version  # the tables behind names and categories

# Unicode's own aliases (NameAliases.txt) for the control characters people meet; the rest get the
# label Unicode recommends for a code point without a name, "<control-0007>".
_CONTROL_ALIASES = {
    0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED",
    0x0B: "LINE TABULATION", 0x0C: "FORM FEED", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE",
    0x85: "NEXT LINE",
}
# Short labels for invisible characters, used where the character itself would show nothing.
_LABELS = {
    0x00A0: "NBSP", 0x00AD: "SHY", 0x034F: "CGJ", 0x061C: "ALM", 0x180E: "MVS", 0x200B: "ZWSP",
    0x200C: "ZWNJ", 0x200D: "ZWJ", 0x200E: "LRM", 0x200F: "RLM", 0x2028: "LSEP", 0x2029: "PSEP",
    0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO", 0x202E: "RLO", 0x202F: "NNBSP",
    0x2060: "WJ", 0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI", 0xFE0E: "VS15",
    0xFE0F: "VS16", 0xFEFF: "BOM", 0x3000: "IDEOGRAPHIC SPACE", 0x3164: "HANGUL FILLER",
}
# Bidi controls: invisible, and they reorder how the text around them is drawn (U+202E, U+2066 …).
BIDI_CONTROLS = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
# Not format characters, yet drawn as nothing (or as a blank) by most fonts.
BLANK_LOOKING = frozenset([0x034F, 0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0])

_GRAPHEME = regex.compile(r"\X")
_PICTOGRAPHIC = regex.compile(r"\p{Extended_Pictographic}")


@functools.cache
def regex_unicode_version() -> str | None:
    """The Unicode version of the ``regex`` package's tables (it states it in its description), or None.

    >>> regex_unicode_version() is None or regex_unicode_version()[0].isdigit()
    True
    """
    from importlib import metadata

    try:
        description = metadata.metadata("regex").get_payload() or ""
    except metadata.PackageNotFoundError:
        return None
    found = re.search(r"supports Unicode (\d+\.\d+(?:\.\d+)?)", str(description))
    return found.group(1) if found else None


def code_point(ch: str) -> str:
    """``U+XXXX`` (at least four hex digits) for one character.

    >>> code_point("é"), code_point("🙂")
    ('U+00E9', 'U+1F642')
    """
    return f"U+{ord(ch):04X}"


def char_name(ch: str) -> str:
    """The Unicode name of one character, or the label Unicode gives a code point without one.

    >>> char_name("a"), char_name("\\n"), char_name("\\x07"), char_name("\\ud800")
    ('LATIN SMALL LETTER A', 'LINE FEED', 'BELL', '<surrogate-D800>')
    """
    name = unicodedata.name(ch, "")
    if name:
        return name
    cp = ord(ch)
    category = unicodedata.category(ch)
    if category == "Cc":
        return _CONTROL_ALIASES.get(cp, f"<control-{cp:04X}>")
    if category == "Cs":
        return f"<surrogate-{cp:04X}>"
    if category == "Co":
        return f"<private-use-{cp:04X}>"
    if _noncharacter(cp):
        return f"<noncharacter-{cp:04X}>"
    return f"<reserved-{cp:04X}>"  # unassigned in UNICODE_VERSION (it may be a newer character)


def is_emoji(grapheme: str) -> bool:
    """Whether a grapheme cluster holds a pictographic character (an emoji, with or without joiners).

    >>> is_emoji("👍🏽"), is_emoji("a")
    (True, False)
    """
    return bool(_PICTOGRAPHIC.search(grapheme))


def utf8(ch: str) -> bytes | None:
    """The UTF-8 bytes of one character; None for a lone surrogate, which has none."""
    try:
        return ch.encode()
    except UnicodeEncodeError:
        return None


def visible(grapheme: str) -> str:
    """A grapheme as something a table cell can show: invisible and control characters as labels.

    Emoji sequences are kept as they are (their joiners are drawn as one picture); a bidi control
    is always a label, so it cannot reorder the text around it.

    >>> visible("a\\u200bb"), visible("\\t"), visible("\\x07")
    ('a⟨ZWSP⟩b', '␉', '␇')
    """
    if _PICTOGRAPHIC.search(grapheme) and not any(ord(c) in BIDI_CONTROLS for c in grapheme):
        return grapheme
    shown = "".join(_visible_char(ch) for ch in grapheme)
    # a combining mark with no base before it is drawn on a dotted circle, as the code charts do
    return "◌" + shown if unicodedata.category(grapheme[:1]).startswith("M") else shown


def _visible_char(ch: str) -> str:
    cp = ord(ch)
    if cp < 0x20:
        return chr(0x2400 + cp)  # the Control Pictures block: ␀ … ␟
    if cp == 0x20:
        return "␣"
    if cp == 0x7F:
        return "␡"
    category = unicodedata.category(ch)
    if cp in _LABELS:
        return f"⟨{_LABELS[cp]}⟩"
    if category in ("Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp") or cp in BLANK_LOOKING:
        return f"⟨{code_point(ch)}⟩"
    if category == "Zs":
        return f"⟨{char_name(ch)}⟩"
    return ch


@dataclass(frozen=True)
class UnicodeCounts:
    """Sizes of one text; ``utf8_bytes`` counts each lone surrogate as U+FFFD (3 bytes)."""

    graphemes: int
    code_points: int
    utf8_bytes: int
    utf16_units: int  # what JavaScript's String.length reports
    lone_surrogates: int
    non_ascii: int


def grapheme_starts(text: str) -> list[int]:
    """The code-point offset where each grapheme cluster begins, in order.

    Subtle: in ASCII every character is a cluster except the LF of a CRLF, which joins the CR; that
    shortcut makes a megabyte of English a list comprehension instead of a million regex matches.

    >>> grapheme_starts("e\\u0301a\\r\\n👩‍💻")
    [0, 2, 3, 5]
    """
    if text.isascii():
        if "\r\n" not in text:
            return list(range(len(text)))
        return [i for i in range(len(text)) if not (text[i] == "\n" and i and text[i - 1] == "\r")]
    return [match.start() for match in _GRAPHEME.finditer(text)]


def counts(text: str, starts: Sequence[int] | None = None) -> UnicodeCounts:
    """Graphemes, code points, UTF-8 bytes and UTF-16 units of ``text`` (``starts`` if already known).

    >>> c = counts("e\\u0301👍🏽")
    >>> (c.graphemes, c.code_points, c.utf8_bytes, c.utf16_units)
    (2, 4, 11, 6)
    """
    clean = without_surrogates(text)
    surrogates = 0 if clean is text else sum(1 for a, b in zip(text, clean, strict=True) if a != b)
    return UnicodeCounts(
        graphemes=len(starts) if starts is not None else len(grapheme_starts(text)),
        code_points=len(text),
        utf8_bytes=len(clean.encode()),
        utf16_units=len(text.encode("utf-16-le", "surrogatepass")) // 2,
        lone_surrogates=surrogates,
        non_ascii=len(text) - len(text.encode("ascii", "ignore")) if not text.isascii() else 0,
    )


def _noncharacter(cp: int) -> bool:
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE
