"""The Algorithms page as a link: corpus, BPE flavour, Unigram recipe, text, sizes and every closer look's choices.

A link that is opened trains what it names (the grid follows the link, not only the form); ``ui.links``
does the encoding and the notes. A pasted or uploaded corpus is not in a link (it can be megabytes):
such a link says so and shows the default corpus.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from core import corpora
from core.measures.vocab_grid import BPE_FLAVOURS, SIZE_OPTIONS, UNIGRAM_RECIPES
from ui import links, state
from ui.algorithms import closer, views
from ui.algorithms.store import GridSettings

MAX_SEED = 1_000_000_000


def sync() -> None:
    """Read a newly opened link into the page's keys (and the corpus trained on), then write the state back."""
    links.sync(state.algorithms_defaults(), {
        state.AL_CORPUS: links.one_of(e.key for e in corpora.catalog()),
        state.AL_BPE_FLAVOUR: links.one_of(BPE_FLAVOURS),
        state.AL_UNIGRAM_RECIPE: links.one_of(UNIGRAM_RECIPES),
        state.AL_TEXT: None,
        state.AL_SIZES: check_sizes,
        state.AL_SHOW_WHITESPACE: None,
        state.AL_FOCUS: links.one_of(SIZE_OPTIONS),
        state.AL_DROPOUT: links.in_range(0.0, 1.0),
        state.AL_DROPOUT_SEED: links.in_range(0, MAX_SEED),
        state.AL_WP_WORD: None,
        state.AL_UNI_WORD: None,
        state.AL_NBEST: links.in_range(1, closer.MAX_NBEST),
        state.AL_ALPHA: links.in_range(0.0, closer.MAX_ALPHA),
        state.AL_SAMPLE_SEED: links.in_range(0, MAX_SEED),
    }, page="algorithms", on_apply=_apply)


def check_sizes(value: Any) -> list[int]:
    """Sizes from a link: each one of ``SIZE_OPTIONS``, one to four of them, smallest first.

    >>> check_sizes([1000, 300])
    [300, 1000]
    """
    sizes = sorted(set(links.one_of(SIZE_OPTIONS)(value)))
    if not 1 <= len(sizes) <= views.MAX_COLUMNS:
        raise ValueError(f"give one to {views.MAX_COLUMNS} sizes, not {len(sizes)}")
    return sizes


def _apply() -> list[str]:
    """Train on the linked corpus and flavour; the linked sizes are the last ones picked."""
    ss = st.session_state
    ss[state.AL_APPLIED] = GridSettings(ss[state.AL_CORPUS], ss[state.AL_BPE_FLAVOUR],
                                        unigram_recipe=ss[state.AL_UNIGRAM_RECIPE])
    ss[state.AL_OWN_TEXT] = ""
    ss[state.AL_SIZES_LAST] = list(ss[state.AL_SIZES])
    return []
