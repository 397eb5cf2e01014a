"""Tokenizers the user uploads: kept in the browser session, offered in every tokenizer picker.

A page adopts them with ``names()`` (registry + this session's uploads, for a picker) and
``resolve(key)``: the one ``ui.cache.TokenizerRef`` of a registry or uploaded key, whose
``analyze`` / ``spans_html`` / ``tokens`` / ``tokens_later`` then serve either alike.
``sidebar_uploader(prefix)`` draws the uploader with its pattern choice.

Subtle, on privacy: the tokenizer objects live in ``st.session_state`` only, so another session
cannot list or use them, and they go when the session ends. Analyses of uploaded tokenizers are
cached process-wide under the *content hash* of the file (the ref's ``digest``, ``Upload.key``): a
session can only hit that cache entry by uploading the same file, so nothing is disclosed; the
entries expire after ten minutes, and together they hold at most ``UPLOAD_RESULTS_MB`` (``ui.bounded.SizedCache``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from core.pretrained.uploaded import (
    CUSTOM,
    MAX_TOKENIZER_BYTES,
    TIKTOKEN_PATTERNS,
    UPLOAD_PREFIX,
    Upload,
    UploadRejected,
    read_upload,
)
from ui import cache, hub, state
from ui.bounded import SizedCache
from ui.widgets import md_escape

MAX_UPLOADS = 4  # tokenizers kept per session; the oldest goes first
UPLOADED = state.UPLOADED_TOKENIZERS  # slot -> Upload
RAW = state.UPLOADED_RANK_FILES  # slot -> (bytes, file name) of rank files, re-read when the pattern changes


def _uploads() -> dict[str, Upload]:
    state.init(state.upload_defaults())
    return st.session_state[UPLOADED]


def is_uploaded(key: str) -> bool:
    return key.startswith(UPLOAD_PREFIX)


def slot_of(upload: Upload) -> str:
    """The key an upload has in pickers: stable when a rank file is re-read with another pattern."""
    return UPLOAD_PREFIX + upload.sha256[:16]


def uploads() -> dict[str, Upload]:
    """This session's uploaded tokenizers, by picker key, oldest first."""
    return dict(_uploads())


def label(upload: Upload) -> str:
    """An uploaded tokenizer's name in pickers and columns: its file's name, marked as a file."""
    return f"📄 {upload.filename}"


def names() -> dict[str, str]:
    """Registry key → name, then this session's uploads (key → "📄 file name"), for pickers."""
    merged = dict(cache.registry_names())
    merged.update({slot: label(upload) for slot, upload in _uploads().items()})
    return merged


def prune(selection_key: str) -> None:
    """Drop keys of removed uploads from a multiselect's (or selectbox's) value before it is drawn."""
    known = names()
    value = st.session_state.get(selection_key)
    if isinstance(value, list):
        kept = [key for key in value if key in known]
        if kept != value:
            st.session_state[selection_key] = kept
    elif isinstance(value, str) and value not in known:
        st.session_state[selection_key] = next(iter(known))


def registry_only(registry_names: Any):
    """A ``ui.links`` check for a list of tokenizer keys: uploads are dropped (a link cannot carry a
    file), unknown registry keys refused as ``links.one_of`` does."""
    from ui import links

    base = links.one_of(registry_names)

    def check(value: Any) -> Any:
        if isinstance(value, list):
            value = [key for key in value if not is_uploaded(key)]
        return base(value)

    return check


UPLOAD_RESULTS_MB = 64  # analyses and drawings of uploaded tokenizers, together
UPLOAD_RESULTS_TTL_S = 600


@st.cache_resource(show_spinner=False)
def _results() -> SizedCache:
    """Results of uploaded tokenizers, by the file's content hash: bounded in memory, gone after ten minutes."""
    return SizedCache(max_bytes=UPLOAD_RESULTS_MB * 1_000_000, size=cache.result_size, ttl=UPLOAD_RESULTS_TTL_S)


def resolve(key: str, name: str | None = None) -> cache.TokenizerRef:
    """The one ref of picker key ``key``: a registry tokenizer (loaded now, with a progress bar) or an
    upload of *this* session; a key this session does not hold (removed, or another session's) is an
    ``Unavailable``. Called once per key and run; everything after takes the ref."""
    if not is_uploaded(key):
        return cache.registry_ref(key, name)
    upload = _uploads().get(key)
    if upload is None:
        gone = cache.Unavailable(key, name or key, "this uploaded tokenizer was removed; upload it again.")
        return cache.TokenizerRef(key, name or key, key, None, "upload", gone, _results(), _results())
    return cache.TokenizerRef(key, name or label(upload), upload.key, upload.sha256, "upload",
                              upload.tokenizer, _results(), _results(), upload.notes)


def digest(key: str) -> str:
    """``resolve(key).digest``, without loading a registry tokenizer."""
    return resolve(key).digest if is_uploaded(key) else cache.registry_digest(key)


def get_tokenizer(key: str, name: str | None = None) -> Any:
    """The tokenizer of ``resolve(key, name)`` (an ``Unavailable`` when it cannot be had)."""
    return resolve(key, name).tokenizer


# -- the uploader ----------------------------------------------------------------------------------


def chosen_pattern() -> tuple[str, str]:
    """(pattern, its name) from the pattern picker."""
    choice = st.session_state.get(state.UPLOAD_PATTERN, "GPT-2")
    if choice == CUSTOM:
        return st.session_state.get(state.UPLOAD_CUSTOM_PATTERN, ""), "a custom regex"
    return TIKTOKEN_PATTERNS.get(choice, TIKTOKEN_PATTERNS["GPT-2"]), choice


def add_upload(data: bytes, filename: str, *, pattern: str, pattern_name: str,
               progress: Callable[[float, str], None] | None = None) -> Upload:
    """Read a file into this session's uploads (``UploadRejected`` with a one-line reason if it is not one)."""
    upload = read_upload(data, filename, pattern=pattern, pattern_name=pattern_name, progress=progress)
    keep(upload, data, filename)
    return upload


def keep(upload: Upload, data: bytes, filename: str) -> None:
    """Put a read tokenizer into this session's uploads (the oldest goes beyond ``MAX_UPLOADS``)."""
    store = _uploads()
    slot = slot_of(upload)
    store.pop(slot, None)
    store[slot] = upload
    raw = st.session_state[RAW]
    if upload.kind == ".tiktoken":
        raw[slot] = (data, filename)
    while len(store) > MAX_UPLOADS:
        oldest = next(iter(store))
        store.pop(oldest)
        raw.pop(oldest, None)


def remove_upload(slot: str) -> None:
    _uploads().pop(slot, None)
    st.session_state[RAW].pop(slot, None)
    st.session_state[state.HUB_CONFIGS].pop(slot, None)


def _on_file(upload_key: str) -> None:
    uploaded = st.session_state.get(upload_key)
    if uploaded is None:
        return
    pattern, pattern_name = chosen_pattern()
    data = uploaded.getvalue()
    slot = st.sidebar.empty() if data[:4] == b"GGUF" else None  # a big vocabulary takes a second or two
    try:
        upload = add_upload(data, uploaded.name, pattern=pattern, pattern_name=pattern_name,
                            progress=gguf_progress(slot, uploaded.name) if slot is not None else None)
    except UploadRejected as exc:
        st.session_state[state.UPLOAD_MESSAGE] = ("error", str(exc))
        return
    finally:
        if slot is not None:
            slot.empty()
    select(upload, f"Added {upload.filename}")


def adopt(upload: Upload, data: bytes, added: str) -> None:
    """Keep a tokenizer read elsewhere (the Hub field) as an upload, pick it and say ``added``."""
    keep(upload, data, upload.filename)
    select(upload, added)


def select(upload: Upload, added: str) -> None:
    """Say what was added and pick it in the Playground's columns and on the Inside page."""
    note = f"{added} ({upload.tokenizer.algorithm}, {upload.tokenizer.vocab_size:,} tokens)"
    st.session_state[state.UPLOAD_MESSAGE] = ("ok", note + "; it is in every tokenizer picker now.")
    chosen = state.drawn_value(state.PG_TOKENIZERS)  # None before the Playground was opened
    if chosen is not None:
        chosen = list(chosen)
        if slot_of(upload) not in chosen:
            st.session_state[state.PG_TOKENIZERS] = [*chosen, slot_of(upload)]
    st.session_state[state.IT_TOKENIZER] = slot_of(upload)


def gguf_progress(slot: Any, filename: str) -> Callable[[float, str], None]:
    """A callback that draws the reading of a GGUF file as a bar in ``slot`` (redrawn once a percent at most).

    The file name and the keys it reports come from the file: they are Markdown-escaped.
    """
    bar = slot.progress(0.0, text=md_escape(f"Reading {filename} …"))
    drawn = [0.0]

    def progress(fraction: float, message: str) -> None:
        fraction = min(max(fraction, 0.0), 1.0)
        if fraction - drawn[0] >= 0.01 or fraction == 1.0:
            drawn[0] = fraction
            bar.progress(fraction, text=md_escape(f"Reading {filename}: {message}"))

    return progress


def _on_pattern() -> None:
    """Re-read every uploaded rank file with the newly chosen pattern."""
    pattern, pattern_name = chosen_pattern()
    for data, filename in list(st.session_state[RAW].values()):
        try:
            add_upload(data, filename, pattern=pattern, pattern_name=pattern_name)
        except UploadRejected as exc:
            st.session_state[state.UPLOAD_MESSAGE] = ("error", str(exc))
            return


def sidebar_uploader(prefix: str) -> None:
    """The tokenizer uploader, its pattern choice for rank files, and this session's uploads."""
    state.init(state.upload_defaults())
    upload_key = f"{prefix}tokenizer_upload"
    st.file_uploader(
        "Upload a tokenizer", key=upload_key, on_change=_on_file, args=(upload_key,),
        max_upload_size=MAX_TOKENIZER_BYTES // (1024 * 1024),
        help=f"tokenizer.json, .tiktoken, SentencePiece .model, BERT vocab.txt or a GGUF vocabulary, up to "
             f"{MAX_TOKENIZER_BYTES // (1024 * 1024)} MB. It stays in this browser session only.",
    )
    hub.hub_field(prefix, adopt)
    options = [*TIKTOKEN_PATTERNS, CUSTOM]
    st.selectbox("Pattern for .tiktoken files", options,
                 **state.kept(state.UPLOAD_PATTERN), on_change=_on_pattern,
                 help="A rank file holds merges, not the regex that cuts text before them: pick it here.")
    if st.session_state[state.UPLOAD_PATTERN] == CUSTOM:
        st.text_input("Custom pattern", **state.kept(state.UPLOAD_CUSTOM_PATTERN), on_change=_on_pattern)
    kind, message = st.session_state.get(state.UPLOAD_MESSAGE) or ("", "")
    if kind == "error":
        st.error(md_escape(message), icon=":material/error:")
    elif message:
        st.caption(md_escape(message))
    for slot, upload in list(_uploads().items()):
        left, right = st.columns([4, 1], vertical_alignment="center")
        left.caption(md_escape(f"{label(upload)} · {upload.kind}" + (
            f" · pattern {upload.pattern_name}" if upload.pattern_name else "")))
        right.button("✕", key=f"{prefix}remove_{slot}", on_click=remove_upload, args=(slot,),
                     help=f"Remove {upload.filename} from this session")
