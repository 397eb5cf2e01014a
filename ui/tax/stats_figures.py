"""Figures of the Language tax page's research views: the per-segment premium's distribution and
the compression leaderboard's heatmap. Pure functions from ``core.tax.tax_stats`` frames; no Streamlit.

Languages keep their script colors (``ui.tax.figures.script_color``); pairs left out by the
validation (too many unknown tokens) are drawn grey and labelled "⚠", never silently dropped.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ui.tax.figures import UPRIGHT_FROM, _esc, bar_label_size, fmt_ratio, labels, script_color, short_name

MAX_BOXES = 60  # more languages than this: the cheapest and dearest halves by median, and the base
BOARD_VALUES = {"bytes_per_token": "UTF-8 bytes per token", "chars_per_token": "characters per token",
                "premium": "premium over the base"}
_FONT = {"size": 15}
_INVALID = "#b0b0b0"


def box_order(premiums: pd.DataFrame, tokenizer: str, *, order: str = "median",
              corpus_order: list[str] | None = None, max_boxes: int = MAX_BOXES) -> list[str]:
    """Language codes of the boxes: by median premium (cheapest first) or in corpus order; beyond
    ``max_boxes``, the cheapest and dearest halves by median (ties broken by code).

    >>> p = pd.DataFrame({"language": ["a", "a", "b"], "tokenizer": "t", "premium": [3.0, 5.0, 2.0]})
    >>> box_order(p, "t"), box_order(p, "t", order="corpus", corpus_order=["a", "b"])
    (['b', 'a'], ['a', 'b'])
    """
    rows = premiums[premiums["tokenizer"] == tokenizer]
    medians = rows.groupby("language")["premium"].median()
    ranked = sorted(medians.index, key=lambda code: (medians[code], code))
    if len(ranked) > max_boxes:
        half = max_boxes // 2
        ranked = ranked[:half] + ranked[-half:]
    if order == "corpus" and corpus_order is not None:
        keep = set(ranked)
        return [code for code in corpus_order if code in keep]
    return ranked


def distribution_figure(premiums: pd.DataFrame, table: pd.DataFrame, tokenizer: str, *, order: str = "median",
                        unit: str = "segment", presenting: bool = False) -> go.Figure:
    """One box per language: the spread of its per-segment premium under ``tokenizer``, the median
    marked with a diamond; ``table`` (a validated ``language_tax`` table) gives names, scripts and the
    ``valid`` flag (a False pair is grey and labelled "⚠ unknown tokens").

    Every box is labelled, as the premium bars are (``ui.tax.figures.premium_bars``: plotly leaves out
    every other label that would touch its neighbour), at a size that fits one box's width; the median's
    value is written over its diamond only while the values fit side by side (``UPRIGHT_FROM`` boxes at
    most: with 42 languages they ran into each other), and is always in the hover.
    """
    rows = table[table["tokenizer"] == tokenizer]
    if rows.empty:
        raise ValueError(f"the table has no rows for tokenizer {tokenizer!r}")
    info = rows.set_index("language")
    names = labels(table)
    codes = box_order(premiums, tokenizer, order=order, corpus_order=list(rows["language"]))
    mine = premiums[premiums["tokenizer"] == tokenizer]
    traces, medians = [], []
    for code in codes:
        values = mine.loc[mine["language"] == code, "premium"].to_numpy(dtype=float)
        valid = bool(info.loc[code].get("valid", True))
        label = _esc(names[code]) + ("" if valid else " ⚠")
        color = script_color(info.loc[code, "script"]) if valid else _INVALID
        traces.append(go.Box(y=values, name=label, marker={"color": color, "size": 4}, line={"color": color},
                             boxpoints="outliers", showlegend=False, customdata=[code] * len(values),
                             hovertemplate=f"{label}: %{{y:.2f}}×<extra></extra>"))
        medians.append((label, float(np.median(values)) if len(values) else np.nan, valid))
    written = len(codes) <= UPRIGHT_FROM
    traces.append(go.Scatter(
        x=[m[0] for m in medians], y=[m[1] for m in medians], mode="markers+text" if written else "markers",
        showlegend=False,
        marker={"symbol": "diamond", "size": 9, "color": "#222"}, text=[fmt_ratio(m[1]) for m in medians],
        textposition="top center", textfont={"size": 11}, hovertemplate="%{x}: median %{y:.2f}×<extra></extra>",
        name="median",
    ))
    base = _esc(str(rows.loc[rows["is_base"], "name"].iloc[0])) if rows["is_base"].any() else "the base"
    name = short_name(tokenizer, str(rows["tokenizer_name"].iloc[0]))
    known = [m for m in medians if np.isfinite(m[1]) and m[2]]
    title = f"Per-{unit} premium under {name}, against {base}"
    if known:
        low, high = min(known, key=lambda m: m[1]), max(known, key=lambda m: m[1])
        title = f"Median per-{unit} premium under {name}: {low[0]} {fmt_ratio(low[1])} … {high[0]} {fmt_ratio(high[1])}"
    ticks = [m[0] for m in medians]
    tick = bar_label_size(len(ticks), presenting=presenting)
    layout = {
        "title": {"text": title}, "height": 460, "font": _FONT, "hoverlabel": {"font": _FONT},
        "margin": {"l": 10, "r": 10, "t": 60, "b": 10}, "yaxis": {"type": "log", "title": {"text": "premium (×, log)"}},
        "xaxis": {"automargin": True, "tickmode": "array", "tickvals": ticks, "ticktext": ticks,
                  "tickangle": (0 if len(codes) <= 12 else -45) if len(codes) <= UPRIGHT_FROM else -90,
                  "tickfont": {"size": tick}},
        # ui.figures.for_presentation: a full-width chart, whose many labels keep the size set here
        "meta": {"presentation": {"title_chars": 90, "x_tick_size": tick}},
        "shapes": [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 1, "y1": 1,
                    "line": {"dash": "dot", "color": "#666", "width": 1}}],
    }
    return go.Figure(data=traces, layout=layout)


def leaderboard_heatmap(board: pd.DataFrame, matrix: pd.DataFrame, value: str,
                        left_out: pd.DataFrame | None = None) -> go.Figure:
    """Tokenizers (rows, best first) × languages, one ``core.tax.tax_stats.leaderboard_matrix`` column,
    each cell's value written in it; darker is better (more bytes or characters a token, a lower premium).
    ``left_out`` (``core.tax.tax_stats.leaderboard_left_out``): those cells, blank in ``matrix``, say "⚠"."""
    names = board.drop_duplicates("language").set_index("language")["name"]
    tokenizer_names = board.drop_duplicates("tokenizer").set_index("tokenizer")["tokenizer_name"]
    z = matrix.to_numpy(dtype=float)
    flags = (np.zeros(z.shape, dtype=bool) if left_out is None
             else left_out.reindex_like(matrix).fillna(False).to_numpy(dtype=bool))
    text = [[("⚠" if out else "—" if not np.isfinite(v) else (fmt_ratio(v) if value == "premium" else f"{v:.2f}"))
             for v, out in zip(row, row_flags, strict=True)] for row, row_flags in zip(z, flags, strict=True)]
    rows = [_esc(short_name(k, str(tokenizer_names[k]))) for k in matrix.index]
    trace = {
        "type": "heatmap", "z": z, "x": [_esc(str(names[c])) for c in matrix.columns], "y": rows, "text": text,
        "texttemplate": "%{text}", "textfont": {"size": 11}, "colorscale": "Viridis",
        "reversescale": value == "premium", "xgap": 1, "ygap": 1,
        "colorbar": {"title": {"text": BOARD_VALUES[value]}},
        "hovertemplate": "%{y} on %{x}: %{text}<extra></extra>",
    }
    best = rows[0] if rows else ""
    title = f"{best} compresses best on average ({BOARD_VALUES[value]})" if rows else "Compression leaderboard"
    layout = {
        "title": {"text": title}, "height": 160 + 24 * len(rows), "font": _FONT, "hoverlabel": {"font": _FONT},
        "margin": {"l": 10, "r": 10, "t": 80, "b": 10}, "xaxis": {"side": "top", "tickangle": -45},
        "yaxis": {"autorange": "reversed", "automargin": True},
    }
    return go.Figure({"data": [trace], "layout": layout})
