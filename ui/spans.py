"""The one token-span renderer: tokens drawn as colored pills over the original text, as HTML.

Every page that shows tokens (the Playground, the BPE step-by-step page, trained tokenizers) calls
``render_spans``; nothing else in the project builds span HTML. It is a pure function of the text and
its ``Token``s, so it is tested as a string and cached by the caller.

What it draws and why:

- Each pill shows ``text[start:end]`` of the *original* text, never a decoded token: a token that
  holds part of a UTF-8 character has no text of its own (decoding it alone gives "�").
- Tokens whose character spans overlap (the two or three byte tokens that make one emoji, or a
  space-plus-half-an-emoji token and the token with the other half) form one bracketed group that
  shows the characters once, a counter ("3 tokens") and each token's bytes in hex.
- The color is a hash of the token id into ``PALETTE_SIZE`` pastel classes, the same on every page
  and in every column; a pill that would get its left neighbour's color gets the ``tp-alt`` shade.
- Zero-width tokens (``ADDED``: BOS, ``[CLS]``) are badges at their position; ``SPECIAL`` tokens
  read from the text are badges over their text; byte-fallback and unknown tokens get their own style.
- Text no token covers (the spaces BERT drops) is drawn plain and muted, so the whole text shows.
- A pill never breaks inside: it does not wrap (``white-space: pre``) and a ``<wbr>`` after each
  item lets the line break between pills instead. A token longer than ``LONG_CHARS`` is one box
  that wraps inside itself (``tp-long``); a token holding a line break is drawn one box per line,
  the real line break between them, each box marked as continued (``tp-more`` / ``tp-cont``).
- Every pill carries its facts as ``data-*`` attributes (``data-id``, ``data-b`` hex bytes,
  ``data-p`` piece, ``data-x`` extra line; the kind is its class): the page's pin panel
  (``assets/pin.js``) shows them on a click or tap, where a hover tooltip cannot reach.

Colors and shapes live in ``assets/spans.css`` (class names prefixed ``tp-``).
"""

from __future__ import annotations

import codecs
import html
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass

from core.textio import without_surrogates
from core.types import ADDED, BYTE_FALLBACK, SPECIAL, UNKNOWN, Token

PALETTE_SIZE = 16
DEFAULT_LIMIT = 5000
# A token with more characters than this may be wider than a narrow column: it gets one box that
# wraps inside itself instead of overflowing the line.
LONG_CHARS = 12
_BREAK = "<wbr>"  # after each pill: the line may break between pills, never inside one

# Whitespace marks for the "show whitespace" toggle. The real newline is kept after ↵ so lines break.
WHITESPACE_MARKS = {" ": "·", "\t": "→", "\n": "↵\n", "\r": "␍", "\u00a0": "⍽", "\u3000": "□"}
# The same marks inside a tooltip, where a real newline would only confuse.
_TITLE_MARKS = str.maketrans({" ": "·", "\t": "→", "\n": "↵", "\r": "␍", "\u00a0": "⍽"})

_KIND_CLASS = {BYTE_FALLBACK: "tp-byte", UNKNOWN: "tp-unk", SPECIAL: "tp-special", ADDED: "tp-added"}
_KIND_NOTE = {
    BYTE_FALLBACK: "byte-fallback piece",
    UNKNOWN: "unknown token: the text under it is lost",
    SPECIAL: "special token",
    ADDED: "added by the tokenizer, not in the text",
}


def token_color(token_id: int) -> int:
    """The palette index of a token id: stable across runs, pages and processes.

    Subtle: Python's ``hash`` of an int is the int itself, so neighbouring ids would get neighbouring
    colors; a multiplicative (Fibonacci) hash spreads them. The top bits are the well-mixed ones.

    >>> token_color(1917) == token_color(1917)
    True
    """
    return ((token_id * 2654435761) & 0xFFFFFFFF) * PALETTE_SIZE >> 32


def hex_bytes(data: bytes) -> str:
    """Bytes as spaced upper-case hex.

    >>> hex_bytes("é".encode())
    'C3 A9'
    """
    return data.hex(" ").upper()


def printable(data: bytes) -> str:
    """A one-line printable form of a token's bytes: whitespace as marks, broken UTF-8 as ``\\xF0``.

    >>> printable(b" world\\n")
    '·world↵'
    >>> printable(b"\\xf0\\x9f")
    '\\\\xF0\\\\x9F'
    """
    return data.decode("utf-8", errors=_HEX_ESCAPE).translate(_TITLE_MARKS)


def render_ids(tokens: Sequence[Token]) -> str:
    """The token ids as a Python list literal, for a copyable code block.

    >>> render_ids([Token(15496, b"Hello", 0, 5), Token(995, b" world", 5, 11)])
    '[15496, 995]'
    """
    return "[" + ", ".join(str(token.id) for token in tokens) + "]"


def render_spans(
    text: str,
    tokens: Sequence[Token],
    *,
    show_whitespace: bool = False,
    raw_pieces: bool = False,
    piece: Callable[[int], str] | None = None,
    limit: int = DEFAULT_LIMIT,
    highlight: Collection[int] = (),
    extra_title: Callable[[Token], str] | None = None,
) -> str:
    """HTML for ``tokens`` of ``text`` as colored pills; every piece of text in it is escaped.

    ``piece(id)`` gives the raw vocabulary string ("Ġworld", "▁world", "##ing"): it is shown in the
    tooltip, and instead of the text when ``raw_pieces`` is on. ``highlight`` holds token *indices*
    (positions in ``tokens``, not ids): "the spans the k-th merge created" is a set of positions,
    and an id would light up every occurrence. ``extra_title(token)`` adds a line to the tooltip
    (a merge rank, a score). After ``limit`` tokens the drawing stops with a note saying how many
    there are in all.

    >>> render_spans("hi", [Token(6151, b"hi", 0, 2)]).count('class="tp-t ')
    1
    """
    if limit < 0:
        raise ValueError("limit must be 0 or more (the number of tokens to draw)")
    text = without_surrogates(text)  # as the tokenizers read it: one U+FFFD each, offsets kept
    marks = _Marks(show_whitespace)
    out: list[str] = ['<div class="tp-spans">']
    cursor = 0
    drawn = 0
    previous_color: int | None = None
    for group in _groups(tokens):
        if drawn >= limit:
            break
        first = group.members[0][1]
        if first.start > cursor:
            out.append(_gap(text[cursor : first.start], marks))
            out.append(_BREAK)
            previous_color = None
        if len(group.members) == 1:
            index, token = group.members[0]
            color = token_color(token.id)
            alt = color == previous_color
            out.append(
                _pill(text, token, marks=marks, alt=alt, raw=raw_pieces, piece=piece,
                      highlighted=index in highlight, extra_title=extra_title)
            )
            previous_color = None if token.start == token.end else color
        else:
            out.append(
                _group(text, group, marks=marks, raw=raw_pieces, piece=piece,
                       highlight=highlight, extra_title=extra_title)
            )
            previous_color = None
        out.append(_BREAK)
        cursor = max(cursor, group.end)
        drawn += len(group.members)
    if drawn < len(tokens):
        out.append(
            f'<div class="tp-limit">showing {drawn:,} of {len(tokens):,} tokens — '
            "counts below cover the whole text</div>"
        )
    elif cursor < len(text):
        out.append(_gap(text[cursor:], marks))
    out.append("</div>")
    return "".join(out)


def render_legend() -> str:
    """HTML explaining each span style with a small drawn example of it (what hover cannot show).

    >>> "tp-unk" in render_legend()
    True
    """
    emoji = "🙂"
    examples = [
        (render_spans("hello", [Token(15339, b"hello", 0, 5)]), "one token; the color follows its id"),
        (
            render_spans("aa", [Token(64, b"a", 0, 1), Token(64, b"a", 1, 2)]),
            "a neighbour of the same color gets a darker edge",
        ),
        (
            render_spans(emoji, [Token(9468, b"\xf0\x9f", 0, 1), Token(247, b"\x99\x82", 0, 1)]),
            "tokens that split one character, with each token's bytes",
        ),
        (render_spans("é", [Token(195, b"\xc3", 0, 1, BYTE_FALLBACK)], piece=lambda _: "<0xC3>"),
         "byte-fallback piece"),
        (render_spans("☃", [Token(100, b"", 0, 1, UNKNOWN)]), "unknown token: the text is lost"),
        (render_spans("<|endoftext|>", [Token(50256, b"<|endoftext|>", 0, 13, SPECIAL)]), "special token"),
        (render_spans("", [Token(1, b"<s>", 0, 0, ADDED)]), "added by the tokenizer, not in the text"),
        (render_spans("dropped", []), "text no token covers"),
    ]
    items = "".join(
        f'<div class="tp-legend-item">{example}<span>{html.escape(meaning)}</span></div>'
        for example, meaning in examples
    )
    return f'<div class="tp-legend">{items}</div>'


@dataclass
class _Group:
    """Consecutive tokens whose character spans overlap; ``members`` are (index, token) pairs."""

    members: list[tuple[int, Token]]
    end: int


def _groups(tokens: Sequence[Token]) -> Iterator[_Group]:
    """Split tokens into runs that share characters; a zero-width token is always alone."""
    current: _Group | None = None
    for index, token in enumerate(tokens):
        zero_width = token.start >= token.end
        if current is not None and not zero_width and token.start < current.end:
            current.members.append((index, token))
            current.end = max(current.end, token.end)
            continue
        if current is not None:
            yield current
        current = _Group([(index, token)], token.end)
        if zero_width:
            yield current
            current = None
    if current is not None:
        yield current


class _Marks:
    """Escapes a piece of text for HTML, optionally making its whitespace visible."""

    def __init__(self, show_whitespace: bool) -> None:
        self.show = show_whitespace

    def newline_mark(self) -> str:
        """The ↵ drawn at the end of a box whose line ends in the token (nothing when marks are off)."""
        return '<span class="tp-ws">↵</span>' if self.show else ""

    def __call__(self, text: str) -> str:
        if not self.show or not any(ch in WHITESPACE_MARKS for ch in text):
            # subtle: an HTML parser reads a raw carriage return as a line break; it is invisible
            # anyway, and the "\n" of a "\r\n" is the break
            return html.escape(text.replace("\r", ""), quote=True)
        parts: list[str] = []
        for ch in text:
            mark = WHITESPACE_MARKS.get(ch)
            if mark is None:
                parts.append(html.escape(ch, quote=True))
            elif ch == "\n":
                parts.append('<span class="tp-ws">↵</span>\n')
            else:
                parts.append(f'<span class="tp-ws">{mark}</span>')
        return "".join(parts)


def _facts(token: Token, piece: Callable[[int], str] | None, extra: Callable[[Token], str] | None) -> str:
    """One token's facts as attributes: a hover ``title`` (id, hex bytes and length, printable piece,
    kind, extra) and the same as ``data-*`` for the pin panel; every value escaped."""
    hexed = hex_bytes(token.bytes)
    lines = [f"id {token.id}", f"bytes {hexed or '(none)'} · {len(token.bytes)} B"]
    shown = (piece(token.id) if piece is not None else printable(token.bytes)).translate(_TITLE_MARKS)
    lines.append(f"piece {shown!s}" if shown else "piece (empty)")
    if token.kind in _KIND_NOTE:
        lines.append(_KIND_NOTE[token.kind])
    extra_line = extra(token) if extra is not None else ""
    if extra_line:
        lines.append(extra_line)
    title = html.escape("\n".join(lines), quote=True)
    out = f' title="{title}" data-id="{token.id}" data-b="{hexed}" data-p="{html.escape(shown, quote=True)}"'
    if extra_line:
        out += f' data-x="{html.escape(extra_line, quote=True)}"'
    return out


def _pill(
    text: str,
    token: Token,
    *,
    marks: _Marks,
    alt: bool,
    raw: bool,
    piece: Callable[[int], str] | None,
    highlighted: bool,
    extra_title: Callable[[Token], str] | None,
) -> str:
    """One token: a pill over its characters, or a badge for special and zero-width tokens.

    Subtle: a pill never wraps, so a token holding a line break is one box per line with the real
    line break between the boxes (in raw mode the break goes before the piece when the piece's
    word comes after it: SentencePiece's "▁return" over "\\n    return" starts the new line).
    """
    classes = ["tp-t", f"tp-c{token_color(token.id)}"]
    if token.kind in _KIND_CLASS:
        classes.append(_KIND_CLASS[token.kind])
    if alt:
        classes.append("tp-alt")
    if highlighted:
        classes.append("tp-hl")
    covered = text[token.start : token.end]
    facts = _facts(token, piece, extra_title)
    before = after = ""
    if token.kind in (SPECIAL, ADDED):
        label = html.escape(piece(token.id) if piece is not None else _literal(token), quote=True)
    elif raw and piece is not None:
        shown = piece(token.id)
        label = html.escape(shown, quote=True)
        lead = len(covered) - len(covered.lstrip())
        breaks = covered.count("\n")
        ahead = covered[:lead].count("\n") if lead < len(covered) else (breaks if shown.startswith("\u2581") else 0)
        before, after = "\n" * ahead, "\n" * (breaks - ahead)
        classes.append("tp-raw")
    elif token.start >= token.end:
        # A zero-width text token (SentencePiece's inserted "▁"): show what it stands for; one that
        # stands for no text (character BPE's bare "</w>") shows its piece.
        shown = printable(token.bytes) or (piece(token.id) if piece is not None else "")
        label = html.escape(shown, quote=True) or "∅"
        classes.append("tp-zw")
    elif "\n" in covered:
        return _lines(covered, classes, facts, marks)
    else:
        label = marks(covered)
        if len(covered) > LONG_CHARS:
            classes.append("tp-long")
    return f'{before}<span class="{" ".join(classes)}"{facts} tabindex="-1">{label}</span>{after}'


def _lines(covered: str, classes: list[str], facts: str, marks: _Marks) -> str:
    """A token holding line breaks: one box per line, the line breaks between them (outside)."""
    lines = covered.split("\n")
    ends_with_break = len(lines) > 1 and not lines[-1]
    if ends_with_break:
        lines.pop()  # no empty box at the start of the next line
    boxes = []
    for i, line in enumerate(lines):
        last = i == len(lines) - 1
        shape = (" tp-cont" if i else "") + ("" if last else " tp-more")
        label = marks(line) + (marks.newline_mark() if not last or ends_with_break else "")
        boxes.append(f'<span class="{" ".join(classes)}{shape}"{facts} tabindex="-1">{label}</span>')
    return "\n".join(boxes) + ("\n" if ends_with_break else "")


def _group(
    text: str,
    group: _Group,
    *,
    marks: _Marks,
    raw: bool,
    piece: Callable[[int], str] | None,
    highlight: Collection[int],
    extra_title: Callable[[Token], str] | None,
) -> str:
    """Tokens that share characters: the characters once, a counter, and each token's bytes."""
    start = group.members[0][1].start
    covered = text[start : group.end]
    classes = ["tp-group"]
    if any(token.kind == BYTE_FALLBACK for _, token in group.members):
        classes.append("tp-byte")
    if any(index in highlight for index, _ in group.members):
        classes.append("tp-hl")
    chips = []
    for _, token in group.members:
        shown = piece(token.id) if raw and piece is not None else hex_bytes(token.bytes)
        chips.append(
            f'<span class="tp-gb tp-c{token_color(token.id)}"{_facts(token, piece, extra_title)}>'
            f"{html.escape(shown, quote=True)}</span>"
        )
    count = len(group.members)
    name = _CLUSTER_NAMES.get(covered)
    label = f"{count} tokens" + (f" · {name}" if name else "")
    title = html.escape(f"{count} tokens share {printable(covered.encode())!s}" + (f" ({name})" if name else ""),
                        quote=True)
    return (
        f'<span class="{" ".join(classes)}" title="{title}" data-n="{count}" tabindex="-1">'
        f'<span class="tp-gtext">{marks(covered)}</span>'
        f'<span class="tp-gcount">{html.escape(label)}</span>'
        f'<span class="tp-gchips">{"".join(chips)}</span>'
        "</span>"
    )


# Invisible characters that a tokenizer may split into a group of their own: name them, or the
# group shows "2 tokens E2 80 8D" over nothing.
_CLUSTER_NAMES = {
    "\u200d": "zero-width joiner", "\u200c": "zero-width non-joiner", "\u200b": "zero-width space",
    "\u2060": "word joiner", "\ufeff": "byte order mark", "\u00ad": "soft hyphen",
    "\u200e": "left-to-right mark", "\u200f": "right-to-left mark", "\u034f": "combining grapheme joiner",
    "\ufe0f": "emoji presentation selector", "\ufe0e": "text presentation selector",
}


def _gap(covered: str, marks: _Marks) -> str:
    """Text no token covers: plain and muted, so the whole input still shows."""
    return f'<span class="tp-gap" title="not covered by any token">{marks(covered)}</span>'


def _literal(token: Token) -> str:
    """The literal text of a special or added token (whole, so decoding it alone is safe)."""
    return token.bytes.decode("utf-8", errors="replace") or f"<{token.id}>"


def _hex_escape(error: UnicodeError) -> tuple[str, int]:
    r"""Decode error handler: each undecodable byte as ``\xF0``, upper-case to match the hex view."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(f"\\x{byte:02X}" for byte in bad), error.end


_HEX_ESCAPE = "tokenizer-playground-hex"
codecs.register_error(_HEX_ESCAPE, _hex_escape)
