"""HTML of the Algorithms page, from pure functions that escape every piece of text they are given.

The grid of cells (one algorithm at one vocabulary size each), WordPiece's greedy longest match step
by step, and lists of segmentations (n best, samples). Token spans inside come from the one span
renderer, ``ui.spans.render_spans``; styles live in ``assets/algorithms.css`` (class names ``al-``).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from core import bpe
from core.measures.vocab_grid import Cell
from core.types import UNKNOWN, Token
from core.wordpiece import WordMatch
from ui.spans import render_spans

GRID_LIMIT = 600  # tokens drawn per cell; the counts cover the whole text
MAX_MISSES = 4  # failed look-ups shown per position of a greedy match; the rest are counted


@dataclass(frozen=True)
class CellView:
    """What one cell shows: the spans (``""`` without a tokenizer), the counts, and the notes."""

    algorithm: str
    size: int
    spans: str
    tokens: int | None
    unknown: int
    chars: int
    detail: str
    note: str


def piece_namer(tokenizer: Any) -> Callable[[int], str]:
    """How a tokenizer spells its pieces for tooltips: ``##ing``, ``▁the``, ``a</w>``, ``\\xe2``."""
    if isinstance(tokenizer, bpe.BPETokenizer):
        return lambda token_id: bpe.piece_label(tokenizer.piece(token_id))
    if hasattr(tokenizer, "label"):  # WordPiece
        return tokenizer.label
    return tokenizer.piece


def count_unknown(tokens: Sequence[Token]) -> int:
    """How many tokens are unknown (``[UNK]``, ``<unk>``): text the tokenizer lost."""
    return sum(token.kind == UNKNOWN for token in tokens)


def cell_view(cell: Cell, text: str, *, show_whitespace: bool, limit: int = GRID_LIMIT) -> CellView:
    """Encode ``text`` with the cell's tokenizer and draw its spans (at most ``limit`` tokens).

    >>> from core.measures.vocab_grid import Cell
    >>> cell_view(Cell("bpe", 300, None, note="no"), "hi", show_whitespace=False).spans
    ''
    """
    if cell.tokenizer is None:
        return CellView(cell.algorithm, cell.size, "", None, 0, len(text), cell.detail, cell.note)
    tokens = cell.tokenizer.encode(text)
    spans = render_spans(
        text, tokens, show_whitespace=show_whitespace, piece=piece_namer(cell.tokenizer), limit=limit
    )
    return CellView(
        cell.algorithm, cell.size, spans, len(tokens), count_unknown(tokens), len(text), cell.detail, cell.note
    )


@dataclass(frozen=True)
class Row:
    """One algorithm's row: its name, what kind it is ("byte-level"), its chart color, its cells."""

    label: str
    kind: str
    color: str
    cells: Sequence[CellView]


def grid_html(sizes: Sequence[int], rows: Sequence[Row]) -> str:
    """The grid: a header of vocabulary sizes, then one row per algorithm with a cell per size.

    >>> from ui.algorithms.render import Row
    >>> grid_html([300], [Row("BPE", "byte-level", "#1f4e9c", [])]).count('class="al-head"')
    1
    """
    out = [f'<div class="al-grid" style="--al-cols: {len(sizes)}">', '<div class="al-corner">vocabulary</div>']
    out += [f'<div class="al-head">{size:,}</div>' for size in sizes]
    for row in rows:
        out.append(
            f'<div class="al-rowhead" style="border-color: {html.escape(row.color, quote=True)}">'
            f'<span class="al-alg" style="color: {html.escape(row.color, quote=True)}">{html.escape(row.label)}</span>'
            f'<span class="al-kind">{html.escape(row.kind)}</span></div>'
        )
        out += [_cell_html(cell) for cell in row.cells]
    out.append("</div>")
    return "".join(out)


def _cell_html(cell: CellView) -> str:
    where = f'data-algorithm="{html.escape(cell.algorithm, quote=True)}" data-size="{cell.size}"'
    if cell.tokens is None:
        return f'<div class="al-cell al-empty" {where}><div class="al-note">{html.escape(cell.note)}</div></div>'
    plural = "" if cell.tokens == 1 else "s"
    meta = f'<span class="al-count">{cell.tokens:,} token{plural}</span>'
    if cell.tokens:  # each extra carries its own separator, so presentation mode can hide one cleanly
        meta += f'<span class="al-ratio"> · {cell.chars / cell.tokens:.2f} chars/token</span>'
    if cell.unknown:
        meta += f'<span class="al-unk"> · {cell.unknown:,} unknown</span>'
    note = f'<div class="al-note">{html.escape(cell.note)}</div>' if cell.note else ""
    return (
        f'<div class="al-cell" {where}><div class="al-meta">{meta}</div>{cell.spans}'
        f'<div class="al-detail">{html.escape(cell.detail)}</div>{note}</div>'
    )


def match_steps_html(match: WordMatch, *, max_misses: int = MAX_MISSES) -> str:
    """WordPiece's greedy longest match on one word: per position, the look-ups that failed (struck
    through; beyond ``max_misses`` only counted) and the one that matched, then the pieces.

    >>> from core.wordpiece import WordPieceTokenizer
    >>> out = match_steps_html(WordPieceTokenizer(pieces=["[UNK]", "un", "##able"]).match_steps("unable"))
    >>> out.count('class="al-hit"')
    2
    """
    out = ['<div class="al-steps">']
    if not match.attempts and match.unknown:
        out.append(f'<div class="al-step">No look-up at all: the word has {html.escape(match.unknown)}.</div>')
    for start, group in groupby(match.attempts, key=lambda attempt: attempt.start):
        attempts = list(group)
        misses = [a for a in attempts if not a.found]
        hits = [a for a in attempts if a.found]
        shown = misses if len(misses) <= max_misses else [misses[0], None, *misses[-(max_misses - 1):]]
        chips = []
        for attempt in shown:
            if attempt is None:
                hidden = len(misses) - max_misses
                chips.append(f'<span class="al-more">… {hidden:,} more not found …</span>')
            else:
                chips.append(f'<span class="al-miss" title="not in the vocabulary">{html.escape(attempt.candidate)}</span>')
        chips += [f'<span class="al-hit" title="the longest piece here">{html.escape(a.candidate)}</span>' for a in hits]
        if not hits:
            chips.append('<span class="al-fail">nothing matches</span>')
        out.append(
            f'<div class="al-step"><span class="al-pos">from character {start + 1}</span>{" ".join(chips)}</div>'
        )
    if match.unknown:
        out.append(
            f'<div class="al-result al-result-unk"><span class="tp-t tp-unk">[UNK]</span> for the whole word '
            f"“{html.escape(match.word)}”: {html.escape(match.unknown)}.</div>"
        )
    else:
        pieces = " + ".join(f'<span class="al-piece">{html.escape(piece)}</span>' for piece in match.pieces)
        out.append(f'<div class="al-result">{pieces}</div>')
    out.append("</div>")
    return "".join(out)


def segmentation_rows_html(rows: Sequence[tuple[str, str, str]]) -> str:
    """Rows of (label, spans HTML from ``render_spans``, a note such as "log p −21.4"): n best, samples.

    >>> segmentation_rows_html([("1", "<div></div>", "log p <-3>")]).count("&lt;-3&gt;")
    1
    """
    out = ['<div class="al-segs">']
    for label, spans, note in rows:
        out.append(
            f'<div class="al-seg"><span class="al-seg-label">{html.escape(label)}</span>{spans}'
            f'<span class="al-seg-note">{html.escape(note)}</span></div>'
        )
    out.append("</div>")
    return "".join(out)
