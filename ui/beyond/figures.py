"""The page's plotly figures, built by pure functions: data in, ``go.Figure`` out, tested as objects.

Each says its message in its title. Colors: bytes grey, entropy patches the project's marker orange,
tokenizers a fixed qualitative palette in the order the user picked them (so the same tokenizer
keeps its color across the three charts of one view).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from core import bpe
from core.beyond import superbpe
from ui.figures import ALGORITHM_COLORS, MARKER_COLOR, compact, sample_indices

BYTES_COLOR = "#6b7280"
PATCH_COLOR = MARKER_COLOR
TOKENIZER_COLORS = ("#1f4e9c", "#2f855a", "#805ad5", "#b83280", "#c05621", "#0e7490", "#a16207", "#4d7c0f")
MAX_PLOT_BYTES = 4_000  # the entropy chart draws at most this many bytes; the counts cover all
CHAR_TICKS = 160  # up to this many bytes, the x-axis is labelled with the text's characters
_LAYOUT = {"font": {"size": 15}, "hoverlabel": {"font": {"size": 15}}, "margin": {"l": 10, "r": 10, "t": 60, "b": 10}}
_DECADES = [10.0**k for k in range(-4, 5)]
_TICK_MARKS = str.maketrans({" ": "·", "\n": "↵", "\t": "→"})


def tokenizer_color(index: int) -> str:
    return TOKENIZER_COLORS[index % len(TOKENIZER_COLORS)]


def entropy_figure(
    text: str, entropy: np.ndarray, starts: np.ndarray, *, threshold: float, rule: str
) -> go.Figure:
    """The entropy of the next byte over the text, the threshold, and a marker where each patch starts.

    The x-axis is the byte offset, labelled with the characters themselves for a short text. Subtle:
    only the first ``MAX_PLOT_BYTES`` bytes are drawn (the title says so); hover shows the byte and
    the character it belongs to.

    >>> fig = entropy_figure("ab", np.array([5.0, 1.0]), np.array([0]), threshold=3.0, rule="global")
    >>> fig.data[1].x
    (0,)
    """
    data = text.encode()
    n = min(len(data), MAX_PLOT_BYTES)
    x = np.arange(n)
    chars = _byte_chars(text)[:n]
    hover = [f"{c.translate(_TICK_MARKS)} · byte {b:02X}" for c, b in zip(chars, data[:n], strict=True)]
    shown = starts[starts < n]
    line = {
        "type": "scatter", "mode": "lines+markers" if n <= CHAR_TICKS else "lines", "name": "entropy",
        "x": x, "y": entropy[:n], "customdata": hover, "line": {"color": "#1f4e9c", "width": 2},
        "marker": {"size": 5}, "hovertemplate": "byte %{x:,}: %{customdata}<br>%{y:.2f} bits<extra></extra>",
    }
    marks = {
        "type": "scatter", "mode": "markers", "name": "a patch starts",
        "x": shown, "y": entropy[shown], "customdata": [hover[i] for i in shown],
        "marker": {"color": PATCH_COLOR, "size": 10, "symbol": "triangle-up", "line": {"color": "white", "width": 1}},
        "hovertemplate": "patch starts at byte %{x:,}: %{customdata}<br>%{y:.2f} bits<extra></extra>",
    }
    rule_text = (f"entropy is above {threshold:.2f} bits" if rule == "global"
                 else f"entropy rises by more than {threshold:.2f} bits")
    cut_note = f" (first {n:,} of {len(data):,} bytes)" if n < len(data) else ""
    layout = {
        **_LAYOUT,
        "title": {"text": f"{len(starts):,} patches: a new one starts where the {rule_text}{cut_note}"},
        "xaxis": {"title": {"text": "byte of the text"}, "rangemode": "tozero"},
        "yaxis": {"title": {"text": "entropy of the next byte (bits)"}, "range": [0, 8.2]},
        "showlegend": True, "legend": {"orientation": "h", "y": -0.25 if n <= CHAR_TICKS else -0.2},
        "height": 380,
    }
    if n <= CHAR_TICKS:
        leads = [i for i in range(n) if (data[i] & 0xC0) != 0x80]
        layout["xaxis"] |= {"tickmode": "array", "tickvals": leads, "ticktext": [chars[i].translate(_TICK_MARKS) for i in leads],
                            "tickangle": 0, "tickfont": {"size": 12}, "title": {"text": ""}}
    shapes = []
    if rule == "global":
        shapes.append({"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": threshold, "y1": threshold,
                       "line": {"color": PATCH_COLOR, "width": 2, "dash": "dash"}})
    layout["shapes"] = shapes
    return go.Figure({"data": [line, marks], "layout": layout})


def costs_figure(frame: pd.DataFrame) -> go.Figure:
    """What bytes cost against each tokenizer: attention and output layer, as multiples (log scale).

    ``frame`` is ``ui.beyond.frames.bytes_cost_frame``; its first row (bytes against themselves) is
    the reference line at 1×.
    """
    rows = frame.iloc[1:].dropna()
    names = list(rows.index)
    bars = [
        {"type": "bar", "name": "attention (length²)", "x": names, "y": rows["bytes: attention ×"].to_numpy(),
         "marker": {"color": "#1f4e9c"}, "hovertemplate": "%{x}<br>bytes: %{y:,.2f}× the attention<extra></extra>"},
        {"type": "bar", "name": "output layer (length × vocabulary)", "x": names,
         "y": rows["bytes: output layer ×"].to_numpy(), "marker": {"color": "#c05621"},
         "hovertemplate": "%{x}<br>bytes: %{y:,.3f}× the output layer<extra></extra>"},
    ]
    if len(rows):
        first = rows.iloc[0]
        title = (f"Read as bytes, the text is {first['bytes: length ×']:.1f}× as long as under {names[0]}: "
                 f"{first['bytes: attention ×']:.0f}× the attention, {first['bytes: output layer ×']:.2f}× the output layer")
    else:
        title = "Pick a tokenizer to compare bytes with"
    layout = {
        **_LAYOUT, "title": {"text": title}, "barmode": "group", "height": 380,
        "yaxis": {"title": {"text": "cost of bytes ÷ cost of tokens"}, "type": "log",
                  "tickvals": _DECADES, "ticktext": [f"{v:g}×" for v in _DECADES]},
        "shapes": [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 1, "y1": 1,
                    "line": {"color": BYTES_COLOR, "width": 1, "dash": "dot"}}],
        "legend": {"orientation": "h", "y": -0.2},
    }
    return go.Figure({"data": bars, "layout": layout})


def languages_figure(frame: pd.DataFrame, tokenizer_names: Sequence[str]) -> go.Figure:
    """Entropy patches against each tokenizer's tokens, per language, as units per 100 bytes.

    Per 100 bytes rather than raw counts: the languages' texts say the same thing but differ in
    bytes, and a unit that covers more bytes is cheaper for the model.
    """
    order = frame.iloc[np.argsort((frame["patches"] / frame["bytes"]).to_numpy(), kind="stable")]
    per = 100 / order["bytes"].to_numpy()
    series = [("entropy patches", "patches", PATCH_COLOR)] + [
        (name, name, tokenizer_color(i)) for i, name in enumerate(tokenizer_names)
    ]
    bars = [
        {"type": "bar", "name": label, "x": list(order.index), "y": order[column].to_numpy() * per,
         "customdata": order[column].to_numpy(), "marker": {"color": color},
         "hovertemplate": f"%{{x}}<br>{label}: %{{customdata:,}} (%{{y:.1f}} per 100 bytes)<extra></extra>"}
        for label, column, color in series
    ]
    layout = {
        **_LAYOUT, "barmode": "group", "height": 420,
        "title": {"text": "Patches follow predictability, not a vocabulary: units per 100 bytes of the same text"},
        "yaxis": {"title": {"text": "units per 100 bytes"}}, "legend": {"orientation": "h", "y": -0.25},
    }
    return go.Figure({"data": bars, "layout": layout})


def superword_curve_figure(plain: bpe.BPEResult, result: superbpe.SuperBPEResult) -> go.Figure:
    """Training-corpus tokens against vocabulary size: plain BPE all the way, SuperBPE past the transition.

    >>> from core import superbpe
    >>> r = superbpe.train("a b a b a b\\n" * 5, vocab_size=262, transition=258)
    >>> [trace.name for trace in superword_curve_figure(r.stage1, r).data]
    ['plain BPE', 'SuperBPE', 'transition']
    """
    plain_tokens = [plain.initial_tokens, *(s.tokens_after for s in plain.trace)]
    super_tokens = [result.stage2.initial_tokens, *(s.tokens_after for s in result.stage2.trace)]
    picked = np.asarray(sample_indices(len(plain_tokens)))
    picked_super = np.asarray(sample_indices(len(super_tokens)))
    curves = [
        {"type": "scatter", "mode": "lines", "name": "plain BPE", "x": 256 + picked,
         "y": np.asarray(plain_tokens)[picked], "line": {"color": ALGORITHM_COLORS["byte-level BPE"], "width": 3},
         "hovertemplate": "plain BPE · vocabulary %{x:,}<br>%{y:,} tokens<extra></extra>"},
        {"type": "scatter", "mode": "lines", "name": "SuperBPE", "x": result.transition + picked_super,
         "y": np.asarray(super_tokens)[picked_super], "line": {"color": PATCH_COLOR, "width": 3},
         "hovertemplate": "SuperBPE · vocabulary %{x:,}<br>%{y:,} tokens<extra></extra>"},
        {"type": "scatter", "mode": "markers", "name": "transition", "x": [result.transition],
         "y": [super_tokens[0]], "marker": {"color": PATCH_COLOR, "size": 12, "line": {"color": "white", "width": 2}},
         "hovertemplate": "transition at %{x:,}: merges may cross spaces from here<extra></extra>"},
    ]
    last_plain, last_super = plain_tokens[-1], super_tokens[-1]
    if len(super_tokens) > 1 and last_plain:
        title = (f"Past the transition, superwords: {compact(last_super)} tokens "
                 f"instead of {compact(last_plain)} ({last_super / last_plain - 1:+.0%})")
    else:
        title = "Plain BPE up to the transition; no superword merges were learned"
    # subtle: the first merges shrink the text so much that the tail, where the two curves part, would
    # be a flat line; the view opens on the tail (double-click in the chart shows everything)
    vocab = 256 + len(plain_tokens) - 1
    left = max(256, result.transition - 2 * max(vocab - result.transition, 1))
    window = [n for k, n in enumerate(plain_tokens) if 256 + k >= left] + super_tokens
    low, high = min(window), max(window)
    pad = 0.05 * max(high - low, 1)
    layout = {
        **_LAYOUT, "title": {"text": title}, "height": 380,
        "xaxis": {"title": {"text": "vocabulary size"}, "tickformat": ",d", "range": [left, max(vocab, left + 1)]},
        "yaxis": {"title": {"text": "tokens in the training text"}, "tickformat": ",d", "range": [low - pad, high + pad]},
        "legend": {"orientation": "h", "y": -0.2},
    }
    return go.Figure({"data": curves, "layout": layout})


def _byte_chars(text: str) -> list[str]:
    """For each UTF-8 byte of ``text``, the character it belongs to."""
    return [char for char in text for _ in range(len(char.encode()))]
