"""The "Words & compression" page as a link: its tab, corpus, word rule, Zipf's window and fit method,
Heaps' start, sweep and calculator.

A link that is opened shows what it names: the corpus it names becomes the corpus shown and its sweep
settings the sweep run, not only the values in the forms. A pasted or uploaded corpus cannot travel in
a link (it may be megabytes); such a link says so in a note and opens on the default corpus.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from core import corpora
from core.measures import compression, vocab_cost, wordstats
from core.text.patterns import NAMED_PATTERNS
from ui import cache, links, state, uploads
from ui.words import sweep_views, views
from ui.words.cache import CorpusChoice, SweepSettings


def _window(value: Any) -> tuple[int, int]:
    lo, hi = value
    if lo not in views.RANK_STOPS or hi not in views.RANK_STOPS or lo > hi:
        raise ValueError(f"the rank window {lo}–{hi} is not one the slider offers")
    return (lo, hi)


def sync() -> None:
    """Read a newly opened link into the page's keys, then write the state back into the URL."""
    others = [name for name in compression.ALGORITHMS if name != "BPE"]
    links.sync(state.words_defaults(), {
        state.WC_TAB: links.one_of(state.WC_TABS),
        state.WC_CORPUS: links.one_of([e.key for e in corpora.catalog()]),
        state.WC_TOKENIZERS: uploads.registry_only(cache.registry_names()),
        state.WC_RULE: links.one_of(wordstats.WORD_RULES),
        state.WC_ZIPF_WINDOW: _window,
        state.WC_ZIPF_METHOD: links.one_of(wordstats.ZIPF_METHODS),
        state.WC_HEAPS_START: links.one_of(views.HEAPS_STARTS),
        state.WC_MAX_VOCAB: links.one_of(sweep_views.VOCAB_STOPS),
        state.WC_POINTS: links.in_range(3, 12),
        state.WC_OTHERS: links.one_of(others),
        state.WC_PATTERN: links.one_of(NAMED_PATTERNS),
        state.WC_UNITS_VOCAB: links.one_of(sweep_views.UNITS_STOPS),
        state.WC_PRESET: links.one_of(["", *(p.name for p in vocab_cost.PRESETS)]),
        state.WC_V: links.in_range(1, 10_000_000),
        state.WC_D: links.in_range(1, 1_000_000),
        state.WC_N: links.in_range(0, 10**13),
        state.WC_TIED: None,
    }, page="words", on_apply=_apply)


def _apply() -> list[str]:
    """Show the linked corpus and run the linked sweep; re-seed the Zipf slider from the linked window."""
    ss = st.session_state
    ss[state.WC_APPLIED], ss[state.WC_OWN_TEXT] = CorpusChoice(ss[state.WC_CORPUS]), ""
    ss[state.WC_SWEEP] = SweepSettings(
        int(ss[state.WC_MAX_VOCAB]), int(ss[state.WC_POINTS]), tuple(ss[state.WC_OTHERS]), ss[state.WC_PATTERN]
    )
    ss.pop(views.ZIPF_WIDGET, None)  # the slider has a key of its own, seeded from WC_ZIPF_WINDOW
    return []
