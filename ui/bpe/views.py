"""Streamlit parts of the "BPE step by step" page: the training form, cached training, the step views.

- Training is cached in one process-wide ``TrainingStore`` (an ``st.cache_resource``), keyed by the
  settings (a frozen ``TrainSettings``). Subtle: the store, not the training function, is the cached
  resource, so the progress bar is drawn outside any cached function and never replayed.
- The step views are drawn inside the scrubber's fragment (``ui.scrubber``): a step reruns only
  them, and they only index into state computed once (``BPETokenizer.segment`` keeps a per-text
  history, the trace holds every leaderboard, the chart's data is the trace).
- The merges table, the downloads and the merge tree are drawn outside the fragment: a step
  does not redraw them.

The HTML and tables come from ``ui.bpe.render`` (pure); the spans from ``ui.spans.render_spans``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from core import bpe, corpora
from core.bpe import export as bpe_export
from core.fetch.sources import SourceUnavailable
from core.text.patterns import NAMED_PATTERNS
from core.text.pretokenize import MAX_TRAINING_WORD, compile_pattern, long_word_note
from ui import export, figures, state, widgets
from ui.bpe import presets, render
from ui.scrubber import Scrubber
from ui.spans import render_spans
from ui.store import KeptStore, was_stopped
from ui.widgets import ASSETS_DIR

BPE_CSS = ASSETS_DIR / "bpe.css"
STOPPED_NOTE = "Training stopped before it finished: the model shown is the one trained before."
MAX_MERGES = 20_000  # beyond this a training run takes long and one slider step is too fine to see
PASTE, UPLOAD, CUSTOM = "paste", "upload", "Custom regex"
SIZE_KINDS = {"merges": "number of merges", "vocab": "vocabulary size"}
MODE_HELP = (
    "Byte-level: every text starts as UTF-8 bytes (GPT-2 and later). Character: words start as "
    "characters and an end-of-word mark `</w>` (Sennrich et al.); whitespace is not kept."
)
END_OF_WORD_HELP = (
    "Character mode only. Separate: a word is its characters and then `</w>` as a symbol of its own "
    "(`l o w </w>`), as the original paper and most teaching material write it, so early merges are "
    "often `a + </w>`. Glued: `</w>` rides on the last character (`l o w</w>`), as subword-nmt does now."
)
TIE_HELP = (
    "When several pairs share the top count, one rule decides; each is deterministic, and they grow "
    "different vocabularies. "
    + " ".join(f"'{bpe.TIE_BREAKS[key].capitalize()}': {bpe.TIE_MATCHES[key]}." for key in bpe.TIE_BREAKS)
)


@dataclass(frozen=True)
class TrainSettings:
    """What one training run learns from: hashable, so it keys the training cache."""

    corpus: str = corpora.DEFAULT_KEY  # a catalog key, PASTE or UPLOAD
    mode: str = "byte"
    pattern_name: str = "GPT-2"
    pattern: str = NAMED_PATTERNS["GPT-2"]
    size_kind: str = "merges"
    size: int = 300
    tie_break: str = "first_seen"
    own_title: str = ""  # a pasted or uploaded corpus: its name and the sha256 of its text
    own_digest: str = ""
    end_of_word: str = "separate"  # char mode's layout of </w>; byte mode keeps the default

    def describe(self, *, stopped_at: int | None = None) -> str:
        """One line for the page: corpus, mode, pattern or layout of </w>, size, tie rule.

        ``stopped_at``: the merges a run that stopped early learned, said instead of the size asked.
        """
        corpus = self.own_title or corpora.entry(self.corpus).title
        layout = "l o w </w>" if self.end_of_word == "separate" else "l o w</w>"
        pattern = f", {self.pattern_name} pattern" if self.mode == "byte" else f" ({layout})"
        size = f"{self.size:,} merges" if self.size_kind == "merges" else f"vocabulary of {self.size:,}"
        if stopped_at is not None:
            size = f"{stopped_at:,} merges (stopped early; asked for {size})"
        rule = bpe.TIE_BREAKS[self.tie_break]
        return f"{corpus} · {bpe.MODES[self.mode]}{pattern} · {size} · {rule}"


DEFAULT_SETTINGS = TrainSettings()


def settings_from_form(
    *, corpus: str, mode: str, pattern_name: str, custom: str, size_kind: str, size: int, tie_break: str,
    own_title: str = "", own_text: str = "", end_of_word: str = "separate",
) -> TrainSettings:
    """Check the form's values and make settings, or raise ``ValueError`` with what to change."""
    pattern = custom if pattern_name == CUSTOM else NAMED_PATTERNS[pattern_name]
    if mode == "byte":
        if not pattern:
            raise ValueError("The custom pattern is empty: type a regular expression or pick a named one.")
        try:
            compile_pattern(pattern)
        except ValueError as exc:
            raise ValueError(
                f"The custom pattern is not a valid regular expression ({exc}); fix it or pick a named one."
            ) from None
    merges = size if size_kind == "merges" else size - 256
    if size < 1 or (mode == "byte" and size_kind == "vocab" and size <= 256):
        least = "1 merge" if size_kind == "merges" else "a vocabulary of 257 (the 256 bytes and one merge)"
        raise ValueError(f"Ask for at least {least}.")
    if merges > MAX_MERGES:
        raise ValueError(
            f"At most {MAX_MERGES:,} merges here (asked: {merges:,}): more takes long to train and one step "
            "of the slider becomes too fine to see. Ask for fewer."
        )
    digest = hashlib.sha256(own_text.encode()).hexdigest()[:16] if own_text else ""
    return TrainSettings(
        corpus, mode, pattern_name, pattern, size_kind, int(size), tie_break, own_title, digest,
        end_of_word=end_of_word if mode == "char" else DEFAULT_SETTINGS.end_of_word,  # one cache key per model
    )


TrainingStore = KeptStore  # trained results by settings (ui.store)


@st.cache_resource(show_spinner=False)
def training_store() -> TrainingStore:
    """The one training store of this server process, shared by all sessions."""
    return TrainingStore()


def train(settings: TrainSettings, own_text: str = "") -> bpe.BPEResult:
    """The result for ``settings``: from the store, or trained now under a progress bar.

    Raises ``ValueError`` with one sentence to show when the corpus cannot be had or training refuses.
    """

    def make(bar: Any) -> bpe.BPEResult:
        text = own_text if settings.own_digest else _load(settings.corpus, bar)
        total = settings.size if settings.size_kind == "merges" else None

        def progress(done: int, wanted: int) -> None:
            bar.progress(done / max(wanted, 1), text=f"Training: {done:,} of {wanted:,} merges")

        return bpe.train(
            text, num_merges=total, vocab_size=None if total else settings.size, mode=settings.mode,
            pattern=settings.pattern, tie_break=settings.tie_break, end_of_word=settings.end_of_word,
            progress=progress,
        )

    return training_store().get_with_bar(settings, make, stop="bpe")


def cut_note(result: bpe.BPEResult) -> str:
    """" …" saying how many long words training cut (``core.text.pretokenize.cut_long_words``), or ""."""
    if not result.words_cut:
        return ""
    many = f"{result.words_cut:,} words" if result.words_cut > 1 else "One word"
    verb = "were" if result.words_cut > 1 else "was"
    return f" {many} longer than {MAX_TRAINING_WORD:,} characters {verb} cut into pieces of {MAX_TRAINING_WORD:,} for training."


def _load(key: str, bar: st.delta_generator.DeltaGenerator) -> str:
    def progress(fraction: float, message: str) -> None:
        bar.progress(min(max(fraction, 0.0), 1.0), text=f"Loading the corpus: {message}")

    try:
        return corpora.load_corpus(key, progress=progress)
    except SourceUnavailable as exc:
        raise ValueError(str(exc)) from None


def corpus_options() -> dict[str, str]:
    """Corpus choices, key → label: the built-in samples, the public corpora, paste, upload."""
    options = {e.key: f"{e.title} ({_size(e.size_bytes)})" for e in corpora.catalog()}
    return options | {PASTE: "Pasted text (below)", UPLOAD: "Uploaded .txt file (below)"}


def _size(n_bytes: int) -> str:
    return f"{n_bytes:,} B" if n_bytes < 1000 else f"{n_bytes / 1000:,.0f} kB"


def training_form() -> tuple[TrainSettings, str] | None:
    """The training settings in the sidebar; on "Train", the checked settings and the own corpus text.

    Plain widgets rather than an ``st.form``: a field that does not apply is not shown (the pattern
    in character mode, the custom regex while a named pattern is picked), which a form, sending its
    values only on submit, cannot do. Nothing trains before "Train"; a change to a field only reruns
    the page (the model shown is cached). An invalid value shows one ``st.error`` and returns
    ``None``, so the model shown stays as it was.
    """
    options = corpus_options()
    ss = st.session_state
    with st.sidebar.container(key="bpe_form"):
        st.markdown("### Train a BPE")
        corpus = st.selectbox("Corpus", list(options), format_func=options.__getitem__,
                              **state.kept(state.BPE_CORPUS))
        presets.offer(corpus)
        upload = None
        if corpus == PASTE:
            st.text_area("Pasted text", height=120, help="The corpus to train on.",
                         **state.kept(state.BPE_PASTE))
        elif corpus == UPLOAD:
            upload = st.file_uploader("A .txt file", type=["txt"], key=state.BPE_UPLOAD,
                                      help="UTF-8 text, the corpus to train on.")
        mode = st.radio("Mode", list(bpe.MODES), format_func=bpe.MODES.__getitem__,
                        **state.kept(state.BPE_MODE),
                        horizontal=True, help=MODE_HELP)
        end_of_word, pattern_name, custom = ss[state.BPE_END_OF_WORD], ss[state.BPE_PATTERN], ss[state.BPE_CUSTOM_PATTERN]
        if mode == "char":  # character mode splits on whitespace: a layout of </w>, no pattern to pick
            end_of_word = st.radio("End of word", list(bpe.END_OF_WORDS),
                                   format_func=lambda key: widgets.md_escape(bpe.END_OF_WORDS[key].split(":")[0]),
                                   **state.kept(state.BPE_END_OF_WORD), horizontal=True, help=END_OF_WORD_HELP)
        else:
            pattern_name = st.selectbox("Pre-tokenization pattern", [*NAMED_PATTERNS, CUSTOM],
                                        **state.kept(state.BPE_PATTERN),
                                        help="Merges never cross the chunks this regex cuts.")
            if pattern_name == CUSTOM:
                custom = st.text_input("Custom regex", **state.kept(state.BPE_CUSTOM_PATTERN),
                                       help="A regular expression for the regex package; Enter applies it.")
        size_kind = st.radio("Stop at a", list(SIZE_KINDS), format_func=SIZE_KINDS.__getitem__,
                             **state.kept(state.BPE_SIZE_KIND), horizontal=True)
        # no min_value: the browser would keep a typed 0 or -1 in the box but silently send the last
        # valid value; settings_from_form refuses it with a message instead
        size = st.number_input("Merges or vocabulary size", step=100, **state.kept(state.BPE_SIZE),
                               help=f"At most {MAX_MERGES:,} merges.")
        tie = st.radio("Tie rule", list(bpe.TIE_BREAKS), format_func=bpe.TIE_BREAKS.__getitem__,
                       **state.kept(state.BPE_TIE), help=TIE_HELP)
        submitted = st.button("Train", type="primary", icon=":material/model_training:", key="bpe_train",
                              help=f"{long_word_note()} A Stop button stops a long training.")
    if not (presets.pending() or submitted):
        return None
    try:
        title, text = _own_corpus(corpus, upload)
        settings = settings_from_form(
            corpus=corpus, mode=mode, pattern_name=pattern_name, custom=custom, size_kind=size_kind,
            size=int(size), tie_break=tie, own_title=title, own_text=text, end_of_word=end_of_word,
        )
    except ValueError as exc:
        st.session_state[state.BPE_TRAIN_ERROR] = widgets.sentence(str(exc))
        return None
    return settings, text


def _own_corpus(corpus: str, upload: object) -> tuple[str, str]:
    if corpus == PASTE:
        return "Pasted text", corpora.corpus_from_paste(st.session_state[state.BPE_PASTE]).text
    if corpus == UPLOAD:
        if upload is None:
            raise ValueError(
                "No file uploaded yet: open 'Your own corpus' and pick a .txt file, or choose another corpus."
            )
        # the name goes into st.error's Markdown when the file is refused: escaped, it stays text
        named = widgets.md_escape(upload.name)
        return upload.name, corpora.corpus_from_upload(upload.getvalue(), name=named).text
    return "", ""


def current_model() -> tuple[TrainSettings, bpe.BPEResult]:
    """The settings and result to show: a freshly submitted form, else the last good settings.

    A refused training (bad corpus, too small a vocabulary) keeps the previous model and leaves the
    reason in ``BPE_TRAIN_ERROR`` for the page to show.
    """
    ss = st.session_state
    ss[state.BPE_TRAIN_ERROR] = ""
    if was_stopped("bpe"):
        ss[state.BPE_TRAIN_ERROR] = STOPPED_NOTE
    submitted = training_form()
    applied: TrainSettings = ss[state.BPE_APPLIED] or DEFAULT_SETTINGS
    if submitted is not None:
        settings, own_text = submitted
        try:
            result = train(settings, own_text)
        except ValueError as exc:
            ss[state.BPE_TRAIN_ERROR] = f"Not trained: {widgets.sentence(str(exc))}"
        else:
            ss[state.BPE_APPLIED], ss[state.BPE_OWN_TEXT] = settings, own_text
            return settings, result
    try:
        return applied, train(applied, ss[state.BPE_OWN_TEXT])
    except ValueError as exc:  # the applied corpus went missing since: fall back to the default
        ss[state.BPE_TRAIN_ERROR] = f"{widgets.sentence(str(exc))} Showing the default model instead."
        ss[state.BPE_APPLIED] = None
        return DEFAULT_SETTINGS, train(DEFAULT_SETTINGS)


def inject_css() -> None:
    """The page's own styles (chips, merge line, leaderboard, tree, chunk strip)."""
    st.html(BPE_CSS)


TRAIN_SCRUBBER = Scrubber(state.BPE_STEP, state.BPE_PLAYING, state.BPE_TICK, "bpe_train_", state.BPE_SPEED)
REPLAY_SCRUBBER = Scrubber(
    state.BPE_REPLAY_STEP, state.BPE_REPLAY_PLAYING, state.BPE_REPLAY_TICK, "bpe_replay_", state.BPE_REPLAY_SPEED
)


# -- the views of a trained model ----------------------------------------------------------------------


def text_changes(result: bpe.BPEResult, text: str) -> list[int]:
    """The steps at which ``text``'s segmentation changes (what "next change" jumps to)."""
    return result.tokenizer.change_steps(text)


def train_step_frames(result: bpe.BPEResult, text: str, *, show_whitespace: bool) -> Callable[[int], tuple[str, Any]]:
    """``frame(k)``: step ``k``'s view as one HTML element (the merge just made, the spans of ``text``
    after ``k`` merges, the race) and its chart, computed without drawing anything (bench/bpe_steps.py
    times this, the page draws it through ``train_step_view``).

    Everything ``frame`` needs per step is an index into state computed once: the trace, the chart's
    data and the tokenizer's segmentation history of ``text``.
    """
    tok, trace = result.tokenizer, result.trace
    base, n = tok.base_size, len(trace)
    curve = [result.initial_tokens, *(s.tokens_after for s in trace)]
    rule = bpe.TIE_BREAKS[result.tie_break]
    unit = "bytes" if tok.mode == "byte" else "characters"
    if tok.end_of_word == "separate" and tok.mode == "char":
        unit = "characters and </w> marks"
    at_start = len(tok.segment(text, 0))

    def label(token_id: int) -> str:
        return bpe.piece_label(tok.piece(token_id))

    def made_by(token: object) -> str:
        return f"merge {token.id - base + 1:,}" if token.id >= base else "base symbol"

    def frame(k: int) -> tuple[str, Any]:
        # subtle: the element names the chart's marker (trace 1) and where it goes, and
        # assets/scrubber.js moves it there in the same frame, before the chart's own redraw arrives
        step = trace[k - 1] if k else None
        parts = render.step_parts(step, tok.piece) if step else None
        note, n_tied = (f"count {step.count:,}", step.n_tied) if step else ("", 1)
        tokens = tok.segment(text, k)
        lit = render.highlight_indices(tokens, tok.changed_spans(text, k), step.new_id) if step else set()
        changed = f" · this merge changed {len(lit):,} of them (outlined)" if lit else ""
        if step is None:
            race_head, race, tie = (
                "**The race for each merge**: step forward to see the pairs that competed for it and their counts",
                "", "",
            )
        else:
            race_head = f"**The race for merge {k:,}**: the top pairs in the corpus at that moment"
            race, tie = render.leaderboard_html(step, piece=tok.piece), render.tie_note(step, rule=rule, piece=tok.piece)
        view = render.step_view_html(
            render.merge_line_html(parts, k=k, n=n, note=note, n_tied=n_tied, unit=unit),
            spans_head=f"**Your text after {k:,} merges: {len(tokens):,} tokens** (from {at_start:,} {unit}){changed}",
            spans=render_spans(text, tokens, show_whitespace=show_whitespace, piece=label, highlight=lit,
                               extra_title=made_by),
            race_head=race_head, race=race, note=tie, dot=("bpe_chart", 1, base + k, curve[k]),
        )
        return view, figures.tokens_vs_vocab_figure(base=base, tokens=curve, k=k, algorithm=tok.algorithm)

    return frame


def train_step_view(result: bpe.BPEResult, text: str, *, show_whitespace: bool) -> Callable[[int], None]:
    """``draw(k)``: step ``k`` of ``train_step_frames``, drawn."""
    frame = train_step_frames(result, text, show_whitespace=show_whitespace)

    def draw(k: int) -> None:
        # subtle: everything is computed first and drawn as one HTML element, then the chart, so
        # the browser never shows the merge line of one step beside the spans or race of another
        view, fig = frame(k)
        if st.session_state.get(state.PRESENTATION):
            fig = figures.for_presentation(fig)
        if not text:
            st.info("Type a sentence above to watch the merges cut it.", icon=":material/edit:")
        st.html(view)
        chart_col, _ = st.columns([3, 2], gap="large")
        chart_col.plotly_chart(fig, key="bpe_chart", config={"displaylogo": False})

    return draw


@st.cache_resource(show_spinner=False, max_entries=8)
def _merges_frame(settings: TrainSettings, _result: bpe.BPEResult) -> object:
    tok = _result.tokenizer
    return render.merges_frame(_result.trace, piece=tok.piece, base=tok.base_size)


TABLE_COLUMNS = ["merge", "pair", "new token", "count", "tied", "id"]


def _or_reason(export: Callable[[bpe.BPEResult], str], result: bpe.BPEResult) -> str:
    """The exported file, or a one-line text saying why this model cannot be exported that way."""
    try:
        return export(result)
    except ValueError as exc:
        return f"Not exported: {exc}\n"


def merges_section(settings: TrainSettings, result: bpe.BPEResult) -> None:
    """All merges: a searchable table, CSV and JSON downloads, and the merge tree of a picked token."""
    tok = result.tokenizer
    frame = _merges_frame(settings, result)
    query = st.text_input("Search the merges", **state.kept(state.BPE_FILTER),
                          placeholder="a piece such as ing, a pair such as e + r, or a merge number such as 42")
    shown = render.filter_merges(frame, query)
    table_col, tree_col = st.columns([3, 2], gap="large")
    with table_col:
        event = st.dataframe(
            shown[TABLE_COLUMNS], hide_index=True, on_select="rerun", selection_mode="single-row",
            key=state.BPE_TABLE, height=390,
            column_config={
                "merge": st.column_config.NumberColumn("merge", help="1 is the first merge", format="%d"),
                "pair": st.column_config.TextColumn("pair", help="· is a space, ↵ a line break"),
                "tied": st.column_config.NumberColumn("tied", help="pairs with the winning count", format="%d"),
                "id": st.column_config.NumberColumn("id", format="%d"),
            },
        )
        st.caption(f"{len(shown):,} of {len(frame):,} merges. Click a row to see its token's merge tree.")
        curve = [result.initial_tokens, *(s.tokens_after for s in result.trace)]
        downloads = st.container(horizontal=True, gap="small")
        downloads.download_button("Merges (CSV)", data=lambda: export.frame_csv(frame),
                                  file_name="bpe_merges.csv", mime="text/csv", on_click="ignore", key="bpe_csv",
                                  icon=":material/download:")
        downloads.download_button("Model and trace (JSON)", data=lambda: bpe_export.to_json(result),
                                  file_name="bpe_model.json", mime="application/json", on_click="ignore",
                                  key="bpe_json", icon=":material/download:")
        downloads.download_button("tokenizer.json", data=lambda: _or_reason(bpe_export.to_hf_json, result),
                                  file_name="tokenizer.json", mime="application/json", on_click="ignore",
                                  key="bpe_hf_json", icon=":material/download:",
                                  help="Loads in Hugging Face tokenizers (Tokenizer.from_file) with the same ids.")
        if tok.mode == "byte":
            downloads.download_button(
                ".tiktoken + pattern", data=lambda: bpe_export.tiktoken_bundle(result), file_name="bpe_tiktoken.zip",
                mime="application/zip", on_click="ignore", key="bpe_tiktoken", icon=":material/download:",
                help="The rank file, its pattern and how to load both in tiktoken, in one zip.",
            )
        downloads.download_button(
            "Chart data (CSV)",
            data=lambda: export.frame_csv(figures.tokens_vs_vocab_frame(base=tok.base_size, tokens=curve)),
            file_name="bpe_tokens_vs_vocabulary.csv", mime="text/csv", on_click="ignore", key="bpe_chart_csv",
            icon=":material/download:",
        )
    with tree_col:
        rows = event.selection.rows if event is not None else []
        picked_row = rows and rows[0] < len(shown)
        token_id = int(shown.iloc[rows[0]]["id"]) if picked_row else render.longest_token(result.trace)
        if token_id is None:
            st.caption("No merges were learned, so there is no tree to show.")
            return
        picked = "the row you picked" if picked_row else "the longest token learned; click a row for another"
        st.markdown(f"**Merge tree**: {picked}")
        st.html(render.merge_tree_html(token_id, trace=result.trace, base=tok.base_size, piece=tok.piece))
