"""Figures and their CSV data for "Words & compression": pure functions, data in, ``go.Figure`` out.

Each chart has a ``*_frame`` (what the CSV download holds: the data drawn) and a ``*_figure``.
Titles say the chart's message with the numbers of the text at hand. Words from the user's text go
into hover labels escaped (plotly reads ``<b>`` in a label as markup). Algorithms keep the colors of
``ui.figures.ALGORITHM_COLORS``; nothing here imports Streamlit.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from core.measures.compression import Curve, TokenizerPoint
from core.measures.units import UnitRow, relative_attention
from core.measures.vocab_cost import ModelPreset
from core.measures.wordstats import OOVCurve, PowerFit, WordStats, log_spaced
from ui.figures import ALGORITHM_COLORS, MARKER_COLOR, compact, sample_indices

FIT_COLOR = MARKER_COLOR
DATA_COLOR = "#1f4e9c"
CEILING_COLOR = "#4a5568"
UNIT_COLORS = {"words": "#718096", "characters": "#a0aec0", "bytes": "#cbd5e0"}
ALGORITHM_FAMILY = {"BPE": "byte-level BPE", "WordPiece": "WordPiece", "Unigram": "Unigram", "Unigram (textbook)": "Unigram"}
DOTTED = frozenset({"Unigram (textbook)"})  # a second curve of a family's color is dotted
DRAWN_RANKS = 500  # Zipf and Heaps curves are drawn through this many log-spaced points
_BASE_LAYOUT = {
    "height": 400, "margin": {"l": 10, "r": 10, "t": 80, "b": 10}, "font": {"size": 15},
    "hoverlabel": {"font": {"size": 15}}, "legend": {"orientation": "h", "y": -0.2},
}


def _layout(
    title: str, x_title: str, y_title: str, *, subtitle: str = "", log_x: bool = True, log_y: bool = True,
    **extra: object,
) -> dict:
    return {
        **_BASE_LAYOUT,
        "title": {"text": title, "subtitle": {"text": subtitle, "font": {"size": 14, "color": "#4a5568"}}},
        "xaxis": {"title": {"text": x_title}, "type": "log" if log_x else "linear"},
        "yaxis": {"title": {"text": y_title}, "type": "log" if log_y else "linear"},
        **extra,
    }


# -- Zipf ---------------------------------------------------------------------------------------------


def zipf_frame(stats: WordStats) -> pd.DataFrame:
    """Every word with its rank and frequency, most frequent first."""
    return pd.DataFrame(
        {"rank": np.arange(1, stats.types + 1), "word": list(stats.by_rank), "frequency": stats.frequencies}
    )


def zipf_figure(stats: WordStats, fit: PowerFit | None, window: tuple[int, int]) -> go.Figure:
    """Rank against frequency on log-log axes, the fit window shaded and the fitted line over it."""
    if stats.types == 0:
        raise ValueError("no words to draw")
    ranks = log_spaced(1, stats.types, DRAWN_RANKS)
    words = [html.escape(stats.by_rank[r - 1]) for r in ranks]
    data = [{
        "type": "scattergl" if len(ranks) > 2000 else "scatter", "mode": "markers", "name": "words",
        "x": ranks, "y": stats.frequencies[ranks - 1], "customdata": words,
        "marker": {"color": DATA_COLOR, "size": 5},
        "hovertemplate": "rank %{x:,}: “%{customdata}”<br>%{y:,} times<extra></extra>",
    }]
    lo, hi = window[0], min(window[1], stats.types)
    title, subtitle = "Zipf's law: a few words are everywhere, most are rare", "no fit: the window holds too few ranks"
    if fit is not None:
        xs = np.asarray([fit.x[0], fit.x[-1]])
        data.append({
            "type": "scatter", "mode": "lines", "name": f"fit over ranks {lo:,}–{hi:,}: slope {fit.exponent:.2f}",
            "x": xs, "y": fit.predict(xs), "line": {"color": FIT_COLOR, "width": 4, "dash": "dash"},
            "hovertemplate": f"frequency ≈ {fit.constant:,.0f} · rank^{fit.exponent:.2f}<extra></extra>",
        })
        subtitle = f"the word of rank r occurs about {fit.constant:,.0f} / r^{-fit.exponent:.2f} times"
    shapes = [{
        "type": "rect", "xref": "x", "yref": "paper", "x0": lo, "x1": max(hi, lo), "y0": 0, "y1": 1,
        "fillcolor": FIT_COLOR, "opacity": 0.08, "line": {"width": 0}, "layer": "below",
    }]
    layout = _layout(title, "rank (log scale)", "frequency (log scale)", subtitle=subtitle, shapes=shapes)
    return go.Figure({"data": data, "layout": layout})


# -- Heaps --------------------------------------------------------------------------------------------


def heaps_frame(stats: WordStats, fit: PowerFit | None) -> pd.DataFrame:
    """The drawn points of Heaps' curve (log-spaced positions), flagged where the fit used them."""
    positions = np.union1d(log_spaced(1, max(stats.tokens, 1), DRAWN_RANKS), fit.x.astype(np.int64) if fit else [])
    positions = positions[(positions >= 1) & (positions <= stats.tokens)].astype(np.int64)
    used = set(fit.x.astype(np.int64).tolist()) if fit else set()
    return pd.DataFrame({
        "words read": positions,
        "distinct words": stats.distinct_after[positions - 1],
        "used in fit": [p in used for p in positions.tolist()],
    })


def heaps_figure(stats: WordStats, fit: PowerFit | None) -> go.Figure:
    """Distinct words against words read (log-log), the fit's points marked and its curve dashed."""
    if stats.tokens == 0:
        raise ValueError("no words to draw")
    positions = log_spaced(1, stats.tokens, DRAWN_RANKS)
    data = [{
        "type": "scatter", "mode": "lines", "name": "distinct words so far", "x": positions,
        "y": stats.distinct_after[positions - 1], "line": {"color": DATA_COLOR, "width": 3},
        "hovertemplate": "after %{x:,} words: %{y:,} distinct<extra></extra>",
    }]
    title, subtitle = "Heaps' law: new words never stop coming", ""
    if fit is not None:
        data.append({
            "type": "scatter", "mode": "markers", "name": f"the {len(fit.x)} points fitted", "x": fit.x, "y": fit.y,
            "marker": {"color": "rgba(0,0,0,0)", "size": 8, "line": {"color": FIT_COLOR, "width": 1.5}},
            "hovertemplate": "fitted point: %{x:,} words, %{y:,} distinct<extra></extra>",
        })
        data.append({
            "type": "scatter", "mode": "lines", "name": f"{fit.constant:.1f} · n^{fit.exponent:.2f}",
            "x": fit.x, "y": fit.predict(fit.x), "line": {"color": FIT_COLOR, "width": 2, "dash": "dash"},
            "hoverinfo": "skip",
        })
        subtitle = f"after n words, about {fit.constant:.1f} · n^{fit.exponent:.2f} of them are distinct"
    layout = _layout(title, "words read (log scale)", "distinct words (log scale)", subtitle=subtitle)
    return go.Figure({"data": data, "layout": layout})


# -- out-of-vocabulary rate ---------------------------------------------------------------------------


def oov_frame(curve: OOVCurve) -> pd.DataFrame:
    return pd.DataFrame({"word vocabulary size": curve.sizes, "held-out OOV rate": curve.rates})


def oov_headline_size(curve: OOVCurve) -> int:
    """The vocabulary size the title talks about: 1,000 words, or all of them in a smaller text."""
    return min(1_000, curve.train_types) if curve.train_types else 0


def oov_figure(curve: OOVCurve) -> go.Figure:
    """OOV rate of held-out words against the size of a top-V word vocabulary, with the unseen floor."""
    data = [{
        "type": "scatter", "mode": "lines+markers", "name": "out-of-vocabulary rate",
        "x": curve.sizes, "y": curve.rates * 100, "line": {"color": DATA_COLOR, "width": 3}, "marker": {"size": 5},
        "hovertemplate": "top %{x:,} words: %{y:.2f}% of held-out words missing<extra></extra>",
    }]
    size = oov_headline_size(curve)
    title = f"No word vocabulary covers new text: even all {curve.train_types:,} training words miss {curve.unseen:.1%}"
    subtitle = f"the {size:,} most frequent words miss {curve.rate_at(size):.1%} of the held-out words"
    shapes = [{
        "type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": curve.unseen * 100, "y1": curve.unseen * 100,
        "line": {"color": CEILING_COLOR, "dash": "dot", "width": 2},
    }]
    annotations = [{
        "xref": "paper", "x": 0, "y": curve.unseen * 100, "xanchor": "left", "yanchor": "bottom", "showarrow": False,
        "text": f"never seen in training: {curve.unseen:.1%}", "font": {"color": CEILING_COLOR},
    }]
    layout = _layout(title, "word vocabulary: the V most frequent training words (log scale)",
                     "held-out words out of vocabulary (%)", subtitle=subtitle, log_y=False, shapes=shapes,
                     annotations=annotations)
    layout["yaxis"]["rangemode"] = "tozero"
    return go.Figure({"data": data, "layout": layout})


# -- units --------------------------------------------------------------------------------------------


def units_frame(rows: Sequence[UnitRow]) -> pd.DataFrame:
    costs = relative_attention(rows)
    shortest = min((r.length for r in rows if r.length), default=0)
    return pd.DataFrame({
        "unit": [r.unit for r in rows],
        "sequence length": [r.length for r in rows],
        "vocabulary size": [r.vocab_size for r in rows],
        "length × shortest": [r.length / shortest if shortest else 0.0 for r in rows],
        "attention cost × shortest": costs,
        "vocabulary": [r.vocab_note for r in rows],
    })


def units_figure(rows: Sequence[UnitRow], algorithms: Mapping[str, str] | None = None) -> go.Figure:
    """Relative attention cost (length², the shortest = 1) per unit, as horizontal bars on a log axis.

    ``algorithms`` maps a subword row's name to its algorithm, for its color.
    """
    if not rows:
        raise ValueError("no units to draw")
    costs = relative_attention(rows)
    algorithms = algorithms or {}
    colors = [
        UNIT_COLORS.get(r.kind) or ALGORITHM_COLORS.get(algorithms.get(r.unit, ""), ALGORITHM_COLORS["byte-level BPE"])
        for r in rows
    ]
    names = [html.escape(r.unit) for r in rows]
    data = [{
        "type": "bar", "orientation": "h", "y": names, "x": costs, "marker": {"color": colors},
        "text": [f"{c:,.1f}×" for c in costs], "textposition": "outside", "cliponaxis": False,
        "customdata": np.asarray([[r.length, r.vocab_size] for r in rows]),
        "hovertemplate": "%{y}<br>%{customdata[0]:,} units, vocabulary %{customdata[1]:,}"
                         "<br>attention cost %{x:,.1f}× the shortest<extra></extra>",
    }]
    longest = max(range(len(rows)), key=lambda i: rows[i].length)
    shortest = min((i for i in range(len(rows)) if rows[i].length), key=lambda i: rows[i].length, default=longest)
    title = "Attention grows with the square of the length"
    subtitle = f"{names[longest]} cost {costs[longest]:,.0f}× what {names[shortest]} cost, per layer"
    layout = _layout(title, "attention cost, shortest = 1", "", subtitle=subtitle, log_x=False, log_y=False,
                     showlegend=False, height=140 + 34 * len(rows))
    layout["yaxis"].update(type="category", autorange="reversed")
    layout["xaxis"]["rangemode"] = "tozero"
    return go.Figure({"data": data, "layout": layout})


# -- compression --------------------------------------------------------------------------------------


def compression_frame(
    curves: Sequence[Curve], points: Sequence[TokenizerPoint], ceiling: float | None
) -> pd.DataFrame:
    """Every drawn value: each size of each sweep (BPE: every size), each real tokenizer, the ceiling."""
    rows = []
    for curve in curves:
        sizes, tokens = (
            (curve.dense_sizes, curve.dense_tokens) if curve.dense_sizes is not None else (curve.vocab_sizes, curve.tokens)
        )
        for size, count in zip(sizes.tolist(), tokens.tolist(), strict=True):
            rows.append(("trained here", curve.algorithm, size, count, curve.heldout_bytes / max(count, 1)))
    for point in points:
        rows.append(("real tokenizer", point.name, point.vocab_size, point.tokens, point.bytes_per_token))
    if ceiling is not None:
        rows.append(("ceiling: one token per pre-token", "ceiling", None, None, ceiling))
    frame = pd.DataFrame(rows, columns=["kind", "name", "vocabulary size", "held-out tokens", "bytes / token"])
    # nullable integers: the ceiling row has no size, and the CSV must not turn 50257 into 50257.0
    return frame.astype({"vocabulary size": "Int64", "held-out tokens": "Int64"})


def compression_figure(
    curves: Sequence[Curve],
    points: Sequence[TokenizerPoint],
    *,
    ceiling: float | None,
    ceiling_label: str = "one token per pre-token",
    notes: Sequence[str] = (),
) -> go.Figure:
    """Held-out bytes per token against vocabulary size (log x): a line per algorithm, the ceiling dashed,
    a labelled point per real tokenizer, and ``notes`` (what is missing) written on the chart."""
    data: list[dict] = []
    for curve in curves:
        color = ALGORITHM_COLORS.get(ALGORITHM_FAMILY.get(curve.algorithm, curve.algorithm), DATA_COLOR)
        if curve.dense_sizes is not None:
            picked = np.asarray(sample_indices(len(curve.dense_sizes)))
            sizes, tokens = curve.dense_sizes[picked], curve.dense_tokens[picked]
            data.append({
                "type": "scatter", "mode": "lines", "name": f"{curve.algorithm} trained here",
                "legendgroup": curve.algorithm, "x": sizes, "y": curve.heldout_bytes / np.maximum(tokens, 1),
                "line": {"color": color, "width": 3},
                "hovertemplate": f"{curve.algorithm} · vocabulary %{{x:,}}<br>%{{y:.3f}} bytes / token<extra></extra>",
            })
        data.append({
            "type": "scatter", "mode": "markers" if curve.dense_sizes is not None else "lines+markers",
            "name": f"{curve.algorithm} trained here", "legendgroup": curve.algorithm,
            "showlegend": curve.dense_sizes is None, "x": curve.vocab_sizes, "y": curve.bytes_per_token,
            "customdata": curve.tokens, "marker": {"color": color, "size": 9},
            "line": {"color": color, "width": 3, "dash": "dot" if curve.algorithm in DOTTED else "solid"},
            "hovertemplate": f"{curve.algorithm} · vocabulary %{{x:,}}<br>%{{y:.3f}} bytes / token"
                             "<br>%{customdata:,} held-out tokens<extra></extra>",
        })
    ordered = sorted(points, key=lambda p: p.vocab_size)
    sizes_seen = [s for c in curves for s in c.vocab_sizes] + [p.vocab_size for p in points]
    heights = [float(np.max(c.bytes_per_token)) for c in curves if len(c.bytes_per_token)] + [
        p.bytes_per_token for p in points]
    shifts = label_shifts([(p.vocab_size, p.bytes_per_token, short_label(p.name)) for p in ordered],
                          x_range=(min(sizes_seen, default=1), max(sizes_seen, default=10)),
                          y_top=max(heights, default=1.0) * 1.05)
    annotations: list[dict] = []
    for point, shift in zip(ordered, shifts, strict=True):
        color = ALGORITHM_COLORS.get(point.algorithm, CEILING_COLOR)
        name = html.escape(point.name)
        data.append({
            "type": "scatter", "mode": "markers", "name": name, "x": [point.vocab_size],
            "y": [point.bytes_per_token],
            "marker": {"color": color, "size": 12, "symbol": "diamond", "line": {"color": "white", "width": 1}},
            "customdata": [point.tokens], "showlegend": False,
            "hovertemplate": f"{name}<br>vocabulary %{{x:,}}<br>%{{y:.3f}} bytes / token"
                             "<br>%{customdata:,} held-out tokens<extra></extra>",
        })
        # subtle: on a log axis an annotation's x is the log10 of the value
        annotations.append({"x": float(np.log10(point.vocab_size)), "y": point.bytes_per_token, "yshift": shift,
                            "text": html.escape(short_label(point.name)), "showarrow": False,
                            "font": {"color": color}})
    shapes = []
    if ceiling is not None:
        shapes.append({"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": ceiling, "y1": ceiling,
                       "line": {"color": CEILING_COLOR, "dash": "dash", "width": 2}})
        annotations.append({"xref": "paper", "x": 0, "y": ceiling, "xanchor": "left", "yanchor": "bottom",
                            "showarrow": False, "text": f"{html.escape(ceiling_label)}: {ceiling:.2f} bytes / token",
                            "font": {"color": CEILING_COLOR}})
    if notes:
        annotations.append({"xref": "paper", "yref": "paper", "x": 1, "y": 0.02, "xanchor": "right",
                            "yanchor": "bottom", "align": "right", "showarrow": False,
                            "text": "<br>".join(html.escape(n) for n in notes),
                            "font": {"color": CEILING_COLOR, "size": 13}, "bgcolor": "rgba(255,255,255,0.8)"})
    title, subtitle = _compression_title(curves)
    layout = _layout(title, "vocabulary size (log scale)", "held-out bytes per token", subtitle=subtitle, log_y=False, shapes=shapes, annotations=annotations, height=480)
    layout["xaxis"]["tickformat"] = ",d"
    layout["yaxis"]["rangemode"] = "tozero"
    return go.Figure({"data": data, "layout": layout})


LABEL_PLOT_PX = (560, 330)  # the compression chart's plot area (px), at its narrowest (half of 1400 px)
LABEL_LINE_PX = 24  # one label's height with room, and the step between the places tried for it
LABEL_CHAR_PX = 8.5


def label_shifts(points: Sequence[tuple[float, float, str]], *, x_range: tuple[float, float], y_top: float) -> list[int]:
    """Vertical shifts (px) for the labels of points (vocabulary size, bytes per token, label) on the
    log-x compression chart, so that no two labels overlap: each takes the nearest place above or below
    its point that is clear of the labels placed before it (taking turns was not enough: cl100k_base
    and o200k_base, a little apart on the x axis, both went below).

    >>> label_shifts([(100_000, 4.0, "cl100k_base"), (128_000, 4.1, "Llama 3"), (200_000, 4.2, "o200k_base")],
    ...              x_range=(100, 200_000), y_top=5.0)
    [18, -18, 42]
    """
    low, high = np.log10(max(x_range[0], 1)), np.log10(max(x_range[1], 2))
    span = max(high - low, 1e-9)
    width_px, height_px = LABEL_PLOT_PX
    placed: list[tuple[float, float, float, float]] = []
    shifts = []
    for size, value, label in points:
        x = (np.log10(max(size, 1)) - low) / span * width_px
        y = (1 - value / max(y_top, 1e-9)) * height_px  # from the top, as the screen counts
        half = len(label) * LABEL_CHAR_PX / 2
        for step in range(1, 8):
            shift = (step // 2 + (step % 2)) * LABEL_LINE_PX - LABEL_LINE_PX // 4
            shift = shift if step % 2 else -shift  # above first (plotly's yshift goes up), then below
            top = y - shift - LABEL_LINE_PX / 2
            box = (x - half, x + half, top, top + LABEL_LINE_PX)
            if not any(box[0] < b[1] and b[0] < box[1] and box[2] < b[3] and b[2] < box[3] for b in placed):
                break
        placed.append(box)
        shifts.append(int(shift))
    return shifts


def short_label(name: str) -> str:
    """A tokenizer's name without its parenthesis or alternatives, for a label on a chart.

    >>> short_label("cl100k_base (GPT-3.5 / GPT-4)"), short_label("Llama 3 / 3.1 / 3.2 / 3.3")
    ('cl100k_base', 'Llama 3')
    """
    return name.split(" (")[0].split(" / ")[0]


def _compression_title(curves: Sequence[Curve]) -> tuple[str, str]:
    title = "A bigger vocabulary carries more text per token, with diminishing returns"
    bpe_curve = next((c for c in curves if c.algorithm == "BPE" and len(c.tokens) > 1), None)
    if bpe_curve is None:
        return title, "held-out bytes per token"
    per = bpe_curve.bytes_per_token
    return title, (
        f"BPE trained here: {per[0]:.2f} bytes / token at {compact(bpe_curve.vocab_sizes[0])} tokens, "
        f"{per[-1]:.2f} at {compact(bpe_curve.vocab_sizes[-1])}"
    )


# -- vocabulary cost ----------------------------------------------------------------------------------


def vocab_cost_frame(presets: Sequence[ModelPreset]) -> pd.DataFrame:
    """One row per preset: its published figures, the vocabulary's parameters and share, and the source."""
    rows = []
    for preset in presets:
        cost = preset.cost()
        rows.append({
            "model": preset.name, "V": preset.vocab_size, "d": preset.d_model, "N": preset.params,
            "tied": preset.tied, "embedding params": cost.embedding, "output-layer params": cost.output,
            "vocabulary share of N": cost.share, "output multiply-adds per token": cost.output_macs,
            "source": preset.source,
        })
    return pd.DataFrame(rows)


def vocab_cost_figure(presets: Sequence[ModelPreset]) -> go.Figure:
    """The vocabulary's share of each preset model, embedding and (untied) output layer stacked."""
    names = [p.name for p in presets]
    costs = [p.cost() for p in presets]
    data = [
        {"type": "bar", "orientation": "h", "name": "input embedding (V × d)", "y": names,
         "x": [100 * c.embedding / c.params for c in costs], "marker": {"color": "#1f4e9c"},
         "hovertemplate": "%{y}: embedding %{x:.1f}% of N<extra></extra>"},
        {"type": "bar", "orientation": "h", "name": "output layer, when not tied (V × d)", "y": names,
         "x": [100 * c.output / c.params for c in costs], "marker": {"color": "#c05621"},
         "hovertemplate": "%{y}: output layer %{x:.1f}% of N<extra></extra>"},
    ]
    top = max(range(len(costs)), key=lambda i: costs[i].share)
    low = min(range(len(costs)), key=lambda i: costs[i].share)
    title = f"The vocabulary is {costs[top].share:.0%} of {names[top]} but {costs[low].share:.1%} of {names[low]}"
    subtitle = "embedding and output-layer parameters as a share of all parameters N"
    layout = _layout(title, "share of all parameters (%)", "", subtitle=subtitle, log_x=False, log_y=False,
                     barmode="stack", height=380, legend={"orientation": "h", "y": -0.2, "traceorder": "normal"})
    layout["yaxis"].update(type="category", autorange="reversed")
    return go.Figure({"data": data, "layout": layout})
