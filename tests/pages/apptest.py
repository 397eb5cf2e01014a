"""Opening a page under Streamlit's AppTest, the same way for every page test: run it, fail on any exception."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import pandas as pd
from streamlit.testing.v1 import AppTest


def rerun(at: AppTest) -> AppTest:
    """Run the page again (after a widget was set) and fail on any exception it shows."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_page(path: str, *, timeout: float, state: Mapping[str, Any] | None = None,
              params: Mapping[str, str] | None = None) -> AppTest:
    """The page script at ``path`` (absolute), run once with ``state`` in its session and ``params``
    in its link."""
    at = AppTest.from_file(path, default_timeout=timeout)
    for key, value in (state or {}).items():
        at.session_state[key] = value
    for name, value in (params or {}).items():
        at.query_params[name] = value
    return rerun(at)


def _component_data(at: AppTest, name: str) -> list[dict]:
    """The data of every components-v2 element named ``name`` the run drew, in page order: AppTest
    shows those elements as unknown elements, their data as JSON."""
    found = []
    for element in at.get("bidi_component"):
        proto = element.proto
        if proto.component_name == name and proto.WhichOneof("data") == "json":
            found.append(json.loads(proto.json))
    return found


def span_boxes(at: AppTest) -> list[str]:
    """The markup of every token box the run drew through ``ui.span_box`` (the Playground's columns)."""
    return [data["html"] for data in _component_data(at, "tp_span_box")]


def cards(at: AppTest) -> list[dict]:
    """The head and foot (``ui.card``: name, count, facts, source lines, lossy flag; the context line) of
    every Playground column the run drew, in page order: plain text, as the box's script shows it."""
    return [{"head": json.loads(data["head"]) or {}, "foot": json.loads(data["foot"])}
            for data in _component_data(at, "tp_span_box")]


def copy_blocks(at: AppTest) -> list[str]:
    """The text of every block the run drew through ``ui.copy_block`` (token ids, decoded ids, previews)."""
    return [data["text"] for data in _component_data(at, "tp_copy_block")]


def counts_table(at: AppTest) -> pd.DataFrame:
    """The Playground's counts table (``ui.tables.counts_markdown``, a Markdown table) as a frame of numbers:
    rows by label, columns by the names as sent (Markdown-escaped), "—" as NaN, bold and separators gone."""
    table = next(m.value for m in at.markdown if m.value.startswith("| | "))
    rows = [re.split(r"(?<!\\)\|", line.strip())[1:-1] for line in table.splitlines()]
    names = [cell.strip() for cell in rows[0][1:]]
    labels = [re.sub(r"\\(.)", r"\1", row[0].strip()) for row in rows[2:]]
    values = [[float("nan") if cell.strip() == "—" else float(cell.strip().strip("*").replace(",", ""))
               for cell in row[1:]] for row in rows[2:]]
    return pd.DataFrame(values, index=labels, columns=names)
