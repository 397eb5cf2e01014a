"""The "Inside a tokenizer" views: what a file gives away, and the pipeline of one text.

Pure builders (tested as strings, frames and figures): ``highlight_html`` marks the characters a
stage changed, ``pre_token_spans`` draws pre-tokens through the one span renderer, ``scripts_figure``
charts the vocabulary per script, ``settings_frame`` / ``pairs_frame`` tabulate facts. The cached
wrappers (``facts_for``, ``pipeline_for``, ``identify_upload``) call ``core.pretrained``.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.pretrained import anatomy, pipeline
from core.pretrained.adapter import UNICODE_TO_BYTE
from core.types import Token
from ui import cache, widgets
from ui.cache import TokenizerRef
from ui.figures import ALGORITHM_COLORS
from ui.spans import WHITESPACE_MARKS, printable
from ui.widgets import md_escape

SCRIPT_COLOR = "#1f4e9c"
NO_LETTER_COLOR = "#9aa5b1"


def highlight_html(text: str, ranges: Sequence[tuple[int, int]], *, show_whitespace: bool = True) -> str:
    """``text`` in a box with the character ranges marked (what a stage changed); all of it escaped.

    >>> highlight_html("a<b", [(1, 2)])
    '<div class="tp-spans it-text">a<mark class="it-changed">&lt;</mark>b</div>'
    """
    def show(part: str) -> str:
        escaped = html.escape(part, quote=True)
        if not show_whitespace:
            return escaped
        return "".join(
            f'<span class="tp-ws">{html.escape(WHITESPACE_MARKS[c])}</span>' if c in WHITESPACE_MARKS else c
            for c in escaped
        )

    out, cursor = [], 0
    for start, end in sorted(ranges):
        if start < cursor:
            continue
        out.append(show(text[cursor:start]))
        if end == start:  # something was removed here
            out.append('<mark class="it-changed it-gone" title="removed here">⌫</mark>')
        else:
            out.append(f'<mark class="it-changed">{show(text[start:end])}</mark>')
        cursor = end
    out.append(show(text[cursor:]))
    return f'<div class="tp-spans it-text">{"".join(out)}</div>'


def pre_token_spans(normalized: str, pre_tokens: Sequence[tuple[str, int, int]]) -> list[Token]:
    """Pre-tokens as ``Token``s over the normalized text (id = position), for ``render_spans``.

    >>> pre_token_spans("hi you", [("hi", 0, 2), ("Ġyou", 2, 6)])[1]
    Token(id=1, bytes=b' you', start=2, end=6, kind='text')
    """
    return [Token(k, normalized[s:e].encode(), s, e) for k, (_, s, e) in enumerate(pre_tokens)]


def readable_piece(piece: str, style: str) -> str:
    """A vocabulary string as the text it stands for: ``Ġworld`` → `` world``, ``▁the`` → `` the``.

    >>> readable_piece("Ġworld", "bytelevel"), readable_piece("▁the", "metaspace")
    (' world', ' the')
    """
    if style == "bytelevel" and all(c in UNICODE_TO_BYTE for c in piece):
        return bytes(UNICODE_TO_BYTE[c] for c in piece).decode("utf-8", "backslashreplace")
    return piece.replace("\u2581", " ").removeprefix("##" if style == "wordpiece" else "\0")


def shown_piece(piece: str, style: str) -> str:
    """``readable_piece`` with its whitespace visible (· for a space, ↵ for a line break), for tables.

    >>> shown_piece("ĠĠ", "bytelevel")
    '··'
    """
    return printable(readable_piece(piece, style).encode())


def style_of(tokenizer: Any) -> str:
    library, _ = anatomy.library_of(tokenizer)
    if library == "tiktoken":
        return "bytelevel"
    return getattr(tokenizer, "_style", "metaspace")


def settings_frame(facts: anatomy.Facts) -> pd.DataFrame:
    """The pipeline settings as a two-column table (stage, what it does)."""
    rows = [
        ("model", facts.model_type), ("normalizer", facts.normalizer), ("pre-tokenizer", facts.pre_tokenizer),
        ("post-processor", facts.post_processor), ("decoder", facts.decoder), ("byte fallback", facts.byte_fallback),
    ]
    return pd.DataFrame(rows, columns=["stage", "what this file says"])


def pairs_frame(pairs: Sequence[tuple[Any, Any]], columns: Sequence[str], *, first_rank: int = 1) -> pd.DataFrame:
    """A small table of pairs (merges, scored pieces, tokens) numbered from ``first_rank``."""
    frame = pd.DataFrame(list(pairs), columns=list(columns))
    frame.index = range(first_rank, first_rank + len(frame))
    return frame


def scripts_frame(facts: anatomy.Facts) -> pd.DataFrame:
    total = sum(count for _, count in facts.scripts) or 1
    return pd.DataFrame(
        [(script, count, count / total) for script, count in facts.scripts], columns=["script", "tokens", "share"]
    )


def scripts_figure(facts: anatomy.Facts) -> go.Figure:
    """Tokens per script as horizontal bars, largest on top; classes without letters in grey."""
    frame = scripts_frame(facts)
    if frame.empty:
        raise ValueError("the vocabulary has no tokens to chart")
    top = frame.iloc[0]
    colors = [NO_LETTER_COLOR if s in anatomy.NO_LETTER else ALGORITHM_COLORS.get(facts.algorithm, SCRIPT_COLOR)
              for s in frame["script"]]
    bars = {
        "type": "bar", "orientation": "h", "x": frame["tokens"].tolist(), "y": frame["script"].tolist(),
        "marker": {"color": colors}, "customdata": (frame["share"] * 100).round(1).tolist(),
        "hovertemplate": "%{y}: %{x:,} tokens (%{customdata}%)<extra></extra>",
        "text": [f"{share:.1%}" for share in frame["share"]], "textposition": "outside", "cliponaxis": False,
    }
    layout = {
        # subtle: plotly reads <b>, <br> and <a> in titles; a file name is the user's text
        "title": {"text": f"{top['share']:.0%} of {html.escape(facts.name)}'s tokens are {top['script']}"},
        "xaxis": {"title": {"text": "tokens in the vocabulary"}, "tickformat": ",d"},
        "yaxis": {"autorange": "reversed"}, "height": 120 + 26 * len(frame),
        "margin": {"l": 10, "r": 60, "t": 50, "b": 10}, "font": {"size": 15}, "showlegend": False,
    }
    return go.Figure({"data": [bars], "layout": layout})


@st.cache_resource(show_spinner=False, max_entries=24)
def _registry_facts(key: str) -> anatomy.Facts:
    return anatomy.facts(cache.tokenizer_store().get(key))


@st.cache_resource(show_spinner=False, max_entries=8, ttl=600)
def _upload_facts(cache_id: str, _tokenizer: Any) -> anatomy.Facts:
    return anatomy.facts(_tokenizer)


def facts_for(ref: TokenizerRef) -> anatomy.Facts:
    """The facts of a loaded registry tokenizer (kept for the process) or of an uploaded file (by its
    content, ten minutes)."""
    if ref.origin == "registry":
        return _registry_facts(ref.key)
    return _upload_facts(ref.digest, ref.tokenizer)


@st.cache_resource(show_spinner=False, max_entries=24, ttl=600)
def _pipeline(cache_id: str, text: str, _tokenizer: Any) -> pipeline.Pipeline:
    return pipeline.run(_tokenizer, text)


def pipeline_for(ref: TokenizerRef, text: str) -> pipeline.Pipeline:
    return _pipeline(ref.digest, text, ref.tokenizer)


@st.cache_resource(show_spinner=False, max_entries=24)
def _registry_vocab(key: str) -> dict:
    return anatomy.vocab_map(cache.tokenizer_store().get(key))


def _family(tokenizer: Any) -> str:
    library, _ = anatomy.library_of(tokenizer)
    style = style_of(tokenizer)
    if library == "tiktoken" or style == "bytelevel":
        return "bytes"
    return "wordpiece" if style == "wordpiece" else "pieces"


@st.cache_resource(show_spinner=False, max_entries=8, ttl=600)
def _identify(cache_id: str, sha256: str, _tokenizer: Any) -> anatomy.Match | None:
    from core import pretrained

    mine = anatomy.vocab_map(_tokenizer)
    family = _family(_tokenizer)
    candidates: dict[str, tuple[str, str | None, Any]] = {}
    for key, spec in pretrained.registry().items():
        pin = spec.files[0].sha256 if spec.files else None
        theirs = None
        if spec.vocab_size <= 1.1 * _tokenizer.vocab_size + 2048 and spec.vocab_size >= 0.5 * _tokenizer.vocab_size:
            loaded = cache.tokenizer_store().get(key)
            if not isinstance(loaded, cache.Unavailable) and _family(loaded) == family:
                theirs = _registry_vocab(key)
        candidates[key] = (spec.name, pin, theirs)
    return anatomy.identify(mine, sha256, candidates)


def identify_upload(ref: TokenizerRef) -> anatomy.Match | None:
    """Which registry tokenizer an uploaded file is, extends or overlaps (cached per file)."""
    return _identify(ref.digest, ref.sha256, ref.tokenizer)


# -- drawing (the page calls these) ----------------------------------------------------------------


def _code_pairs(pairs: Sequence[tuple[str, str]], style: str) -> list[tuple[str, str, str]]:
    return [(left, right, shown_piece(left + right, style)) for left, right in pairs]


def draw_facts(ref: TokenizerRef) -> None:
    """What the file gives away: headline numbers, settings, tokens, merges or scores, scripts."""
    tokenizer = ref.tokenizer
    with st.spinner("Reading the vocabulary …"):
        facts = facts_for(ref)
    style = style_of(tokenizer)
    a, b, c, d = st.columns(4)
    a.metric("vocabulary", f"{facts.vocab_size:,}")
    b.metric("special tokens", f"{len(facts.special_tokens):,}")
    c.metric("added tokens", f"{len(facts.added_tokens):,}", help="matched in the text as written, not special")
    if facts.merges_total is not None:
        d.metric("merges", f"{facts.merges_total:,}")
    else:
        d.metric("scored pieces" if facts.highest_scored else "pieces", f"{facts.vocab_size - len(facts.special_tokens):,}")
    if ref.origin == "upload":  # a registry tokenizer is itself; a file read here is compared with them
        with st.spinner("Comparing with the registry …"):
            match = identify_upload(ref)
        if match:
            st.info(md_escape(match.sentence), icon=":material/fingerprint:")
        else:
            st.caption("Not a registry tokenizer: no file with the same sha256, no vocabulary sharing half its tokens.")
        for note in ref.notes:
            st.caption(md_escape(note))
    st.caption(md_escape(f"source: {tokenizer.source}"))
    # a table wraps the long pre-tokenizer lines; it renders its cells as Markdown, and they hold the file's strings
    st.table(settings_frame(facts).set_index("stage").map(md_escape))
    if facts.patterns:
        st.caption("The pre-tokenizer's regular expression" + ("s, in order" if len(facts.patterns) > 1 else ""))
    for pattern in facts.patterns:
        st.code(pattern, language=None, wrap_lines=True)
    left, right = st.columns(2, gap="medium")
    with left:
        st.markdown(f"**Special tokens** ({len(facts.special_tokens):,})")
        st.dataframe(pairs_frame(facts.special_tokens, ["token", "id"]), height=210, width="stretch")
    with right:
        st.markdown(f"**Added tokens** ({len(facts.added_tokens):,})")
        st.dataframe(pairs_frame(facts.added_tokens, ["token", "id"]), height=210, width="stretch")
    _draw_merges_or_scores(facts, style)
    left, right = st.columns([2, 3], gap="medium")
    with left:
        st.markdown("**Longest tokens**")
        longest = [(size, shown_piece(piece, style)) for piece, size in facts.longest]
        st.dataframe(pairs_frame(longest, ["bytes", "token (as text)"]), height=300, width="stretch")
    with right:
        widgets.chart(scripts_figure(facts), scripts_frame(facts), key=f"it_scripts_{ref.key}", name="vocabulary_scripts")
    with st.expander("The file's own settings"):
        for part, text in facts.details.items():
            st.markdown(f"`{part}`")
            st.code(text[:20_000], language="json" if text.startswith(("{", "null", "[")) else None)


def _draw_merges_or_scores(facts: anatomy.Facts, style: str) -> None:
    left, right = st.columns(2, gap="medium")
    if facts.merges_total:
        total = facts.merges_total
        with left:
            st.markdown(f"**The first {len(facts.first_merges)} of {total:,} merges**")
            st.dataframe(pairs_frame(_code_pairs(facts.first_merges, style), ["left", "right", "makes"]),
                         height=300, width="stretch")
        with right:
            st.markdown(f"**The last {len(facts.last_merges)}**")
            first = total - len(facts.last_merges) + 1
            st.dataframe(pairs_frame(_code_pairs(facts.last_merges, style), ["left", "right", "makes"],
                                     first_rank=first), height=300, width="stretch")
    elif facts.highest_scored:
        with left:
            st.markdown("**Highest scored pieces** (the model prefers them)")
            st.dataframe(pairs_frame(facts.highest_scored, ["piece", "score"]), height=300, width="stretch")
        with right:
            st.markdown("**Lowest scored pieces**")
            st.dataframe(pairs_frame(facts.lowest_scored, ["piece", "score"]), height=300, width="stretch")
    else:
        st.caption("No merges or scores: WordPiece takes the longest vocabulary entry that starts the rest of the word.")


def draw_pipeline(result: pipeline.Pipeline, tokenizer: Any, *, show_whitespace: bool) -> None:
    """Each stage in order, with what it changed; the round trip's losses at the end."""
    from ui.spans import render_spans

    if result.truncated:
        st.caption(f"The pipeline shows the first {pipeline.MAX_PIPELINE_CHARS:,} characters.")
    st.markdown(f"##### 1 · Normalizer — {md_escape(result.normalizer)}")  # the file's strings, kept text
    changed = [(j1, j2) for _, _, j1, j2 in result.changes]
    st.html(highlight_html(result.normalized, changed, show_whitespace=show_whitespace))
    if result.changes:
        st.caption(f"{len(result.changes):,} place{'s' if len(result.changes) != 1 else ''} changed (marked).")
    st.markdown(f"##### 2 · Pre-tokenizer — {md_escape(result.pre_tokenizer)}")
    if result.pre_tokens:
        spans = pre_token_spans(result.normalized, result.pre_tokens)
        st.html(render_spans(result.normalized, spans, show_whitespace=show_whitespace,
                             extra_title=lambda t: f"pre-token {t.id + 1} · {t.start}–{t.end}"))
        st.caption(f"{len(spans):,} pre-tokens; each pill is one, its offsets in the normalized text on hover.")
    st.markdown(f"##### 3 · Model — {len(result.tokens):,} tokens")
    st.html(render_spans(result.text, result.tokens, show_whitespace=show_whitespace, piece=tokenizer.piece))
    with st.expander("Pieces and ids"):
        st.dataframe(pd.DataFrame({"id": [t.id for t in result.tokens], "piece": list(result.pieces),
                                   "text": [result.text[t.start:t.end] for t in result.tokens]}),
                     width="stretch", height=260)
    added = ", ".join(t.bytes.decode("utf-8", "replace") for t in result.added)
    st.markdown(f"##### 4 · Post-processor — {md_escape('adds ' + added) if added else 'adds nothing'}")
    if result.added:
        st.html(render_spans(result.text, result.encoded, show_whitespace=show_whitespace, piece=tokenizer.piece))
    st.markdown("##### 5 · Decoder — the ids back to text")
    decoded_changes = pipeline.changed_ranges(result.text, result.decoded)
    st.html(highlight_html(result.decoded, [(j1, j2) for _, _, j1, j2 in decoded_changes],
                           show_whitespace=show_whitespace))
    st.markdown("##### 6 · Round trip")
    if not result.losses:
        st.success("decode(encode(text)) gives this text back exactly.", icon=":material/check_circle:")
    else:
        st.warning("decode(encode(text)) ≠ text:\n\n" + "\n".join(f"- {md_escape(loss)}" for loss in result.losses),
                   icon=":material/warning:")
