"""The BPE page as a link: the form, the text, the view and the step in the query string.

A link that is opened trains what its form says (the model shown follows the link, not only the
form) and lands on its step; ``ui.links`` does the encoding and the notes.
"""

from __future__ import annotations

import streamlit as st

from core import bpe, corpora
from core.text.patterns import NAMED_PATTERNS
from ui import cache, links, state
from ui.bpe import views


def sync() -> None:
    """Read a newly opened link into the page's keys (and its model), then write the state back."""
    catalog = [e.key for e in corpora.catalog()]
    links.sync(state.bpe_defaults(), {
        state.BPE_VIEW: links.one_of(["train", "replay"]),
        state.BPE_CORPUS: links.one_of(catalog),
        state.BPE_MODE: links.one_of(bpe.MODES),
        state.BPE_END_OF_WORD: links.one_of(bpe.END_OF_WORDS),
        state.BPE_PATTERN: links.one_of([*NAMED_PATTERNS, views.CUSTOM]),
        state.BPE_CUSTOM_PATTERN: None,
        state.BPE_SIZE_KIND: links.one_of(views.SIZE_KINDS),
        state.BPE_SIZE: links.in_range(1, views.MAX_MERGES + 256),
        state.BPE_TIE: links.one_of(bpe.TIE_BREAKS),
        state.BPE_TEXT: None,
        state.BPE_STEP: links.in_range(0, views.MAX_MERGES),
        state.BPE_SHOW_WHITESPACE: None,
        state.BPE_REPLAY_TOKENIZER: links.one_of(cache.registry_names()),
        state.BPE_REPLAY_TEXT: None,
        state.BPE_REPLAY_STEP: links.in_range(0, 1_000_000),
    }, page="bpe", on_apply=_apply_model)


def _apply_model() -> list[str]:
    """Make the linked form the model shown, and keep the linked steps rather than reset them."""
    ss = st.session_state
    if ss[state.BPE_CORPUS] in (views.PASTE, views.UPLOAD):
        # subtle: a link never carries a pasted or uploaded corpus (its check refuses them), so the form
        # holds one only from this session. A rerun may come with a query string older than the one
        # this page last wrote (a click racing the link's update: seen under load, right after a .txt
        # was uploaded for training); read as a link, it made that corpus the model shown without its
        # text, and the page fell back to the default model with "no corpus called 'upload'".
        return []
    try:
        settings = views.settings_from_form(
            corpus=ss[state.BPE_CORPUS], mode=ss[state.BPE_MODE], pattern_name=ss[state.BPE_PATTERN],
            custom=ss[state.BPE_CUSTOM_PATTERN], size_kind=ss[state.BPE_SIZE_KIND], size=int(ss[state.BPE_SIZE]),
            tie_break=ss[state.BPE_TIE], end_of_word=ss[state.BPE_END_OF_WORD],
        )
    except ValueError as exc:
        return [f"its training settings were refused ({exc})"]
    ss[state.BPE_APPLIED], ss[state.BPE_OWN_TEXT] = settings, ""
    ss[state.BPE_STEP_FOR] = settings
    ss[state.BPE_REPLAY_FOR] = (ss[state.BPE_REPLAY_TOKENIZER], ss[state.BPE_REPLAY_TEXT])
    return []
