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
- A pill never breaks inside: it does not wrap (``white-space: pre``) and a ``<wbr>`` between
  items lets the line break between pills instead. A token longer than ``LONG_CHARS`` is one box
  that wraps inside itself (``tp-long``); a token holding a line break is drawn one box per line,
  the real line break between them, each box marked as continued (``tp-more`` / ``tp-cont``).

The markup is compact (a 10 KB text is thousands of pills, and every byte of each is sent, sanitized
and laid out by the browser): a pill is ``<b class=c5>Hello</b>``, its color the class ``cN``; the
ids of a box's tokens are one ``data-ids`` list on the box (base 36). A token's bytes and piece are derived in the browser from what it shows, and
written out only where they cannot be (``ui.span_facts`` states the protocol); one delegated script
(``assets/spans.js``) shows them on hover and pins them on a click or tap. Whitespace marks are
``i`` elements, a group is ``span.tp-group`` (its text, then its chips in ``s``; the CSS counts
them), text no token covers is ``span.tp-gap``.

Colors and shapes live in ``assets/spans.css`` (class names prefixed ``tp-``; the pill's own short
classes are scoped under ``.tp-spans``).
"""

from __future__ import annotations

import codecs
import html
import itertools
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass

from core.text.textio import without_surrogates
from core.types import ADDED, BYTE_FALLBACK, SPECIAL, UNKNOWN, Token
from ui.span_facts import attribute, choose_spelling, facts_attributes, id36, parsed

PALETTE_SIZE = 16
DEFAULT_LIMIT = 5000
MANY_TOKENS = 300  # a box drawing more is marked data-big (assets/spans.css: content-visibility)
# A token with more characters than this may be wider than a narrow column: it gets one box that
# wraps inside itself instead of overflowing the line.
LONG_CHARS = 12
_BREAK = "<wbr>"  # between items: the line may break between pills, never inside one

# Whitespace marks for the "show whitespace" toggle. The real newline is kept after ↵ so lines break.
WHITESPACE_MARKS = {" ": "·", "\t": "→", "\n": "↵\n", "\r": "␍", "\u00a0": "⍽", "\u3000": "□"}
# The same marks inside a tooltip, where a real newline would only confuse.
_TITLE_MARKS = str.maketrans({" ": "·", "\t": "→", "\n": "↵", "\r": "␍", "\u00a0": "⍽"})

_KIND_CLASS = {BYTE_FALLBACK: "tp-byte", UNKNOWN: "tp-unk", SPECIAL: "tp-special", ADDED: "tp-added"}

# Invisible characters that a tokenizer may split into a group of their own: name them, or the
# group shows "2 tokens E2 80 8D" over nothing.
_CLUSTER_NAMES = {
    "\u200d": "zero-width joiner", "\u200c": "zero-width non-joiner", "\u200b": "zero-width space",
    "\u2060": "word joiner", "\ufeff": "byte order mark", "\u00ad": "soft hyphen",
    "\u200e": "left-to-right mark", "\u200f": "right-to-left mark", "\u034f": "combining grapheme joiner",
    "\ufe0f": "emoji presentation selector", "\ufe0e": "text presentation selector",
}


# The counter's short name for the invisible characters that sit inside emoji sequences (the full
# name stays in data-c, for the tooltip): the group is then no wider than its byte chips.
ZWJ = "\u200d"
_SHORT_NAMES = {ZWJ: "tp-zwj", "\ufe0f": "tp-vs16", "\ufe0e": "tp-vs15"}  # classes; spans.css has the names


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


def render_ids(tokens: Sequence[Token] | Sequence[int]) -> str:
    """The token ids (of tokens, or the ids themselves) as a Python list literal, for a copyable code block.

    >>> render_ids([Token(15496, b"Hello", 0, 5), Token(995, b" world", 5, 11)]), render_ids([1, 2])
    ('[15496, 995]', '[1, 2]')
    """
    ids = getattr(tokens, "ids", None)  # a PackedTokens lists its ids without building tokens
    if ids is None:
        ids = (token if isinstance(token, int) else token.id for token in tokens)
    return "[" + ", ".join(map(str, ids)) + "]"


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
    more: str | None = None,
    total: int | None = None,
) -> str:
    """HTML for ``tokens`` of ``text`` as colored pills; every piece of text in it is escaped.

    ``piece(id)`` gives the raw vocabulary string ("Ġworld", "▁world", "##ing"): it is one of the
    token's facts, and is shown instead of the text when ``raw_pieces`` is on. ``highlight`` holds
    token *indices* (positions in ``tokens``, not ids): "the spans the k-th merge created" is a set
    of positions, and an id would light up every occurrence. ``extra_title(token)`` adds a line to
    the token's facts (a merge rank, a score). After ``limit`` tokens the drawing stops with a note
    saying how many there are in all (``total``, when ``tokens`` are only the first of them);
    ``more`` names the Streamlit button that draws more (the page's script presses it when the box
    is scrolled to its end).

    >>> render_spans("hi", [Token(6151, b"hi", 0, 2)])
    '<div class="tp-spans" data-s=t data-ids=4qv><b class=c8>hi</b></div>'
    """
    if limit < 0:
        raise ValueError("limit must be 0 or more (the number of tokens to draw)")
    text = without_surrogates(text)  # as the tokenizers read it: one U+FFFD each, offsets kept
    total = len(tokens) if total is None else total
    if total < len(tokens):
        raise ValueError("total counts all the tokens: it cannot be fewer than those given")
    pieces = _Pieces(piece)
    head = list(itertools.islice(tokens, min(limit, 300)))
    style = _Style(
        marks=_Marks(show_whitespace), raw=raw_pieces and piece is not None, pieces=pieces,
        spelling=choose_spelling(head, pieces if piece is not None else None), extra=extra_title,
    )
    classes = "tp-spans tp-raw" if style.raw else "tp-spans"
    # data-box names the box across its redraws (assets/spans.js keeps its scroll position when
    # "Show more" redraws it); data-more, while there is more to draw, names the button that does
    box_attribute = f' data-box="{attribute(more)}"' if more else ""
    more_attribute = f' data-more="{attribute(more)}"' if more and limit < total else ""
    out: list[str] = []
    run = [False]  # inside a tp-nobr span: items held together by zero-width joiners

    def add(item: str, *, glued: bool = False) -> None:
        if glued and out and not run[0]:  # subtle: no <wbr> is not enough, a line breaks between inline-flex boxes
            out[-1] = f"<span class=tp-nobr>{out[-1]}"
            run[0] = True
        elif not glued and run[0]:
            out.append("</span>")
            run[0] = False
        if out and not glued and not out[-1].endswith("\n"):  # after a line break the line breaks anyway
            out.append(_BREAK)
        out.append(item)

    cursor = 0
    drawn = 0
    previous_color: int | None = None
    for group in _groups(tokens):
        if drawn >= limit:
            break
        first = group.members[0][1]
        if first.start > cursor:
            add(_gap(text[cursor : first.start], style.marks))
            previous_color = None
        glued = _joined(text, first.start)
        if len(group.members) == 1:
            index, token = group.members[0]
            color = token_color(token.id)
            add(_pill(text, token, style, alt=color == previous_color, highlighted=index in highlight), glued=glued)
            previous_color = None if token.start == token.end else color
        else:
            add(_group(text, group, style, highlight=highlight), glued=glued)
            previous_color = None
        cursor = max(cursor, group.end)
        drawn += len(group.members)
    if drawn == total and cursor < len(text):
        add(_gap(text[cursor:], style.marks))
    if run[0]:
        out.append("</span>")
    ids = ",".join(id36(token.id) for token in itertools.islice(tokens, drawn)) or '""'
    big = " data-big" if drawn > MANY_TOKENS else ""  # the browser may skip laying it out while off screen
    out.insert(0, f'<div class="{classes}"{big} data-s={style.spelling} data-ids={ids}{box_attribute}{more_attribute}>')
    if drawn < total:
        out.append(
            f"<div class=tp-limit>showing {drawn:,} of {total:,} tokens — "
            + ("scroll to the end of the box or press Show more for the rest; the " if more_attribute else "")
            + "counts below cover the whole text</div>"
        )
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
    """Escapes a piece of text for HTML, optionally making its whitespace visible.

    ``read(text)`` is what the browser reads back from that HTML (marks turned back into the
    characters they stand for): the label ``ui.span_facts`` derives a token's bytes from.
    """

    def __init__(self, show_whitespace: bool) -> None:
        self.show = show_whitespace

    def newline_mark(self) -> str:
        """The ↵ drawn at the end of a box whose line ends in the token (nothing when marks are off)."""
        return "<i>↵</i>" if self.show else ""

    def __call__(self, text: str) -> str:
        if not self.show or not any(ch in WHITESPACE_MARKS for ch in text):
            # subtle: an HTML parser reads a raw carriage return as a line break; it is invisible
            # anyway, and the "\n" of a "\r\n" is the break
            return html.escape(text.replace("\r", ""), quote=False)
        parts: list[str] = []
        for ch in text:
            mark = WHITESPACE_MARKS.get(ch)
            if mark is None:
                parts.append(html.escape(ch, quote=False))
            elif ch == "\n":
                parts.append("<i>↵</i>\n")
            else:
                parts.append(f"<i>{mark}</i>")
        return "".join(parts)

    def read(self, text: str) -> str:
        return parsed(text if self.show else text.replace("\r", ""))


class _Pieces:
    """``piece(id)`` looked up once per id per drawing (a vocabulary lookup is not free)."""

    def __init__(self, piece: Callable[[int], str] | None) -> None:
        self._piece = piece
        self.known = piece is not None  # a vocabulary to ask
        self._seen: dict[int, str] = {}

    def __call__(self, token_id: int) -> str:
        found = self._seen.get(token_id)
        if found is None:
            found = self._seen[token_id] = self._piece(token_id) if self._piece is not None else ""
        return found

    def fact(self, token: Token) -> str:
        """The piece a token's facts give: the vocabulary string, or (without one) its bytes as text."""
        if self._piece is None:
            return token.bytes.decode("utf-8", errors=_HEX_ESCAPE)
        return self(token.id)


@dataclass(frozen=True)
class _Style:
    marks: _Marks
    raw: bool
    pieces: _Pieces
    spelling: str
    extra: Callable[[Token], str] | None

    def facts(self, token: Token, label: str, how: str) -> str:
        extra = self.extra(token) if self.extra is not None else ""
        return facts_attributes(token, label, how=how, spelling=self.spelling,
                                piece=self.pieces.fact(token), extra=extra or "")


def _classes(*names: str) -> str:
    """A class attribute, unquoted when it holds one name."""
    kept = [name for name in names if name]
    return f"class={kept[0]}" if len(kept) == 1 else f'class="{" ".join(kept)}"'


def _pill(text: str, token: Token, style: _Style, *, alt: bool, highlighted: bool) -> str:
    """One token: a pill over its characters, or a badge for special and zero-width tokens.

    Subtle: a pill never wraps, so a token holding a line break is one box per line with the real
    line break between the boxes (in raw mode the break goes before the piece when the piece's
    word comes after it: SentencePiece's "▁return" over "\\n    return" starts the new line).
    """
    names = [f"c{token_color(token.id)}", _KIND_CLASS.get(token.kind, ""),
             "tp-alt" if alt else "", "tp-hl" if highlighted else ""]
    covered = text[token.start : token.end]
    before = after = ""
    if token.kind in (SPECIAL, ADDED):
        shown = style.pieces(token.id) if style.pieces.known else _literal(token)
        label, read, how = html.escape(shown, quote=False), parsed(shown), "raw" if style.raw else "text"
    elif style.raw:
        shown = style.pieces(token.id)
        label, read, how = html.escape(shown, quote=False), parsed(shown), "raw"
        lead = len(covered) - len(covered.lstrip())
        breaks = covered.count("\n")
        ahead = covered[:lead].count("\n") if lead < len(covered) else (breaks if shown.startswith("\u2581") else 0)
        before, after = "\n" * ahead, "\n" * (breaks - ahead)
    elif token.start >= token.end:
        # A zero-width text token (SentencePiece's inserted "▁"): show what it stands for; one that
        # stands for no text (character BPE's bare "</w>") shows its piece.
        shown = printable(token.bytes) or (style.pieces(token.id) if style.pieces.known else "") or "∅"
        label, read, how = html.escape(shown, quote=False), parsed(shown), "text"
        names.append("tp-zw")
    elif "\n" in covered:
        return _lines(covered, token, names, style)
    else:
        label, read, how = style.marks(covered), style.marks.read(covered), "text"
        if len(covered) > LONG_CHARS:
            names.append("tp-long")
    return f"{before}<b {_classes(*names)}{style.facts(token, read, how)}>{label}</b>{after}"


def _lines(covered: str, token: Token, names: list[str], style: _Style) -> str:
    """A token holding line breaks: one box per line, the line breaks between them (outside).

    The first box stands for the token; the boxes after it (``tp-cont``) and the line breaks
    between and after them belong to it (``ui.span_facts`` reads its label through them).
    """
    lines = covered.split("\n")
    ends_with_break = len(lines) > 1 and not lines[-1]
    if ends_with_break:
        lines.pop()  # no empty box at the start of the next line
    facts = style.facts(token, style.marks.read(covered), "text")
    boxes = []
    for i, line in enumerate(lines):
        last = i == len(lines) - 1
        shape = ["tp-cont" if i else "", "" if last else "tp-more"]
        label = style.marks(line) + (style.marks.newline_mark() if not last or ends_with_break else "")
        boxes.append(f"<b {_classes(*names, *shape)}{facts if not i else ''}>{label}</b>")
    return "\n".join(boxes) + ("\n" if ends_with_break else "")


def _group(text: str, group: _Group, style: _Style, *, highlight: Collection[int]) -> str:
    """Tokens that share characters: the characters once, a counter, and each token's bytes."""
    start = group.members[0][1].start
    covered = text[start : group.end]
    names = ["tp-group"]
    if any(token.kind == BYTE_FALLBACK for _, token in group.members):
        names.append("tp-byte")
    if any(index in highlight for index, _ in group.members):
        names.append("tp-hl")
    chips = []
    for _, token in group.members:
        shown = style.pieces(token.id) if style.raw else hex_bytes(token.bytes)
        how = "raw" if style.raw else "hex"
        chips.append(f"<b class=c{token_color(token.id)}{style.facts(token, parsed(shown), how)}>"
                     f"{html.escape(shown, quote=False)}</b>")
    name = _CLUSTER_NAMES.get(covered)
    named = f' data-c="{attribute(name)}"' if name else ""
    if covered in _SHORT_NAMES:  # the counter says "2 · ZWJ": the full name made the group wide
        names.append(_SHORT_NAMES[covered])
    return (
        f"<span {_classes(*names)}>{_group_text(style.marks(covered))}"
        f"<s{named}>{''.join(chips)}</s></span>"
    )


def _joined(text: str, start: int) -> bool:
    """Whether the item starting at ``start`` is held to the one before by a zero-width joiner (it
    starts with one, or follows one): a ZWJ sequence (a family emoji) stays on one line."""
    return 0 < start < len(text) and ZWJ in (text[start], text[start - 1])


def _group_text(label: str) -> str:
    """A group's characters: a bare text node (an anonymous flex item), or ``u`` when marks are in it."""
    return f"<u>{label}</u>" if "<" in label else label


def _gap(covered: str, marks: _Marks) -> str:
    """Text no token covers: plain and muted, so the whole input still shows."""
    return f"<span class=tp-gap>{marks(covered)}</span>"


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
