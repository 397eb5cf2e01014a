"""The Language tax page's blocks: inputs, the measured table (cached, with progress), and the views.

Each function draws into the current container and returns plain values. Counting is done once per
server process: ``counts_memo()`` (an ``st.cache_resource``) keeps every (corpus, language,
tokenizer) count ``core.tax.language_tax`` makes, so changing the base language, the selection or the
view only rebuilds the table from counts (a few milliseconds) and a progress bar shows only while
something is really counted. The figures come from ``ui.tax.figures``; spans from ``ui.cache``.
"""

from __future__ import annotations

import functools
import html
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from core.fetch.sources import SourceUnavailable
from core.pretrained.adapter import TokenizerFailed
from core.tax import kept_counts, parallel_corpus
from core.tax import language_tax as lt
from core.tax.parallel_upload import parallel_from_upload
from ui import cache, client, export, state, uploads, widgets
from ui.bounded import SizedCache
from ui.kept_figures import kept
from ui.tax import figures as tf
from ui.widgets import ASSETS_DIR, md_escape

DEFAULT_PRESET = {"sample": "all", "udhr": "major languages", "pud": "all"}
YOURS = "yours"  # the corpus picker's entry for this session's uploaded corpus (state.LT_UPLOADED)
UPLOADER = "lt_corpus_upload"  # the corpus file uploader's widget key
UPLOAD_ERROR = "lt_corpus_upload_error"  # why the last uploaded file was refused, or ""
# the keys that describe the chosen corpus: left out of the link while it is the uploaded one
CORPUS_KEYS = (state.LT_CORPUS, state.LT_PRESET, state.LT_LANGUAGES, state.LT_BASE, state.LT_FOCUS)
CSS = ASSETS_DIR / "language_tax.css"
FOCUS_SEGMENTS = 6  # segments of the focused language drawn as spans (the counts cover all of them)


@dataclass(frozen=True)
class Choice:
    """What the sidebar asked for: a loaded corpus, languages (base first), tokenizer keys."""

    corpus: parallel_corpus.ParallelCorpus
    base: str
    languages: tuple[str, ...]
    tokenizers: tuple[str, ...]


# The counts kept for all sessions, in MB (uploaded corpora add theirs; the least recently used go first)
COUNTS_MB = float(os.environ.get("PLAYGROUND_TAX_COUNTS_MB", "64"))
TABLES_MB = 16  # measured tables (one per corpus, base, languages and tokenizers), together


@st.cache_resource(show_spinner=False)
def counts_memo() -> kept_counts.DiskBackedCounts:
    """Per-segment token counts by (corpus, fingerprint, language, tokenizer), shared by all sessions,
    bounded by ``PLAYGROUND_TAX_COUNTS_MB``; those of a catalog corpus under a registry tokenizer are
    also kept on disk (``core.tax.kept_counts``) for the next server process."""
    return kept_counts.DiskBackedCounts(lt.CountsMemo(max_bytes=int(COUNTS_MB * 1e6)), identity=fixed_counts)


def fixed_counts(key: tuple[str, ...]) -> str | None:
    """What memo key ``key`` (corpus, fingerprint, language, tokenizer digest or "") depends on when it
    names only fixed things, else ``None`` (kept in memory only): a catalog corpus with its fingerprint,
    and no tokenizer (the text's own counts, "") or a registry tokenizer, named by its file's sha256.
    Never a session's upload, corpus or tokenizer."""
    corpus, fingerprint, _, tokenizer = key
    if corpus not in _catalog_keys() or not fingerprint:
        return None
    return "" if tokenizer == "" else _registry_file(tokenizer)


@functools.cache
def _catalog_keys() -> frozenset[str]:
    return frozenset(entry.key for entry in parallel_corpus.parallel_catalog()) - {YOURS}


def _registry_file(digest: str) -> str | None:
    """``key@sha256`` of the file behind registry digest ``digest`` (``ui.cache.registry_ref``), or ``None``.

    A pinned file's digest carries its pin; an unpinned one's (XLM-R: the data folder's file is rebuilt)
    is the bare key, named here by the sha256 of the file a load would read (the data folder's, else the
    cache's; ``None`` when neither has it), so its kept counts are found before it is loaded."""
    from core import pretrained
    from core.fetch import sources

    key, _, short = digest.partition("@")
    spec = pretrained.registry().get(key)
    if spec is None or len(spec.files) != 1:
        return None
    pin = spec.files[0].sha256
    if pin:
        return f"{key}@{pin}" if short == pin[:16] else None
    if short:
        return None
    found = sources.local_copy(spec.files[0])  # the file a load reads first; never a download
    return None if found is None else f"{key}@{found.sha256}"


@st.cache_resource(show_spinner=False, ttl=600)
def load_corpus(key: str) -> parallel_corpus.ParallelCorpus | str:
    """The parallel corpus ``key``, or the one-sentence reason it is unavailable; a progress bar while
    its files download (first use without the data folder), removed once it is loaded."""
    slot = st.empty()

    def progress(fraction: float, message: str) -> None:
        slot.progress(min(max(float(fraction), 0.0), 1.0), text=f"Downloading the corpus · {message}")

    try:
        return parallel_corpus.load_parallel(key, progress=progress)
    except SourceUnavailable as exc:
        return exc.reason
    except (OSError, ValueError) as exc:
        return f"the corpus file could not be read ({exc}); check the data folder"
    finally:
        slot.empty()


def corpus_of(key: str) -> parallel_corpus.ParallelCorpus | str:
    """The corpus ``key`` of the sidebar: this session's uploaded one (``YOURS``) or ``load_corpus(key)``."""
    if key == YOURS:
        return st.session_state[state.LT_UPLOADED] or "upload your corpus again (it is kept in a session only)"
    return load_corpus(key)


def _corpus_changed() -> None:
    key = st.session_state[state.LT_CORPUS]
    st.session_state[state.LT_PRESET] = DEFAULT_PRESET.get(key, "all")
    st.session_state[state.LT_LANGUAGES] = None
    st.session_state[state.LT_FOCUS] = ""
    corpus = corpus_of(key)
    if isinstance(corpus, parallel_corpus.ParallelCorpus):
        st.session_state[state.LT_BASE] = corpus.default_base


def _corpus_uploaded() -> None:
    """A new file (or files) in the corpus uploader: read it, and on success make it the page's corpus;
    the files taken away: forget the corpus, back to the built-in sample."""
    files = st.session_state.get(UPLOADER) or []
    st.session_state[UPLOAD_ERROR] = ""
    if not files:
        forget_corpus()
        return
    try:
        st.session_state[state.LT_UPLOADED] = parallel_from_upload([(f.name, f.getvalue()) for f in files])
    except ValueError as exc:
        st.session_state[UPLOAD_ERROR] = str(exc)
        return
    st.session_state[state.LT_CORPUS] = YOURS
    _corpus_changed()


def forget_corpus() -> None:
    """Drop this session's uploaded corpus; the page goes back to the built-in sample if it showed it."""
    st.session_state[state.LT_UPLOADED] = None
    if st.session_state[state.LT_CORPUS] == YOURS:
        st.session_state[state.LT_CORPUS] = "sample"
        _corpus_changed()


def _own_corpus_sidebar() -> None:
    """The uploader of your own parallel corpus (in the sidebar, below the corpus picker)."""
    mine = st.session_state[state.LT_UPLOADED]
    with st.expander("Your own parallel corpus", expanded=bool(st.session_state.get(UPLOAD_ERROR))):
        st.file_uploader(
            "Your parallel corpus", type=["tsv", "csv", "jsonl", "txt"], accept_multiple_files=True, key=UPLOADER,
            on_change=_corpus_uploaded,
            help="A .tsv or .csv with language codes as header (an optional first column id), a .jsonl of "
                 "{\"id\", \"lang\", \"text\"}, or one .txt per language (en.txt, …), one segment a line. "
                 "It becomes the page's corpus, kept in this browser session only (never in a link).")
        if st.session_state.get(UPLOAD_ERROR):
            st.error(md_escape(st.session_state[UPLOAD_ERROR]), icon=":material/error:")
        if mine is not None:
            st.caption(md_escape(f"{mine.title}: {len(mine.languages)} languages, {len(mine.segment_ids):,} "
                                 "segments, in this session only."))
            st.button("Forget my corpus", key="lt_corpus_forget", icon=":material/delete:", on_click=forget_corpus)


def _preset_changed() -> None:
    st.session_state[state.LT_LANGUAGES] = None


def _languages_changed() -> None:
    st.session_state[state.LT_PRESET] = None


def sidebar() -> Choice | None:
    """The corpus, languages (with presets), base language and tokenizers; ``None`` after a message
    when the corpus cannot be had."""
    entries = {entry.key: entry for entry in parallel_corpus.parallel_catalog()}
    titles = {key: entry.title for key, entry in entries.items()}
    mine = st.session_state[state.LT_UPLOADED]
    if mine is not None:
        titles[YOURS] = mine.title
    elif st.session_state[state.LT_CORPUS] == YOURS:  # forgotten, or a session that never had it
        st.session_state[state.LT_CORPUS] = "sample"
        _corpus_changed()
    uploads.prune(state.LT_TOKENIZERS)
    names = uploads.names()  # the registry, then this session's uploaded tokenizers
    with st.sidebar:
        key = st.selectbox("Parallel corpus", list(titles), format_func=titles.__getitem__,
                           **state.kept(state.LT_CORPUS), on_change=_corpus_changed)
        if key == YOURS:
            st.caption(md_escape(f"{len(mine.languages)} languages, {len(mine.segment_ids):,} segments. Your "
                                 "file stays in this session: the page's link leaves the corpus out."))
        else:
            st.caption(md_escape(f"{entries[key].languages}; one segment is one {entries[key].unit}."))
        _own_corpus_sidebar()
    corpus = corpus_of(key)
    if isinstance(corpus, str):
        st.warning(f"{md_escape(titles[key])} is not available here: {corpus}", icon=":material/cloud_off:")
        return None
    codes = corpus.codes()
    if st.session_state[state.LT_BASE] not in codes:
        st.session_state[state.LT_BASE] = corpus.default_base
    chosen = st.session_state[state.LT_LANGUAGES]
    if chosen is None or not set(chosen) <= set(codes):
        preset = st.session_state[state.LT_PRESET] or DEFAULT_PRESET.get(key, "all")
        st.session_state[state.LT_LANGUAGES] = list(parallel_corpus.preset(corpus, preset))
    label = {code: corpus.language(code).name for code in codes}.__getitem__
    with st.sidebar:
        st.segmented_control("Languages", parallel_corpus.PRESETS,
                             **state.kept(state.LT_PRESET), on_change=_preset_changed)
        with st.expander(f"{len(st.session_state[state.LT_LANGUAGES]):,} languages chosen"):
            st.multiselect("Pick languages one by one", codes, format_func=label,
                           **state.kept(state.LT_LANGUAGES),
                           on_change=_languages_changed)
        base = st.selectbox("Base language (1×)", codes, format_func=label, **state.kept(state.LT_BASE))
        keys = st.multiselect("Tokenizers", widgets.tokenizer_options(names), format_func=widgets.tokenizer_label(names),
                              **state.kept(state.LT_TOKENIZERS))
        widgets.model_finder(state.LT_TOKENIZERS, names, key="lt_find_model")
        with st.expander("Your own tokenizer"):
            uploads.sidebar_uploader("lt_")
    languages = tuple(dict.fromkeys([base, *st.session_state[state.LT_LANGUAGES]]))
    return Choice(corpus, base, languages, tuple(keys))


class Deferred:
    """A registry tokenizer the table is made for without loading it: every count of it the table needs is
    kept, and its ``name`` and ``lossless`` flag are known from the registry (reading XLM-R's 9.6 MB file
    for counts already on disk was most of the page's first visit). Anything else asked of it (a tab that
    counts a new text, or reads its licence) loads it then, with a progress bar."""

    def __init__(self, key: str, name: str, lossless: bool) -> None:
        self.key, self.name, self.lossless = key, name, lossless

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("_"):  # copy, pickle and friends: not the tokenizer's business
            raise AttributeError(attribute)
        tokenizer = cache.get_tokenizer(self.key, self.name)
        if isinstance(tokenizer, cache.Unavailable):
            raise TokenizerFailed(f"{tokenizer.name} is unavailable: {tokenizer.reason}")
        return getattr(tokenizer, attribute)


def table_tokenizers(choice: Choice) -> dict[str, Any]:
    """``loaded_tokenizers(choice.tokenizers)``, except that a registry tokenizer not loaded yet whose counts
    of ``choice`` are all kept (in memory or on disk) and whose file is here is a ``Deferred``."""
    from core import pretrained
    from core.fetch import sources
    from core.pretrained.registry import lossless_without_loading

    corpus, memo, store, specs = choice.corpus, counts_memo(), cache.tokenizer_store(), pretrained.registry()
    deferred = {}
    for key in choice.tokenizers:
        spec, lossless = specs.get(key), lossless_without_loading(key)
        if spec is None or len(spec.files) != 1 or lossless is None or store.peek(key) is not None:
            continue  # an upload, a tokenizer loaded already, or one whose flag only its file knows
        digest = uploads.digest(key)
        if fixed_counts((corpus.key, corpus.fingerprint, choice.base, digest)) is None:
            continue  # counts that are never kept on disk (a session's corpus)
        if sources.local_copy(spec.files[0]) is None:
            continue  # loaded as before, so a tokenizer whose file is not here is left out with its reason
        if all((corpus.key, corpus.fingerprint, code, digest) in memo for code in choice.languages):
            deferred[key] = Deferred(key, spec.name, lossless)
    loaded = loaded_tokenizers(tuple(key for key in choice.tokenizers if key not in deferred))
    return {key: deferred.get(key) or loaded[key] for key in choice.tokenizers if key in deferred or key in loaded}


def loaded_tokenizers(keys: tuple[str, ...], *, note: bool = True) -> dict[str, Any]:
    """The tokenizers of ``keys`` that load (with a progress bar the first time); with ``note``, one
    line for each of the others saying why."""
    names = uploads.names()
    loaded = {key: uploads.get_tokenizer(key, names.get(key)) for key in keys}
    missing = [item for item in loaded.values() if isinstance(item, cache.Unavailable)]
    for item in missing if note else ():
        st.caption(md_escape(f"{item.name} is left out: {item.reason}"))
    return {key: t for key, t in loaded.items() if not isinstance(t, cache.Unavailable)}


def _memo_key(key: str) -> str:
    """The memo's name for a tokenizer (loaded or not): its ref's ``digest``, a registry key with its pinned
    sha256 or an upload's content hash (a re-read rank file keeps its picker key but not its tokens)."""
    return uploads.digest(key)


@st.cache_resource(show_spinner=False)
def tax_tables() -> SizedCache[pd.DataFrame]:
    """The tables ``measure`` made, by corpus, base, languages and tokenizers, at most ``TABLES_MB``."""
    return SizedCache(max_bytes=TABLES_MB * 1_000_000, size=lambda frame: int(frame.memory_usage(deep=True).sum()))


def measure(choice: Choice, tokenizers: dict[str, Any], *, recount: bool = False) -> pd.DataFrame:
    """``core.tax.language_tax.language_tax`` with the process-wide memo, and a progress bar while counting.

    The table is kept for the process too (``tax_tables``): building its frames from the memo's counts
    was 0.3 s of every view's CPU. Callers must not change the frame they get. ``recount`` skips that
    table to fill the counts memo again (another corpus pushed them out). Subtle: an uploaded tokenizer
    is counted under its content hash, so only a session holding the same file can ever reach its
    counts (as ``ui.uploads`` caches its analyses).
    """
    corpus = choice.corpus
    by_memo = {_memo_key(key): key for key in tokenizers}
    key = (corpus.key, corpus.fingerprint, choice.base, tuple(choice.languages),
           tuple((memo_key, picker, getattr(tokenizers[picker], "name", picker)) for memo_key, picker in by_memo.items()))
    found = None if recount else tax_tables().peek(key)
    return found if found is not None else tax_tables().put(key, _count(choice, tokenizers, by_memo))


def _nbytes(value: Any) -> int:
    """Bytes of a frame, of bytes, or of a tuple of those."""
    if isinstance(value, tuple):
        return sum(map(_nbytes, value))
    return int(value.memory_usage(deep=True).sum()) if isinstance(value, pd.DataFrame) else len(value)


@st.cache_resource(show_spinner=False)
def derived_values() -> SizedCache[tuple[pd.DataFrame, Any]]:
    """What ``derived`` made from kept tables, with the table it was made from, at most ``TABLES_MB``."""
    return SizedCache(max_bytes=TABLES_MB * 1_000_000, size=lambda pair: _nbytes(pair[0]) + _nbytes(pair[1]))


def derived(table: pd.DataFrame, name: str, make: Callable[[pd.DataFrame], Any]) -> Any:
    """``make(table)`` (a frame, bytes, or a tuple of those), once per process for a table ``measure`` kept.

    Subtle: the entry is found by the table's ``id`` and holds the table itself, so while it is kept
    no other object can have that id; a table made anew (another choice) gets an entry of its own.
    """
    key = (id(table), name)
    found = derived_values().peek(key)
    if found is not None and found[0] is table:
        return found[1]
    return derived_values().put(key, (table, make(table)))[1]


def _count(choice: Choice, tokenizers: dict[str, Any], by_memo: dict[str, str]) -> pd.DataFrame:
    """The table of ``measure``, counted (or read from the counts memo) now, with a progress bar."""
    memo, corpus = counts_memo(), choice.corpus
    todo = [(corpus.key, corpus.fingerprint, code, key) for key in by_memo for code in choice.languages]
    progress = None
    slot = None
    if any(item not in memo for item in todo):
        slot = st.empty()
        bar = slot.progress(0.0, text="Counting tokens …")

        def progress(fraction: float, message: str) -> None:
            bar.progress(min(max(fraction, 0.0), 1.0), text=f"Counting tokens · {message}")

    try:
        table = lt.language_tax(corpus, {k: tokenizers[key] for k, key in by_memo.items()}, base=choice.base,
                                languages=choice.languages, progress=progress, memo=memo)
        return table.assign(tokenizer=table["tokenizer"].map(by_memo))
    finally:
        if slot is not None:
            slot.empty()


def chart_tokenizer(table: pd.DataFrame) -> str:
    """The segmented control choosing the tokenizer of the bar chart and the spans."""
    names = derived(table, "tokenizer names",
                    lambda t: t.drop_duplicates("tokenizer").set_index("tokenizer")["tokenizer_name"].to_dict())
    keys = list(names)
    if st.session_state[state.LT_CHART_TOKENIZER] not in keys:
        st.session_state[state.LT_CHART_TOKENIZER] = "cl100k_base" if "cl100k_base" in keys else keys[0]
    return st.segmented_control("Tokenizer of the chart", keys, format_func=lambda k: tf.short_name(k, names[k]),
                                **state.kept(state.LT_CHART_TOKENIZER), required=True)


def _on_bar_click() -> None:
    points = (st.session_state.get("lt_bars") or {}).get("selection", {}).get("points", [])
    codes = [p.get("customdata") for p in points if isinstance(p.get("customdata"), str)]
    if codes:
        st.session_state[state.LT_FOCUS] = codes[0]


def premium_chart(table: pd.DataFrame, tokenizer: str, focus: str) -> None:
    """The bar chart (a click on a bar shows that language below), a note when it shows a subset, its CSV."""
    n = len(derived(table, "labels", tf.labels))
    if n > tf.MAX_BARS:
        st.caption(f"The chart shows the {tf.MAX_BARS // 2} cheapest and {tf.MAX_BARS // 2} dearest of {n:,} "
                   "languages; the table below has all of them.")
    rows = derived(table, f"chart rows@{tokenizer}", lambda t: tf.chart_rows(t, tokenizer)[
        ["name", "script_name", "premium", "bytes_ratio", "chars_ratio", "tokens", "base_tokens", "unknown_share"]])
    presenting = bool(st.session_state.get(state.PRESENTATION))
    widgets.chart(kept(tf.premium_bars, table, tokenizer, focus=focus, presenting=presenting), rows, key="lt_bars", name=f"language_tax_{tokenizer}",
                  on_select=_on_bar_click, selection_mode="points")
    st.caption("Bars: tokens of each language over the base language's tokens for the same text. "
               "◆ the same ratio in UTF-8 bytes, ○ in characters: a bar far above its ◆ is the tokenizer, "
               "not the script. Hatched bars hold unknown tokens. Click a bar to see its tokens below.")


def focus_view(table: pd.DataFrame, choice: Choice, tokenizer: str, tokenizers: dict[str, Any]) -> None:
    """The focused language and the base side by side as token spans, and "open in the Playground"."""
    corpus, rows = choice.corpus, _rows_by_language(table, tokenizer)
    codes = list(rows)
    if st.session_state[state.LT_FOCUS] not in codes:
        others = {code: row["premium"] for code, row in rows.items() if not row["is_base"]}
        st.session_state[state.LT_FOCUS] = max(others, key=lambda c: (others[c] == others[c], others[c]),
                                               default=codes[0])
    names = derived(table, "labels", tf.labels)
    left, right = st.columns([2, 1], vertical_alignment="bottom")
    focus = left.selectbox("Language shown as tokens", codes, format_func=names.__getitem__,
                           **state.kept(state.LT_FOCUS))
    shared = corpus.shared([focus, choice.base])[:FOCUS_SEGMENTS]
    if right.button("Open in the Playground", key=client.GOTO_KEY_PREFIX + "lt_open_playground", icon=":material/open_in_new:"):
        _open_in_playground(corpus.text(focus, corpus.shared([focus, choice.base])), tokenizer, list(tokenizers))
    row = rows[focus]
    columns = st.columns(2 if focus != choice.base else 1, gap="medium")
    for code, column in zip(dict.fromkeys([choice.base, focus]), columns, strict=False):
        with column:
            shown = rows[code]
            st.markdown(f"**{md_escape(names[code])}** · {shown['tokens']:,} tokens in all "
                        f"({tf.fmt_ratio(shown['premium'])})")
            st.html(segments_html(corpus, code, shared, tokenizer))
    if len(corpus.shared([focus, choice.base])) > len(shared):
        st.caption(f"The first {len(shared)} of {row['segments']:,} shared {corpus.unit}s; the counts cover all.")
    provenance = corpus.language(focus).provenance
    if provenance:
        st.caption(md_escape(f"{names[focus]}: {provenance}."))
    if corpus.notice:  # the texts are shown: so is their attribution (PUD's CC BY-SA asks for it)
        st.caption(md_escape(f"{corpus.notice} Licence: {corpus.licence}."))


def _rows_by_language(table: pd.DataFrame, tokenizer: str) -> dict[str, dict[str, Any]]:
    """The rows of ``tokenizer`` as records by language code, in the table's order, once per kept table."""
    frame = derived(table, f"rows@{tokenizer}", lambda t: t[t["tokenizer"] == tokenizer])
    return {row["language"]: row for row in frame.to_dict("records")}


def segments_html(corpus: parallel_corpus.ParallelCorpus, code: str, ids: tuple[str, ...], tokenizer: str) -> str:
    """The segments ``ids`` of language ``code`` as token spans, each tokenized on its own (as counted)."""
    lang = html.escape(corpus.language(code).bcp47, quote=True)
    ref = uploads.resolve(tokenizer)
    if not ref.available:  # counted from kept counts, but its file cannot be read now
        return f'<p class="lt-segments">{html.escape(f"{ref.tokenizer.name} is unavailable: {ref.tokenizer.reason}")}</p>'
    blocks = (
        ref.spans_html(corpus.segments[code][i], allow_special=False, show_whitespace=False, raw_pieces=False)
        for i in ids
    )
    return f'<div class="lt-segments" lang="{lang}">{"".join(blocks)}</div>'


def playground_tokenizers(shown: str, keys: list[str], *, most: int = 4) -> list[str]:
    """The Playground's columns for "Open in the Playground": the chart's tokenizer first, then the
    other picked ones, at most ``most``.

    >>> playground_tokenizers("xlmr", ["gpt2", "cl100k_base", "o200k_base", "llama3", "qwen", "xlmr"])
    ['xlmr', 'gpt2', 'cl100k_base', 'o200k_base']
    """
    return list(dict.fromkeys([shown, *keys]))[:most]


def _open_in_playground(text: str, shown: str, keys: list[str]) -> None:
    st.session_state[state.PG_TEXT] = text
    st.session_state[state.PG_BIG_TEXT] = ""
    st.session_state[state.PG_TOKENIZERS] = playground_tokenizers(shown, keys)
    try:
        st.switch_page("app.py")
    except Exception:  # noqa: BLE001 — AppTest runs a page alone, where other pages are not registered
        st.info("The text is waiting in the Playground: open it from the sidebar.")


def _on_table_select(codes: list[str]) -> None:
    rows = (st.session_state.get("lt_table") or {}).get("selection", {}).get("rows", [])
    if rows and 0 <= rows[0] < len(codes):
        st.session_state[state.LT_FOCUS] = codes[rows[0]]


def premium_table(table: pd.DataFrame) -> None:
    """The sortable table (a row click shows that language above), its CSV download; a validated table
    (``ui.tax.research.validate``) names the pairs left out in a column and keeps ``valid`` in the CSV."""
    wide = derived(table, "wide", tf.wide_table)  # pivots of every tokenizer: 0.1 s a view, made once
    codes = list(dict.fromkeys(table["language"]))
    config = {c: st.column_config.NumberColumn(c, format="%.2f×") for c in wide.columns if c.endswith(" ×")}
    config |= {c: st.column_config.NumberColumn(c, format="percent") for c in wide.columns
               if c.endswith((" unknown", tf.SPREAD["share_above_2x"]))}
    st.dataframe(wide, hide_index=True, column_config=config, key="lt_table",
                 on_select=functools.partial(_on_table_select, codes), selection_mode="single-row",
                 height=min(35 * (len(wide) + 1) + 3, 600))
    st.download_button("Download the full table (CSV)", derived(table, "csv", export.frame_csv), file_name="language_tax.csv",
                       mime="text/csv", key="lt_download", on_click="ignore", icon=":material/download:")
