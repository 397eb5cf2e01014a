"""The Playground's live part: the text box, the tokenizer picker and the columns, as one ``st.fragment``.

A key typed in the live box (``ui/live_text.py``) reruns this fragment only, not the page: the
sidebar, the title, the counts table, the ids and the decoder are neither run nor sent again, so a
key costs the server the new text's columns and the browser their markup. What lies outside the
fragment follows the text when typing pauses: the box then asks for one whole-page run
(``live_text.whole_page_drawn``), which draws the counts and ids of the last text and writes the link.

Anything else that reruns the fragment (the picker, "Back to the editable text", a retry) changes
what the rest of the page shows at once, so such a run asks for the whole page straight away.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from core.pretrained.adapter import TokenizerFailed
from ui import cache, columns, context_view, live_text, span_links, state, uploads, widgets

_WHOLE_RUN = "pg_live_whole_run"  # plain session key: set by the page right before it calls live_area


@dataclass(frozen=True)
class Display:
    """The sidebar's switches, as the last whole-page run read them (a fragment rerun keeps them)."""

    show_whitespace: bool
    raw_pieces: bool
    allow_special: bool
    view: str
    disagree: bool
    price: float
    per_row: int


@dataclass
class Drawn:
    """What the fragment drew: the text, the tokenizers' refs and their analyses (for the rest of the page)."""

    text: str
    refs: dict[str, cache.TokenizerRef] = field(default_factory=dict)
    analyses: dict[str, cache.Analysis] = field(default_factory=dict)

    @property
    def loaded(self) -> dict[str, Any]:
        """Picker key → its tokenizer (or ``Unavailable``)."""
        return {key: ref.tokenizer for key, ref in self.refs.items()}


def begin_whole_run() -> None:
    """Say that the next ``live_area`` call is part of a whole-page run (the page calls it first)."""
    st.session_state[_WHOLE_RUN] = True


@st.fragment
def live_area(names: dict[str, str], display: Display) -> Drawn | None:
    """The box (or a long upload's preview), the picker and the columns; None when there is nothing
    to tokenize (no text, or no tokenizer picked). Returns to the page only on a whole-page run."""
    whole = bool(st.session_state.pop(_WHOLE_RUN, False))
    if not live_text.typed(state.PG_TEXT) and not whole:
        st.rerun()  # the picker or a button changed what the whole page shows: run all of it
    text = _text_input()
    # subtle: the picker's value goes to the browser as its default, on every run. Written back as
    # set by the app (state.keep_declared), it cleared a filter being typed in the picker whenever a
    # run came, and runs come on their own here (typing pauses); with only Streamlit's "no default",
    # a picker that mounted late (its code loads after the columns; text typed before that reran
    # this fragment first) came up empty, and the next pick replaced every chosen tokenizer.
    keys = st.multiselect(
        "Tokenizers", options=widgets.tokenizer_options(names), format_func=widgets.tokenizer_label(names),
        key=state.PG_TOKENIZERS, default=st.session_state[state.PG_TOKENIZERS],
    )
    state.keep_drawn(state.PG_TOKENIZERS, keys)
    if not text or not keys:
        st.info(
            "Type or paste some text above, or upload a .txt file in the sidebar, to see how it is tokenized."
            if not text else "Pick one or more tokenizers above to compare them."
        )
        live_text.finished(state.PG_TEXT)
        return None
    drawn = _columns(text, keys, names, display)
    # the columns are drawn: the next typed text may go now
    live_text.finished(state.PG_TEXT)
    return drawn


def _text_input() -> str:
    if st.session_state[state.PG_BIG_TEXT]:
        # subtle: Streamlit drops a widget's state on a run that does not draw it; writing it back keeps
        # what was typed before the upload for the "back" button
        st.session_state[state.PG_TEXT] = st.session_state[state.PG_TEXT]
        text = st.session_state[state.PG_BIG_TEXT]
        widgets.big_text_preview(text, big_key=state.PG_BIG_TEXT, button_key="pg_back_to_editing")
        return text
    return live_text.live_text("Text", key=state.PG_TEXT, height=170)


def _columns(text: str, keys: list[str], names: dict[str, str], display: Display) -> Drawn:
    # subtle: a tokenizer's first load draws its progress bar here. Inside one container that every
    # run draws, the bars never move what follows: with them beside it, the first run after a load
    # put the columns at other places in the page than the next runs, and the browser then built
    # every column's box anew (ui/span_box.py keeps a box only while it stays where it was)
    with st.container():
        drawn = Drawn(text, {key: uploads.resolve(key, names.get(key)) for key in keys})  # once per key and run
    widgets.span_legend()
    span_links.mount(disagree=display.disagree, view=display.view or "Text")
    spread = st.empty()
    for key, column in widgets.grid(keys, display.per_row):
        with column:
            _column(key, drawn, display)
    line = span_links.spread({
        drawn.refs[key].tokenizer.name: analysis.counts.tokens for key, analysis in drawn.analyses.items()
    })
    if line:
        spread.caption(widgets.md_escape(line))
    return drawn


def _column(key: str, drawn: Drawn, display: Display) -> None:
    ref = drawn.refs[key]
    tokenizer = ref.tokenizer
    if not ref.available:
        widgets.unavailable_card(tokenizer, retry_key=f"pg_retry_{key}")
        return
    # each column is drawn as soon as its own tokens are ready: the first shows while the rest encode
    try:
        with _spinner(ref, drawn.text):
            analysis = ref.analyze(drawn.text, display.allow_special)
        columns.column(
            ref, analysis, drawn.text, allow_special=display.allow_special,
            show_whitespace=display.show_whitespace, raw_pieces=display.raw_pieces, per_row=display.per_row,
            # what the model reads: the tokens the tokenizer adds (BOS) too
            foot=context_view.context_foot(key, tokenizer.name, analysis.total, display.price),
        )
    except TokenizerFailed as exc:  # an uploaded tokenizer that overran its time budget, or crashed
        widgets.failed_card(tokenizer.name, str(exc))
        return
    drawn.analyses[key] = analysis
    context_view.window_field(key, tokenizer.name)


def _spinner(ref: cache.TokenizerRef, text: str) -> contextlib.AbstractContextManager[Any]:
    """"Tokenizing with …" while a long text or an uploaded tokenizer (a worker process) encodes.

    Subtle: not around a registry tokenizer on a text short enough to be typed live (milliseconds):
    ``st.spinner`` starts a timer thread and sends a message to clear itself on every run, 10-15% of a
    typed key's run on this machine, for a spinner that shows only after half a second.
    """
    if ref.origin == "registry" and len(text) <= live_text.PAUSE_CHARS:
        return contextlib.nullcontext()
    return st.spinner(f"Tokenizing with {ref.tokenizer.name} …")
