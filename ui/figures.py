"""Plotly figures, built by pure functions: data in, ``go.Figure`` out, tested as objects.

Every chart says its message in its title and colors each algorithm the same way on every page
(``ALGORITHM_COLORS``). Nothing here imports Streamlit: pages draw the figures with
``st.plotly_chart`` and offer their data as CSV next to them.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

# One color per algorithm, for every chart of the playground (names as in core.types.ALGORITHMS).
ALGORITHM_COLORS: dict[str, str] = {
    "byte-level BPE": "#1f4e9c",
    "character BPE": "#c05621",
    "SentencePiece BPE": "#2f855a",
    "WordPiece": "#805ad5",
    "Unigram": "#b83280",
}
MARKER_COLOR = "#d9480f"  # the "you are here" marker: the same orange as the spans' highlight
MAX_POINTS = 1_200  # a curve of 20,000 merges drawn with this many points looks the same, and is light
LOG_X_SPAN = 10.0  # log x-axis once the largest x is this many times the smallest


def compact(n: float) -> str:
    """A count in a few characters for titles: ``1.1 M``, ``412 k``, ``950``.

    >>> compact(1_115_394), compact(412_345), compact(950)
    ('1.1 M', '412 k', '950')
    """
    if abs(n) >= 1_000_000:
        return f"{n / 1_000_000:.1f} M"
    if abs(n) >= 10_000:
        return f"{n / 1_000:.0f} k"
    if abs(n) >= 1_000:
        return f"{n / 1_000:.1f} k"
    return f"{n:,.0f}"


def log_ticks(low: float, high: float) -> list[int]:
    """Tick values for a log axis from ``low`` to ``high``: 1, 2, 5 times the powers of ten between.

    Subtle: left to itself plotly labels every hundred between 500 and 1,000 on a log axis, and the
    labels run together ("600700800900 1,000"); three ticks a decade never touch.

    >>> log_ticks(256, 5256)
    [500, 1000, 2000, 5000]
    """
    ticks, power = [], 1
    while power <= high:
        ticks.extend(v for v in (power, 2 * power, 5 * power) if low <= v <= high)
        power *= 10
    return ticks


# Larger, darker type and ticks for a projector (presentation mode): readable across a room at 1920×1080.
PRESENTATION_FONT = {"size": 22, "color": "#111111"}
PRESENTATION_LEGEND_SIZE = 18  # a legend that set its own small size (many entries) still reads on a projector
PRESENTATION_TITLE_CHARS = 40  # 24 px bold is about 11 px a character: 40 fit a half-width chart at 1280 px
PRESENTATION_TITLE_PAD = 10
PRESENTATION_TITLE_LINE = 31  # px a 24 px title line takes
PRESENTATION_TOP_AXIS_ROOM = 45  # px for 20 px tick labels of an axis drawn over the plot
PRESENTATION_SUBTITLE_ROOM = 28  # px an 18 px subtitle takes under the title
PLANNED_TITLE_ROOM = 35  # px a figure's own top margin gives its one-line title (the rest is for what lies under it)
PRESENTATION_AXIS_ROOM = 95  # px under the plot for 20 px tick labels and a 21 px axis title
_PRESENTATION_AXIS = {
    "tickfont": {"size": 20, "color": "#111111"}, "title": {"font": {"size": 21, "color": "#111111"}},
    "gridcolor": "rgba(0, 0, 0, 0.22)", "linecolor": "#333333", "showline": True, "linewidth": 2,
    "ticks": "outside", "tickwidth": 2, "tickcolor": "#333333",
}


def for_presentation(figure: go.Figure) -> go.Figure:
    """``figure`` restyled in place for presentation mode (type, ticks, legend, grid, height); returns it.

    The larger type needs room the figure did not plan for: a long title is wrapped onto lines that fit a
    half-width chart, and a horizontal legend under the plot moves below the axis title it would cover.

    >>> for_presentation(go.Figure(layout={"height": 300})).layout.font.size
    22
    """
    layout = figure.layout
    height = layout.height
    # a figure may say how it stands on the page: "title_chars" for a full-width chart's title, and
    # "x_tick_size" for many category labels that each must fit under one bar
    own = (layout.meta or {}).get("presentation", {}) if isinstance(layout.meta, dict) else {}
    legend_size = max(PRESENTATION_LEGEND_SIZE, layout.legend.font.size or 0)
    lines = _wrapped(layout.title.text or "", own.get("title_chars", PRESENTATION_TITLE_CHARS))
    subtitle = bool(layout.title.subtitle.text)
    figure.update_layout(
        font=PRESENTATION_FONT, hoverlabel={"font": {"size": 20}}, height=round(height * 1.2) if height else None,
        title={"font": {"size": 24, "color": "#111111"}, "subtitle": {"font": {"size": 18, "color": "#333333"}}},
        legend={"font": {"size": legend_size, "color": "#111111"}},
    )
    title = "<br>".join(lines)
    if lines and figure.layout.xaxis.side == "top":
        # the axis labels stand on the plot's top edge: the title goes to the figure's top, above them
        # (plotly lifts a many-line title anchored there by one line: pad gives that line back)
        figure.update_layout(
            title={"text": title, "yref": "container", "y": 1, "yanchor": "top",
                   "pad": {"t": PRESENTATION_TITLE_PAD + (PRESENTATION_TITLE_LINE if len(lines) > 1 else 0)}},
            margin_t=PRESENTATION_TITLE_PAD + PRESENTATION_TITLE_LINE * len(lines) + _top_axis_room(figure),
        )
    elif lines:
        # plotly misplaces a many-line title anchored to the figure's top; anchored to the plot's top edge
        # it stands on its last line, the margin grows to hold it (automargin), and pad keeps the room the
        # figure planned under its title (subtitle, labels over the plot).
        under = max((layout.margin.t or 0) - PLANNED_TITLE_ROOM, PRESENTATION_SUBTITLE_ROOM if subtitle else 0)
        figure.update_layout(
            title={"text": title, "yref": "paper", "y": 1, "yanchor": "bottom", "automargin": True,
                   "pad": {"b": PRESENTATION_TITLE_PAD + under}},
            margin_t=PRESENTATION_TITLE_PAD,
        )
    if layout.legend.orientation == "h" and (layout.legend.y or 0) < 0:
        # a paper-relative y sits a fraction of the plot's height below it: too close for 20 px ticks and
        # a 21 px axis title. Anchored to the figure's bottom edge instead, in a margin that holds both.
        legend_px = _legend_rows(figure, legend_size) * round(legend_size * 1.7)
        figure.update_layout(
            legend={"yref": "container", "y": 0, "yanchor": "bottom"},
            margin_b=max(layout.margin.b or 0, PRESENTATION_AXIS_ROOM + legend_px),
        )
        if height:
            figure.update_layout(height=layout.height + legend_px)
    figure.update_traces(textfont={"size": 16}, selector={"type": "heatmap"})  # the numbers in the cells
    figure.update_xaxes(**_PRESENTATION_AXIS)
    figure.update_yaxes(**_PRESENTATION_AXIS)
    if "x_tick_size" in own:
        figure.update_xaxes(tickfont_size=own["x_tick_size"])
    return figure


def _top_axis_room(figure: go.Figure) -> int:
    """Pixels an x axis drawn over the plot takes in presentation type; labels of more than three
    characters are set at 45° so that their height can be known before plotly draws them."""
    axis = figure.layout.xaxis
    labels = list(axis.ticktext or ()) or [str(x) for trace in figure.data for x in (getattr(trace, "x", None) or ())]
    longest = max((len(str(label)) for label in labels), default=0)
    if longest <= 3:
        return PRESENTATION_TOP_AXIS_ROOM
    figure.update_xaxes(tickangle=-45)
    return PRESENTATION_TOP_AXIS_ROOM + round(0.55 * _PRESENTATION_AXIS["tickfont"]["size"] * longest * 0.71)


def _wrapped(text: str, width: int) -> list[str]:
    """``text`` (a plotly title, maybe with its own ``<br>``) as lines of at most about ``width`` characters.

    >>> _wrapped("Each merge shortens the corpus: 3.7 k → 1.4 k tokens", 40)
    ['Each merge shortens the corpus: 3.7 k →', '1.4 k tokens']
    """
    lines: list[str] = []
    for part in text.split("<br>"):
        lines.extend(textwrap.wrap(part, width, break_long_words=False, break_on_hyphens=False) or [""])
    return lines if text else []


def _legend_rows(figure: go.Figure, size: int, width_px: int = 520) -> int:
    """How many rows a horizontal legend takes on a half-width chart (an estimate that errs high)."""
    names = [t.name for t in figure.data if t.name and t.showlegend is not False]
    widths = [40 + 0.55 * size * len(name) for name in names]
    rows, used = 1, 0.0
    for w in widths:
        if used and used + w > width_px:
            rows, used = rows + 1, 0.0
        used += w
    return rows


def sample_indices(n: int, max_points: int = MAX_POINTS) -> list[int]:
    """At most about ``max_points`` indices of ``range(n)``, evenly spread, first and last included.

    >>> sample_indices(5, 3)
    [0, 2, 4]
    """
    if n <= 0:
        return []
    if n <= max_points:
        return list(range(n))
    stride = (n - 1) / (max_points - 1)
    return sorted({round(i * stride) for i in range(max_points)} | {n - 1})


def tokens_vs_vocab_frame(*, base: int, tokens: Sequence[int]) -> pd.DataFrame:
    """The chart's data: one row per number of merges (``tokens[k]`` is the corpus after ``k``).

    >>> tokens_vs_vocab_frame(base=256, tokens=[10, 8]).to_dict("list")
    {'merges': [0, 1], 'vocabulary size': [256, 257], 'tokens in corpus': [10, 8]}
    """
    return pd.DataFrame(
        {
            "merges": range(len(tokens)),
            "vocabulary size": [base + k for k in range(len(tokens))],
            "tokens in corpus": list(tokens),
        }
    )


def tokens_vs_vocab_figure(
    *, base: int, tokens: Sequence[int], k: int, algorithm: str = "byte-level BPE"
) -> go.Figure:
    """Tokens in the training corpus against vocabulary size, with a marker after ``k`` merges.

    ``tokens[i]`` is the corpus size in tokens after ``i`` merges (``tokens[0]``: before any), so
    the vocabulary after ``i`` merges is ``base + i``. Subtle: the curve is drawn from at most
    ``MAX_POINTS`` samples (so a step of the scrubber does not ship 20,000 points to the browser);
    the marker always sits on the exact value. The x-axis is logarithmic when it spans a decade.

    >>> fig = tokens_vs_vocab_figure(base=256, tokens=[1000, 900, 850], k=1)
    >>> fig.data[1].x, fig.data[1].y
    ((257,), (900,))
    """
    if not tokens:
        raise ValueError("tokens must hold at least the corpus size before any merge")
    if not 0 <= k < len(tokens):
        raise ValueError(f"k must be between 0 and {len(tokens) - 1}, not {k}")
    picked = np.asarray(sample_indices(len(tokens)))  # numpy: plotly validates arrays in C, lists one by one
    color = ALGORITHM_COLORS.get(algorithm, ALGORITHM_COLORS["byte-level BPE"])
    log_x = (base + len(tokens) - 1) / max(base, 1) >= LOG_X_SPAN
    curve = {
        "type": "scatter", "mode": "lines", "name": algorithm, "line": {"color": color, "width": 3},
        "x": base + picked, "y": np.asarray(tokens)[picked], "customdata": picked,
        "hovertemplate": "%{customdata:,} merges · vocabulary %{x:,}<br>%{y:,} tokens<extra></extra>",
    }
    marker = {
        "type": "scatter", "mode": "markers", "name": f"after {k:,} merges",
        "x": [base + k], "y": [tokens[k]], "customdata": [k],
        "marker": {"color": MARKER_COLOR, "size": 15, "line": {"color": "white", "width": 2}},
        "hovertemplate": "after %{customdata:,} merges · vocabulary %{x:,}<br>%{y:,} tokens<extra></extra>",
    }
    layout = {
        "title": {"text": f"Each merge shortens the corpus: {compact(tokens[0])} → {compact(tokens[-1])} tokens"},
        "xaxis": {"title": {"text": "vocabulary size" + (" (log scale)" if log_x else "")},
                  "type": "log" if log_x else "linear", "tickformat": ",d",
                  **({"tickvals": log_ticks(base, base + len(tokens) - 1)} if log_x else {})},
        "yaxis": {
            "title": {"text": "tokens in the training corpus"}, "tickformat": ",d", "rangemode": "tozero",
        },
        "showlegend": False, "height": 340, "margin": {"l": 10, "r": 10, "t": 50, "b": 10},
        "font": {"size": 15}, "hoverlabel": {"font": {"size": 15}},
    }
    # subtle: one dict in one constructor call is about ten times faster than add_trace and
    # update_layout, which validate step by step; the scrubber builds this figure on every step
    return go.Figure({"data": [curve, marker], "layout": layout})


def figure_frame(figure: go.Figure) -> pd.DataFrame:
    """A chart's data as one long table (trace, x, y, and z or text where a trace has them), for its CSV.

    For charts whose numbers live only in the figure; a page that has the frame the chart was built
    from offers that instead.
    """
    rows = []
    for index, trace in enumerate(figure.data):
        name = trace.name or f"trace {index + 1}"
        xs, ys = getattr(trace, "x", None), getattr(trace, "y", None)
        z = getattr(trace, "z", None)
        if z is not None:  # a heatmap: one row per cell
            for i, row in enumerate(z):
                for j, value in enumerate(row):
                    rows.append({"trace": name, "x": xs[j] if xs is not None else j,
                                 "y": ys[i] if ys is not None else i, "value": value})
            continue
        if xs is None and ys is None:
            continue
        n = len(xs if xs is not None else ys)
        texts = getattr(trace, "text", None)
        for i in range(n):
            row = {"trace": name, "x": xs[i] if xs is not None else i, "y": ys[i] if ys is not None else None}
            if texts is not None and not isinstance(texts, str) and i < len(texts):
                row["text"] = texts[i]
            rows.append(row)
    return pd.DataFrame(rows)
