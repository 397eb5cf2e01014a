"""Streamlit parts of the Algorithms page: the training form, the size picker, the grid, the unseen
characters and the size picker of the closer looks (which live in ``ui.algorithms.closer``).

Models come from ``ui.algorithms.store`` (trained once per corpus and algorithm, cached for the
process); HTML from ``ui.algorithms.render`` and ``ui.spans``. Each function draws into the current
container and returns plain values.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from core import corpora
from core.measures.vocab_grid import (
    ALGORITHMS,
    BPE_FLAVOURS,
    SIZE_OPTIONS,
    UNIGRAM_RECIPES,
    UNSEEN_CHARACTER,
    Cell,
)
from core.text.pretokenize import MAX_TRAINING_WORD, long_word_note
from ui import state, widgets
from ui.algorithms import explain, render
from ui.algorithms.store import (
    DEFAULT_SETTINGS,
    PASTE,
    UPLOAD,
    Grid,
    GridSettings,
    own_settings,
    trained_grid,
)
from ui.figures import ALGORITHM_COLORS
from ui.store import was_stopped
from ui.widgets import ASSETS_DIR

ALGORITHMS_CSS = ASSETS_DIR / "algorithms.css"
PRESENTATION_CSS = ASSETS_DIR / "algorithms_present.css"
MAX_COLUMNS = 4
MAX_GRID_CHARS = 50_000  # the grid cuts longer texts (nine encodings of a book take long)


def inject_css() -> None:
    """The page's own styles (grid, match steps, segmentation lists), and in presentation mode a
    tighter heading so the grid fits a 1280x720 screen."""
    st.html(ALGORITHMS_CSS)
    if st.session_state.get(state.PRESENTATION):
        st.html(PRESENTATION_CSS)


# -- training form -----------------------------------------------------------------------------------


def corpus_options() -> dict[str, str]:
    """Corpus choices, key → label: built-in samples, public corpora, paste, upload."""
    options = {e.key: f"{e.title} ({_size(e.size_bytes)})" for e in corpora.catalog()}
    return options | {PASTE: "Pasted text (below)", UPLOAD: "Uploaded .txt file (below)"}


def _size(n_bytes: int) -> str:
    return f"{n_bytes:,} B" if n_bytes < 1000 else f"{n_bytes / 1000:,.0f} kB"


def training_form() -> tuple[GridSettings, str] | None:
    """The corpus form in the sidebar; on "Train", the settings and the own corpus text (or ``None``)."""
    options = corpus_options()
    flavours = {key: label for key, (_, _, label) in BPE_FLAVOURS.items()}
    with st.sidebar.form("al_form", border=False):
        st.markdown("### Train all three on")
        corpus = st.selectbox("Corpus", list(options), format_func=options.__getitem__,
                              **state.kept(state.AL_CORPUS))
        with st.expander("Your own corpus: paste or upload"):
            st.text_area("Pasted text", height=120, help="Used when the corpus is 'Pasted text'.",
                         **state.kept(state.AL_PASTE))
            upload = st.file_uploader("A .txt file", type=["txt"], key=state.AL_UPLOAD,
                                      help="UTF-8 text; used when the corpus is 'Uploaded .txt file'.")
        flavour = st.radio("BPE row", list(flavours), format_func=lambda k: widgets.md_escape(flavours[k]),
                           **state.kept(state.AL_BPE_FLAVOUR),
                           help="Byte-level BPE starts from the 256 bytes (GPT-2 and later); character BPE from "
                                "the corpus's characters and an end-of-word mark </w>, separate (as in the "
                                "paper) or glued to the last character (subword-nmt).")
        recipe = st.radio("Unigram row", list(UNIGRAM_RECIPES), **state.kept(state.AL_UNIGRAM_RECIPE),
                          format_func=lambda k: widgets.md_escape(UNIGRAM_RECIPES[k]), help=explain.RECIPES_HELP)
        submitted = st.form_submit_button("Train", type="primary", icon=":material/model_training:", key="al_train",
                                          help=f"{long_word_note()} A Stop button stops a long training.")
    if not submitted:
        return None
    try:
        if corpus == PASTE:
            text = corpora.corpus_from_paste(st.session_state[state.AL_PASTE]).text
            return own_settings(PASTE, "Pasted text", text, flavour, recipe), text
        if corpus == UPLOAD:
            if upload is None:
                raise ValueError("No file uploaded yet: open 'Your own corpus' and pick a .txt file, "
                                 "or choose another corpus.")
            text = corpora.corpus_from_upload(upload.getvalue(), name=widgets.md_escape(upload.name)).text
            return own_settings(UPLOAD, upload.name, text, flavour, recipe), text
    except ValueError as exc:
        st.session_state[state.AL_TRAIN_ERROR] = str(exc)
        return None
    return GridSettings(corpus, flavour, unigram_recipe=recipe), ""


# -- sizes, grid ----------------------------------------------------------------------------------------


def size_picker(*, label_visibility: str = "visible") -> list[int]:
    """The grid's columns: two to four vocabulary sizes, smallest first."""
    st.pills("Vocabulary sizes: two to four columns", SIZE_OPTIONS, selection_mode="multi",
             **state.kept(state.AL_SIZES),
             format_func=short_size, on_change=_at_most_four, label_visibility=label_visibility)
    return sorted(st.session_state[state.AL_SIZES])


def short_size(size: int) -> str:
    """A size as a pill shows it, so eight fit on one line: ``300``, ``1k``, ``8k``.

    >>> short_size(300), short_size(8000)
    ('300', '8k')
    """
    return f"{size // 1000}k" if size >= 1000 and size % 1000 == 0 else f"{size:,}"


def _at_most_four() -> None:
    ss = st.session_state
    if len(ss[state.AL_SIZES]) > MAX_COLUMNS:  # take the fifth pick back
        ss[state.AL_SIZES] = list(ss[state.AL_SIZES_LAST])
        st.toast(f"At most {MAX_COLUMNS} sizes fit side by side: unpick one first.", icon=":material/info:")
    ss[state.AL_SIZES_LAST] = list(ss[state.AL_SIZES])


def current_grid(sizes: list[int]) -> Grid:
    """The models to show: a freshly submitted form, else the last settings trained on.

    A refused corpus keeps the previous one and leaves the reason in ``AL_TRAIN_ERROR``.
    """
    ss = st.session_state
    ss[state.AL_TRAIN_ERROR] = ""
    if was_stopped("algorithms"):
        ss[state.AL_TRAIN_ERROR] = STOPPED_NOTE
    submitted = training_form()
    if submitted is not None:
        settings, own_text = submitted
        try:
            grid = trained_grid(settings, sizes, own_text, on_stop=_back_to_trained_sizes)
        except ValueError as exc:
            ss[state.AL_TRAIN_ERROR] = f"Not trained: {exc}"
        else:
            ss[state.AL_APPLIED], ss[state.AL_OWN_TEXT] = settings, own_text
            ss[state.AL_SIZES_TRAINED] = list(sizes)
            return grid
    applied: GridSettings = ss[state.AL_APPLIED] or DEFAULT_SETTINGS
    try:
        grid = trained_grid(applied, sizes, ss[state.AL_OWN_TEXT], on_stop=_back_to_trained_sizes)
        ss[state.AL_SIZES_TRAINED] = list(sizes)
        return grid
    except ValueError as exc:  # the applied corpus went missing since: back to the default
        ss[state.AL_TRAIN_ERROR] = f"{exc} Showing the default corpus instead."
        ss[state.AL_APPLIED] = None
        return trained_grid(DEFAULT_SETTINGS, sizes)


def cut_note(grid: Grid) -> str:
    """" …" when training cut long words (as the BPE row's run counted them; Unigram cuts the same), or ""."""
    cut = getattr(getattr(grid.models.get("bpe"), "result", None), "words_cut", 0)
    if not cut:
        return ""
    return (f" Words longer than {MAX_TRAINING_WORD:,} characters ({cut:,} of them) were cut into pieces of "
            f"{MAX_TRAINING_WORD:,} for training.")


STOPPED_NOTE = "Training stopped before it finished: the grid shows the corpus and sizes trained before."


def _back_to_trained_sizes() -> None:
    """A stopped training that new sizes asked for would start again on the next run: unpick them."""
    ss = st.session_state
    ss[state.AL_SIZES] = list(ss[state.AL_SIZES_TRAINED])
    ss[state.AL_SIZES_LAST] = list(ss[state.AL_SIZES_TRAINED])


@st.cache_data(show_spinner=False, max_entries=256)
def _cell_view(corpus_id: str, model_key: str, size: int, text: str, show_whitespace: bool,
               _cell: Cell) -> render.CellView:
    # subtle: the models are deterministic, so (corpus, model, size) names the tokenizer in ``_cell``
    return render.cell_view(_cell, text, show_whitespace=show_whitespace)


def row_kind(grid: Grid, algorithm: str) -> tuple[str, str]:
    """What a row is called under its name, and its chart color (``ui.figures.ALGORITHM_COLORS``)."""
    if algorithm == "bpe":
        mode, _, label = BPE_FLAVOURS[grid.settings.bpe_flavour]
        return label, ALGORITHM_COLORS["byte-level BPE" if mode == "byte" else "character BPE"]
    if algorithm == "wordpiece":
        kind = "## continuations, BERT words"
    elif grid.settings.unigram_recipe == "textbook":
        kind = "the textbook's recipe: GPT-2-style pre-tokens"
    else:
        kind = "▁ words, like SentencePiece"
    return kind, ALGORITHM_COLORS[ALGORITHMS[algorithm]]


def grid_section(grid: Grid, text: str, *, show_whitespace: bool) -> None:
    """The grid of spans: a row per algorithm, a column per size, each cell with its token count."""
    if len(text) > MAX_GRID_CHARS:
        st.caption(f"Your text has {len(text):,} characters; the grid compares the first {MAX_GRID_CHARS:,}.")
        text = text[:MAX_GRID_CHARS]
    settings = grid.settings
    rows = []
    for algorithm, label in ALGORITHMS.items():
        kind, color = row_kind(grid, algorithm)
        key = settings.model_key(algorithm)
        cells = [_cell_view(settings.corpus_id, key, size, text, show_whitespace, grid.cell(algorithm, size))
                 for size in grid.sizes]
        rows.append(render.Row(label, kind, color, cells))
    st.html(render.grid_html(grid.sizes, rows))


def unseen_section(grid: Grid, text: str) -> None:
    """Which characters of the text the corpus never has, and what each algorithm makes of them."""
    unseen = grid.unseen(text[:MAX_GRID_CHARS])
    if not unseen:
        st.caption("Every character of your text occurs in the corpus. Type one it never has (🙂, ß, ж) "
                   "to see what each algorithm does with it.")
        return
    shown = " ".join(unseen[:20]) + (" …" if len(unseen) > 20 else "")
    flavour = grid.settings.bpe_flavour
    lines = [f"**Never seen in the corpus:** {widgets.md_escape(shown)}",
             f"- **BPE** ({widgets.md_escape(BPE_FLAVOURS[flavour][2])}): {widgets.md_escape(UNSEEN_CHARACTER[flavour])}",
             f"- **WordPiece**: {widgets.md_escape(UNSEEN_CHARACTER['wordpiece'])}",
             f"- **Unigram**: {widgets.md_escape(UNSEEN_CHARACTER[_unigram_key(grid)])}"]
    st.markdown("\n".join(lines))


def _unigram_key(grid: Grid) -> str:
    return "unigram_textbook" if grid.settings.unigram_recipe == "textbook" else "unigram"


def focus_picker(sizes: list[int]) -> int:
    """The size the closer looks below use (one of the grid's)."""
    ss = st.session_state
    if ss[state.AL_FOCUS] not in sizes:
        ss[state.AL_FOCUS] = sizes[len(sizes) // 2]
    return st.segmented_control("Look closer at the models of size", sizes,
                                **state.kept(state.AL_FOCUS), required=True,
                                format_func=lambda size: f"{size:,}")


def downloads(grid: Grid, size: int) -> None:
    """Each algorithm's tokenizer at ``size`` as a ``tokenizer.json`` (Hugging Face tokenizers loads it,
    same ids), made when its button is pressed."""
    from core.bpe import export as bpe_export
    from core.unigram import export as unigram_export
    from core.wordpiece import export as wordpiece_export

    exporters = {"bpe": bpe_export.to_hf_json, "wordpiece": wordpiece_export.to_hf_json,
                 "unigram": unigram_export.to_hf_json}
    row = st.container(horizontal=True, gap="small")
    for algorithm, export in exporters.items():
        cell = grid.cell(algorithm, size) if algorithm in grid.models else None
        if cell is None or cell.tokenizer is None:
            continue
        if algorithm == "unigram" and grid.settings.unigram_recipe == "textbook":
            continue  # no tokenizer.json: its pattern is Python re's, its Viterbi's tie rule not tokenizers'

        def make(tokenizer: object = cell.tokenizer, export: Callable[[object], str] = export) -> str:
            try:
                return export(tokenizer)
            except ValueError as exc:
                return f"Not exported: {exc}\n"

        row.download_button(
            f"{ALGORITHMS[algorithm]} tokenizer.json", data=make, file_name=f"{algorithm}_{size}_tokenizer.json",
            mime="application/json", on_click="ignore", key=f"al_download_{algorithm}", icon=":material/download:",
            help="Loads in Hugging Face tokenizers (Tokenizer.from_file) and gives the same ids.",
        )
