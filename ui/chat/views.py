"""One chat format's card: the rendered conversation as spans, its cost per turn, and where it comes from.

The spans come from the one renderer (``ui.spans.render_spans``); the computation from
``core.chat.formats``. Special tokens are drawn as badges because they are ``SPECIAL`` tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pandas as pd
import streamlit as st

from core.chat import formats as cf
from core.chat import templates as ct
from ui import cache, widgets
from ui.spans import render_spans


def format_card(fmt: cf.ChatFormat, messages: Sequence[cf.Message], *, show_whitespace: bool) -> None:
    """Draw ``fmt`` applied to ``messages``: headline counts, spans, a cost table, notes and source."""
    st.markdown(f"#### {widgets.md_escape(fmt.title)}")
    tokenizer = cache.get_tokenizer(fmt.tokenizer, cache.registry_names().get(fmt.tokenizer))
    if isinstance(tokenizer, cache.Unavailable):
        widgets.unavailable_card(tokenizer, retry_key=f"cf_retry_{fmt.key}")
        return
    try:
        segments = cf.render(fmt, messages)
    except ValueError as exc:
        st.error(f"{fmt.title} cannot show this conversation: {exc}.", icon=":material/error:")
        return
    text, tokens, owners = cf.tokenize(fmt, segments, tokenizer)
    rows = cf.costs(messages, owners, tokenizer)
    content = sum(r.content_tokens for r in rows)
    st.markdown(
        f"**{len(tokens):,} tokens**, of which **{len(tokens) - content:,}** are the format's own "
        f"({(len(tokens) - content) / max(len(tokens), 1):.0%}) · tokenizer: {widgets.md_escape(tokenizer.name)}"
    )
    foreign = cf.missing_specials(fmt, tokenizer)
    if foreign:
        names = ", ".join(f"{name} ({i})" for name, i in foreign.items())
        st.caption(widgets.md_escape(f"Not in {tokenizer.name}'s own special tokens, added by id here: {names}."))
    names = {i: name for name, i in fmt.specials.items()}  # ids a tokenizer may not know (cl100k_im's)
    vocab_piece = getattr(tokenizer, "piece", None)

    def piece(token_id: int) -> str:
        return names.get(token_id) or (vocab_piece(token_id) if vocab_piece else "")

    st.html(render_spans(text, tokens, show_whitespace=show_whitespace, piece=piece))
    st.dataframe(cost_frame(rows, messages), hide_index=True, width="stretch")
    st.caption(widgets.md_escape(f"{fmt.notes} Source: {fmt.source}."))


def template_card(source: ct.TemplateSource, messages: Sequence[cf.Message], *, show_whitespace: bool) -> None:
    """Draw the conversation as the model's own chat template renders it, tokenized by its tokenizer."""
    st.markdown(f"#### {widgets.md_escape(source.title)}")
    tokenizer = cache.get_tokenizer(source.tokenizer, cache.registry_names().get(source.tokenizer))
    if isinstance(tokenizer, cache.Unavailable):
        widgets.unavailable_card(tokenizer, retry_key=f"cf_retry_{source.key}")
        return
    try:
        config = _config(source)
    except ct.TemplateFailed as exc:
        st.error(widgets.md_escape(f"{source.title} cannot show this conversation: {exc}."), icon=":material/error:")
        return
    origin = f"{source.config.filename} (sha256 {(source.config.sha256 or '')[:8]})"
    template_body(source.title, config, tokenizer, messages, show_whitespace=show_whitespace,
                  notes=f"{source.notes} Rendered from the chat_template of {origin}",
                  null_call_content=source.null_call_content)


def template_body(title: str, config: ct.TemplateConfig, tokenizer: Any, messages: Sequence[cf.Message], *,
                  show_whitespace: bool, notes: str, null_call_content: bool = False) -> None:
    """A template's rendering of ``messages`` as spans, with its cost per turn; a failure is one sentence."""
    try:
        text = _rendered(config, tuple(messages), null_call_content)
    except ct.TemplateFailed as exc:
        st.error(widgets.md_escape(f"{title} cannot show this conversation: {exc}."), icon=":material/error:")
        return
    tokens, owners = ct.tokenize(text, messages, tokenizer)
    rows = cf.costs(ct.shown(text, messages), owners, tokenizer)
    content = sum(r.content_tokens for r in rows)
    st.markdown(
        f"**{len(tokens):,} tokens**, of which **{max(len(tokens) - content, 0):,}** are the format's own "
        f"· tokenizer: {widgets.md_escape(tokenizer.name)}"
    )
    st.html(render_spans(text, tokens, show_whitespace=show_whitespace, piece=getattr(tokenizer, "piece", None)))
    st.dataframe(cost_frame(rows, messages), hide_index=True, width="stretch")
    st.caption(widgets.md_escape(
        f"{notes} in a sandbox, as transformers' apply_chat_template does; "
        "text that spells a special token becomes that token here."))


@lru_cache(maxsize=8)
def _config(source: ct.TemplateSource) -> ct.TemplateConfig:
    return ct.load_config(source)


@lru_cache(maxsize=16)  # a rendering may be up to ct.MAX_OUTPUT_CHARS
def _rendered(config: ct.TemplateConfig, messages: tuple[cf.Message, ...], null_call_content: bool) -> str:
    """The rendering, once per template and conversation (a failure is not kept: the next run tries again)."""
    dicts = ct.messages_for_template(messages, null_call_content=null_call_content)
    return ct.render(config, dicts, add_generation_prompt=ct.wants_reply(messages))


def cost_frame(rows: Sequence[cf.Cost], messages: Sequence[cf.Message]) -> pd.DataFrame:
    """The per-turn cost table: role, the text alone, in the format, and the difference."""
    def label(row: cf.Cost) -> str:
        if row.message < 0:
            return "framing (start, reply prompt)"
        message = messages[row.message]
        return f"{row.role} (tool call: {message.tool_name})" if message.tool_name else row.role

    return pd.DataFrame({
        "turn": [label(r) for r in rows],
        "text alone": [r.content_tokens for r in rows],
        "in the format": [r.format_tokens for r in rows],
        "format adds": [r.overhead for r in rows],
    })
