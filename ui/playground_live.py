"""The Playground's live part: the text box as an ``st.fragment``, and the picker and columns under it.

A key typed in the live box (``ui/live_text.py``) reruns this fragment only, not the page: the
sidebar, the title, the picker, the columns' Streamlit elements, the counts table, the ids and the
decoder are neither run nor sent again. The run tokenizes the new text for every column the page
drew and sends what changed in them as the data of one element (``assets/live_cards.js``), which
patches each column's card in place (its spans, count and context line: ``ui/span_box.py``) and
the spread line. What the cards do not hold follows the text when typing pauses: the box then asks
for one whole-page run (``live_text.whole_page_drawn``), which draws everything from the last text
(the columns again, the same markup: nothing moves) and writes the link.

Subtle: a key used to rerun the box, the picker, the legend and the columns as one fragment: ~60
deltas (33 once each column's head was one element), each re-created by React, were most of the
browser's ~0.3 s a key at 1 KB x 4; now a key sends three elements. A key whose text needs what
only a whole-page run draws (no text, a failed or not yet loaded tokenizer, another set of columns)
asks for the whole page instead, as anything else that reruns the fragment does ("Back to the
editable text").
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from core.pretrained.adapter import TokenizerFailed
from ui import cache, columns, context_view, live_text, span_links, state, uploads, widgets
from ui.scripts import script

_WHOLE_RUN = "pg_live_whole_run"  # plain session key: set by the page right before it calls live_area
_CARDS = "pg_live_cards"  # plain session key: the picker keys whose cards the last whole-page run drew
_cards = st.components.v2.component("tp_live_cards", js=script("live_cards.js"), isolate_styles=False)


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
def live_area(display: Display) -> str:
    """The box (or a long upload's preview); on a whole-page run, its text. A typed key reruns it alone:
    then it patches the columns the page drew (``follow``), or asks for the whole page."""
    whole = bool(st.session_state.pop(_WHOLE_RUN, False))
    if not live_text.typed(state.PG_TEXT) and not whole:
        st.rerun()  # a button changed what the whole page shows: run all of it
    text = _text_input()
    if whole:
        return text
    cards = follow(text, display)
    if cards is None:
        st.rerun()  # what changed needs the whole page (no text, a failure, other columns)
    # the columns follow the text: the cards' element says so once drawn (the next typed text may go
    # now), as live_text.finished's own element did; one element fewer for the browser to take in
    _cards(key="pg_live_cards", data=cards | {"done": json.dumps(live_text.done_mark(state.PG_TEXT))})
    return text


def follow(text: str, display: Display) -> dict[str, Any] | None:
    """What the columns the last whole-page run drew show for ``text``: each card's data (``name`` is
    its span box's key) and the spread line; None when only a whole-page run can draw it."""
    keys = st.session_state.get(_CARDS)
    if not text or not keys or keys != list(st.session_state.get(state.PG_TOKENIZERS) or []):
        return None
    cards, counts = [], {}
    for key in keys:
        if not uploads.is_uploaded(key) and cache.tokenizer_store().peek(key) is None:
            return None  # not loaded yet: its progress bar is the page's
        ref = uploads.resolve(key)
        if not ref.available:
            return None
        try:
            with _spinner(ref, text):
                analysis = ref.analyze(text, display.allow_special)
            cards.append(columns.card_data(
                ref, analysis, text, allow_special=display.allow_special, show_whitespace=display.show_whitespace,
                raw_pieces=display.raw_pieces, per_row=display.per_row, price=display.price,
            ))
        except TokenizerFailed:
            return None
        counts[ref.tokenizer.name] = analysis.counts.tokens
    # subtle: every value a string (JSON text): see ui/span_box.py
    return {"cards": json.dumps(cards), "spread": span_links.spread(counts) or ""}


def columns_area(text: str, names: dict[str, str], display: Display) -> Drawn | None:
    """The picker and the columns (a whole-page run); None when there is nothing to tokenize (no
    text, or no tokenizer picked)."""
    # subtle: the picker's value goes to the browser as its default, on every run. Written back as
    # set by the app (state.keep_declared), it cleared a filter being typed in the picker whenever a
    # run came, and runs come on their own here (typing pauses); with only Streamlit's "no default",
    # a picker that mounted late came up empty, and the next pick replaced every chosen tokenizer.
    keys = st.multiselect(
        "Tokenizers", options=widgets.tokenizer_options(names), format_func=widgets.tokenizer_label(names),
        **state.kept(state.PG_TOKENIZERS), default=st.session_state[state.PG_TOKENIZERS],
    )
    state.keep_drawn(state.PG_TOKENIZERS, keys)
    st.session_state[_CARDS] = None
    if not text or not keys:
        st.info(
            "Type or paste some text above, or upload a .txt file in the sidebar, to see how it is tokenized."
            if not text else "Pick one or more tokenizers above to compare them."
        )
        live_text.finished(state.PG_TEXT)
        return None
    drawn = _columns(text, keys, names, display)
    # a typed key patches these columns (follow) while every one of them is a card
    st.session_state[_CARDS] = list(keys) if len(drawn.analyses) == len(keys) else None
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
    # every column's box anew (ui/span_box.py keeps a box only while it stays where it was). Once the
    # bars are emptied the container takes no room (assets/spans.css), as on the runs that draw none in
    # it: left in the page, its flex gap put the columns 17 px lower until the first typing pause.
    with st.container(key="pg_loading"):
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
    with spread:
        span_links.spread_line(line or "")
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
            price=display.price,
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
