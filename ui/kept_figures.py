"""Plotly figures built once per server process and handed out as new figures made without validation.

Building a figure validates every property (the Language tax's four charts: about 0.45 s of a view);
``kept(builder, *args, **kwargs)`` builds it once per distinct input, keeps its dict in a process-wide
``SizedCache`` bounded by ``FIGURES_MB``, and returns ``go.Figure(a deep copy, _validate=False)``
(about 1 ms), so a caller may restyle it (presentation mode does, in place) without touching the kept
one. Inputs are keyed by value: a frame by its shape, labels and a hash of its cells.

Subtle: plotly applies the default template only to a figure that has none, and an unvalidated
figure drops a template given in its dict; so the kept dict leaves the default template out and the
new figure gets it back from plotly. A figure with another template, or an input that cannot be a
key (a frame holding lists), is built every time, as before. A frame's key is computed once per frame
object (hashing the Language tax's table was a tenth of a warm view): a frame given to ``kept`` must
not be changed in place afterwards (the pages give the process-wide kept tables, which no one changes).
"""

from __future__ import annotations

import copy
import threading
import weakref
from collections.abc import Callable, Hashable
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from ui.bounded import SizedCache

FIGURES_MB = 32  # every kept figure's JSON, together


@st.cache_resource(show_spinner=False)
def figures() -> SizedCache[dict[str, Any] | None]:
    """The kept figures of this server process (dicts; ``None`` for one that is rebuilt every time)."""
    return SizedCache(max_bytes=FIGURES_MB * 1_000_000,
                      size=lambda spec: 64 if spec is None else len(pio.to_json(spec, validate=False)))


_FRAME_KEYS: dict[int, tuple[weakref.ref, Hashable]] = {}  # id(frame) -> (the frame, its key), while it lives
_FRAME_KEYS_LOCK = threading.Lock()


def value_key(value: Any) -> Hashable:
    """``value`` as a cache key: a frame by shape, labels and a hash of its cells; raises ``TypeError`` when
    it cannot be one (a frame holding lists, an unhashable object)."""
    if isinstance(value, pd.DataFrame | pd.Series):
        with _FRAME_KEYS_LOCK:
            known = _FRAME_KEYS.get(id(value))
        if known is not None and known[0]() is value:
            return known[1]
        cells = int(pd.util.hash_pandas_object(value, index=True).sum())
        labels = tuple(value.columns) if isinstance(value, pd.DataFrame) else value.name
        key = type(value).__name__, value.shape, labels, cells
        ident = id(value)
        with _FRAME_KEYS_LOCK:
            _FRAME_KEYS[ident] = (weakref.ref(value, lambda _, ident=ident: _forget(ident)), key)
        return key
    hash(value)
    return value


def _forget(ident: int) -> None:
    with _FRAME_KEYS_LOCK:
        found = _FRAME_KEYS.get(ident)
        if found is not None and found[0]() is None:
            del _FRAME_KEYS[ident]


def _spec(figure: go.Figure) -> dict[str, Any] | None:
    """The figure's dict without its template, or None when its template is not plotly's default."""
    spec = figure.to_dict()
    default = go.Figure().to_dict()["layout"].get("template")
    if spec["layout"].pop("template", None) != default:
        return None
    return spec


def kept(builder: Callable[..., go.Figure], *args: Any, **kwargs: Any) -> go.Figure:
    """``builder(*args, **kwargs)``, built once per process for the same inputs; a new figure each call."""
    try:
        key = (builder.__module__, builder.__qualname__, tuple(value_key(a) for a in args),
               tuple(sorted((name, value_key(v)) for name, v in kwargs.items())))
    except TypeError:
        return builder(*args, **kwargs)
    built: list[go.Figure] = []
    spec = figures().get(key, lambda: _spec(built.append(builder(*args, **kwargs)) or built[0]))
    if spec is None:
        return built[0] if built else builder(*args, **kwargs)
    return go.Figure(copy.deepcopy(spec), _validate=False)
