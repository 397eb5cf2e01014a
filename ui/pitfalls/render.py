"""HTML of the pitfalls gallery that is not token spans: the place-value grid of numbers and the
letters inside each piece of a word. Pure functions, tested as strings; every text is escaped.

Colors come from the span palette (``ui.spans.token_color``), so a token has the same color here as
in its spans.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from core.pitfalls.place_value import DigitCell
from core.pitfalls.words import PieceLetters
from ui.spans import printable, token_color

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def place_grid_html(numbers: Sequence[str], rows: Sequence[tuple[str, Sequence[Sequence[DigitCell]]]]) -> str:
    """A grid: one column per digit of each number (10⁵ … 10⁰), one row per tokenizer; the digits one
    token holds share its color and a frame, so a token's reach across places shows at a glance.

    ``rows`` are (tokenizer name, the cells of each number in ``numbers`` order).

    >>> grid = place_grid_html(["26"], [("<b>", [[DigitCell("2", 1, 0, 7), DigitCell("6", 0, 1, 9)]])])
    >>> "&lt;b&gt;" in grid and grid.count("pf-first") == 2 and "10¹" in grid
    True
    """
    head_numbers = ['<th class="pf-name"></th>']
    head_places = ['<th class="pf-name">place</th>']
    for index, number in enumerate(numbers):
        if index:
            head_numbers.append('<th class="pf-gap"></th>')
            head_places.append('<th class="pf-gap"></th>')
        head_numbers.append(f'<th colspan="{len(number)}">{html.escape(number)}</th>')
        head_places.extend(f"<th>10{str(place).translate(_SUPERSCRIPT)}</th>" for place in range(len(number) - 1, -1, -1))
    body = []
    for name, per_number in rows:
        cells = [f'<td class="pf-name">{html.escape(name)}</td>']
        for index, number_cells in enumerate(per_number):
            if index:
                cells.append('<td class="pf-gap"></td>')
            cells.extend(_digit_cells(number_cells))
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (
        f'<div class="pf-grid-wrap"><table class="pf-grid"><thead><tr>{"".join(head_numbers)}</tr><tr>{"".join(head_places)}</tr></thead>'
        f'<tbody>{"".join(body)}</tbody></table></div>'
    )


def _digit_cells(cells: Sequence[DigitCell]) -> list[str]:
    out = []
    for k, cell in enumerate(cells):
        first = k == 0 or cells[k - 1].token_index != cell.token_index
        last = k == len(cells) - 1 or cells[k + 1].token_index != cell.token_index
        classes = ["pf-digit", f"tp-c{token_color(cell.token_id)}"]
        if first:
            classes.append("pf-first")
        if last:
            classes.append("pf-last")
        out.append(f'<td class="{" ".join(classes)}" title="token id {cell.token_id}">{html.escape(cell.digit)}</td>')
    return out


def letters_html(pieces: Sequence[PieceLetters], letter: str, *, label: str = "") -> str:
    """Each piece of a word as a box: the token's text on top, its letters below, ``letter`` in bold red;
    ``label`` (the word as encoded) before them. One line per word.

    >>> out = letters_html([PieceLetters("berry", " berry", 7, 2)], "r")
    >>> out.count("pf-hit"), "·berry" in out
    (2, True)
    """
    boxes = []
    for piece in pieces:
        letters = "".join(
            f'<span class="pf-letter{" pf-hit" if ch.casefold() == letter.casefold() else ""}">{html.escape(ch)}</span>'
            for ch in piece.text
        )
        shown = html.escape(printable(piece.token_text.encode("utf-8", "replace")))
        boxes.append(
            f'<span class="pf-piece tp-c{token_color(piece.token_id)}" title="token id {piece.token_id}">'
            f'<span class="pf-piece-label">{shown}</span>{letters}</span>'
        )
    total = sum(piece.hits for piece in pieces)
    count = f'<span class="pf-count">{total} × “{html.escape(letter)}” in {len(pieces)} piece{"s" if len(pieces) != 1 else ""}</span>'
    head = f'<span class="pf-form">{html.escape(label)}</span>' if label else ""
    return f'<div class="pf-letters">{head}{"".join(boxes)}{count}</div>'
