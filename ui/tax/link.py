"""The Language tax page as a link: corpus, languages, base, tokenizers and the shown choices.

Languages picked by hand travel as a list and switch the preset off, as picking them on the page does.
While the page shows this session's uploaded corpus, the corpus, its languages, base and focus stay
out of the link (the file is not in it); the rest of the link keeps working for whoever opens it.
"""

from __future__ import annotations

import streamlit as st

from core.tax import parallel_corpus
from ui import cache, links, state
from ui.tax import views


def sync() -> None:
    """Read a newly opened link into the page's keys, then write the state back."""
    # a list when set (None until then): typed as one
    defaults = state.language_tax_defaults() | {state.LT_LANGUAGES: [], state.LT_BOARD_TOKENIZERS: []}
    links.sync(defaults, {
        state.LT_CORPUS: links.one_of([entry.key for entry in parallel_corpus.parallel_catalog()]),
        state.LT_PRESET: links.one_of(parallel_corpus.PRESETS),
        state.LT_LANGUAGES: _codes,
        state.LT_BASE: _code,
        state.LT_TOKENIZERS: links.one_of(cache.registry_names()),
        state.LT_CHART_TOKENIZER: links.one_of(cache.registry_names()),
        state.LT_FOCUS: None,
        state.LT_TAB: links.one_of(state.LT_TABS),
        state.LT_ORDER: links.one_of(["premium", "script"]),
        state.LT_CONTEXT: links.in_range(1, 100_000_000),
        state.LT_PRICE: links.in_range(0.0, 1_000_000.0),
        state.LT_UNIT: links.one_of(["words", "segments", "cost"]),
        state.LT_VALIDATE: links.one_of([True, False]),
        state.LT_UNKNOWN_MAX: links.in_range(0.0, 100.0),
        state.LT_DIST_ORDER: links.one_of(["median", "corpus"]),
        state.LT_BOARD: links.one_of([True, False]),
        state.LT_BOARD_VALUE: links.one_of(["bytes_per_token", "chars_per_token", "premium"]),
        state.LT_BOARD_TOKENIZERS: links.one_of(cache.registry_names()),
        state.LT_OWN_TEXT: None,
        state.LT_OWN_TRANSLATION: None,
    }, page="tax", on_apply=_languages_by_hand,
        # an uploaded corpus is this session's only: the link leaves it (and what refers to it) out
        keep_out=views.CORPUS_KEYS if st.session_state[state.LT_CORPUS] == views.YOURS else ())


def _code(value: str) -> str:
    if not value or len(value) > 40 or not all(c.isalnum() or c in "-_" for c in value):
        raise ValueError(f"{value!r} is not a language code")
    return value


def _codes(values: list[str]) -> list[str]:
    return [_code(v) for v in values]


def _languages_by_hand() -> list[str]:
    if "languages" in st.query_params:
        st.session_state[state.LT_PRESET] = None
    return []
