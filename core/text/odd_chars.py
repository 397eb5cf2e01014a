"""Characters a reader cannot see or can mistake for others, flagged with why.

Format characters (zero-width space and joiner, soft hyphen), bidi controls (right-to-left mark,
override), unusual spaces, control characters, lone surrogates, and letters of another script that
look like Latin ones (Cyrillic а against Latin a), from Unicode's confusables data (TR39) as the
``confusable-homoglyphs`` package ships it. Distinct characters are examined once, so a megabyte
of text costs one ``set`` and a few ``count`` calls.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

import regex

from core.text.unicode_info import BIDI_CONTROLS, BLANK_LOOKING, UNICODE_VERSION, char_name, code_point

# Severities of a flag: a warning is what a reader should know about, info is explanation only.
WARN = "warn"
INFO = "info"

_EMOJI_STYLE = frozenset([0xFE0E, 0xFE0F])
_EMOJI_ZWJ = regex.compile(r"(?<=\p{Extended_Pictographic}[\p{Emoji_Modifier}\N{VARIATION SELECTOR-16}]*)\u200d(?=\p{Extended_Pictographic})")


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
    if cp in BIDI_CONTROLS:
        flags.append(Flag("bidi", WARN, "bidi control: invisible, and changes the order the text is drawn in"))
    elif cp in _EMOJI_STYLE:
        flags.append(Flag("variation", INFO, "variation selector: asks for text or emoji style"))
    elif cp == 0x200D:
        flags.append(Flag("invisible", WARN, "zero-width joiner: invisible; joins emoji into one picture"))
    elif category == "Cf" or cp in BLANK_LOOKING or 0xFE00 <= cp <= 0xFE0D or 0xE0100 <= cp <= 0xE01EF:
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


def row_notes(ch: str, *, in_emoji: bool, confusable: frozenset[str]) -> list[str]:
    """Short notes on one character for a table row (a joiner inside an emoji is not a warning)."""
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
