"""Streamlit parts of "Beyond fixed tokenizers": one view per idea, each with its idea and its cost.

- ``bytes_view``: the text as UTF-8 bytes against the chosen tokenizers (length, attention, output layer).
- ``patches_view``: a byte n-gram model's entropy over the text, the patches a threshold cuts, and
  patches against tokens in several languages.
- ``superwords_view``: plain BPE and SuperBPE at one vocabulary size, held-out compression, the
  superwords learned, and the user's text under both.

Models come from ``ui.beyond.models`` (cached), tables from ``ui.beyond.frames``, charts from
``ui.beyond.figures``, spans from ``ui.spans.render_spans``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import streamlit as st

from core.beyond import byte_ngram, patches
from core.beyond.byte_tokenizer import ByteTokenizer
from core.types import Token
from ui import cache, export, state, widgets
from ui.beyond import figures, frames, models
from ui.beyond.ideas import BYTES_IDEA, PATCHES_IDEA, SUPERWORDS_IDEA
from ui.spans import render_spans

T = TypeVar("T")

BYTES = ByteTokenizer()
THRESHOLD_RANGE = {"global": (0.0, 8.0), "relative": (0.0, 6.0)}
THRESHOLD_KEYS = {"global": state.BT_THRESHOLD_GLOBAL, "relative": state.BT_THRESHOLD_RELATIVE}

def load_tokenizers(keys: Sequence[str]) -> tuple[dict[str, Any], list[cache.Unavailable]]:
    """The chosen registry tokenizers that load (key → tokenizer) and those that do not."""
    names = cache.registry_names()
    loaded, missing = {}, []
    for key in keys:
        tokenizer = cache.get_tokenizer(key, names.get(key))
        if isinstance(tokenizer, cache.Unavailable):
            missing.append(tokenizer)
        else:
            loaded[key] = tokenizer
    return loaded, missing


def _unavailable_note(missing: Sequence[cache.Unavailable]) -> None:
    for item in missing:
        st.caption(widgets.md_escape(f"{item.name} is left out: {item.reason}"))


def _explain(idea: str, title: str) -> None:
    with st.expander(title, icon=":material/lightbulb:"):
        st.markdown(idea)


# -- bytes only -------------------------------------------------------------------------------------


def bytes_view(text: str, keys: Sequence[str], *, show_whitespace: bool) -> None:
    """The text drawn as bytes, then what bytes cost against each tokenizer (chart and table)."""
    if not text:
        st.info("Type or paste some text above to see it as bytes.", icon=":material/edit:")
        _explain(BYTES_IDEA, "Bytes only: the idea and its cost")
        return
    st.markdown(f"**Your text as a byte-level model reads it: {len(text.encode()):,} bytes** "
                "(ids = byte + 3, as in ByT5; the bytes of one character share a bracket)")
    st.html(_bytes_spans(text, show_whitespace))
    loaded, missing = load_tokenizers(keys)
    counts = {tok.name: (cache.analyze(key, text, False).counts.tokens, tok.vocab_size) for key, tok in loaded.items()}
    frame = frames.bytes_cost_frame(len(text.encode()), counts)
    if counts:
        widgets.chart(figures.costs_figure(frame), frame, key="bt_costs_chart", name="bytes_vs_tokens")
    st.dataframe(
        frame, key="bt_costs_table",
        column_config={
            "tokens": st.column_config.NumberColumn("tokens (or bytes)", format="localized"),
            "vocabulary": st.column_config.NumberColumn(format="localized"),
            "bytes / token": st.column_config.NumberColumn(format="%.2f"),
            "bytes: length ×": st.column_config.NumberColumn(format="%.2f×", help="bytes ÷ tokens"),
            "bytes: attention ×": st.column_config.NumberColumn(format="%.1f×", help="(bytes ÷ tokens)²"),
            "bytes: output layer ×": st.column_config.NumberColumn(
                format="%.3f×", help="(bytes × 259) ÷ (tokens × vocabulary)"),
        },
    )
    st.caption("Each “×” is what reading the text as bytes costs, as a multiple of reading it as that "
               "tokenizer's tokens (same model width). Below 1×, bytes are cheaper.")
    _unavailable_note(missing)
    _explain(BYTES_IDEA, "Bytes only: the idea and its cost")


@st.cache_data(show_spinner=False, max_entries=16)
def _bytes_spans(text: str, show_whitespace: bool) -> str:
    return render_spans(text, BYTES.encode(text), show_whitespace=show_whitespace, piece=BYTES.piece)


# -- entropy patches --------------------------------------------------------------------------------


def ngram_form() -> models.NgramSettings | None:
    """The entropy model's form in the sidebar; on "Train", the chosen settings."""
    options = models.ngram_corpus_options()
    with st.sidebar.form("bt_ngram_form", border=False):
        st.markdown("### Entropy model")
        corpus = st.selectbox("Trained on", list(options), format_func=options.__getitem__,
                              **state.kept(state.BT_NGRAM_CORPUS))
        order = st.select_slider(
            "Order (bytes of context + 1)", options=list(range(1, byte_ngram.MAX_ORDER + 1)),
            **state.kept(state.BT_NGRAM_ORDER),
            help="Order 5 predicts each byte from the 4 before it. Higher orders remember more and need more text.",
        )
        submitted = st.form_submit_button("Train", type="primary", icon=":material/model_training:", key="bt_ngram_train")
    return models.NgramSettings(corpus, int(order)) if submitted else None


def first_trained(candidates: tuple[Any, ...], train: Callable[[Any], T], *, error_key: str, applied_key: str,
                  what: str) -> T:
    """The model of the first settings in ``candidates`` that trains (``None`` ones skipped): a freshly
    submitted form, the last good settings, the defaults. A failure is kept under ``error_key`` as
    "Not trained: …" for the page to show (the caller clears it before drawing its form, which may
    put its own there); the settings that trained are kept under ``applied_key``."""
    ss = st.session_state
    for settings in candidates:
        if settings is None:
            continue
        try:
            found = train(settings)
        except ValueError as exc:
            ss[error_key] = f"Not trained: {exc}"
            continue
        ss[applied_key] = settings
        return found
    raise RuntimeError(f"the default {what} could not be trained")  # the built-in samples always load


def current_entropy_model() -> models.EntropyModel:
    """The model to show: a freshly submitted form, else the last good settings, else the default."""
    st.session_state[state.BT_NGRAM_ERROR] = ""
    defaults = state.beyond_defaults()
    fallback = models.NgramSettings(defaults[state.BT_NGRAM_CORPUS], defaults[state.BT_NGRAM_ORDER])
    submitted = ngram_form()
    return first_trained((submitted, st.session_state[state.BT_NGRAM_APPLIED], fallback), models.entropy_model,
                         error_key=state.BT_NGRAM_ERROR, applied_key=state.BT_NGRAM_APPLIED, what="entropy model")


def patch_controls() -> tuple[str, float, bool]:
    """The rule, the threshold slider and the whole-characters switch, in one row above the patches."""
    # a row that wraps rather than columns that clip: at a projector's type the three do not fit one line
    row = st.container(horizontal=True, wrap=True, vertical_alignment="bottom", gap="medium")
    rule = row.segmented_control(
        "Rule", list(patches.RULES), format_func=patches.RULES.__getitem__,
        **state.kept(state.BT_RULE), required=True,
        help="Global: a patch starts at every byte whose entropy H is above θ. Relative: where H rises by "
             "more than θ over the byte before (BLT's approximate monotonic constraint).",
    )
    low, high = THRESHOLD_RANGE[rule]
    threshold = row.slider("Threshold θ (bits)", low, high, step=0.05, key=THRESHOLD_KEYS[rule], width=340)
    whole = row.toggle("Whole characters", **state.kept(state.BT_WHOLE_CHARS),
                             help="On: a patch that would start inside a UTF-8 character starts at the character "
                                  "instead. Off: cut bytes anywhere, as the BLT does.")
    return rule, float(threshold), bool(whole)


def match_button(entropy: np.ndarray, rule: str, bytes_per_token: tuple[str, float] | None) -> None:
    """A button that sets θ so the patches average as many bytes as the first tokenizer's tokens."""
    if bytes_per_token is None or len(entropy) < 2:
        return
    name, mean = bytes_per_token
    low, high = THRESHOLD_RANGE[rule]
    st.button(
        f"Match {name}: {mean:.2f} bytes per patch", key="bt_match", icon=":material/balance:",
        on_click=_set_threshold, args=(THRESHOLD_KEYS[rule], patches.threshold_for_mean(entropy, mean, rule=rule), low, high),
        help="Sets θ so the patches of your text are on average as long as this tokenizer's tokens.",
    )


def _set_threshold(key: str, value: float, low: float, high: float) -> None:
    st.session_state[key] = float(min(max(round(value / 0.05) * 0.05, low), high))


def patches_view(text: str, keys: Sequence[str], *, show_whitespace: bool) -> None:
    """The patches a threshold cuts, the entropy over the text, patches vs tokens here and across languages."""
    found = current_entropy_model()
    if st.session_state[state.BT_NGRAM_ERROR]:
        st.error(st.session_state[state.BT_NGRAM_ERROR], icon=":material/error:")
    loaded, missing = load_tokenizers(keys)
    rule, threshold, whole = patch_controls()
    if text:
        entropy = models.text_entropy(found.settings, text, found.model)
        starts = patches.cut(text, entropy, threshold, rule=rule, whole_chars=whole)
        tokens = patches.patch_tokens(text, starts)
        n_bytes = len(text.encode())
        st.markdown(f"**Your text in {len(tokens):,} entropy patches** (hover a patch for its entropy)")
        st.html(render_spans(text, tokens, show_whitespace=show_whitespace, extra_title=_patch_note(entropy, starts)))
        token_counts = {tok.name: cache.analyze(key, text, False).counts.tokens for key, tok in loaded.items()}
        chart_col, table_col = widgets.columns([3, 2], gap="medium")
        with chart_col:
            widgets.chart(figures.entropy_figure(text, entropy, starts, threshold=threshold, rule=rule),
                          key="bt_entropy_chart", name="entropy_patches")
        with table_col:
            st.dataframe(frames.units_frame(n_bytes, {"entropy patches": len(tokens)} | token_counts),
                         key="bt_units_table", column_config={
                             "units": st.column_config.NumberColumn(format="localized"),
                             "bytes / unit": st.column_config.NumberColumn(format="%.2f")})
            match_button(entropy, rule, next(((name, n_bytes / n) for name, n in token_counts.items() if n), None))
            _unavailable_note(missing)
    else:
        st.info("Type or paste some text above to see its entropy and patches.", icon=":material/edit:")
    st.caption(widgets.md_escape("Entropy model: " + found.describe() + "."))
    _explain(PATCHES_IDEA, "Entropy patches: the idea and its cost")
    languages_section(found, loaded, rule=rule, threshold=threshold, whole=whole)


def _patch_note(entropy: np.ndarray, starts: np.ndarray) -> Any:
    """The tooltip line of a patch (its id is its index): its bytes and its entropy."""
    ends = np.append(starts[1:], len(entropy))

    def note(token: Token) -> str:
        begin, end = int(starts[token.id]), int(ends[token.id])
        h = entropy[begin:end]
        return f"bytes {begin:,}–{end - 1:,} · first byte {h[0]:.2f} bits · mean {h.mean():.2f} bits"

    return note


def languages_section(
    found: models.EntropyModel, loaded: dict[str, Any], *, rule: str, threshold: float, whole: bool
) -> None:
    """Patches against tokens on the same text in several languages: a chart and a table."""
    st.subheader("Patches and tokens across languages")  # the choice below: beside it, its options were cut
    sources = models.parallel_sources()
    if st.session_state[state.BT_PARALLEL] not in sources:
        st.session_state[state.BT_PARALLEL] = sources[0]
    chosen = st.segmented_control(
        "Parallel text", sources, format_func=models.PARALLEL_SOURCES.__getitem__,
        **state.kept(state.BT_PARALLEL),
        required=True, help="The same text in several languages. PUD needs the data folder.",
    )
    with st.spinner("Measuring every language …"):
        source, languages = models.language_entropies(found.settings, chosen, found.model, found.kept_as)
        counts = [len(patches.cut(lang.text, lang.entropy, threshold, rule=rule, whole_chars=whole)) for lang in languages]
        tokens = {tok.name: [models.token_count(key, lang.text) for lang in languages] for key, tok in loaded.items()}
    frame = frames.languages_frame([lang.name for lang in languages], [len(lang.text.encode()) for lang in languages],
                                   counts, tokens)
    widgets.chart(figures.languages_figure(frame, list(tokens)), frame.reset_index(), key="bt_languages_chart",
                  name="patches_vs_tokens")
    st.caption(widgets.md_escape(
        f"The same text in {len(languages)} languages: {source}. The patches use the rule and θ above and "
        f"the entropy model trained on {found.title}; a language it saw little of is all surprise, so it "
        "breaks into many patches."
    ))
    with st.expander("The numbers", icon=":material/table:"):
        st.dataframe(frame, key="bt_languages_table",
                     column_config={c: st.column_config.NumberColumn(format="localized") for c in frame.columns})


# -- superwords -------------------------------------------------------------------------------------


def superword_form() -> models.SuperSettings | None:
    """The superword form in the sidebar; on "Train", checked settings (or an error in the state)."""
    options = models.super_corpus_options()
    with st.sidebar.form("bt_super_form", border=False):
        st.markdown("### Superword BPE")
        corpus = st.selectbox("Trained on", list(options), format_func=options.__getitem__,
                              **state.kept(state.BT_SUPER_CORPUS))
        vocab = st.number_input("Vocabulary size", step=500, **state.kept(state.BT_SUPER_VOCAB),
                                help=f"Both tokenizers end at this size (at most {models.MAX_VOCAB:,}).")
        transition = st.number_input("Transition", step=500, **state.kept(state.BT_SUPER_TRANSITION),
                                     help="SuperBPE is plain BPE up to this size, then merges may cross spaces.")
        submitted = st.form_submit_button("Train", type="primary", icon=":material/model_training:", key="bt_super_train")
    if not submitted:
        return None
    try:
        return models.check_super_settings(corpus, int(vocab), int(transition))
    except ValueError as exc:
        st.session_state[state.BT_SUPER_ERROR] = str(exc)
        return None


def current_superword_models() -> models.SuperwordModels:
    """The models to show: a freshly submitted form, else the last good settings, else the default."""
    st.session_state[state.BT_SUPER_ERROR] = ""
    defaults = state.beyond_defaults()
    fallback = models.SuperSettings(
        defaults[state.BT_SUPER_CORPUS], defaults[state.BT_SUPER_VOCAB], defaults[state.BT_SUPER_TRANSITION]
    )
    submitted = superword_form()
    return first_trained((submitted, st.session_state[state.BT_SUPER_APPLIED], fallback), models.superword_models,
                         error_key=state.BT_SUPER_ERROR, applied_key=state.BT_SUPER_APPLIED, what="superword models")


def superwords_view(text: str, *, show_whitespace: bool) -> None:
    """Held-out compression, the training curve, the user's text under both, and the superwords."""
    found = current_superword_models()
    if st.session_state[state.BT_SUPER_ERROR]:
        st.error(st.session_state[state.BT_SUPER_ERROR], icon=":material/error:")
    result = found.super
    if result.stop_reason:
        st.info(f"Training {result.stop_reason}: the corpus is too small for this vocabulary.", icon=":material/info:")
    compression = frames.compression_frame(
        heldout_bytes=found.heldout_bytes, plain=found.heldout_plain, super_tokens=found.heldout_super,
        at_transition=found.heldout_transition, vocab_size=result.vocab_size, transition=result.transition,
        plain_vocab=found.plain.tokenizer.vocab_size,
    )
    if text:
        _text_under_both(text, found, show_whitespace=show_whitespace)
    left, right = st.columns([1, 2], gap="large")
    change = compression["vs plain BPE"].iloc[1]
    left.metric(f"Held-out tokens, SuperBPE at {result.vocab_size:,}", f"{found.heldout_super:,}",
                delta=f"{change:+.1%} vs plain BPE", delta_color="inverse")
    left.caption(widgets.md_escape(
        f"Plain BPE with {found.plain.tokenizer.vocab_size:,} tokens of vocabulary needs {found.heldout_plain:,}. "
        f"Both trained on {found.title} ({models.size_label(found.train_bytes)}, the first 90 %) and measured "
        f"on its last 10 % ({models.size_label(found.heldout_bytes)}), which neither saw."
    ))
    with right:
        widgets.chart(figures.superword_curve_figure(found.plain, result), key="bt_super_chart", name="superwords")
    st.dataframe(compression, key="bt_compression_table", column_config={
        "tokens": st.column_config.NumberColumn("held-out tokens", format="localized"),
        "bytes / token": st.column_config.NumberColumn(format="%.2f"),
        "vs plain BPE": st.column_config.NumberColumn(format="percent")})
    _explain(SUPERWORDS_IDEA, "Superwords: the idea and its cost")
    superword_table(result)


def _text_under_both(text: str, found: models.SuperwordModels, *, show_whitespace: bool) -> None:
    plain, sup = found.plain.tokenizer, found.super.tokenizer
    columns = st.columns(2, gap="medium")
    for column, tokenizer, title in ((columns[0], plain, "Plain BPE"), (columns[1], sup, "SuperBPE")):
        tokens = tokenizer.encode(text)
        with column:
            st.markdown(f"**{title}: {len(tokens):,} tokens** of your text")
            st.html(render_spans(text, tokens, show_whitespace=show_whitespace, piece=lambda i, t=tokenizer: _label(t, i)))


def _label(tokenizer: Any, token_id: int) -> str:
    return tokenizer.vocab[token_id].decode("utf-8", errors="backslashreplace")


def superword_table(result: Any) -> None:
    """All superwords learned, searchable, with the classic ones named."""
    steps = result.superwords()
    st.subheader(f"{len(steps):,} superwords learned after the transition")
    if not steps:
        st.caption("None: raise the vocabulary size or lower the transition, or pick a bigger corpus.")
        return
    examples = frames.superword_examples([step.piece.decode("utf-8", "replace") for step in steps])
    if examples:
        st.html('<p class="bt-examples">Among them: ' + ", ".join(
            f"<code>{html.escape(e.replace(' ', '·'))}</code>" for e in examples) + " (· is a space)</p>")
    table = frames.superwords_frame(steps)
    st.dataframe(table, key="bt_superwords_table", hide_index=True, height=320, column_config={
        "id": st.column_config.NumberColumn(format="%d", help="its place in the vocabulary (the transition is the first)"),
        "token": st.column_config.TextColumn(help="· is a space"),
        "count": st.column_config.NumberColumn(format="localized", help="how often its two parts met when it was made"),
        "words": st.column_config.NumberColumn(format="%d", help="pieces between spaces it spans"),
    })
    st.download_button("Superwords (CSV)", data=export.frame_csv(table), file_name="superwords.csv", mime="text/csv",
                       key="bt_superwords_csv", on_click="ignore", icon=":material/download:")
