"""The Algorithms page's closer looks at one vocabulary size: BPE-dropout samples, WordPiece's greedy
longest match (and its [UNK] case), Unigram's lattice chart, n best segmentations and samples.

Each section explains its algorithm (``ui.algorithms.explain``) and draws with ``ui.spans`` and
``ui.algorithms.render`` / ``figures``; samples are seeded, so the same seed draws the same picture.
"""

from __future__ import annotations

import math

import streamlit as st

from core.measures.vocab_grid import Cell
from core.types import UNKNOWN
from core.wordpiece.tokenizer import word_spans
from ui import state, widgets
from ui.algorithms import explain, figures, render
from ui.algorithms.store import Grid
from ui.kept_figures import kept
from ui.spans import render_spans

MAX_SAMPLE_CHARS = 2_000  # samples and n best draw this much of the text
MAX_UNKNOWN_SEARCH = 50_000  # characters of the text searched for a word WordPiece makes [UNK]
MAX_LATTICE_SYMBOLS = 30  # longer words make a lattice too wide to read
N_SAMPLES = 4
MAX_NBEST = 10
MAX_ALPHA = 2.0
UNSEEN_EXAMPLES = ("🙂", "☃", "ꙮ", "ʬ")  # one of these makes the [UNK] case when the text has none



def _usable(cell: Cell) -> bool:
    if cell.tokenizer is None:
        st.info(cell.note, icon=":material/info:")
        return False
    return True


def _sample_text(text: str) -> str:
    if len(text) > MAX_SAMPLE_CHARS:
        st.caption(f"Drawn on the first {MAX_SAMPLE_CHARS:,} characters of your text.")
    return text[:MAX_SAMPLE_CHARS]


def _bump(key: str) -> None:
    st.session_state[key] += 1


def bpe_section(grid: Grid, size: int, text: str, *, show_whitespace: bool) -> None:
    """How BPE works, where ours differs, and BPE-dropout: several seeded samples of the text."""
    st.markdown(explain.HOW["bpe"])
    st.caption(explain.DIFFERS["bpe"])
    cell = grid.cell("bpe", size)
    st.markdown(explain.DROPOUT)
    if not _usable(cell):
        return
    tok, text = cell.tokenizer, _sample_text(text)
    slider_col, button_col = st.columns([3, 1], vertical_alignment="bottom")
    p = slider_col.slider("Dropout p", 0.0, 1.0, step=0.05, **state.kept(state.AL_DROPOUT))
    button_col.button("Resample", key="al_resample", on_click=_bump, args=(state.AL_DROPOUT_SEED,),
                      icon=":material/casino:")
    piece = render.piece_namer(tok)
    plain = tok.encode(text)
    rows = [("p = 0", render_spans(text, plain, show_whitespace=show_whitespace, piece=piece), _tokens(plain))]
    seed = st.session_state[state.AL_DROPOUT_SEED]
    for i in range(N_SAMPLES):
        tokens = tok.sample(text, dropout=p, seed=seed * N_SAMPLES + i)
        rows.append((f"sample {i + 1}", render_spans(text, tokens, show_whitespace=show_whitespace, piece=piece),
                     _tokens(tokens)))
    st.html(render.segmentation_rows_html(rows))
    st.caption(f"Seeds {seed * N_SAMPLES}–{seed * N_SAMPLES + N_SAMPLES - 1}: the same seed draws the same "
               "samples; Resample moves on.")


def _times(log_ratio: float) -> str:
    """How probable a segmentation is next to the best: "best", "×0.412", "×3.1e-08"."""
    if log_ratio == 0:
        return "the best"
    ratio = math.exp(log_ratio)
    return f"×{ratio:.3f} of the best" if ratio >= 0.001 else f"×{ratio:.1e} of the best"


def _tokens(tokens: list) -> str:
    return f"{len(tokens):,} token{'' if len(tokens) == 1 else 's'}"


def wordpiece_section(grid: Grid, size: int, text: str) -> None:
    """How WordPiece works, where ours differs, and greedy longest match on a word and on an [UNK] case."""
    st.markdown(explain.HOW["wordpiece"])
    st.caption(explain.DIFFERS["wordpiece"])
    cell = grid.cell("wordpiece", size)
    if not _usable(cell):
        return
    tok = cell.tokenizer
    st.markdown(explain.WORDPIECE_STEPS)
    word = st.text_input("A word", **state.kept(state.AL_WP_WORD), max_chars=200)
    parts = [chunk for _, _, chunk in word_spans(word, tok.pattern)]
    if not parts:
        st.info("Type a word to watch it being matched.", icon=":material/edit:")
    if len(parts) > 1:
        shown = " | ".join(parts[:3])
        st.caption(widgets.md_escape(f"The pre-tokenizer cuts this into {len(parts)} words first: {shown}"))
    for part in parts[:3]:
        st.html(render.match_steps_html(tok.match_steps(part)))
    st.markdown("**The `[UNK]` case**")
    example = _unknown_example(grid, tok, text, parts[0] if parts else "word")
    st.html(render.match_steps_html(tok.match_steps(example)))


def _unknown_example(grid: Grid, tok: object, text: str, word: str) -> str:
    """A word WordPiece turns into [UNK]: the first such word of the text, else ``word`` with a
    character the corpus never has put in its middle."""
    text = text[:MAX_UNKNOWN_SEARCH]
    lost = next((t for t in tok.encode(text) if t.kind == UNKNOWN), None)
    if lost is not None:
        return text[lost.start : lost.end]
    odd = next((ch for ch in UNSEEN_EXAMPLES if ch not in grid.corpus_chars), "\U0001f9ec")
    middle = len(word) // 2
    return word[:middle] + odd + word[middle:]


def unigram_section(grid: Grid, size: int, text: str, *, show_whitespace: bool) -> None:
    """How Unigram works, where ours differs, a word's lattice, its n best, and samples of the text;
    for the textbook's recipe, its pruning rounds and a word's Viterbi path."""
    if grid.settings.unigram_recipe == "textbook":
        _textbook_section(grid, size, show_whitespace=show_whitespace)
        return
    st.markdown(explain.HOW["unigram"])
    st.caption(explain.DIFFERS["unigram"])
    cell = grid.cell("unigram", size)
    if not _usable(cell):
        return
    tok = cell.tokenizer
    word_col, n_col = st.columns([3, 1])
    word = word_col.text_input("A word", **state.kept(state.AL_UNI_WORD), max_chars=200)
    n = n_col.number_input("n best", min_value=1, max_value=MAX_NBEST, step=1, **state.kept(state.AL_NBEST))
    try:
        lattice = tok.lattice(word)
    except ValueError:
        st.info("Type one word (no spaces) to see its lattice.", icon=":material/edit:")
        lattice = None
    if lattice is not None and len(lattice.symbols) > MAX_LATTICE_SYMBOLS:
        st.info(f"The lattice is drawn for words of up to {MAX_LATTICE_SYMBOLS} characters; this one has "
                f"{len(lattice.symbols) - 1}.", icon=":material/info:")
    elif lattice is not None:
        # kept: building the figure (37 validated shapes) was 0.07 s of every warm view
        widgets.chart(kept(figures.lattice_figure, lattice), figures.lattice_frame(lattice), key="al_lattice",
                      name="unigram_lattice")
        best = tok.nbest(word, int(n))
        piece = render.piece_namer(tok)
        rows = [(f"{i + 1}.", render_spans(word, seg.tokens, piece=piece),
                 f"log p {seg.log_prob:.2f} · {_times(seg.log_prob - best[0].log_prob)}")
                for i, seg in enumerate(best)]
        st.markdown(f"**The {len(best)} most probable segmentations of this word**")
        st.html(render.segmentation_rows_html(rows))
    st.markdown(explain.SAMPLING)
    alpha_col, button_col = st.columns([3, 1], vertical_alignment="bottom")
    alpha = alpha_col.slider("α (alpha)", 0.0, MAX_ALPHA, step=0.05, **state.kept(state.AL_ALPHA))
    button_col.button("Sample", key="al_sample", on_click=_bump, args=(state.AL_SAMPLE_SEED,),
                      icon=":material/casino:")
    text = _sample_text(text)
    seed = st.session_state[state.AL_SAMPLE_SEED]
    piece = render.piece_namer(tok)
    rows = []
    for i in range(N_SAMPLES):
        drawn = tok.sample(text, alpha=alpha, seed=seed * N_SAMPLES + i)
        rows.append((f"sample {i + 1}", render_spans(text, drawn.tokens, show_whitespace=show_whitespace, piece=piece),
                     f"{_tokens(list(drawn.tokens))} · log p {drawn.log_prob:.2f}"))
    st.html(render.segmentation_rows_html(rows))


def _textbook_section(grid: Grid, size: int, *, show_whitespace: bool) -> None:
    """The textbook recipe: how it works, why it compresses less, its pruning table and a word's cut."""
    st.markdown(explain.HOW_TEXTBOOK)
    st.caption(explain.TEXTBOOK_DIFFERS)
    cell = grid.cell("unigram", size)
    if not _usable(cell):
        return
    result = grid.models["unigram"].results[size]
    st.markdown(explain.PRUNING_TABLE)
    st.dataframe(figures.pruning_frame(result.trace), hide_index=True, key="al_pruning_table")
    st.caption(f"Seed: {result.seed_pieces:,} pieces ({len(result.alphabet):,} characters).")
    word = st.text_input("A word", **state.kept(state.AL_UNI_WORD), max_chars=200)
    if not word:
        st.info("Type a word to see its Viterbi path.", icon=":material/edit:")
        return
    tokens = cell.tokenizer.encode(word)
    st.html(render.segmentation_rows_html([
        ("Viterbi", render_spans(word, tokens, show_whitespace=show_whitespace, piece=render.piece_namer(cell.tokenizer)),
         _tokens(tokens)),
    ]))
