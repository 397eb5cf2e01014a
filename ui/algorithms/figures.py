"""The Unigram lattice of one word as a plotly figure, built by pure functions and tested as an object.

Every vocabulary piece that fits the word is a box from its first to its last symbol, labelled with
the piece and its log-probability (visible without hovering); the Viterbi path's boxes sit on the top
lane in Unigram's color, the other pieces on lanes below, packed so that no two boxes on a lane
overlap. An unknown character's ``<unk>`` box is red, as in the spans.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from core.unigram import WordLattice
from ui.figures import ALGORITHM_COLORS

PATH_COLOR = ALGORITHM_COLORS["Unigram"]
OTHER_FILL, OTHER_LINE = "#eef0f4", "#8a94a6"
UNK_FILL, UNK_LINE = "#ffc9c9", "#c0262d"
LANE_PX = 52
BOX_HALF = 0.38  # half a lane: the gap between lanes is what is left


def lattice_frame(lattice: WordLattice) -> pd.DataFrame:
    """The chart's data: one row per piece that fits, with whether the Viterbi path takes it.

    >>> from core.unigram import UnigramTokenizer
    >>> tok = UnigramTokenizer(pieces=[("▁a", -1.0), ("▁", -2.0), ("a", -2.0)])
    >>> lattice_frame(tok.lattice("a"))["on best path"].tolist()
    [False, True, False]
    """
    best = set(lattice.best)
    return pd.DataFrame(
        {
            "start": [e.start for e in lattice.edges],
            "end": [e.end for e in lattice.edges],
            "piece": [e.piece for e in lattice.edges],
            "log-probability": [e.log_prob for e in lattice.edges],
            "on best path": [i in best for i in range(len(lattice.edges))],
        }
    )


def lanes(lattice: WordLattice) -> list[int]:
    """A lane per edge: 0 for the Viterbi path, then first fit in order of (start, end) from lane 1.

    >>> from core.unigram import UnigramTokenizer
    >>> tok = UnigramTokenizer(pieces=[("▁a", -1.0), ("▁", -2.0), ("a", -2.0)])
    >>> lanes(tok.lattice("a"))  # ▁ and a share lane 1: they do not overlap
    [1, 0, 1]
    """
    best = set(lattice.best)
    lane_of = [0] * len(lattice.edges)
    ends: list[int] = []  # per lane from 1: where its last box ends
    order = sorted((i for i in range(len(lattice.edges)) if i not in best),
                   key=lambda i: (lattice.edges[i].start, lattice.edges[i].end))
    for i in order:
        edge = lattice.edges[i]
        for lane, end in enumerate(ends):
            if end <= edge.start:
                ends[lane] = edge.end
                lane_of[i] = lane + 1
                break
        else:
            ends.append(edge.end)
            lane_of[i] = len(ends)
    return lane_of


def lattice_figure(lattice: WordLattice) -> go.Figure:
    """Every piece that fits the word as a labelled box, the Viterbi path on top in Unigram's color.

    >>> from core.unigram import UnigramTokenizer
    >>> tok = UnigramTokenizer(pieces=[("▁a", -1.0), ("▁", -2.0), ("a", -2.0)])
    >>> fig = lattice_figure(tok.lattice("a"))
    >>> sum(shape.type == "rect" for shape in fig.layout.shapes), fig.data[0].name
    (3, 'Viterbi path')
    """
    edges, best = lattice.edges, set(lattice.best)
    lane_of = lanes(lattice)
    n_lanes = max(lane_of, default=0) + 1
    shapes, traces = [], []
    for on_path in (True, False):
        chosen = [i for i in range(len(edges)) if (i in best) == on_path]
        for i in chosen:
            edge = edges[i]
            fill, line = (PATH_COLOR, PATH_COLOR) if on_path else (OTHER_FILL, OTHER_LINE)
            if edge.id == 0:
                fill, line = UNK_FILL, UNK_LINE
            shapes.append({
                "type": "rect", "x0": edge.start + 0.04, "x1": edge.end - 0.04,
                "y0": -lane_of[i] - BOX_HALF, "y1": -lane_of[i] + BOX_HALF,
                "fillcolor": fill, "line": {"color": line, "width": 2 if on_path else 1,
                                            "dash": "dash" if edge.id == 0 else "solid"},
                "layer": "below",
            })
        traces.append({
            "type": "scatter", "mode": "text", "name": "Viterbi path" if on_path else "other pieces that fit",
            "x": [(edges[i].start + edges[i].end) / 2 for i in chosen],
            "y": [-lane_of[i] for i in chosen],
            "text": [f"{_text(edges[i].piece)}<br>{_number(edges[i].log_prob)}" for i in chosen],
            "hovertext": [
                f"{_text(edges[i].piece)} · symbols {edges[i].start + 1}–{edges[i].end}"
                f"<br>log-probability {_number(edges[i].log_prob)}" + (" · unknown character" if edges[i].id == 0 else "")
                for i in chosen
            ],
            "hoverinfo": "text",
            "textfont": {"color": ["#ffffff" if on_path and edges[i].id else "#1c1c1c" for i in chosen], "size": 14},
        })
    path = " + ".join(_text(edges[i].piece) for i in lattice.best)
    n = len(lattice.symbols)
    title = (f"Best cut of “{_text(lattice.symbols)}”: {path} (log p {_number(lattice.log_prob)}), "
             f"from {len(edges):,} pieces that fit")
    grid = [{"type": "line", "x0": x, "x1": x, "y0": 0.6, "y1": -n_lanes + 0.4, "layer": "below",
             "line": {"color": "rgba(128,128,128,0.25)", "width": 1}} for x in range(n + 1)]
    layout = {
        "title": {"text": title, "font": {"size": 16}},
        "shapes": grid + shapes,  # the grid first: boxes cover it
        "xaxis": {"tickvals": [i + 0.5 for i in range(n)], "ticktext": [_text(ch) for ch in lattice.symbols],
                  "range": [-0.05, n + 0.05], "showgrid": False, "zeroline": False, "side": "top",
                  "tickfont": {"size": 18}, "fixedrange": True},
        "yaxis": {"tickvals": [0], "ticktext": ["best"], "range": [-n_lanes + 0.45, 0.55], "showgrid": False,
                  "zeroline": False, "fixedrange": True},
        "showlegend": False, "height": 110 + LANE_PX * n_lanes,
        "margin": {"l": 10, "r": 10, "t": 80, "b": 10}, "font": {"size": 14}, "hoverlabel": {"font": {"size": 14}},
    }
    return go.Figure({"data": traces, "layout": layout})


def _text(value: str) -> str:
    """User text for plotly's labels, which read a subset of HTML: tags and entities stay text."""
    return html.escape(value, quote=False)


def _number(value: float) -> str:
    """A log-probability with a real minus sign: −3.21."""
    return f"{value:.2f}".replace("-", "−")


def pruning_frame(trace: Sequence[Any]) -> pd.DataFrame:
    """The pruning table: per round, the vocabulary EM ran on, the log-likelihood per character its last
    E-step measured, and what pruning kept (a trace of ``TextbookRound`` or ``PruneRound``).

    >>> from core.unigram.textbook import TextbookRound
    >>> pruning_frame([TextbookRound(1, 500, (-2.5, -2.4), 350)]).to_dict("records")
    [{'round': 1, 'pieces': 500, 'log-likelihood / character': -2.4, 'kept': 350}]
    """
    return pd.DataFrame({
        "round": [r.round for r in trace],
        "pieces": [r.pieces_before for r in trace],
        "log-likelihood / character": [round(r.log_likelihood_per_char, 4) for r in trace],
        "kept": [r.pieces_kept for r in trace],
    })
