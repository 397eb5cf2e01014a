"""The Pre-tokenization page's views: texts cut by patterns, drawn as chunk spans, and digits under
real tokenizers.

Cuts are cached per (text, pattern), the message of a bad pattern too, so a runaway regex costs
its time budget once, not on every rerun. Chunks are drawn by ``ui.spans.render_spans`` over
``core.text.chunks.chunk_tokens``; rows are laid out by ``ui.compare``.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from core.text.chunks import Cut, chunk_tokens, cut
from core.text.patterns import NAMED_PATTERNS
from ui import cache, compare
from ui.pretokenization.examples import CUSTOM, PATTERN_NOTES
from ui.spans import DEFAULT_LIMIT, render_spans


@st.cache_data(show_spinner=False, max_entries=64)
def cached_cut(text: str, pattern: str, name: str) -> Cut:
    return cut(text, pattern, name=name)


@st.cache_data(show_spinner=False, max_entries=64)
def chunks_html(text: str, pattern: str, show_whitespace: bool, _spans: tuple[tuple[int, int], ...]) -> str:
    """The chunks ``_spans`` that ``pattern`` cut from ``text``, drawn as spans; the tooltip numbers each
    chunk (its "id" is that number too). Keyed by the pattern, the spans not hashed: Streamlit hashes a
    cached function's arguments element by element, and a megabyte's 250,000 spans took about 30 s."""
    spans = _spans
    total = len(spans)
    return render_spans(
        text, chunk_tokens(text, spans), show_whitespace=show_whitespace, limit=DEFAULT_LIMIT,
        extra_title=lambda token: f"chunk {token.id:,} of {total:,} · {token.end - token.start:,} characters",
    )


def cuts(text: str, names: Sequence[str], custom: str = "") -> list[Cut]:
    """``text`` cut by each named pattern, then by the user's regex when there is one."""
    found = [cached_cut(text, NAMED_PATTERNS[name], name) for name in names if name in NAMED_PATTERNS]
    if custom:
        with st.spinner("Cutting with your regex …"):
            found.append(cached_cut(text, custom, CUSTOM))
    return found


def pattern_rows(text: str, found: Sequence[Cut], *, show_whitespace: bool) -> None:
    """One row per pattern: its name, chunk count and note, and the chunks drawn as spans."""
    rows = []
    for item in found:
        if not item.ok:
            rows.append(compare.Row(item.name, "could not cut", compare.message_html(item.error), muted=True))
            continue
        count = len(item.spans)
        detail = f"{count:,} chunk{'' if count == 1 else 's'}"
        note = PATTERN_NOTES.get(item.name, "")
        rows.append(compare.Row(item.name, f"{detail} · {note}" if note else detail,
                                chunks_html(text, item.pattern, show_whitespace, item.spans)))
    if rows:
        st.html(compare.rows_html(rows))


def tokenizer_rows(text: str, keys: Sequence[str], *, show_whitespace: bool) -> None:
    """One row per real tokenizer: its name and token count, and its tokens drawn as spans."""
    names = cache.registry_names()
    rows = []
    for key in keys:
        tokenizer = cache.get_tokenizer(key, names.get(key))
        if isinstance(tokenizer, cache.Unavailable):
            rows.append(compare.Row(tokenizer.name, "unavailable",
                                    compare.message_html(tokenizer.reason), muted=True))
            continue
        analysis = cache.analyze(key, text, False)
        count = analysis.counts.tokens
        rows.append(compare.Row(
            tokenizer.name, f"{count:,} token{'' if count == 1 else 's'} · {tokenizer.algorithm}",
            cache.spans_html(key, text, allow_special=False, show_whitespace=show_whitespace, raw_pieces=False),
        ))
    if rows:
        st.html(compare.rows_html(rows))
