"""The corpus of "Words & compression": a sidebar form over the catalog, a paste or an upload.

The page opens on Tiny Shakespeare (1.1 MB: Zipf and Heaps have room to show, BPE has pairs to
merge up to 8,000 and beyond). Where it cannot be had (no data folder, no network) the page falls
back to the built-in English essay and says so, so it always shows something.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from core import corpora
from ui import state, widgets
from ui.words.cache import CorpusChoice, CorpusData, corpus_data

PASTE, UPLOAD = "paste", "upload"
DEFAULT = CorpusChoice("tinyshakespeare")
FALLBACK = CorpusChoice(corpora.DEFAULT_KEY)


def corpus_options() -> dict[str, str]:
    """Corpus choices, key → label: the built-in samples, the public corpora, paste, upload."""
    options = {e.key: f"{e.title} ({e.size_bytes / 1000:,.0f} kB)" for e in corpora.catalog()}
    return options | {PASTE: "Pasted text (below)", UPLOAD: "Uploaded .txt file (below)"}


def _corpus_form() -> tuple[CorpusChoice, str] | None:
    """The sidebar form; on "Use this corpus", the choice and (for paste or upload) its text."""
    options = corpus_options()
    with st.sidebar.form("wc_corpus_form", border=False):
        st.markdown("### Corpus")
        key = st.selectbox("Corpus", list(options), format_func=options.__getitem__,
                           **state.kept(state.WC_CORPUS),
                           label_visibility="collapsed")
        with st.expander("Your own corpus: paste or upload"):
            st.text_area("Pasted text", height=120, help="Used when the corpus is 'Pasted text'.",
                         **state.kept(state.WC_PASTE))
            upload = st.file_uploader("A .txt file", type=["txt"], key=state.WC_UPLOAD,
                                      help="UTF-8 text; used when the corpus is 'Uploaded .txt file'.")
        submitted = st.form_submit_button("Use this corpus", type="primary", key="wc_use_corpus",
                                          icon=":material/check:")
    if not submitted:
        return None
    try:
        if key == PASTE:
            text = corpora.corpus_from_paste(st.session_state[state.WC_PASTE]).text
            return CorpusChoice(PASTE, "Pasted text", _digest(text)), text
        if key == UPLOAD:
            if upload is None:
                raise ValueError("No file uploaded yet: open 'Your own corpus' and pick a .txt file, or choose another corpus.")
            named = widgets.md_escape(upload.name)  # the name reaches st.error's Markdown when refused
            text = corpora.corpus_from_upload(upload.getvalue(), name=named).text
            return CorpusChoice(UPLOAD, upload.name, _digest(text)), text
    except ValueError as exc:
        st.session_state[state.WC_CORPUS_ERROR] = f"Corpus not changed: {exc}"
        return None
    return CorpusChoice(key), ""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def current_corpus() -> tuple[CorpusData, str]:
    """The corpus to show and a note when it is not the one asked for (or ``""``).

    A refused form keeps the corpus shown and leaves the reason in ``WC_CORPUS_ERROR``; a corpus that
    cannot be loaded falls back to the built-in essay.
    """
    ss = st.session_state
    ss[state.WC_CORPUS_ERROR] = ""
    submitted = _corpus_form()
    if submitted is not None:
        choice, text = submitted
        try:
            data = corpus_data(choice, text)
        except ValueError as exc:
            ss[state.WC_CORPUS_ERROR] = f"Corpus not changed: {exc}"
        else:
            ss[state.WC_APPLIED], ss[state.WC_OWN_TEXT] = choice, text
            return data, ""
    applied = ss[state.WC_APPLIED] or DEFAULT
    try:
        return corpus_data(applied, ss[state.WC_OWN_TEXT]), ""
    except ValueError as exc:
        reason = str(exc)
    ss[state.WC_APPLIED] = None
    if applied != DEFAULT:
        try:
            return corpus_data(DEFAULT), f"{reason} Showing Tiny Shakespeare instead."
        except ValueError as exc:
            reason = str(exc)
    essay = "Showing the built-in English essay instead: a short text, so its curves are short too."
    return corpus_data(FALLBACK), f"{reason} {essay}"


def describe(data: CorpusData) -> str:
    """One line for the sidebar, after the corpus's title: size, licence, source and the split."""
    corpus = data.corpus
    train, held = len(data.train.encode()), len(data.heldout.encode())
    return (
        f"{corpus.size_bytes:,} bytes · {corpus.licence} · {corpus.source}. "
        f"Trained on the first {train:,} bytes, measured on the held-out last {held:,}."
    )


def corpus_sidebar() -> CorpusData:
    """Draw the corpus form and its notes; return the corpus to show."""
    data, note = current_corpus()
    with st.sidebar:
        if st.session_state[state.WC_CORPUS_ERROR]:
            st.error(st.session_state[state.WC_CORPUS_ERROR], icon=":material/error:")
        st.caption(f"**{widgets.md_escape(data.corpus.title)}**: {widgets.md_escape(describe(data))}")
        if data.corpus.notice:
            st.caption(widgets.md_escape(data.corpus.notice))
    if note:
        st.info(widgets.md_escape(note), icon=":material/info:")
    return data
