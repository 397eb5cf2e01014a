"""The Playground's view as one self-contained HTML page: it opens from disk, offline, in any browser.

What goes in: the text, each tokenizer's column (name, what it is, its token count, the lossy flag and
its spans drawn by the one span renderer, ``ui.spans.render_spans``, through the cache), the counts
table and the link the view came from. The span CSS (``assets/spans.css``) and the two span scripts
(``assets/spans.js``: the hover tooltip and each token's facts; ``assets/pin.js``: pinning a token on
a click or tap) are inlined, so the page asks the network for nothing.

Subtle: the scripts are ES modules written for Streamlit's components (``export default function``,
called by Streamlit once mounted); here each becomes an inline ``<script type="module">`` (its own
scope, so the two files' constants do not clash) whose install function is called at the end. An
inline module runs from ``file://`` (only a module *file* would be refused there).

Every piece of text is escaped: the spans by their renderer, everything else here with
``html.escape``.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from core.measures.metrics import TextCounts
from ui.cache import Analysis, TokenizerRef
from ui.spans import DEFAULT_LIMIT
from ui.tables import visible_rows
from ui.widgets import ASSETS_DIR, lossy_note

EXPORT = "export default function"
SCRIPTS = ("spans.js", "pin.js")
PAGE_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", sans-serif; margin: 1.5rem auto;
  max-width: 1400px; padding: 0 1rem; color: #1c1c1c; background: #fff; font-size: 16px; }
h1 { font-size: 1.6rem; margin: 0 0 0.3rem; }
.tp-off-note { color: #555; margin: 0 0 1rem; }
.tp-off-text { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 12em; overflow-y: auto;
  border: 1px solid #ccc; border-radius: 0.5rem; padding: 0.5rem; background: #fafafa; }
.tp-off-grid { display: grid; grid-template-columns: repeat(var(--tp-cols), minmax(0, 1fr)); gap: 1rem; }
.tp-off-col h2 { font-size: 1.2rem; margin: 0.8rem 0 0.2rem; }
.tp-off-facts { color: #555; font-size: 0.9rem; margin: 0 0 0.4rem; }
.tp-off-lossy { color: #8a5300; }
table.tp-off-counts { border-collapse: collapse; margin-top: 0.5rem; }
.tp-off-counts th, .tp-off-counts td { border: 1px solid #ddd; padding: 0.25rem 0.6rem; }
.tp-off-counts td { text-align: right; font-variant-numeric: tabular-nums; }
.tp-off-counts th[scope=row] { text-align: left; font-weight: 400; }
"""


@dataclass(frozen=True)
class Column:
    """One tokenizer's column as the page shows it; ``spans`` is ``ui.spans`` markup (already escaped)."""

    name: str
    facts: str  # what the tokenizer is: algorithm, vocabulary size, source
    headline: str  # "1,234 tokens" (+ what it added)
    spans: str
    lossy: str | None = None


def inline_script(js: str) -> str:
    """One of our component scripts as an inline module that installs itself.

    >>> inline_script("export default function () { window.x = 1; }")
    '<script type="module">\\nconst install = function () { window.x = 1; }\\ninstall();\\n</script>'
    """
    if js.count(EXPORT) != 1:
        raise ValueError(f"a component script must have exactly one '{EXPORT}' to inline it")
    if "</script" in js.lower():
        raise ValueError("a script that contains '</script' cannot be inlined into a page")
    return f'<script type="module">\n{js.replace(EXPORT, "const install = function")}\ninstall();\n</script>'


def counts_html(counts: Mapping[str, TextCounts]) -> str:
    """The counts table (the page's rows and formats: thousands separators, two decimals for ratios)."""
    if not counts:
        return ""
    head = "".join(f'<th scope="col">{html.escape(name)}</th>' for name in counts)
    body = []
    for row in visible_rows(counts):
        cells = []
        for value in (getattr(c, row.field) for c in counts.values()):
            missing = value is None or (isinstance(value, float) and math.isnan(value))
            cells.append("—" if missing else f"{value:,.2f}" if row.ratio else f"{value:,.0f}")
        body.append(f'<tr><th scope="row">{html.escape(row.label)}</th>'
                    + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    return f'<table class="tp-off-counts"><tr><th></th>{head}</tr>{"".join(body)}</table>'


def page_html(
    *, text: str, columns: Sequence[Column], counts: Mapping[str, TextCounts], link: str = "", per_row: int = 2,
) -> str:
    """The whole page: text, columns of spans, counts, the link back, with its CSS and scripts inline."""
    css = (ASSETS_DIR / "spans.css").read_text(encoding="utf-8") + PAGE_CSS
    scripts = "\n".join(inline_script((ASSETS_DIR / name).read_text(encoding="utf-8")) for name in SCRIPTS)
    cols = "".join(_column(column) for column in columns)
    back = (f'<p class="tp-off-note">Made from <a href="{html.escape(link)}">{html.escape(link)}</a> '
            "(the live page, when it can be reached).</p>") if link else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Tokenizer Playground: {len(columns)} tokenizer{'s' if len(columns) != 1 else ''}</title>"
        f"<style>{css}</style></head><body>"
        "<h1>Tokenizer Playground</h1>"
        '<p class="tp-off-note">Each colored pill is one token: hover it for its id and bytes, or click or tap '
        "it to pin them. This page works offline.</p>"
        f"{back}<h2>Text</h2><div class=\"tp-off-text\">{html.escape(text)}</div>"
        f'<div class="tp-off-grid" style="--tp-cols: {max(1, min(4, int(per_row)))}">{cols}</div>'
        f"<h2>Counts</h2>{counts_html(counts)}{scripts}</body></html>\n"
    )


def _column(column: Column) -> str:
    lossy = f'<p class="tp-off-lossy">{html.escape(column.lossy)}</p>' if column.lossy else ""
    return (
        f'<section class="tp-off-col"><h2>{html.escape(column.name)}</h2>'
        f'<p class="tp-off-facts"><strong>{html.escape(column.headline)}</strong> · {html.escape(column.facts)}</p>'
        f"{lossy}{column.spans}</section>"
    )


def playground_page(
    analyses: Mapping[str, Analysis], refs: Mapping[str, TokenizerRef], text: str, *, allow_special: bool,
    show_whitespace: bool, raw_pieces: bool, per_row: int, link: str,
) -> str:
    """The Playground's current view as a page: every column's first ``DEFAULT_LIMIT`` tokens drawn.

    Subtle: built by a deferred download, outside the session's script run, so it reads only what
    it is given (the refs hold the tokenizers and their caches), never ``st.session_state``.
    """
    columns = []
    for key, analysis in analyses.items():
        tokenizer, counts = refs[key].tokenizer, analysis.counts
        headline = f"{counts.tokens:,} token{'' if counts.tokens == 1 else 's'}"
        if counts.added:
            headline += f" + {counts.added} added by the tokenizer ({', '.join(analysis.added)})"
        facts = [tokenizer.algorithm, f"{tokenizer.vocab_size:,} vocab", getattr(tokenizer, "attribution", None),
                 f"source: {tokenizer.source}"]
        spans = refs[key].spans_html(text, allow_special=allow_special, show_whitespace=show_whitespace,
                                     raw_pieces=raw_pieces, limit=DEFAULT_LIMIT)
        columns.append(Column(name=tokenizer.name, facts=" · ".join(str(f) for f in facts if f), headline=headline,
                              spans=spans, lossy=lossy_note(counts.unknown or 0) if analysis.lossy else None))
    counts = {refs[key].tokenizer.name: analysis.counts for key, analysis in analyses.items()}
    return page_html(text=text, columns=columns, counts=counts, link=link, per_row=per_row)


def download_button(**view: Any) -> None:
    """"Download as a page": the file is built only when the button is pressed."""
    st.download_button(
        "Download as a page", data=lambda: playground_page(**view), file_name="tokenizer_playground.html",
        mime="text/html", icon=":material/download:", on_click="ignore", width="stretch", key="pg_offline_page",
        help="This view (text, columns, counts) as one HTML file that opens offline: hover and pin work in it.",
    )
