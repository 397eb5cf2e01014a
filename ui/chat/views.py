"""One chat format's card: the rendered conversation as spans, its cost per turn, and where it comes from.

The spans come from the one renderer (``ui.spans.render_spans``); the computation from
``core.chat.formats``. Special tokens are drawn as badges because they are ``SPECIAL`` tokens.
A built-in format's or registry template's card (its headline, spans and cost table) is made once per
process for each conversation (``drawn_cards``, bounded by ``CARDS_MB``): every view of the page drew
ten cards' spans anew. Cards of uploaded templates are made on every run (their tokenizer may be a
session's upload). A card whose tokenizer file is over ``HEAVY_BYTES`` (Gemma 3's 33 MB tokenizer.json
takes 1.4-1.9 s of CPU to parse, DeepSeek V3's 7.8 MB 0.6 s) loads it on a click while no session of
the process has loaded it yet, so a first visit does not pay for every card at once (issue 21, item 9).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pandas as pd
import streamlit as st

from core.chat import formats as cf
from core.chat import templates as ct
from ui import cache, widgets
from ui.bounded import SizedCache
from ui.spans import render_spans

CARDS_MB = 8  # the kept cards of every conversation, together
HEAVY_BYTES = 5_000_000  # a tokenizer file above this loads on a click until the process has it


@dataclass(frozen=True)
class Drawn:
    """What a card shows below its title: the headline (Markdown), a note or "", the spans' HTML, the costs."""

    headline: str
    note: str
    html: str
    costs: pd.DataFrame


@st.cache_resource(show_spinner=False)
def drawn_cards() -> SizedCache[Drawn]:
    """Cards by (format or template, conversation, whitespace shown), at most ``CARDS_MB``, for all sessions."""
    return SizedCache(max_bytes=CARDS_MB * 1_000_000,
                      size=lambda d: len(d.html) + len(d.headline) + int(d.costs.memory_usage(deep=True).sum()))


def _show(drawn: Drawn) -> None:
    st.markdown(drawn.headline)
    if drawn.note:
        st.caption(drawn.note)
    st.html(drawn.html)
    st.dataframe(drawn.costs, hide_index=True, width="stretch")


def heavy_file_bytes(key: str) -> int:
    """The size of registry tokenizer ``key``'s files when above ``HEAVY_BYTES`` (its pins' size hints), else 0."""
    from core import pretrained  # lazily, as ui.cache does

    spec = pretrained.registry().get(key)
    size = sum(f.size_hint or 0 for f in spec.files) if spec is not None else 0
    return size if size > HEAVY_BYTES else 0


def _refused(title: str, exc: Exception, messages: Sequence[cf.Message] = (),
             render: Callable[[tuple[cf.Message, ...]], object] | None = None) -> None:
    """Say that ``title``'s format or template refused the conversation, in the words of ``exc``
    (escaped: a message may quote the user's text), as one sentence: a warning, as it is the model's
    own rule (Gemma 3 takes no tool turn), not a failure. When ``render`` takes ``messages`` without
    their tool call and result, a second sentence says so, and where to turn them off."""
    fewer = _without_tools(messages)
    hint = f" {TOOLS_HINT}" if render is not None and fewer and _renders(lambda: render(fewer)) else ""
    reason = _full_stop(str(getattr(exc, "reason", exc)))
    st.warning(widgets.md_escape(f"{title} refuses this conversation: {reason}{hint}"), icon=":material/block:")


def _failed(title: str, exc: Exception) -> None:
    """Say, as an error, that ``title``'s template failed (stopped, forbidden, broken): one sentence."""
    st.error(widgets.md_escape(f"{title} cannot show this conversation: {_full_stop(str(exc))}"), icon=":material/error:")


def _full_stop(reason: str) -> str:
    """``reason`` ending in one full stop (never "....": a template's message may end in "...")."""
    reason = reason.rstrip()
    return reason if reason.endswith((".", "!", "?", "…")) else reason + "."


TOOLS_HINT = 'Turn off "Tool call and its result" in the sidebar to see the rest of the conversation.'


def _without_tools(messages: Sequence[cf.Message]) -> tuple[cf.Message, ...]:
    """The conversation without its tool call and the call's result (``()`` when it has neither)."""
    kept = tuple(m for m in messages if m.role != "tool" and not m.tool_name)
    return kept if len(kept) < len(messages) else ()


def _renders(attempt: Callable[[], object]) -> bool:
    try:
        attempt()
    except ValueError:  # a TemplateFailed too
        return False
    return True


def card_tokenizer(key: str, *, card: str) -> Any | None:
    """Registry tokenizer ``key`` for a card, or ``None`` after drawing what stands in for it: a load
    button, or the card that says why the tokenizer is unavailable (with its retry button).

    A heavy tokenizer (``heavy_file_bytes``) that the process has not loaded yet waits for a click on
    the card's button; once loaded, by any session, every card shows it at once."""
    name = cache.registry_names().get(key, key)
    size = heavy_file_bytes(key)
    if size and cache.tokenizer_store().peek(key) is None and not st.session_state.get(f"cf_load_{card}"):
        st.caption(widgets.md_escape(f"{name}'s tokenizer file is {size / 1e6:.0f} MB: it is read when you ask "
                                     "(a second or two the first time), so the page opens without waiting for it."))
        st.button(f"Load {name} and show its tokens", key=f"cf_load_{card}", icon=":material/download:")
        return None
    tokenizer = cache.get_tokenizer(key, name)
    if isinstance(tokenizer, cache.Unavailable):
        widgets.unavailable_card(tokenizer, retry_key=f"cf_retry_{card}")
        return None
    return tokenizer


def format_card(fmt: cf.ChatFormat, messages: Sequence[cf.Message], *, show_whitespace: bool) -> None:
    """Draw ``fmt`` applied to ``messages``: headline counts, spans, a cost table, notes and source."""
    st.markdown(f"#### {widgets.md_escape(fmt.title)}")
    tokenizer = card_tokenizer(fmt.tokenizer, card=fmt.key)
    if tokenizer is None:
        return
    try:
        segments = cf.render(fmt, messages)
    except ValueError as exc:
        _refused(fmt.title, exc, messages, lambda fewer: cf.render(fmt, fewer))
        return
    key = ("format", fmt.key, tuple(messages), show_whitespace)
    _show(drawn_cards().get(key, lambda: _format_drawn(fmt, segments, tokenizer, messages, show_whitespace)))
    st.caption(widgets.md_escape(f"{fmt.notes} Source: {fmt.source}."))


def _format_drawn(fmt: cf.ChatFormat, segments: Any, tokenizer: Any, messages: Sequence[cf.Message],
                  show_whitespace: bool) -> Drawn:
    text, tokens, owners = cf.tokenize(fmt, segments, tokenizer)
    rows = cf.costs(messages, owners, tokenizer)
    content = sum(r.content_tokens for r in rows)
    headline = (
        f"**{len(tokens):,} tokens**, of which **{len(tokens) - content:,}** are the format's own "
        f"({(len(tokens) - content) / max(len(tokens), 1):.0%}) · tokenizer: {widgets.md_escape(tokenizer.name)}"
    )
    foreign = cf.missing_specials(fmt, tokenizer)
    note = ""
    if foreign:
        listed = ", ".join(f"{name} ({i})" for name, i in foreign.items())
        note = widgets.md_escape(f"Not in {tokenizer.name}'s own special tokens, added by id here: {listed}.")
    names = {i: name for name, i in fmt.specials.items()}  # ids a tokenizer may not know (cl100k_im's)
    vocab_piece = getattr(tokenizer, "piece", None)

    def piece(token_id: int) -> str:
        return names.get(token_id) or (vocab_piece(token_id) if vocab_piece else "")

    html = render_spans(text, tokens, show_whitespace=show_whitespace, piece=piece)
    return Drawn(headline, note, html, cost_frame(rows, messages))


def template_card(source: ct.TemplateSource, messages: Sequence[cf.Message], *, show_whitespace: bool) -> None:
    """Draw the conversation as the model's own chat template renders it, tokenized by its tokenizer."""
    st.markdown(f"#### {widgets.md_escape(source.title)}")
    try:
        config = _config(source)
        # rendered before the tokenizer is loaded: a template that refuses the conversation (Gemma's
        # "roles must alternate" for a tool turn) needs no tokenizer; a success is kept for template_body
        _rendered(config, tuple(messages), source.null_call_content)
    except ct.TemplateRefused as exc:
        _refused(source.title, exc, messages, lambda fewer: _rendered(config, fewer, source.null_call_content))
        return
    except ct.TemplateFailed as exc:
        _failed(source.title, exc)
        return
    tokenizer = card_tokenizer(source.tokenizer, card=source.key)
    if tokenizer is None:
        return
    origin = f"{source.config.filename} (sha256 {(source.config.sha256 or '')[:8]})"
    template_body(source.title, config, tokenizer, messages, show_whitespace=show_whitespace,
                  notes=f"{source.notes} Rendered from the chat_template of {origin}",
                  null_call_content=source.null_call_content,
                  kept_as=("template", source.key, tuple(messages), show_whitespace))


def template_body(title: str, config: ct.TemplateConfig, tokenizer: Any, messages: Sequence[cf.Message], *,
                  show_whitespace: bool, notes: str, null_call_content: bool = False,
                  kept_as: Hashable | None = None) -> None:
    """A template's rendering of ``messages`` as spans, with its cost per turn; a failure is one sentence.

    ``kept_as``: the key the card is kept under for every session (``drawn_cards``), or None to make it
    on every run (an uploaded template, or one tokenized by a session's upload)."""
    try:
        text = _rendered(config, tuple(messages), null_call_content)
    except ct.TemplateRefused as exc:
        _refused(title, exc, messages, lambda fewer: _rendered(config, fewer, null_call_content))
        return
    except ct.TemplateFailed as exc:
        _failed(title, exc)
        return
    def make() -> Drawn:
        return _template_drawn(text, tokenizer, messages, show_whitespace)

    _show(make() if kept_as is None else drawn_cards().get(kept_as, make))
    st.caption(widgets.md_escape(
        f"{notes} in a sandbox, as transformers' apply_chat_template does; "
        "text that spells a special token becomes that token here."))


def _template_drawn(text: str, tokenizer: Any, messages: Sequence[cf.Message], show_whitespace: bool) -> Drawn:
    tokens, owners = ct.tokenize(text, messages, tokenizer)
    rows = cf.costs(ct.shown(text, messages), owners, tokenizer)
    content = sum(r.content_tokens for r in rows)
    headline = (
        f"**{len(tokens):,} tokens**, of which **{max(len(tokens) - content, 0):,}** are the format's own "
        f"· tokenizer: {widgets.md_escape(tokenizer.name)}"
    )
    html = render_spans(text, tokens, show_whitespace=show_whitespace, piece=getattr(tokenizer, "piece", None))
    return Drawn(headline, "", html, cost_frame(rows, messages))


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
