"""The Unicode page's views, each drawing one part of the page from cached facts about the text.

``text_facts`` (cached per text) holds what every view needs: grapheme boundaries, counts, odd
characters. The characters table draws one page of ``PAGE_SIZE`` clusters at a time, so a
megabyte of text is a few hundred rows, never a million.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from core.text import char_table, normalization, odd_chars, tokenizer_normalizers, unicode_info
from core.text.normalization import FORMS
from ui import cache, state, widgets
from ui.unicode import frames, render

PAGE_SIZE = 200
SEEN_CHARS = 2000  # characters of each tokenizer's view that are diffed and drawn


@dataclass(frozen=True)
class TextFacts:
    """What the views need to know about one text (frozen: shared between sessions by the cache)."""

    starts: tuple[int, ...]
    counts: unicode_info.UnicodeCounts
    flags: tuple[odd_chars.FlaggedChar, ...]
    confusable: frozenset[str]


@st.cache_resource(show_spinner=False, max_entries=8, ttl=3600)
def text_facts(text: str) -> TextFacts:
    starts = unicode_info.grapheme_starts(text)
    return TextFacts(
        tuple(starts), unicode_info.counts(text, starts), tuple(odd_chars.flagged_chars(text)),
        odd_chars.confusable_chars(text),
    )


def counts_line(facts: TextFacts) -> None:
    """The counts (odd characters included; the *Odd characters* view lists them), and lone surrogates."""
    warnings = [f for f in facts.flags if f.severity == odd_chars.WARN]
    st.markdown(render.counts_markdown(facts.counts, flagged=len(warnings)))
    if facts.counts.lone_surrogates:
        st.warning(
            f"{facts.counts.lone_surrogates:,} lone surrogate(s): not characters, no UTF-8 form; counted as "
            "U+FFFD, which is what every tokenizer here reads instead.", icon=":material/warning:",
        )


def characters_view(text: str, facts: TextFacts) -> None:
    """The characters table, one page of grapheme clusters at a time."""
    total = len(facts.starts)
    pages = max(1, -(-total // PAGE_SIZE))
    # subtle: a shorter text may leave the page number past the end; clamp it before the widget draws
    st.session_state[state.UC_PAGE] = min(max(1, int(st.session_state[state.UC_PAGE])), pages)
    if pages > 1:
        st.number_input(f"Page (of {pages:,})", min_value=1, max_value=pages, step=1,
                        **state.kept(state.UC_PAGE))
    page = st.session_state[state.UC_PAGE] if pages > 1 else 1
    first = (page - 1) * PAGE_SIZE
    rows = char_table.char_rows(text, facts.starts, first, PAGE_SIZE, confusable=facts.confusable)
    st.dataframe(frames.chars_frame(rows), hide_index=True, width="stretch", height=_height(len(rows)))
    if pages > 1:
        st.caption(f"Clusters {first + 1:,}–{first + len(rows):,} of {total:,}; the counts above cover all of them.")
    st.caption(
        f"One row per grapheme cluster (regex `\\X`, Unicode {unicode_info.regex_unicode_version() or '?'}); "
        f"names from Python's unicodedata (Unicode {unicode_info.UNICODE_VERSION}): a newer character "
        "shows as <reserved-…>. UTF-8 bytes of each code point are separated by |."
    )


def normalization_view(text: str) -> None:
    """The five forms side by side with their changes highlighted, then the clusters that change."""
    views = [_form_view(text, form) for form in FORMS]
    st.html(render.forms_table_html(text, views, original_bytes=text_facts(text).counts.utf8_bytes))
    rows = _changed(text)
    if rows:
        st.markdown("**Clusters that change**, with their code points under each form:")
        st.dataframe(frames.changes_frame(rows), hide_index=True, width="stretch",
                     height=_height(len(rows), cap=8))
    else:
        st.caption("No cluster of this text changes under any form.")


def tokenizers_view(text: str) -> None:
    """What the chosen real tokenizers' normalizers do to the text, read from their libraries."""
    names = cache.registry_names()
    keys = st.multiselect(
        "Tokenizers", widgets.tokenizer_options(names), format_func=widgets.tokenizer_label(names),
        **state.kept(state.UC_TOKENIZERS),
    )
    widgets.model_finder(state.UC_TOKENIZERS, names, key="uc_find_model")
    rows = []
    for key in keys:
        tokenizer = cache.get_tokenizer(key, names.get(key))
        if isinstance(tokenizer, cache.Unavailable):
            rows.append((tokenizer.name, f"unavailable: {tokenizer.reason}", "", ""))
            continue
        info = _describe(key)
        seen, pieces = _seen(key, text)
        note = "unchanged" if seen == text else f"{len(text):,} → {len(seen):,} code points"
        rows.append((tokenizer.name, info.summary, note, render.pieces_html(pieces)))
    if rows:
        st.html(render.tokenizers_table_html(rows))
    if len(text) > SEEN_CHARS:
        st.caption(f"Drawn: the first {SEEN_CHARS:,} characters; the sizes cover the whole text.")
    st.caption(
        "Each row is the tokenizer's own normalizer run on your text (tokenizers' normalizer, "
        "sentencepiece's normalize, the NFC switch of Qwen's encoder): what its model is fed. "
        "Two texts that differ only in what was highlighted get the very same tokens."
    )


def flags_view(facts: TextFacts) -> None:
    """Every distinct odd character with why it is listed."""
    if not facts.flags:
        st.success("No invisible, control, odd-space or look-alike characters in this text.", icon=":material/check:")
        return
    st.dataframe(frames.flags_frame(facts.flags), hide_index=True, width="stretch",
                 height=_height(len(facts.flags), cap=12))
    st.caption(
        "Look-alikes come from Unicode's confusables data (TR39); a letter of another script is listed "
        "when it sits in a word with Latin letters or in a mostly Latin text."
    )


@st.cache_data(show_spinner=False, max_entries=32)
def _form_view(text: str, form: str) -> normalization.FormView:
    return normalization.form_view(text, form)


@st.cache_data(show_spinner=False, max_entries=8)
def _changed(text: str) -> list[normalization.ChangeRow]:
    return normalization.changed_clusters(text)


@st.cache_resource(show_spinner=False)
def _describe(key: str) -> tokenizer_normalizers.NormalizerInfo:
    return tokenizer_normalizers.describe(cache.tokenizer_store().get(key))


@st.cache_data(show_spinner=False, max_entries=64)
def _seen(key: str, text: str) -> tuple[str, list[normalization.Piece]]:
    tokenizer = cache.tokenizer_store().get(key)
    head = text[:SEEN_CHARS]
    seen_head = tokenizer_normalizers.seen_text(tokenizer, head)
    whole = seen_head if head == text else tokenizer_normalizers.seen_text(tokenizer, text)
    return whole, normalization.diff_pieces(head, seen_head)


def _height(rows: int, *, cap: int = 14) -> int:
    """Pixels for a dataframe of ``rows`` rows, at most ``cap`` rows high (it scrolls past that)."""
    return 3 + 35 * (1 + max(1, min(rows, cap)))

