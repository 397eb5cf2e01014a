"""HTML for the Unicode page: normalization forms with their changes highlighted, and counts.

Pure functions of their input, tested as strings; every piece of the user's text is escaped here,
and invisible or control characters are drawn as labels (``core.text.unicode_info.visible``), so a
right-to-left override in the text cannot reorder the page around it.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import regex

from core.text.normalization import FORM_NOTES, FormView, Piece
from core.text.unicode_info import UnicodeCounts, code_point, visible


def pieces_html(pieces: Sequence[Piece]) -> str:
    """The result of ``pieces`` with changed ones highlighted; the tooltip says what they were.

    A piece that became nothing (a dropped control character) shows as a small red mark.

    >>> pieces_html([Piece("a", "a"), Piece("ﬁ", "fi")])
    '<span class="uc-text">a<mark class="uc-changed" title="ﬁ U+FB01 → fi U+0066 U+0069">fi</mark></span>'
    """
    out = ['<span class="uc-text">']
    for piece in pieces:
        if not piece.changed:
            out.append(_escape_visible(piece.result))
            continue
        title = html.escape(f"{_described(piece.original)} → {_described(piece.result)}", quote=True)
        if piece.result:
            out.append(f'<mark class="uc-changed" title="{title}">{_escape_visible(piece.result)}</mark>')
        else:
            out.append(f'<mark class="uc-dropped" title="{title}">⌫</mark>')
    out.append("</span>")
    return "".join(out)


def forms_table_html(original: str, views: Sequence[FormView], *, original_bytes: int) -> str:
    """One row per normalization form: its name and note, the text with changes highlighted, sizes.

    The first row is the text as typed. A note under the table says when only the start is drawn.
    """
    shown = views[0].shown_chars if views else len(original)
    rows = [
        "<tr><td><strong>as typed</strong></td>"
        f'<td>{pieces_html([Piece(original[:shown], original[:shown])])}</td>'
        f'<td class="uc-num">{len(original):,}</td><td class="uc-num">{original_bytes:,}</td><td></td></tr>'
    ]
    for view in views:
        changed = f"{view.changed_pieces:,} changed" if view.changed_pieces else "unchanged"
        rows.append(
            f"<tr><td><strong>{html.escape(view.form)}</strong>"
            f'<div class="uc-note">{html.escape(FORM_NOTES[view.form])}</div></td>'
            f"<td>{pieces_html(view.pieces)}</td>"
            f'<td class="uc-num">{view.code_points:,}</td><td class="uc-num">{view.utf8_bytes:,}</td>'
            f'<td class="uc-num">{changed}</td></tr>'
        )
    head = (
        '<table class="uc-forms"><thead><tr><th>form</th><th>text (changes highlighted)</th>'
        "<th>code points</th><th>UTF-8 bytes</th><th></th></tr></thead><tbody>"
    )
    note = ""
    if shown < len(original):
        note = (
            f'<div class="uc-note">Drawn: the first {shown:,} of {len(original):,} code points; '
            "the sizes cover the whole text.</div>"
        )
    return head + "".join(rows) + "</tbody></table>" + note


def counts_markdown(counts: UnicodeCounts, *, flagged: int) -> str:
    """One line of counts, as Markdown (numbers only: nothing of the user's text).

    >>> counts_markdown(UnicodeCounts(1, 2, 3, 2, 0, 1), flagged=0)
    '**1** grapheme · **2** code points · **3** UTF-8 bytes · **2** UTF-16 units'
    """
    parts = [
        _count(counts.graphemes, "grapheme"),
        _count(counts.code_points, "code point"),
        _count(counts.utf8_bytes, "UTF-8 byte"),
        _count(counts.utf16_units, "UTF-16 unit"),
    ]
    if flagged:
        parts.append(_count(flagged, "odd character"))
    return " · ".join(parts)


def _count(n: int, noun: str) -> str:
    return f"**{n:,}** {noun}{'' if n == 1 else 's'}"


def _described(text: str) -> str:
    if not text:
        return "(nothing)"
    shown = visible(text) if len(text) <= 12 else visible(text[:12]) + "…"
    points = " ".join(code_point(ch) for ch in text[:6]) + (" …" if len(text) > 6 else "")
    return f"{shown} {points}"


def _escape_visible(text: str) -> str:
    """Escape ``text``, drawing clusters that hold invisible characters (bidi controls, zero-width
    spaces, odd spaces; not line breaks or tabs) as labels; emoji sequences stay pictures."""
    if text.isascii() and all(ch >= " " or ch in _KEPT for ch in text):
        return html.escape(text)
    out = []
    for cluster in _GRAPHEME.findall(text):
        if all(ch in _KEPT or ch.isprintable() for ch in cluster):
            out.append(html.escape(cluster))
            continue
        shown = visible(cluster)
        out.append(html.escape(cluster) if shown == cluster else f'<span class="uc-mark">{html.escape(shown)}</span>')
    return "".join(out)


_KEPT = frozenset(" \n\t\r")
_GRAPHEME = regex.compile(r"\X")


def tokenizers_table_html(rows: Sequence[tuple[str, str, str, str]]) -> str:
    """Rows of (tokenizer name, its normalization steps, size note, HTML of the text it sees).

    Names, steps and notes are escaped here; the last cell comes from ``pieces_html``.

    >>> "&lt;x&gt;" in tokenizers_table_html([("<x>", "NFC", "", "")])
    True
    """
    body = "".join(
        f"<tr><td><strong>{html.escape(name)}</strong><div class=\"uc-note\">{html.escape(steps)}</div></td>"
        f'<td>{seen}</td><td class="uc-num">{html.escape(note)}</td></tr>'
        for name, steps, note, seen in rows
    )
    return (
        '<table class="uc-forms"><thead><tr><th>tokenizer and its normalization</th>'
        "<th>the text its model sees (changes highlighted)</th><th></th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )
