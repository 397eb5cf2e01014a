"""Exports for slides and scripts: token spans as SVG, PNG, JSON and CSV; charts as PNG and SVG.

The SVG is standalone (no CSS, no script): one rounded rectangle per token in the same colors as
the page (read from ``assets/spans.css``, so there is one palette), its text, and a ``<title>``
with the id, bytes and piece that a viewer shows on hover. Pills are laid out here, grapheme by
grapheme (a wide CJK character or an emoji takes more room than a Latin letter), and each text is
fitted to its pill with ``textLength``, so a font that is a little wider or narrower never makes
pills overlap. Tokens that share a character (an emoji cut into byte tokens) are one dashed box with
their bytes in hex underneath, as on the page. PNG goes through the system Chromium (the SVG
rendered headless at twice the size); charts go through plotly and kaleido, which drive the same
browser. Every piece of text in the SVG is escaped, and characters XML 1.0 forbids (C0 controls, lone
surrogates, U+FFFE, U+FFFF) are drawn as their Control Pictures (␀, ␛) or U+FFFD, so the file always parses.

Every CSV the app writes goes through ``csv_cell`` (``frame_csv`` for a DataFrame): a text cell that
starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading apostrophe, so a
spreadsheet reads it as text rather than as a formula; numbers are left as they are.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import regex

from core.types import ADDED, BYTE_FALLBACK, SPECIAL, UNKNOWN, Token
from ui import spans

CSS = Path(__file__).resolve().parent.parent / "assets" / "spans.css"
FONTS = (
    "'DejaVu Sans Mono', 'Noto Sans Mono', 'Noto Sans CJK SC', 'Noto Sans Devanagari', "
    "'Noto Naskh Arabic', 'Noto Sans', 'Noto Color Emoji', monospace"
)
FONT_PX = 18
LINE_PX = 36
PAD_PX = 4
WIDTH_PX = 960
MAX_TOKENS = 5_000  # an SVG for a slide, not for a book
PNG_TIMEOUT_S = 60
_GRAPHEME = regex.compile(r"\X")
_PALETTE = re.compile(r"\.tp-c(\d+)\s*\{\s*background:\s*(#[0-9a-fA-F]{6})")
_KIND_FILL = {SPECIAL: "#3c3f58", ADDED: "#ffffff", UNKNOWN: "#ffc9c9"}
_INVISIBLE = {"\u200d": "ZWJ", "\u200c": "ZWNJ", "\u200b": "ZWSP", "\ufeff": "BOM", "\u00ad": "SHY",
              "\u200e": "LRM", "\u200f": "RLM", "\u2060": "WJ"}
_TEXT_MARKS = str.maketrans({" ": "·", "\t": "→", "\n": "↵", "\r": "␍"})
# what XML 1.0 forbids in a document (its Char production allows tab, LF, CR, U+0020–U+D7FF,
# U+E000–U+FFFD and U+10000 up); lone surrogates cannot even be written as UTF-8
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may read as the start of a formula


def xml_text(text: str) -> str:
    """``text`` escaped for SVG/XML, with what XML 1.0 forbids drawn visibly (a C0 control as its picture).

    >>> xml_text("a\x1b<b>\ufffe")
    'a␛&lt;b&gt;�'
    """
    return html.escape(_NOT_XML.sub(_visible, text))


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    return chr(0x2400 + ord(char)) if ord(char) < 0x20 else "\ufffd"


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet reads as text, never as a formula: a text starting with = + - @ tab or CR
    gets a leading apostrophe; numbers (a negative one too) are left alone.

    >>> csv_cell("=HYPERLINK(1)"), csv_cell(-3), csv_cell("word")
    ("'=HYPERLINK(1)", -3, 'word')
    """
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def frame_csv(frame: Any) -> str:
    """A pandas DataFrame as CSV (no index, CRLF rows) with every text cell and header through ``csv_cell``."""
    safe = frame.copy()
    safe.columns = [csv_cell(str(c)) for c in safe.columns]
    for position in range(safe.shape[1]):
        column = safe.iloc[:, position]
        if column.dtype.kind not in "biufc":  # numbers (a negative one too) stay numbers
            safe.isetitem(position, column.map(csv_cell, na_action="ignore"))
    return safe.to_csv(index=False, lineterminator="\r\n")  # RFC 4180: a cell holding \r or \n is quoted


def palette() -> list[str]:
    """The pill colors of ``assets/spans.css``, by palette index."""
    found = dict((int(i), color) for i, color in _PALETTE.findall(CSS.read_text(encoding="utf-8")))
    return [found[i] for i in range(len(found))]


def token_rows(text: str, tokens: Sequence[Token], piece: Callable[[int], str] | None = None) -> list[dict]:
    """One row per token: id, bytes in hex, code-point offsets, piece, kind and the text it covers."""
    return [
        {
            "id": t.id, "bytes": t.bytes.hex(), "start": t.start, "end": t.end,
            "piece": piece(t.id) if piece else spans.printable(t.bytes), "kind": t.kind, "text": text[t.start:t.end],
        }
        for t in tokens
    ]


def tokens_json(text: str, tokens: Sequence[Token], piece: Callable[[int], str] | None = None, **meta: object) -> str:
    """The tokens as JSON: ``meta`` (tokenizer, counts) and the text, then one object per token."""
    return json.dumps({**meta, "text": text, "tokens": token_rows(text, tokens, piece)}, ensure_ascii=False, indent=1)


def tokens_csv(text: str, tokens: Sequence[Token], piece: Callable[[int], str] | None = None) -> str:
    """The tokens as CSV with a header: id, bytes (hex), start, end, piece, kind, text (through ``csv_cell``)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["id", "bytes", "start", "end", "piece", "kind", "text"])
    writer.writeheader()
    writer.writerows({name: csv_cell(value) for name, value in row.items()} for row in token_rows(text, tokens, piece))
    return out.getvalue()


def _advance(grapheme: str) -> float:
    """A grapheme's width in ems, for laying out pills (exactness comes from ``textLength``)."""
    first = grapheme[0]
    if len(grapheme) > 1 and any(ord(c) >= 0x1F000 or c == "\u200d" for c in grapheme):
        return 1.2  # an emoji sequence is one picture
    if unicodedata.east_asian_width(first) in "WF":
        return 1.2 if ord(first) >= 0x1F000 else 1.0
    if unicodedata.category(first) in ("Mn", "Me", "Cf") and len(grapheme) == 1:
        return 0.0
    return 0.6


def _width(label: str) -> float:
    return sum(_advance(g) for g in _GRAPHEME.findall(label)) * FONT_PX


class _Layout:
    """Places boxes left to right, wrapping at ``WIDTH_PX``; a box never wraps inside."""

    def __init__(self) -> None:
        self.x, self.line, self.parts, self.widest = PAD_PX, 0, [], 0.0

    def place(self, width: float) -> tuple[float, float]:
        if self.x + width > WIDTH_PX - PAD_PX and self.x > PAD_PX:
            self.newline()
        at = (self.x, PAD_PX + self.line * LINE_PX)
        self.x += width + 3
        self.widest = max(self.widest, self.x)
        return at

    def newline(self) -> None:
        self.x, self.line = PAD_PX, self.line + 1


def spans_svg(
    text: str, tokens: Sequence[Token], *, piece: Callable[[int], str] | None = None, show_whitespace: bool = True,
    title: str = "",
) -> str:
    """A standalone SVG of the token spans (at most ``MAX_TOKENS``), ready for a slide."""
    colors = palette()
    layout = _Layout()
    body: list[str] = []
    if title:
        body.append(f'<text x="{PAD_PX}" y="{FONT_PX + 2}" font-weight="700">{xml_text(title)}</text>')
        layout.line = 1
    cursor, drawn = 0, 0
    for group in spans._groups(tokens):  # the renderer's own grouping: the same boxes as on the page
        if drawn >= MAX_TOKENS:
            break
        first = group.members[0][1]
        if first.start > cursor:
            _gap(text[cursor:first.start], layout, body, show_whitespace)
        members = [t for _, t in group.members]
        label = _label(text, members, piece, show_whitespace)
        width = max(_width(label), FONT_PX * 0.6) + 2 * PAD_PX
        x, y = layout.place(width)
        body.append(_box(x, y, width, label, members, colors, piece))
        if "\n" in text[first.start:group.end]:
            layout.newline()
        cursor, drawn = max(cursor, group.end), drawn + len(members)
    if drawn < len(tokens):
        layout.newline()
        body.append(f'<text x="{PAD_PX}" y="{PAD_PX + layout.line * LINE_PX + FONT_PX}" fill="#555">'
                    f"showing {drawn:,} of {len(tokens):,} tokens</text>")
    width = int(max(layout.widest, 200) + PAD_PX)
    height = int(PAD_PX * 2 + (layout.line + 1) * LINE_PX + (14 if any(len(g.members) > 1 for g in spans._groups(tokens[:drawn])) else 0))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="{FONTS}" font-size="{FONT_PX}">'
        f'<rect width="100%" height="100%" fill="#ffffff"/>{"".join(body)}</svg>'
    )


def _label(text: str, members: list[Token], piece: Callable[[int], str] | None, show_whitespace: bool) -> str:
    token = members[0]
    if token.kind in (SPECIAL, ADDED):
        return (piece(token.id) if piece else "") or token.bytes.decode("utf-8", "replace")
    covered = text[token.start:max(t.end for t in members)]
    if covered and all(unicodedata.category(c) == "Cf" for c in covered):  # invisible: name it
        return " ".join(_INVISIBLE.get(c, f"U+{ord(c):04X}") for c in covered)
    covered = covered.translate(_TEXT_MARKS) if show_whitespace else covered.replace("\n", " ")
    return covered or "∅"


def _box(x: float, y: float, width: float, label: str, members: list[Token], colors: list[str],
         piece: Callable[[int], str] | None) -> str:
    token = members[0]
    if len(members) > 1:
        fill, stroke, dash = "#f4f4f4", "#555555", ' stroke-dasharray="4 2"'
    else:
        fill = _KIND_FILL.get(token.kind, colors[spans.token_color(token.id)])
        stroke = "#c0262d" if token.kind == UNKNOWN else "#3c3f58" if token.kind in (SPECIAL, ADDED) else "#00000038"
        dash = ' stroke-dasharray="4 2"' if token.kind in (UNKNOWN, BYTE_FALLBACK) else ""
    ink = "#ffffff" if token.kind == SPECIAL else "#1c1c1c"
    tip = "\n\n".join(_tip(t, piece) for t in members)
    text_width = max(width - 2 * PAD_PX, 1)
    parts = [
        f'<g><title>{xml_text(tip)}</title>',
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{LINE_PX - 8}" rx="5" fill="{fill}" '
        f'stroke="{stroke}"{dash}/>',
        f'<text x="{x + PAD_PX:.1f}" y="{y + FONT_PX + 3:.1f}" fill="{ink}" textLength="{text_width:.1f}" '
        f'lengthAdjust="spacingAndGlyphs">{xml_text(label)}</text>',
    ]
    if len(members) > 1:  # the count under the box; each token's bytes are in the tooltip
        parts.append(f'<text x="{x + width / 2:.1f}" y="{y + LINE_PX + 3:.1f}" font-size="11" fill="#555" '
                     f'text-anchor="middle">×{len(members)}</text>')
    return "".join(parts) + "</g>"


def _tip(token: Token, piece: Callable[[int], str] | None) -> str:
    name = piece(token.id) if piece else spans.printable(token.bytes)
    return f"id {token.id}\nbytes {spans.hex_bytes(token.bytes)}\npiece {name}\nkind {token.kind}"


def _gap(covered: str, layout: _Layout, body: list[str], show_whitespace: bool) -> None:
    label = covered.translate(_TEXT_MARKS) if show_whitespace else covered.replace("\n", " ")
    if not label.strip() and not show_whitespace:
        layout.place(_width(label))
    else:
        x, y = layout.place(_width(label))
        body.append(f'<text x="{x:.1f}" y="{y + FONT_PX + 3:.1f}" fill="#888888">{xml_text(label)}</text>')
    if "\n" in covered:
        layout.newline()


def chromium() -> str | None:
    """The system Chromium (``PLAYGROUND_CHROMIUM``, then the usual names), or None."""
    for candidate in (os.environ.get("PLAYGROUND_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        found = candidate and shutil.which(candidate)
        if found:
            return found
    return None


def svg_to_png(svg: str) -> bytes:
    """The SVG drawn by headless Chromium at twice its size, as PNG; ``ValueError`` saying why not."""
    browser = chromium()
    if browser is None:
        raise ValueError("PNG export needs Chromium (Debian: apt-get install chromium); the SVG works everywhere")
    size = re.search(r'width="(\d+)" height="(\d+)"', svg)
    width, height = (int(size.group(1)), int(size.group(2))) if size else (WIDTH_PX, 400)
    # twice the size for a sharp slide: the SVG's own size doubles, its viewBox stays
    svg = svg.replace(f'width="{width}" height="{height}"', f'width="{2 * width}" height="{2 * height}"', 1)
    width, height = 2 * width, 2 * height
    with tempfile.TemporaryDirectory(prefix="playground-png-") as folder:
        source, target = Path(folder) / "spans.svg", Path(folder) / "spans.png"
        source.write_text(svg, encoding="utf-8")
        command = [
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={folder}/profile",
            f"--window-size={width},{height}", f"--screenshot={target}", source.as_uri(),
        ]
        try:
            subprocess.run(command, capture_output=True, timeout=PNG_TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ValueError(f"Chromium could not draw the PNG ({type(exc).__name__})") from None
        if not target.is_file():
            raise ValueError("Chromium did not write the PNG")
        return target.read_bytes()


def figure_image(figure: object, fmt: str, *, width: int = 1280, height: int = 720) -> bytes:
    """A plotly figure as PNG or SVG through kaleido (which drives the system Chromium)."""
    if fmt not in ("png", "svg"):
        raise ValueError("fmt must be 'png' or 'svg'")
    for attempt in range(2):
        try:
            return figure.to_image(format=fmt, width=width, height=height, scale=2 if fmt == "png" else 1)
        except Exception as exc:  # noqa: BLE001 — kaleido raises its own errors when no browser is found
            # subtle: on a busy machine kaleido may call into its page before the page's script has
            # defined it ("ReferenceError: kaleido_scopes is not defined"); a second try finds it loaded
            if attempt == 0 and "ReferenceError" in str(exc):
                continue
            raise ValueError(f"the chart could not be drawn as {fmt.upper()} ({type(exc).__name__}: {exc})") from None
    raise AssertionError("unreachable")  # the loop returns or raises
