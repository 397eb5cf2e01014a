"""Pure builders for the "BPE step by step" page: HTML strings and DataFrames, tested as such.

The merge just made, the leaderboard of a step, the table of all merges, a token's merge tree and
the strip of pre-token chunks under a replay. Every piece of text is escaped here; token pieces are
drawn as chips in the span palette (``ui.spans.token_color``), so a token has the same color in the
spans, the merge line, the leaderboard and the tree. The text itself is drawn only by
``ui.spans.render_spans``. No Streamlit here: ``ui.bpe.views`` puts these on the page.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection, Sequence

import pandas as pd

from core.bpe import MergeStep, piece_label
from core.types import Token
from ui.spans import WHITESPACE_MARKS, hex_bytes, printable, token_color

Piece = Callable[[int], bytes]  # token id -> its piece (bytes; "</w>" included in char mode)
TREE_MAX_NODES = 400  # a token of 200 bytes has 399 nodes; deeper trees are cut with a note


def chip(token_id: int, data: bytes, *, big: bool = False) -> str:
    """One token piece as a chip in its span color, whitespace visible (``·``, ``↵``), escaped.

    >>> chip(256, b" t<")
    '<span class="tp-t tp-c3 bpe-chip" title="id 256 · bytes 20 74 3C">·t&lt;</span>'
    """
    classes = f"tp-t tp-c{token_color(token_id)} bpe-chip" + (" bpe-big" if big else "")
    title = html.escape(f"id {token_id} · bytes {hex_bytes(data)}", quote=True)
    return f'<span class="{classes}" title="{title}">{html.escape(printable(data), quote=True)}</span>'


Part = tuple[int, bytes]  # a token as (id, piece)


def merge_line_html(
    parts: tuple[Part, Part, Part] | None,
    *,
    k: int,
    n: int,
    note: str = "",
    n_tied: int = 1,
    unit: str = "bytes",
) -> str:
    """The merge step ``k`` just made, big: ``a + b → ab`` and a note (its count, or its rank).

    ``parts`` are the left part, the right part and the new token; ``None`` at ``k = 0``.

    >>> "before any merge" in merge_line_html(None, k=0, n=3)
    True
    """
    head = f'<span class="bpe-stepno">step {k:,} of {n:,}</span>'
    if parts is None:
        body = f'<span class="bpe-quiet">before any merge: the text is single {html.escape(unit)}</span>'
    else:
        (left, left_piece), (right, right_piece), (new, new_piece) = parts
        body = (
            f'{chip(left, left_piece, big=True)}<span class="bpe-op">+</span>'
            f'{chip(right, right_piece, big=True)}<span class="bpe-op">→</span>'
            f"{chip(new, new_piece, big=True)}"
        )
        if note:
            body += f'<span class="bpe-count">{html.escape(note)}</span>'
        if n_tied > 1:
            body += f'<span class="bpe-tie">tie of {n_tied:,}</span>'
    return f'<div class="bpe-merge">{head}{body}</div>'


def step_view_html(
    merge_line: str, *, spans_head: str, spans: str, race_head: str = "", race: str = "", note: str = "",
    dot: tuple[str, int, float, float] | None = None,
) -> str:
    """One step of the scrubber as one piece of HTML: the merge line over two columns (the text's
    spans, the race of the top pairs), so the browser draws a step whole, never half old.

    ``merge_line``, ``spans`` and ``race`` are HTML built and escaped by their own builders; the
    heads and the note are plain text, escaped here (``**x**`` marks the bold start of a head).
    ``dot`` is (chart key, trace index, x, y): the step's marker on the plotly chart with that key,
    which ``assets/scrubber.js`` moves there in the same frame as this HTML (the chart itself is
    redrawn by Streamlit a frame or two later).

    >>> step_view_html("<div>m</div>", spans_head="**3 tokens** of <b>", spans="<div>s</div>").count('"bpe-col ')
    1
    >>> step_view_html("", spans_head="", spans="", dot=("bpe_chart", 1, 300, 1500.0)).split("><")[0]
    '<div class="bpe-step" data-dot-chart="bpe_chart" data-dot-trace=1 data-dot-x=300.0 data-dot-y=1500.0'
    """
    note_html = f'<p class="bpe-note">{html.escape(note)}</p>' if note else ""
    spans_part = f'<div class="bpe-col bpe-col-spans"><p>{_head(spans_head)}</p>{spans}'
    opening = '<div class="bpe-step">'
    if dot is not None:
        chart, trace, x, y = dot
        opening = (f'<div class="bpe-step" data-dot-chart="{html.escape(chart, quote=True)}" '
                   f"data-dot-trace={int(trace)} data-dot-x={float(x)!r} data-dot-y={float(y)!r}>")
    if not race_head:  # one column: the note goes under the spans
        return f'{opening}{merge_line}<div class="bpe-cols bpe-one">{spans_part}{note_html}</div></div></div>'
    race_part = f'<div class="bpe-col bpe-col-race"><p>{_head(race_head)}</p>{race}{note_html}</div>'
    return f'{opening}{merge_line}<div class="bpe-cols">{spans_part}</div>{race_part}</div></div>'


def _head(text: str) -> str:
    """A head: the part between a leading ``**`` pair in bold, all of it escaped."""
    if text.startswith("**") and "**" in text[2:]:
        bold, rest = text[2:].split("**", 1)
        return f"<strong>{html.escape(bold)}</strong>{html.escape(rest)}"
    return html.escape(text)


def step_parts(step: MergeStep, piece: Piece) -> tuple[Part, Part, Part]:
    """A trained merge as the three chips of the merge line."""
    return (step.left, piece(step.left)), (step.right, piece(step.right)), (step.new_id, step.piece)


def tie_note(step: MergeStep, *, rule: str, piece: Piece) -> str:
    """One sentence on how the winner was chosen: outright, or by the tie rule among how many.

    >>> s = MergeStep(0, 97, 98, 256, b"ab", 2, 3, ((97, 98, 2), (98, 99, 2), (99, 100, 2)), 5)
    >>> tie_note(s, rule="ties go to the pair seen first in the corpus", piece=lambda i: bytes([i]))
    "3 pairs tied at the top count (2); the rule 'ties go to the pair seen first in the corpus' picked a + b."
    """
    pair = f"{printable(piece(step.left))} + {printable(piece(step.right))}"
    if step.n_tied > 1:
        tied = f"{step.n_tied:,} pairs tied at the top count ({step.count:,})"
        return f"{tied}; the rule '{rule}' picked {pair}."
    if len(step.top) > 1:
        return f"{pair} won outright: {step.count:,} against {step.top[1][2]:,} for the runner-up."
    return f"{pair} was the only pair left."


def leaderboard_html(step: MergeStep, *, piece: Piece) -> str:
    """The top pairs when merge ``step`` was chosen: winner first, pairs with the top count marked "tie".

    >>> s = MergeStep(0, 97, 98, 256, b"ab", 2, 2, ((97, 98, 2), (98, 99, 2), (99, 100, 1)), 5)
    >>> leaderboard_html(s, piece=lambda i: bytes([i])).count("bpe-tiemark")
    2
    """
    rows = []
    for place, (left, right, count) in enumerate(step.top, start=1):
        tied = step.n_tied > 1 and count == step.count
        mark = '<span class="bpe-tiemark">tie</span>' if tied else ""
        rows.append(
            f'<tr class="{"bpe-first" if place == 1 else ""}"><td class="bpe-num">{place}</td>'
            f'<td class="bpe-pair">{chip(left, piece(left))} + {chip(right, piece(right))}</td>'
            f'<td class="bpe-num">{count:,}</td><td>{mark}</td></tr>'
        )
    return (
        '<table class="bpe-board"><thead><tr><th>#</th><th>pair (winner first)</th>'
        f'<th class="bpe-num">count</th><th></th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def merges_frame(trace: Sequence[MergeStep], *, piece: Piece, base: int) -> pd.DataFrame:
    """Every merge as a row: what the table shows and the CSV holds (pieces with visible whitespace).

    ``merge`` counts from 1 (merge 1 is rank 0, id ``base``); ``corpus tokens`` is the training
    corpus's size after the merge, the data of the tokens-vs-vocabulary chart.
    """
    return pd.DataFrame(
        {
            "merge": [s.rank + 1 for s in trace],
            "pair": [f"{printable(piece(s.left))} + {printable(piece(s.right))}" for s in trace],
            "new token": [printable(s.piece) for s in trace],
            "count": [s.count for s in trace],
            "tied": [s.n_tied for s in trace],
            "id": [s.new_id for s in trace],
            "left id": [s.left for s in trace],
            "right id": [s.right for s in trace],
            "token text": [piece_label(s.piece) for s in trace],
            "vocabulary size": [base + s.rank + 1 for s in trace],
            "corpus tokens": [s.tokens_after for s in trace],
        }
    )


def filter_merges(frame: pd.DataFrame, query: str) -> pd.DataFrame:
    """Rows whose pair or token contains ``query`` (case-insensitive); a number also matches merge or id.

    Subtle: the shown columns are searched for the query in shown form (a space typed becomes ``·``,
    so " t" cannot match across the " + " of a pair) and the raw token text for the query as typed:
    typing a leading space finds the same rows as typing the dot. A query holding " + " is a pair as
    the table shows it ("e + r", "· + t"): it is looked for in the pair column, each side in shown form.
    """
    if not query:
        return frame
    if " + " in query:  # a pair as the table shows it, "e + r": each side in shown form
        left, right = query.split(" + ", 1)
        wanted = f"{printable(left.encode())} + {printable(right.encode())}".casefold()
        return frame[frame["pair"].str.casefold().str.contains(wanted, regex=False)]
    shown = printable(query.encode()).casefold()
    found = frame["token text"].str.casefold().str.contains(query.casefold(), regex=False)
    for column in ("pair", "new token"):
        found |= frame[column].str.casefold().str.contains(shown, regex=False)
    if query.strip().isdigit():
        number = int(query.strip())
        found |= (frame["merge"] == number) | (frame["id"] == number)
    return frame[found]


def longest_token(trace: Sequence[MergeStep]) -> int | None:
    """The id of the longest piece learned (the earliest among equals): a tree worth showing first."""
    if not trace:
        return None
    return max(trace, key=lambda s: (len(s.piece), -s.rank)).new_id


def merge_tree_html(token_id: int, *, trace: Sequence[MergeStep], base: int, piece: Piece) -> str:
    """A token's merge tree back to its base symbols, as nested lists: token → left + right → … .

    >>> trace = [MergeStep(0, 97, 98, 256, b"ab", 3, 1, (), 0)]
    >>> merge_tree_html(256, trace=trace, base=256, piece=lambda i: bytes([i])).count("bpe-chip")
    3
    """
    budget = [TREE_MAX_NODES]

    def node(i: int) -> str:
        budget[0] -= 1
        if i < base:
            return f'<li>{chip(i, piece(i))}<span class="bpe-meta">base symbol</span></li>'
        step = trace[i - base]
        meta = f'<span class="bpe-meta">merge {step.rank + 1:,} · count {step.count:,}</span>'
        if budget[0] <= 0:
            return f'<li>{chip(i, step.piece)}{meta}<span class="bpe-meta">… (tree cut here)</span></li>'
        return f"<li>{chip(i, step.piece)}{meta}<ul>{node(step.left)}{node(step.right)}</ul></li>"

    return f'<ul class="bpe-tree">{node(token_id)}</ul>'


def highlight_indices(tokens: Sequence[Token], spans: Collection[tuple[int, int]], new_id: int) -> set[int]:
    """Positions of the tokens with id ``new_id`` over one of ``spans``: what ``render_spans`` highlights.

    >>> highlight_indices([Token(5, b"a", 0, 1), Token(9, b"bc", 1, 3)], [(1, 3)], 9)
    {1}
    """
    wanted = set(spans)
    return {i for i, t in enumerate(tokens) if t.id == new_id and (t.start, t.end) in wanted}


def chunks_html(text: str, spans: Sequence[tuple[int, int]], *, show_whitespace: bool = True) -> str:
    """The text cut into its pre-token chunks, each under a bracket, alternating shades; escaped.

    Drawn under the token spans of a replay: merges never cross these borders.

    >>> chunks_html("Hi <b>", [(0, 2), (2, 6)]).count('class="bpe-chunk ')
    2
    """
    out = ['<div class="bpe-chunks">']
    for index, (start, end) in enumerate(spans):
        piece = text[start:end]
        data = piece.encode()
        title = html.escape(f"pre-token {index + 1:,}: {printable(data)} ({len(data)} bytes)")
        body = _marked(piece, show_whitespace)
        out.append(f'<span class="bpe-chunk bpe-chunk{index % 2}" title="{title}">{body}</span>')
    out.append("</div>")
    return "".join(out)


def _marked(piece: str, show_whitespace: bool) -> str:
    if not show_whitespace:
        return html.escape(piece, quote=True)
    marks = WHITESPACE_MARKS
    return "".join(
        f'<span class="tp-ws">{html.escape(marks[c])}</span>' if c in marks else html.escape(c) for c in piece
    )
