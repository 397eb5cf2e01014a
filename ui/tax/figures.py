"""Figures and frames of the Language tax page, built by pure functions from a ``language_tax`` table.

Each chart says its message in its title ("Burmese costs 12.4× the tokens of English under
cl100k_base"), colors a language by its script the same way in every chart (``script_color``), and
marks lossy cells (unknown tokens) in its text, not only on hover. Nothing here imports Streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from core.tax.language_tax import GENERATIONS
from core.tax.parallel_corpus import SCRIPT_NAMES

LOSSY_SHARE = 0.01  # a cell with at least this share of unknown tokens is marked lossy
MAX_BARS = 60  # more languages than this: the bar chart shows the cheapest and dearest halves
# Script colors: a fixed order, so a script keeps its color whatever the selection.
_PALETTE = (
    "#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c", "#ccb974",
    "#64b5cd", "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#1f78b4",
    "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6", "#6a3d9a", "#b15928", "#33a02c", "#e31a1c", "#ff7f00",
)
_SCRIPT_ORDER = (
    "Latn", "Cyrl", "Grek", "Armn", "Geor", "Hebr", "Arab", "Deva", "Beng", "Guru", "Gujr", "Taml", "Telu",
    "Knda", "Mlym", "Sinh", "Thai", "Laoo", "Khmr", "Mymr", "Ethi", "Hans", "Hant", "Hani", "Jpan", "Hang", "Kore",
)
SHORT_NAMES: Mapping[str, str] = {
    "gpt2": "GPT-2", "llama3": "Llama 3", "llama2": "Llama 2", "qwen": "Qwen", "xlmr": "XLM-R", "mbert": "mBERT",
    "t5": "T5", "mistral_v1": "Mistral v1", "mistral_v3": "Mistral v3", "mistral_nemo": "Mistral NeMo",
    "bert_uncased": "BERT uncased", "bert_cased": "BERT cased", "claude_legacy": "Claude (legacy)",
    "whisper": "Whisper",
}
_FONT = {"size": 15}
# The bar chart's plot area (px) beside its script legend: at 1400 px in normal mode, and at 1280x720
# in presentation mode beside the open sidebar; its height when presenting (x 1.2 in ui.figures).
PLOT_PX = 590
PRESENTING_PLOT_PX = 500
PRESENTING_HEIGHT = 430
UPRIGHT_FROM = 16  # more bars than this: labels stand upright (at -50 degrees every other one would go)
MIN_LABEL_PX = 11


def short_name(key: str, name: str | None = None) -> str:
    """A tokenizer's name short enough for a title or an axis: ``cl100k_base``, ``Llama 3``.

    >>> short_name("cl100k_base", "cl100k_base (GPT-3.5 / GPT-4)"), short_name("llama3")
    ('cl100k_base', 'Llama 3')
    """
    if key in SHORT_NAMES:
        return SHORT_NAMES[key]
    return (name or key).split(" (")[0]


def script_color(script: str) -> str:
    """The color of a script (ISO 15924), the same in every chart.

    >>> script_color("Latn")
    '#4c72b0'
    """
    if script in _SCRIPT_ORDER:
        return _PALETTE[_SCRIPT_ORDER.index(script) % len(_PALETTE)]
    others = sorted(set(SCRIPT_NAMES) - set(_SCRIPT_ORDER))
    index = others.index(script) if script in others else sum(map(ord, script))
    return _PALETTE[(len(_SCRIPT_ORDER) + index) % len(_PALETTE)]


def fmt_ratio(value: float) -> str:
    """``4.8×``; two decimals below 10, one above; ``—`` for a missing value.

    >>> fmt_ratio(4.812), fmt_ratio(12.44), fmt_ratio(float("nan"))
    ('4.81×', '12.4×', '—')
    """
    if value is None or not math.isfinite(value):
        return "—"
    return f"{value:.1f}×" if value >= 10 else f"{value:.2f}×"


def labels(table: pd.DataFrame) -> pd.Series:
    """A display label per language code: its name, with the code added where two names clash."""
    names = table.drop_duplicates("language").set_index("language")["name"]
    clash = names.duplicated(keep=False)
    return names.where(~clash, names + " (" + names.index.to_series() + ")")


def _lossy(rows: pd.DataFrame) -> pd.Series:
    return rows["unknown_share"].fillna(0) >= LOSSY_SHARE


def chart_rows(table: pd.DataFrame, tokenizer: str, *, max_bars: int = MAX_BARS) -> pd.DataFrame:
    """The rows of one tokenizer sorted by premium (cheapest first); beyond ``max_bars`` languages,
    the cheapest and the dearest halves, and the base language always."""
    rows = table[table["tokenizer"] == tokenizer].sort_values(["premium", "name"], kind="stable")
    if len(rows) <= max_bars:
        return rows
    half = max_bars // 2
    keep = pd.concat([rows.head(half), rows.tail(half), rows[rows["is_base"]]])
    return rows.loc[rows.index.isin(keep.index)]


def premium_message(table: pd.DataFrame, tokenizer: str) -> str:
    """The bar chart's title: the dearest language under ``tokenizer`` against the base.

    >>> t = pd.DataFrame({"tokenizer": ["c", "c"], "name": ["English", "Hindi"], "premium": [1.0, 4.8],
    ...                   "is_base": [True, False], "tokenizer_name": ["cl100k_base"] * 2, "unknown_share": [0, 0]})
    >>> premium_message(t, "c")
    'Hindi costs 4.80× the tokens of English under cl100k_base'
    """
    rows = table[table["tokenizer"] == tokenizer]
    base = rows[rows["is_base"]]["name"].iloc[0]
    others = rows[~rows["is_base"] & rows["premium"].notna()]
    name = short_name(tokenizer, rows["tokenizer_name"].iloc[0])
    if others.empty:
        return f"Tokens under {name}, relative to {base}"
    dearest = others.loc[others["premium"].idxmax()]
    verb = "costs" if dearest["premium"] >= 1 else "costs only"
    message = f"{dearest['name']} {verb} {fmt_ratio(dearest['premium'])} the tokens of {base} under {name}"
    lossy = others[_lossy(others)]
    if len(lossy):
        message += f" ({len(lossy)} with unknown tokens: their text is partly lost)"
    return message


def premium_bars(table: pd.DataFrame, tokenizer: str, *, focus: str = "", presenting: bool = False) -> go.Figure:
    """Bars of the premium per language under ``tokenizer``, colored by script, sorted; the UTF-8
    bytes and characters ratios as markers beside each bar; lossy bars hatched and labelled.

    ``customdata`` of every bar is the language code, so a click on a bar names its language. Every
    bar is labelled: plotly leaves out every other category label when they would touch, so the
    labels stand upright, one per bar, at a size that fits the bar's width. ``presenting``: the chart
    is short enough to show with its labels under the page's title on a 1280x720 screen.
    """
    rows = chart_rows(table, tokenizer)
    if rows.empty:
        raise ValueError(f"the table has no rows for tokenizer {tokenizer!r}")
    names = labels(table)
    rows = rows.assign(label=rows["language"].map(names).map(_esc))  # axis labels are plotly markup too
    order = list(rows["label"])
    traces: list[dict] = []
    for script, group in rows.groupby("script", sort=False):
        lossy = _lossy(group)
        traces.append({
            "type": "bar", "name": SCRIPT_NAMES.get(script, script), "legendgroup": script,
            "x": list(group["label"]), "y": group["premium"].to_numpy(), "customdata": list(group["language"]),
            "marker": {
                "color": script_color(script),
                "line": {"color": ["#d9480f" if code == focus else "rgba(0,0,0,0)" for code in group["language"]],
                         "width": 3},
                "pattern": {"shape": ["/" if flag else "" for flag in lossy], "fgcolor": "#222", "solidity": 0.35},
            },
            "text": [f"{share:.0%} unk" if flag else "" for share, flag in zip(group["unknown_share"], lossy, strict=True)],
            "textposition": "outside", "cliponaxis": False,
            "hovertext": _hovers(group), "hovertemplate": "%{hovertext}<extra></extra>",
        })
    for column, symbol, label in (("bytes_ratio", "diamond", "UTF-8 bytes ratio"),
                                  ("chars_ratio", "circle-open", "characters ratio")):
        traces.append({
            "type": "scatter", "mode": "markers", "name": label, "legendrank": 1, "x": order,
            "y": rows[column].to_numpy(),
            "customdata": list(rows["language"]),
            "marker": {"symbol": symbol, "size": 9, "color": "#222", "line": {"width": 1.5, "color": "#222"}},
            "hovertemplate": f"%{{x}}<br>{label}: %{{y:.2f}}×<extra></extra>",
        })
    tick = bar_label_size(len(order), presenting=presenting)
    layout = {
        "title": {"text": premium_message(table, tokenizer)},
        "barmode": "overlay", "height": PRESENTING_HEIGHT if presenting else 600, "font": _FONT,
        "hoverlabel": {"font": _FONT}, "margin": {"l": 10, "r": 10, "t": 60, "b": 10},
        "xaxis": {"categoryorder": "array", "categoryarray": order, "automargin": True,
                  "tickmode": "array", "tickvals": order, "ticktext": order,
                  "tickangle": -50 if len(order) <= UPRIGHT_FROM else -90, "tickfont": {"size": tick}},
        # ui.figures.for_presentation: a full-width chart, whose many labels keep the size set here
        "meta": {"presentation": {"title_chars": 90, "x_tick_size": tick}},
        "yaxis": {"title": {"text": "× the base language's tokens"}, "rangemode": "tozero", "ticksuffix": "×"},
        # a column at the right: a row above the bars would wrap into the title on narrow screens
        "legend": {"orientation": "v", "x": 1.01, "y": 1, "yanchor": "top", "font": {"size": 12},
                   "tracegroupgap": 0},
        "shapes": [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 1, "y1": 1,
                    "line": {"color": "#555", "width": 1, "dash": "dot"}}],
        "clickmode": "event+select", "dragmode": False,
    }
    return go.Figure({"data": traces, "layout": layout})


def bar_label_size(bars: int, *, presenting: bool = False) -> int:
    """The font size (px) of the bars' labels: one bar's width on the narrowest screen the chart is
    made for (1400 px, or 1280 px beside the open sidebar when presenting), at most the axis' size.

    >>> bar_label_size(10), bar_label_size(42), bar_label_size(42, presenting=True)
    (15, 12, 11)
    """
    plot_px = PRESENTING_PLOT_PX if presenting else PLOT_PX
    return max(MIN_LABEL_PX, min(20 if presenting else _FONT["size"], int(plot_px / max(bars, 1) * 0.9)))


def _hovers(rows: pd.DataFrame) -> list[str]:
    """The hover text of each bar: the numbers behind it, and the unknown tokens when there are any."""
    out = []
    columns = ("name", "script_name", "premium", "tokens", "base_tokens", "bytes_ratio", "chars_ratio", "segments",
               "unknown", "unknown_share")
    for name, script, premium, tokens, base, by, ch, segments, unknown, share in zip(
        *(rows[c].tolist() for c in columns), strict=True
    ):
        lines = [
            f"<b>{_esc(name)}</b> · {_esc(script)}", f"{fmt_ratio(premium)} the tokens ({tokens:,} vs {base:,})",
            f"bytes {fmt_ratio(by)} · characters {fmt_ratio(ch)}", f"{segments:,} segments compared",
        ]
        if unknown:
            lines.append(f"⚠ {share:.0%} unknown tokens: the text under them is lost")
        out.append("<br>".join(lines))
    return out


def _esc(text: str) -> str:
    """Plotly hover text is HTML-like: keep a language name from becoming markup."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def heatmap_frame(table: pd.DataFrame, *, order: str = "premium") -> tuple[pd.DataFrame, pd.DataFrame]:
    """(premium, unknown share) as language labels × tokenizer keys, rows ordered by mean log
    premium (``order="premium"``) or by script, then premium (``order="script"``)."""
    names = labels(table)
    premium = table.pivot(index="language", columns="tokenizer", values="premium")
    unknown = table.pivot(index="language", columns="tokenizer", values="unknown_share")
    tokenizers = list(dict.fromkeys(table["tokenizer"]))
    premium, unknown = premium[tokenizers], unknown[tokenizers]
    mean = np.log(premium.where(premium > 0)).mean(axis=1)
    info = table.drop_duplicates("language").set_index("language")
    keys = pd.DataFrame({"mean": mean, "script": info["script"].map(lambda s: (_SCRIPT_ORDER + (s,)).index(s))})
    by = ["script", "mean"] if order == "script" else ["mean"]
    ranked = keys.sort_values(by, kind="stable").index
    premium, unknown = premium.loc[ranked], unknown.loc[ranked]
    premium.index = unknown.index = [_esc(names[code]) for code in ranked]
    return premium, unknown


def premium_heatmap(table: pd.DataFrame, *, order: str = "premium") -> go.Figure:
    """Languages × tokenizers, the premium on a diverging scale around 1× (log2), value in each cell;
    cells with unknown tokens say so ("⚠ 48% unk")."""
    premium, unknown = heatmap_frame(table, order=order)
    z = np.log2(premium.to_numpy(dtype=float))
    bound = max(1.0, float(np.nanmax(np.abs(z))) if np.isfinite(z).any() else 1.0)
    text = [
        [fmt_ratio(p) + (f" ⚠{u:.0%} unk" if u >= LOSSY_SHARE else "") for p, u in zip(prow, urow, strict=True)]
        for prow, urow in zip(premium.to_numpy(), unknown.fillna(0).to_numpy(), strict=True)
    ]
    tokenizer_names = table.drop_duplicates("tokenizer").set_index("tokenizer")["tokenizer_name"]
    columns = [short_name(key, tokenizer_names[key]) for key in premium.columns]
    ticks = [v for v in (-3, -2, -1, 0, 1, 2, 3, 4) if abs(v) <= math.ceil(bound)]
    trace = {
        "type": "heatmap", "z": z, "x": columns, "y": list(premium.index), "text": text,
        "texttemplate": "%{text}", "textfont": {"size": 13}, "colorscale": "RdBu", "reversescale": True,
        "zmin": -bound, "zmax": bound, "zmid": 0, "xgap": 2, "ygap": 2,
        "colorbar": {"title": {"text": "premium"}, "tickvals": ticks, "ticktext": [fmt_ratio(2.0**v) for v in ticks]},
        "hovertemplate": "%{y} under %{x}: %{text}<extra></extra>",
    }
    medians = premium.drop(index=[i for i in premium.index if (premium.loc[i] == 1).all()], errors="ignore").median()
    title = "Premium of each language under each tokenizer"
    if medians.notna().any():
        fair, unfair = medians.idxmin(), medians.idxmax()
        title = (f"{short_name(fair, tokenizer_names[fair])} taxes other languages least "
                 f"(median {fmt_ratio(medians[fair])}), {short_name(unfair, tokenizer_names[unfair])} most "
                 f"({fmt_ratio(medians[unfair])})")
    layout = {
        "height": 140 + 26 * len(premium), "font": _FONT, "hoverlabel": {"font": _FONT},
        # the tokenizers' names stand on the plot's top edge: the title goes to the figure's top, above them
        "title": {"text": title, "yref": "container", "y": 1, "yanchor": "top", "pad": {"t": 12}},
        "margin": {"l": 10, "r": 10, "t": 95, "b": 10}, "xaxis": {"side": "top"},
        "yaxis": {"autorange": "reversed", "automargin": True},
    }
    return go.Figure({"data": [trace], "layout": layout})


def generations_figure(table: pd.DataFrame, *, max_labels: int = 8) -> go.Figure:
    """A slope chart per vendor (``GENERATIONS``): each language's premium from one generation of
    its tokenizer to the next, on a log axis; lines colored by script, the dearest languages of the
    newest generation named at the right end (labels pushed apart so they never overlap).

    Subtle: one trace per script and panel, its languages' lines separated by gaps (``None``), so
    500 languages make a few dozen traces, not a thousand. Vendors whose tokenizers are not all in
    ``table`` are left out; ``ValueError`` when none is left.
    """
    present = set(table["tokenizer"])
    vendors = {v: keys for v, keys in GENERATIONS.items() if set(keys) <= present}
    if not vendors:
        raise ValueError("the table has no complete generation of tokenizers (GPT-2 → cl100k → o200k, or Llama 2 → 3)")
    names = labels(table)
    tokenizer_names = table.drop_duplicates("tokenizer").set_index("tokenizer")["tokenizer_name"]
    rows = table[~table["is_base"]]
    scripts = rows.drop_duplicates("language").set_index("language")["script"]
    traces: list[dict] = []
    annotations: list[dict] = []
    biggest: tuple[float, str] = (0.0, "")
    for col, keys in enumerate(vendors.values(), start=1):
        axis = "" if col == 1 else str(col)
        x = [short_name(k, tokenizer_names[k]) for k in keys]
        wide = rows.pivot(index="language", columns="tokenizer", values="premium")[list(keys)]
        drops = wide[keys[0]] - wide[keys[-1]]
        if drops.notna().any() and drops.max() > biggest[0]:
            code = drops.idxmax()
            biggest = (drops.max(), f"From {x[0]} to {x[-1]}, {names[code]}'s premium fell from "
                                    f"{fmt_ratio(wide.loc[code, keys[0]])} to {fmt_ratio(wide.loc[code, keys[-1]])}")
        values = dict(zip(wide.index, wide.to_numpy().tolist(), strict=True))
        by_script: dict[str, list[str]] = {}
        for code in wide.index:
            by_script.setdefault(scripts[code], []).append(code)
        for script, codes in by_script.items():
            xs, ys, hover = [], [], []
            for code in codes:
                name = _esc(names[code])
                xs += [*x, None]
                ys += [*values[code], None]
                hover += [f"{name}<br>{label}: {fmt_ratio(v)}" for label, v in zip(x, values[code], strict=True)]
                hover.append("")
            traces.append({
                "type": "scatter", "mode": "lines+markers", "x": xs, "y": ys, "xaxis": f"x{axis}", "yaxis": f"y{axis}",
                "name": SCRIPT_NAMES.get(script, script), "legendgroup": script, "showlegend": col == 1,
                "line": {"color": script_color(script), "width": 2}, "marker": {"size": 7}, "connectgaps": False,
                "hovertext": hover, "hovertemplate": "%{hovertext}<extra></extra>",
            })
        ends = wide[keys[-1]].dropna()
        ends = ends[ends > 0].nlargest(max_labels)
        for index, height in _spread(np.log10(ends.to_numpy()), gap=0.07).items():
            code = ends.index[index]
            annotations.append({
                "x": x[-1], "y": height, "xref": f"x{axis}", "yref": f"y{axis}", "text": _esc(names[code]),
                "showarrow": False, "xanchor": "left", "xshift": 8,
                "font": {"size": 12, "color": script_color(scripts[code])},
            })
    ticks = [0.1, 0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24]
    width, gap = 1.0 / len(vendors), 0.12
    layout: dict = {
        "title": {"text": biggest[1] or "Premium across generations of tokenizers"}, "height": 600, "font": _FONT,
        "margin": {"l": 10, "r": 130, "t": 80, "b": 10}, "hoverlabel": {"font": _FONT},
        "legend": {"orientation": "h", "y": -0.25, "yanchor": "top", "font": {"size": 13}},
        "annotations": annotations,
    }
    for col, vendor in enumerate(vendors, start=1):
        axis = "" if col == 1 else str(col)
        left = (col - 1) * width + (gap / 2 if col > 1 else 0)
        right = col * width - (gap / 2 if col < len(vendors) else 0)
        layout[f"xaxis{axis}"] = {"domain": [left, right], "anchor": f"y{axis}", "type": "category"}
        layout[f"yaxis{axis}"] = {
            "anchor": f"x{axis}", "type": "log", "tickvals": ticks, "ticktext": [f"{t:g}×" for t in ticks],
            **({"matches": "y", "showticklabels": False} if col > 1 else
               {"title": {"text": "× the base language's tokens (log scale)"}}),
        }
        annotations.append({"text": f"<b>{vendor}</b>", "x": (left + right) / 2, "y": 1.02, "xref": "paper",
                            "yref": "paper", "showarrow": False, "xanchor": "center", "yanchor": "bottom"})
    return go.Figure({"data": traces, "layout": layout})


def _spread(values: np.ndarray, *, gap: float) -> dict[int, float]:
    """Label heights at least ``gap`` apart, each as near its value as that allows (index -> height).

    >>> _spread(np.array([1.0, 1.01, 2.0]), gap=0.1)
    {0: 1.0, 1: 1.1, 2: 2.0}
    """
    order = np.argsort(values, kind="stable")
    placed: dict[int, float] = {}
    previous = -np.inf
    for index in order:
        height = max(float(values[index]), previous + gap)
        placed[int(index)] = round(height, 10)
        previous = height
    return dict(sorted(placed.items()))


# the per-segment spread's columns of a language_tax table and their labels in the wide table; the
# ratio labels end in " ×", the share's in "2×" (ui.tax.views formats them by that)
SPREAD = {"median": "median ×", "q1": "Q1 ×", "q3": "Q3 ×", "share_above_2x": "segments > 2×"}
LEFT_OUT = "left out (unknown tokens)"  # the wide table's column naming the pairs validation leaves out


def wide_table(table: pd.DataFrame) -> pd.DataFrame:
    """One row per language: script, bytes and characters ratios, then the premium under each
    tokenizer, then under each tokenizer the per-segment premium's median, quartiles and share of
    segments above 2× (``SPREAD``), and the unknown-token share of each tokenizer that has any; for a
    validated table (``valid`` column) that leaves pairs out, ``LEFT_OUT`` names their tokenizers."""
    first = table.drop_duplicates("language").set_index("language")
    out = pd.DataFrame({
        "language": first["name"], "script": first["script_name"], "bytes ×": first["bytes_ratio"],
        "characters ×": first["chars_ratio"],
    })
    names = table.drop_duplicates("tokenizer").set_index("tokenizer")["tokenizer_name"]
    premium = table.pivot(index="language", columns="tokenizer", values="premium")
    unknown = table.pivot(index="language", columns="tokenizer", values="unknown_share")
    spread = {column: table.pivot(index="language", columns="tokenizer", values=column) for column in SPREAD}
    for key in dict.fromkeys(table["tokenizer"]):
        out[f"{short_name(key, names[key])} ×"] = premium[key]
    for key in dict.fromkeys(table["tokenizer"]):
        for column, label in SPREAD.items():
            out[f"{short_name(key, names[key])} {label}"] = spread[column][key]
    for key in dict.fromkeys(table["tokenizer"]):
        if (unknown[key].fillna(0) > 0).any():
            out[f"{short_name(key, names[key])} unknown"] = unknown[key]
    if "valid" in table.columns and not table["valid"].all():  # a validated table leaving pairs out
        out[LEFT_OUT] = _left_out(table, names).reindex(out.index).fillna("")
    return out.reset_index(drop=True)


def _left_out(table: pd.DataFrame, names: pd.Series) -> pd.Series:
    """Per language, the short names of the tokenizers whose pair validation leaves out of the charts."""
    out = table[~table["valid"] & ~table["is_base"]]
    return out.groupby("language", sort=False)["tokenizer"].agg(
        lambda keys: ", ".join(short_name(k, names[k]) for k in keys))


def units_frame(table: pd.DataFrame, fit: pd.DataFrame, unit: str) -> pd.DataFrame:
    """Languages × tokenizers of one practical unit ("words", "segments" or "cost"), from
    ``core.tax.language_tax.context_fit`` of the same table."""
    column = {"words": "base_words_per_context", "segments": "segments_per_context",
              "cost": "cost_per_million_words"}[unit]
    names = labels(table)
    tokenizer_names = table.drop_duplicates("tokenizer").set_index("tokenizer")["tokenizer_name"]
    frame = table[["language", "tokenizer"]].assign(value=fit[column])
    wide = frame.pivot(index="language", columns="tokenizer", values="value")
    order = list(dict.fromkeys(table["language"]))
    wide = wide.loc[order, list(dict.fromkeys(table["tokenizer"]))]
    wide.index = [names[c] for c in wide.index]
    wide.columns = [short_name(k, tokenizer_names[k]) for k in wide.columns]
    return wide
