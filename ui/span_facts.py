"""How a pill's facts (id, bytes, piece) travel in the compact span markup, and how they are read back.

A pill used to carry its facts in a multi-line ``title`` (about 100 bytes a token). Now most of them
are *derived* in the browser from what the pill already shows, and only what cannot be derived is
written out. ``ui.spans`` writes the markup; ``assets/spans.js`` reads it for the hover tooltip and
the pinned panel; ``read_facts`` below is its Python twin (the tests hold the two to each other).

The protocol:

- Every token is one ``b`` element: a pill, or a chip of a group. A token that holds a line break
  is drawn one box per line; the boxes after the first (class ``tp-cont``) belong to the token before
  them. The ids of the box's tokens, in that order, are one comma-separated ``data-ids`` on the box,
  in base 36 (``id36``: about 4 bytes a token, against 14 for a decimal attribute on each pill).
- The box (``.tp-spans``) names the tokenizer's spelling in ``data-s``: ``b`` byte-level (GPT-2's
  printable stand-ins, ``Ġworld``), ``m`` metaspace (a space is ``▁``), ``t`` text (the bytes as
  UTF-8). ``render_spans`` picks the one that fits most of the tokenizer's pieces.
- The label is the element's text with the whitespace marks (``i`` elements) read back as the
  characters they stand for; outside the raw view it goes on through the line breaks and ``tp-cont``
  boxes right after the element (a token holding a line break, drawn one box per line).
- bytes: ``data-b`` (hex) when given; else, in the raw view (box class ``tp-raw``), the label
  un-spelled; in a group chip, the hex the chip shows; otherwise the label as UTF-8.
- piece: ``data-p`` when given (``data-ph``: the hex of its UTF-8, when it holds a NUL, which HTML
  cannot carry); else the label in the raw view; otherwise the bytes spelled by ``data-s``.
- ``data-x``: one more line (a merge rank, a score); the kind is the element's class
  (``tp-special``, ``tp-added``, ``tp-byte``, ``tp-unk``, ``tp-zw``).

``facts_attributes`` writes ``data-b`` / ``data-p`` only where the derivation would be wrong, so the
facts are exact for every token by construction.

>>> facts_attributes(Token(995, b" world", 0, 6), " world", how="text", spelling="b", piece="Ġworld")
''
>>> facts_attributes(Token(198, b"\\n", 0, 1), "", how="text", spelling="b", piece="Ċ")
' data-b=0A'
"""

from __future__ import annotations

import functools
import html
from dataclasses import dataclass
from html.parser import HTMLParser

from core.pretrained.adapter import BYTE_TO_UNICODE, UNICODE_TO_BYTE
from core.types import Token

SPELLINGS = ("b", "m", "t")
METASPACE = "\u2581"
# The whitespace marks of the "show whitespace" view, read back as the characters they stand for.
# "↵" stands for nothing: the real line break follows it as text.
UNMARK = {"·": " ", "→": "\t", "↵": "", "␍": "\r", "⍽": "\u00a0", "□": "\u3000"}


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@functools.lru_cache(maxsize=65536)
def id36(token_id: int) -> str:
    """A token id in base 36, as ``data-ids`` lists it (``parseInt(x, 36)`` reads it back).

    >>> id36(50256), int(id36(50256), 36)
    ('12s0', 50256)
    """
    if token_id < 0:
        return "-" + id36(-token_id)
    out = ""
    while True:
        token_id, digit = divmod(token_id, 36)
        out = _DIGITS[digit] + out
        if not token_id:
            return out


def spell(spelling: str, data: bytes) -> str | None:
    """The vocabulary piece ``data`` would have under ``spelling``; ``None`` when it has none.

    >>> spell("b", b" world"), spell("m", b" world"), spell("t", b"\\xf0")
    ('Ġworld', '▁world', None)
    """
    if spelling == "b":
        return "".join(BYTE_TO_UNICODE[b] for b in data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text.replace(" ", METASPACE) if spelling == "m" else text


def unspell(spelling: str, piece: str) -> bytes | None:
    """The bytes a piece stands for under ``spelling`` (``spell`` backwards); ``None`` when it cannot be.

    >>> unspell("b", "Ġworld"), unspell("m", "▁world")
    (b' world', b' world')
    """
    try:
        if spelling == "b":
            return bytes(UNICODE_TO_BYTE[c] for c in piece)
        return (piece.replace(METASPACE, " ") if spelling == "m" else piece).encode()
    except (KeyError, UnicodeEncodeError):
        return None


def unhex(label: str) -> bytes | None:
    """The bytes a chip's hex label shows ("F0 9F"); ``None`` when it is not hex."""
    try:
        return bytes.fromhex(label)
    except ValueError:
        return None


def parsed(text: str) -> str:
    """What an HTML parser keeps of ``text`` written (escaped) into a text node: a carriage return
    becomes a line break and a NUL is dropped."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def choose_spelling(tokens: list[Token], piece: object) -> str:
    """The spelling that matches most of the first few hundred tokens' pieces (``t`` without pieces)."""
    if piece is None:
        return "t"
    scores = dict.fromkeys(SPELLINGS, 0)
    for token in tokens[:300]:
        wanted = piece(token.id)  # type: ignore[operator]
        for name in SPELLINGS:
            scores[name] += spell(name, token.bytes) == wanted
    return max(SPELLINGS, key=lambda name: (scores[name], name == "t"))


def attribute(value: str) -> str:
    """``value`` escaped for a double-quoted attribute; a carriage return kept as a reference."""
    return html.escape(value, quote=True).replace("\r", "&#13;")


def facts_attributes(
    token: Token, label: str, *, how: str, spelling: str, piece: str, extra: str = ""
) -> str:
    """Whatever of ``data-b`` / ``data-p`` / ``data-x`` the browser cannot derive (often nothing).

    ``label`` is what the browser reads from the element (see ``read_facts``); ``how`` says how it
    reads bytes from it: ``"text"`` (UTF-8 of the label), ``"hex"`` (a chip) or ``"raw"`` (the label
    is the piece). ``piece`` is the fact to convey (the vocabulary string, or the bytes as text).
    """
    if how == "raw":
        derived_bytes, derived_piece = unspell(spelling, label), label
    else:
        derived_bytes = unhex(label) if how == "hex" else label.encode("utf-8", "replace")
        derived_piece = spell(spelling, token.bytes)
    out = ""
    if derived_bytes != token.bytes:
        out += " data-b=" + (token.bytes.hex().upper() or '""')
    if derived_piece != piece:
        if "\x00" in piece:
            out += f' data-ph="{piece.encode("utf-8", "replace").hex().upper()}"'
        else:
            out += f' data-p="{attribute(piece)}"'
    if extra:
        out += f' data-x="{attribute(extra)}"'
    return out


@dataclass(frozen=True)
class Facts:
    """One token's facts as the browser reads them from the markup."""

    id: int
    bytes: bytes
    piece: str
    extra: str
    classes: tuple[str, ...]


def read_facts(markup: str) -> list[Facts]:
    """Every token's facts from ``render_spans`` markup, read as ``assets/spans.js`` reads them.

    >>> [(f.id, f.piece) for f in read_facts('<div class="tp-spans" data-s=b data-ids=rn><b class=c1> world</b></div>')]
    [(995, 'Ġworld')]
    """
    reader = _Reader()
    reader.feed(markup)
    reader.close()
    return reader.facts


class _Reader(HTMLParser):
    """Walks the markup as the browser script does: token elements in order, labels with marks read back.

    A finished token element stays ``_pending`` while line breaks and ``tp-cont`` boxes follow it:
    they are part of its label.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.facts: list[Facts] = []
        self._spelling = "t"
        self._raw = False
        self._ids: list[int] = []
        self._tags: list[str] = []
        self._group_depth: int | None = None  # the depth of the open tp-group, if any
        self._current: dict | None = None  # the token element being read (or a tp-cont box of the pending one)
        self._pending: dict | None = None
        self._mark: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("wbr", "br"):
            return
        values = {name: value or "" for name, value in attrs}
        classes = values.get("class", "").split()
        continues = tag == "b" and "tp-cont" in classes and self._pending is not None
        if not continues and self._current is None:
            self._flush()
        if "tp-spans" in classes:
            self._spelling = values.get("data-s", "t")
            self._raw = "tp-raw" in classes
            self._ids = [int(i, 36) for i in values.get("data-ids", "").split(",") if i]
        if "tp-group" in classes:
            self._group_depth = len(self._tags)
        self._tags.append(tag)
        if tag == "i":
            self._mark = ""
        elif continues:
            self._current = self._pending
            self._pending = None
        elif tag == "b" and self._current is None:
            self._current = {"attrs": values, "label": "", "classes": tuple(classes),
                             "chip": self._group_depth is not None, "depth": len(self._tags)}

    def handle_endtag(self, tag: str) -> None:
        if tag in ("wbr", "br") or not self._tags:
            return
        depth = len(self._tags)
        self._tags.pop()
        if tag == "i" and self._mark is not None:
            self._text(UNMARK.get(self._mark, self._mark))
            self._mark = None
        elif self._current is not None and tag == "b" and depth == self._current["depth"] or (
            self._current is not None and tag == "b" and "tp-cont" in self._current["classes"]
        ):
            self._pending, self._current = self._current, None
            if self._raw:
                self._flush()
        else:
            self._flush()
        if self._group_depth is not None and depth - 1 == self._group_depth:
            self._group_depth = None

    def handle_data(self, data: str) -> None:
        data = parsed(data)  # as a browser reads a text node
        if self._mark is not None:
            self._mark += data
        elif self._current is not None:
            self._current["label"] += data
        elif self._pending is not None and data and not data.strip("\n"):
            self._pending["label"] += data
        elif data:
            self._flush()

    def close(self) -> None:
        super().close()
        self._flush()

    def _text(self, data: str) -> None:
        if self._current is not None:
            self._current["label"] += data

    def _flush(self) -> None:
        if self._pending is not None:
            self.facts.append(self._finish(self._pending))
            self._pending = None

    def _finish(self, item: dict) -> Facts:
        values, label = item["attrs"], item["label"]
        if "data-b" in values:
            data = bytes.fromhex(values["data-b"])
        elif self._raw:
            data = unspell(self._spelling, label) or b""
        elif item["chip"]:
            data = unhex(label) or b""
        else:
            data = label.encode()
        if "data-ph" in values:
            piece = bytes.fromhex(values["data-ph"]).decode()
        elif "data-p" in values:
            piece = values["data-p"]
        else:
            piece = label if self._raw else (spell(self._spelling, data) or "")
        index = len(self.facts)
        token_id = self._ids[index] if index < len(self._ids) else -1
        return Facts(token_id, data, piece, values.get("data-x", ""), item["classes"])
