"""The "Compression vs vocabulary" and "Units" tabs: the sweep form, what is measured, and its drawing.

``measure`` gathers everything both tabs show (the BPE sweep, the other algorithms' curves, the real
tokenizers' points, the ceiling, and what is missing), each piece cached in ``ui.words.cache``; the
two tabs draw from it, so whichever opens first pays and the other reads the cache. The default sweep
is BPE alone (about a second of training); WordPiece and Unigram, several seconds more, train when
asked: ``others_button`` under the chart, or the form's "Also train".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from core.measures import compression
from core.measures.vocab_grid import UNIGRAM_RECIPES
from core.pretrained.adapter import TokenizerFailed
from core.text.patterns import NAMED_PATTERNS
from ui import cache as shared_cache
from ui import state, uploads, widgets
from ui.words import cache
from ui.words import figures as fig
from ui.words.cache import CorpusData, SweepSettings

VOCAB_STOPS = (1_024, 2_048, 4_096, 8_192, 16_384, 32_768)
UNITS_STOPS = (256, 512, *VOCAB_STOPS)
RUN_SWEEP = "wc_run_sweep"  # the form's submit button
ADD_OTHERS = "wc_add_others"  # the button under a BPE-only chart that trains the others too
ON_DEMAND = ("WordPiece", "Unigram")  # what that button adds: several seconds of training, so asked for
DEFAULT_SWEEP = SweepSettings()  # equal to the form's defaults in ui.state (a test checks it)


@dataclass(frozen=True, eq=False)
class Measured:
    """Everything the two tabs show; ``problem`` says why nothing could be measured (else "")."""

    settings: SweepSettings
    problem: str = ""
    bpe: compression.BPESweep | None = None
    curves: tuple[compression.Curve, ...] = ()
    notes: tuple[str, ...] = ()
    points: tuple[compression.TokenizerPoint, ...] = ()
    missing: tuple[shared_cache.Unavailable, ...] = ()
    ceiling: float | None = None


def applied_settings() -> SweepSettings:
    """The sweep settings last applied with "Run the sweep", or the defaults."""
    return st.session_state[state.WC_SWEEP] or DEFAULT_SWEEP


# What sets each choice apart, beside its name in the form (the two Unigram recipes differ in these)
ALGORITHM_NOTES = {
    "Unigram": UNIGRAM_RECIPES["sentencepiece"],
    compression.TEXTBOOK_UNIGRAM: UNIGRAM_RECIPES["textbook"],
}
OTHERS_HELP = (
    "Trained once per size, at the sizes on the right. The two Unigram curves differ in pre-tokens, seed and "
    "pruning rule. SentencePiece's recipe compresses better: it prunes the pieces whose loss costs the "
    "corpus's likelihood least, so a frequent piece that its parts could replace almost as well goes before "
    "a rarer one nothing can stand in for; the textbook's keeps the most probable pieces, whatever they "
    "are worth (and its plain M-step keeps rarely used pieces that SentencePiece's digamma M-step pushes out)."
)


def _algorithm_label(name: str) -> str:
    missing = compression.unavailable_reason(compression.ALGORITHMS[name])
    note = ALGORITHM_NOTES.get(name)
    label = f"{name} ({note})" if note else name
    return f"{label} (unavailable)" if missing else label


def sweep_form() -> SweepSettings:
    """The sweep's settings form; returns the applied settings (kept until the next submit)."""
    others = [name for name in compression.ALGORITHMS if name != "BPE"]
    ss = st.session_state
    # subtle: a submitted form's values (and its button) are in the session before the form is drawn,
    # so the settings apply first and the expander's summary above the form is never one run late
    if ss.get(RUN_SWEEP):
        ss[state.WC_SWEEP] = SweepSettings(
            int(ss[state.WC_MAX_VOCAB]), int(ss[state.WC_POINTS]), tuple(ss[state.WC_OTHERS]), ss[state.WC_PATTERN]
        )
    applied = applied_settings()
    also = f", also {' and '.join(applied.others)}" if applied.others else ""
    summary = f"Sweep: BPE up to {applied.max_vocab:,} tokens, {applied.pattern_name} pattern{also}"
    with st.expander(widgets.md_escape(summary), icon=":material/tune:"), st.form("wc_sweep_form", border=False):
        cols = st.columns([3, 2, 4, 2], vertical_alignment="bottom")
        cols[0].select_slider("Largest vocabulary", options=VOCAB_STOPS, **state.kept(state.WC_MAX_VOCAB),
                              format_func="{:,}".format,
                              help="BPE is measured at every size up to this one, from one training run.")
        cols[1].selectbox("Pre-tokenization (BPE)", list(NAMED_PATTERNS), **state.kept(state.WC_PATTERN))
        cols[2].multiselect("Also train", others, **state.kept(state.WC_OTHERS), format_func=_algorithm_label,
                            help=OTHERS_HELP)
        cols[3].number_input("Sizes", min_value=3, max_value=12, **state.kept(state.WC_POINTS),
                             help="How many log-spaced sizes WordPiece and Unigram train at (BPE: every size).")
        st.form_submit_button("Run the sweep", type="primary", key=RUN_SWEEP, icon=":material/play_arrow:")
    return applied


def _add_others() -> None:
    """The button's callback: the applied sweep and its form, with WordPiece and Unigram added."""
    ss = st.session_state
    applied = applied_settings()
    ss[state.WC_OTHERS] = list(ON_DEMAND)
    ss[state.WC_SWEEP] = dataclasses.replace(applied, others=ON_DEMAND)


def others_button(settings: SweepSettings) -> None:
    """Under a chart of BPE alone: a button that trains WordPiece and Unigram too (each once, every size)."""
    if settings.others:
        return
    st.button(
        "Train WordPiece and Unigram too", key=ADD_OTHERS, icon=":material/add_chart:", on_click=_add_others,
        help=f"Trains each once on the same 90 % and measures it at {len(settings.sizes)} sizes: several seconds "
             "the first time (a progress bar shows how far), then kept for every visitor. The form above picks "
             "other algorithms and sizes.",
    )


def measure(data: CorpusData, settings: SweepSettings, keys: Sequence[str]) -> Measured:
    """The sweeps of ``settings`` and the points of the tokenizers ``keys`` on ``data``'s held-out part."""
    if not data.heldout.strip() or not data.train.strip():
        return Measured(settings, "This corpus is too short to hold out a part to measure on: pick or paste a longer one.")
    try:
        bpe_sweep = cache.bpe_sweep(data, settings)
    except ValueError as exc:
        return Measured(settings, f"BPE could not be trained on this corpus: {exc}.")
    curves, notes = [bpe_sweep.curve(settings.sizes)], []
    for name in settings.others:
        reason = compression.unavailable_reason(compression.ALGORITHMS[name])
        if reason:
            notes.append(reason)
        else:
            curves.append(cache.algorithm_curve(data, name, settings.sizes))
    notes += [curve.note for curve in curves if curve.note]
    points, missing = [], []
    names = uploads.names()
    for key in keys:
        try:
            found = cache.tokenizer_point(data, key, names.get(key, key))
        except TokenizerFailed as exc:  # an uploaded tokenizer that overran its time budget, or crashed
            found = shared_cache.Unavailable(key, names.get(key, key), str(exc))
        (missing if isinstance(found, shared_cache.Unavailable) else points).append(found)
    ceiling = compression.pretoken_ceiling(data.heldout, settings.pattern)
    return Measured(settings, "", bpe_sweep, tuple(curves), tuple(notes), tuple(points), tuple(missing), ceiling)


def compression_section(data: CorpusData, keys: Sequence[str]) -> None:
    """The sweep form, the chart of held-out bytes per token against vocabulary size, its notes and CSV."""
    settings = sweep_form()
    found = measure(data, settings, keys)
    if found.problem:
        st.info(found.problem, icon=":material/info:")
        return
    figure = fig.compression_figure(
        found.curves, found.points, ceiling=found.ceiling, notes=found.notes,
        ceiling_label=f"one token per pre-token ({settings.pattern_name} pattern)",
    )
    widgets.chart(figure, fig.compression_frame(found.curves, found.points, found.ceiling),
                  key="wc_compression_chart", name="compression_vs_vocabulary")
    others_button(settings)
    bpe_sweep = found.bpe
    others = (
        "WordPiece and Unigram train once each too (a WordPiece run holds every shorter one; Unigram prunes "
        "down through the sizes) and encode the held-out text at each size. "
        if settings.others else ""
    )
    st.caption(
        f"Each line is trained on the first 90 % and measured on the held-out {bpe_sweep.heldout_bytes:,} bytes. "
        f"BPE: one training run of {len(bpe_sweep.result.trace):,} merges gives every size (merge k of a longer run "
        f"is merge k of every shorter one), measured by one incremental encode; {bpe_sweep.seconds:.1f} s in all. "
        f"{others}Diamonds: real tokenizers on the same text, trained on far more (and more varied) text."
    )
    if found.missing:
        names = widgets.md_escape(", ".join(m.name for m in found.missing))
        with st.expander(f"Not shown, unavailable here: {names}"):
            st.markdown("\n".join(f"- **{widgets.md_escape(m.name)}**: {widgets.md_escape(m.reason)}"
                                  for m in found.missing))
    with st.expander("Why does the curve flatten under the dashed line?"):
        st.markdown(
            "Byte-level BPE never merges across pre-tokens (the chunks the pattern cuts: a word with its "
            "leading space, a run of digits, punctuation), so one token per pre-token is the best any vocabulary "
            "can do on this text under this pattern. The first merges glue the most frequent pairs and pay off "
            "at once; later ones make rare words whole, which helps the held-out text only when those words "
            "come back. Past a few thousand tokens each doubling of the vocabulary buys less, while the "
            "embedding and output layers grow with every token (see *Vocabulary cost*).\n\n"
            "The dashed line holds for BPE under the pattern picked above. A tokenizer that cuts differently "
            "can pass it: BERT drops spaces altogether (they are never tokens), cl100k_base glues runs of line "
            "breaks and leading punctuation to their neighbours, and Unigram and WordPiece cut words their own "
            "way (Unigram as SentencePiece does, a word with its leading space as one ▁word).\n\n"
            "Unigram and WordPiece start from the corpus's characters, not from 256 bytes, so at a vocabulary of "
            "256 they already hold a couple of hundred longer pieces; a character never seen in training becomes "
            "an unknown token (its bytes are still counted in bytes per token).\n\n"
            "The two Unigram curves are two recipes, not two implementations. The dotted one is the textbook "
            "chapter's: its pre-tokens come from a GPT-2-style pattern, its seed is every substring of up to 10 "
            "characters seen twice, and each round keeps the most probable pieces. The solid one is "
            "SentencePiece's: ▁ words, and each round removes the pieces the corpus's likelihood misses least. "
            "Probability is not usefulness: a frequent piece whose parts do almost as well is cheap to lose, a "
            "rarer piece nothing else can replace is not, and only the second rule sees the difference. That "
            "is why the solid curve lies above the dotted one.\n\n"
            "WordPiece here merges the pair with the best score count(ab) / (count(a) · count(b)), not the most "
            "frequent pair: its early pieces join parts that rarely occur apart, however rare the pair, so at the "
            "same size it compresses much less than BPE. (Hugging Face's WordPiece trainer merges by frequency, "
            "as BPE does, and only encodes the WordPiece way.)"
        )


def units_section(data: CorpusData, keys: Sequence[str]) -> None:
    """Words, characters, bytes and subwords of the held-out text: length, vocabulary, attention cost."""
    found = measure(data, applied_settings(), keys)
    subwords: list[tuple[str, int, int]] = []
    algorithms: dict[str, str] = {}
    if found.bpe is not None:
        wanted = st.select_slider("BPE vocabulary size", options=UNITS_STOPS,
                                  **state.kept(state.WC_UNITS_VOCAB),
                                  format_func="{:,}".format, help="BPE trained here, from the compression sweep.")
        size = min(wanted, found.bpe.max_vocab)
        if size < wanted:
            st.caption(f"The sweep reached {found.bpe.max_vocab:,} tokens; showing BPE at that size.")
        name = f"BPE trained here ({size:,})"
        subwords.append((name, found.bpe.tokens_at(size), size))
        algorithms[name] = "byte-level BPE"
    elif found.problem:
        st.info(found.problem, icon=":material/info:")
    for point in found.points:
        subwords.append((point.name, point.tokens, point.vocab_size))
        algorithms[point.name] = point.algorithm
    rows = cache.units(data, st.session_state[state.WC_RULE], subwords)
    frame = fig.units_frame(rows)
    st.dataframe(
        frame.drop(columns=["vocabulary"]), hide_index=True, width="stretch",
        column_config={
            "sequence length": st.column_config.NumberColumn(format="localized"),
            "vocabulary size": st.column_config.NumberColumn(format="localized"),
            "length × shortest": st.column_config.NumberColumn(format="%.2f×"),
            "attention cost × shortest": st.column_config.NumberColumn(format="%.1f×"),
        },
    )
    widgets.chart(fig.units_figure(rows, algorithms), frame, key="wc_units_chart", name="units")
    st.caption(
        f"The held-out {len(data.heldout):,} characters of the corpus. Words are counted by the rule of the first tab "
        "(spaces and, for letter words, punctuation dropped: not a lossless cut), and their vocabulary is the "
        "distinct words of this text alone: a word model needs every word it may ever meet. Bytes need only 256 "
        "symbols and never meet an unknown one, at the longest sequence. A subword vocabulary buys most of the "
        "words' shortness for a fixed, modest size."
    )
