"""What a text is made of below the tokens: grapheme clusters, code points, UTF-8 bytes, and odd characters.

- Grapheme clusters (what a reader calls one character: "é" written as e + ◌́, a family emoji) come
  from the ``regex`` package's ``\\X``; names and categories from Python's ``unicodedata``. The two
  follow different Unicode versions (``UNICODE_VERSION``, ``regex_unicode_version()``): a character
  newer than Python's tables has no name here, and the page says so instead of inventing one.
- ``char_rows`` describes one page of graphemes at a time, so a megabyte of text is never turned
  into a million rows; ``counts`` is exact for the whole text.
- ``flagged_chars`` lists the characters a reader cannot see or can mistake for others: format
  characters (zero-width space and joiner, soft hyphen), bidi controls (right-to-left mark, override),
  unusual spaces, control characters, lone surrogates, and letters of another script that look
  like Latin ones (Cyrillic а against Latin a), from Unicode's confusables data (TR39).

Lone surrogates (U+D800–U+DFFF on their own) are not characters and have no UTF-8 form: they are
listed with no bytes and counted as U+FFFD, which is what every tokenizer here reads instead.

What this module does not do: normalize (``core.normalization``) or draw (``ui.unicode``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import regex

from core.textio import without_surrogates

UNICODE_VERSION = unicodedata.unidata_version  # the tables behind names and categories

# Severities of a flag: a warning is what a reader should know about, info is explanation only.
WARN = "warn"
INFO = "info"

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
_BIDI_CONTROLS = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
# Not format characters, yet drawn as nothing (or as a blank) by most fonts.
_BLANK_LOOKING = frozenset([0x034F, 0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0])
_EMOJI_STYLE = frozenset([0xFE0E, 0xFE0F])

_GRAPHEME = regex.compile(r"\X")
_PICTOGRAPHIC = regex.compile(r"\p{Extended_Pictographic}")
_EMOJI_ZWJ = regex.compile(r"(?<=\p{Extended_Pictographic}[\p{Emoji_Modifier}\N{VARIATION SELECTOR-16}]*)\u200d(?=\p{Extended_Pictographic})")


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
    if _PICTOGRAPHIC.search(grapheme) and not any(ord(c) in _BIDI_CONTROLS for c in grapheme):
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
    if category in ("Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp") or cp in _BLANK_LOOKING:
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


@dataclass(frozen=True)
class CharRow:
    """One grapheme cluster of the text, as a row of the characters table."""

    index: int  # which grapheme, from 0
    start: int  # its first code point's offset
    text: str
    shown: str  # ``visible(text)``
    code_points: str  # "U+0065 U+0301"
    names: str  # "LATIN SMALL LETTER E + COMBINING ACUTE ACCENT"
    utf8_hex: str  # "65 CC 81"; "—" for a lone surrogate
    utf8_bytes: int
    flags: str  # short notes, "" for an ordinary character


def char_rows(
    text: str, starts: Sequence[int], first: int, count: int, *, confusable: frozenset[str] = frozenset()
) -> list[CharRow]:
    """Rows for graphemes ``first`` … ``first + count - 1`` (clipped to the text).

    ``confusable`` holds the characters ``flagged_chars`` found confusable in this text (that
    depends on the whole text, so the caller passes it in).

    >>> [r.code_points for r in char_rows("ñe\\u0301", grapheme_starts("ñe\\u0301"), 0, 5)]
    ['U+00F1', 'U+0065 U+0301']
    """
    if first < 0 or count < 0:
        raise ValueError("first and count must be 0 or more")
    rows = []
    for index in range(first, min(first + count, len(starts))):
        start = starts[index]
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        grapheme = text[start:end]
        encoded = [utf8(ch) for ch in grapheme]
        data = b"".join(b if b is not None else "\ufffd".encode() for b in encoded)
        hex_parts = [b.hex(" ").upper() if b is not None else "—" for b in encoded]
        in_emoji = bool(_PICTOGRAPHIC.search(grapheme))
        notes = dict.fromkeys(
            note for ch in grapheme for note in _row_notes(ch, in_emoji=in_emoji, confusable=confusable)
        )
        rows.append(
            CharRow(
                index, start, grapheme, visible(grapheme),
                " ".join(code_point(ch) for ch in grapheme),
                " + ".join(char_name(ch) for ch in grapheme),
                " | ".join(hex_parts), len(data), "; ".join(notes),
            )
        )
    return rows


@dataclass(frozen=True)
class Flag:
    """Why one character deserves a second look."""

    kind: str  # "invisible", "bidi", "space", "control", "surrogate", "confusable", ...
    severity: str  # WARN or INFO
    note: str


def char_flags(ch: str) -> tuple[Flag, ...]:
    """The flags one character gets on its own (confusables need the text around it: ``flagged_chars``).

    >>> [f.kind for f in char_flags("\\u200b")], char_flags("a")
    (['invisible'], ())
    """
    cp = ord(ch)
    if cp < 0x80 and (ch in "\t\n\r" or 0x20 <= cp < 0x7F):
        return ()
    category = unicodedata.category(ch)
    flags: list[Flag] = []
    if cp in _BIDI_CONTROLS:
        flags.append(Flag("bidi", WARN, "bidi control: invisible, and changes the order the text is drawn in"))
    elif cp in _EMOJI_STYLE:
        flags.append(Flag("variation", INFO, "variation selector: asks for text or emoji style"))
    elif cp == 0x200D:
        flags.append(Flag("invisible", WARN, "zero-width joiner: invisible; joins emoji into one picture"))
    elif category == "Cf" or cp in _BLANK_LOOKING or 0xFE00 <= cp <= 0xFE0D or 0xE0100 <= cp <= 0xE01EF:
        flags.append(Flag("invisible", WARN, f"invisible: {char_name(ch).lower()}"))
    elif category == "Cc":
        flags.append(Flag("control", WARN, "control character: not text; many tokenizers drop it"))
    elif category in ("Zs", "Zl", "Zp"):
        flags.append(Flag("space", WARN, f"not the ordinary space: {char_name(ch).lower()}"))
    elif category == "Cs":
        flags.append(Flag("surrogate", WARN, "lone surrogate: not a character, no UTF-8 form; read as U+FFFD"))
    elif category == "Co":
        flags.append(Flag("private", INFO, "private use: means whatever a font decides"))
    elif category == "Cn":
        flags.append(Flag("unassigned", INFO, f"unassigned in Unicode {UNICODE_VERSION} (or newer than it)"))
    elif cp == 0xFFFD:
        flags.append(Flag("replacement", WARN, "replacement character: something upstream failed to decode bytes"))
    return tuple(flags)


def _row_notes(ch: str, *, in_emoji: bool, confusable: frozenset[str]) -> list[str]:
    notes = []
    for flag in char_flags(ch):
        if flag.kind == "invisible" and ch == "\u200d" and in_emoji:
            notes.append("ZWJ joins the emoji")
        else:
            notes.append(flag.note.split(":")[0])
    if ch in confusable:
        notes.append(f"looks like Latin {_latin_lookalike(ch)!r}")
    return notes


@dataclass(frozen=True)
class FlaggedChar:
    """One distinct odd character of a text, with how often and where it first occurs."""

    char: str
    code_point: str
    name: str
    kind: str
    severity: str
    note: str
    count: int
    first: int  # code-point offset of the first occurrence


def flagged_chars(text: str, *, limit: int = 200) -> list[FlaggedChar]:
    """Each distinct flagged character of ``text`` (warnings first, then by first occurrence).

    Zero-width joiners inside emoji sequences are what they are for: they count as information,
    and only joiners outside an emoji are a warning. A letter of another script that looks like a
    Latin letter is flagged when it sits in a word with Latin letters, or when most letters of the
    text are Latin (a Russian text is not flagged letter by letter).

    >>> [(f.kind, f.char) for f in flagged_chars("pаypal")]
    [('confusable', 'а')]
    """
    distinct = set(text)
    found: list[FlaggedChar] = []
    for ch in sorted(distinct, key=text.find):
        for flag in char_flags(ch):
            if ch == "\u200d":
                found.extend(_zwj_flags(text))
                continue
            found.append(FlaggedChar(ch, code_point(ch), char_name(ch), flag.kind, flag.severity, flag.note,
                                     text.count(ch), text.find(ch)))
    for ch in sorted(confusable_chars(text), key=text.find):
        note = f"looks like Latin {_latin_lookalike(ch)!r} but is {char_name(ch).lower()}"
        found.append(FlaggedChar(ch, code_point(ch), char_name(ch), "confusable", WARN, note,
                                 text.count(ch), text.find(ch)))
    found.sort(key=lambda f: (f.severity != WARN, f.first))
    return found[:limit]


def _zwj_flags(text: str) -> list[FlaggedChar]:
    positions = [m.start() for m in re.finditer("\u200d", text)]
    joining = {m.start() for m in _EMOJI_ZWJ.finditer(text)}
    outside = [p for p in positions if p not in joining]
    name = char_name("\u200d")
    out = []
    if outside:
        out.append(FlaggedChar("\u200d", "U+200D", name, "invisible", WARN,
                               "zero-width joiner outside an emoji: invisible, changes nothing a reader sees",
                               len(outside), outside[0]))
    if joining:
        out.append(FlaggedChar("\u200d", "U+200D", name, "emoji", INFO,
                               "zero-width joiner inside an emoji: glues its parts into one picture",
                               len(joining), min(joining)))
    return out


def confusable_chars(text: str) -> frozenset[str]:
    """Letters of ``text`` from another script that Unicode lists as confusable with a Latin letter,
    where they can deceive: inside a word that has Latin letters, or in a mostly Latin text.

    >>> sorted(confusable_chars("раypal and paypal"))
    ['а', 'р']
    >>> confusable_chars("привет мир")
    frozenset()
    """
    candidates = {ch for ch in set(text) if not ch.isascii() and ch.isalpha() and _latin_lookalike(ch)}
    if not candidates:
        return frozenset()
    latin = len(regex.findall(r"\p{Latin}", text))
    letters = len(regex.findall(r"\p{L}", text))
    if latin * 2 > letters:
        return frozenset(candidates)
    in_mixed: set[str] = set()
    klass = "".join(regex.escape(ch) for ch in candidates)
    for word in regex.finditer(rf"\p{{L}}*[{klass}]\p{{L}}*", text):
        if regex.search(r"\p{Latin}", word.group()):
            in_mixed.update(ch for ch in word.group() if ch in candidates)
    return frozenset(in_mixed)


@functools.lru_cache(maxsize=4096)
def _latin_lookalike(ch: str) -> str:
    """The Latin letter(s) Unicode's confusables data says ``ch`` looks like, or "" (Latin itself: "")."""
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(ch, preferred_aliases=["latin"], greedy=True) or []
    for entry in found:
        if entry["alias"] in ("LATIN", "COMMON", "INHERITED"):
            continue
        for glyph in entry["homoglyphs"]:
            if glyph["c"].isascii() and glyph["c"].isalpha():
                return glyph["c"]
    return ""


def _noncharacter(cp: int) -> bool:
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE
