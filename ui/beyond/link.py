"""The Beyond page as a link: its view, text, tokenizers, patch settings and the models' forms.

A link that is opened shows the models its forms name (not only the forms): ``ui.links`` does the
encoding and the notes.
"""

from __future__ import annotations

import streamlit as st

from core.beyond import byte_ngram, patches
from ui import cache, links, state
from ui.beyond import models


def sync() -> None:
    """Read a newly opened link into the page's keys (and its models), then write the state back."""
    links.sync(state.beyond_defaults(), {
        state.BT_VIEW: links.one_of(["bytes", "patches", "superwords"]),
        state.BT_TEXT: None,
        state.BT_TOKENIZERS: links.one_of(cache.registry_names()),
        state.BT_SHOW_WHITESPACE: None,
        state.BT_NGRAM_CORPUS: links.one_of(models.ngram_corpus_options()),
        state.BT_NGRAM_ORDER: links.in_range(1, byte_ngram.MAX_ORDER),
        state.BT_RULE: links.one_of(patches.RULES),
        state.BT_THRESHOLD_GLOBAL: links.in_range(0.0, 8.0),
        state.BT_THRESHOLD_RELATIVE: links.in_range(0.0, 8.0),
        state.BT_WHOLE_CHARS: None,
        state.BT_PARALLEL: links.one_of(["pud", "builtin"]),
        state.BT_SUPER_CORPUS: links.one_of(models.super_corpus_options()),
        state.BT_SUPER_VOCAB: links.in_range(257, 100_000),
        state.BT_SUPER_TRANSITION: links.in_range(256, 100_000),
    }, page="beyond", on_apply=_apply_models)


def _apply_models() -> list[str]:
    ss = st.session_state
    ss[state.BT_NGRAM_APPLIED] = models.NgramSettings(ss[state.BT_NGRAM_CORPUS], int(ss[state.BT_NGRAM_ORDER]))
    try:
        ss[state.BT_SUPER_APPLIED] = models.check_super_settings(
            ss[state.BT_SUPER_CORPUS], int(ss[state.BT_SUPER_VOCAB]), int(ss[state.BT_SUPER_TRANSITION])
        )
    except ValueError as exc:
        return [f"its superword settings were refused ({exc})"]
    return []
