"""The models and measurements of "Beyond fixed tokenizers", trained or computed once and cached.

- ``entropy_model(settings)``: a byte n-gram model (``core.beyond.byte_ngram``) trained on a corpus, with
  its cross-entropy on held-out text. ``superword_models(settings)``: plain BPE and SuperBPE
  (``core.beyond.superbpe``) at the same vocabulary size, with their token counts on held-out text.
  Both live in one process-wide ``ModelStore`` each (an ``st.cache_resource``), keyed by frozen
  settings. Subtle: the store, not the training function, is the cached resource, so the progress
  bar is drawn outside any cached function and never replayed. The model of the page's default
  settings (what a first visit shows), its held-out bits and the languages' entropies under it are
  also kept on disk (``core.fetch.derived``, named by the training text's digest and the versions),
  so a new server process reads them instead of training and measuring again.
- ``text_entropy``, ``language_entropies`` and ``token_count`` (from the library's ids, no ``Token``s) are ``st.cache_data``: arrays and
  ints, cheap to copy; the model is passed unhashed (``_model``) next to the settings that name it.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from core import bpe, corpora
from core.beyond import byte_ngram, multilingual, superbpe
from core.fetch import derived
from core.fetch.sources import SourceUnavailable
from core.tax.language_tax import token_counter
from ui import cache
from ui.store import KeptStore

SAMPLES, PUD_MIX = "samples", "pud_mix"
SAMPLE_KEYS = ("sample_essay_en", "sample_mercado_es", "sample_python")  # not the multilingual one: it is measured
MAX_VOCAB = 20_000  # beyond this a superword run takes long on the larger corpora
HELDOUT = 0.1  # the last tenth of a corpus is held out (core.corpora.split_heldout)
HELDOUT_SAMPLE_BYTES = 40_000  # bits per byte are measured on at most about this much of it


ModelStore = KeptStore  # models by frozen settings (ui.store)


@st.cache_resource(show_spinner=False)
def ngram_store() -> ModelStore:
    return ModelStore()


@st.cache_resource(show_spinner=False)
def superword_store() -> ModelStore:
    return ModelStore()


# -- the entropy model ----------------------------------------------------------------------------


@dataclass(frozen=True)
class NgramSettings:
    """What one entropy model is trained on: hashable, so it keys the store."""

    corpus: str
    order: int


@dataclass(frozen=True, eq=False)
class EntropyModel:
    """A trained byte n-gram model, what it was trained on, and how well it predicts held-out text."""

    settings: NgramSettings
    model: byte_ngram.ByteNgramModel
    title: str
    heldout_title: str
    heldout_bytes: int
    bits_per_byte: float  # mean surprisal on the held-out text
    kept_as: tuple[str, ...] | None = None  # what names it on disk (``_kept_parts``), for the page's default only

    def describe(self) -> str:
        grams = self.model.levels[-1].n_grams
        return (
            f"order-{self.model.order} byte n-gram ({self.model.order - 1} bytes of context, interpolated "
            f"Kneser-Ney) trained on {self.title}: {size_label(self.model.trained_bytes)}, {grams:,} distinct "
            f"{self.model.order}-grams; {self.bits_per_byte:.2f} bits per byte on {self.heldout_title}"
        )


def size_label(n_bytes: int) -> str:
    """``8.6 kB``, ``2.71 MB``."""
    return f"{n_bytes / 1e6:,.2f} MB" if n_bytes >= 1_000_000 else f"{n_bytes / 1000:,.1f} kB"


def heldout_sample(text: str, *, most: int = HELDOUT_SAMPLE_BYTES) -> tuple[bytes, int]:
    r"""The held-out text as UTF-8, or every n-th line of it when longer than ``most`` bytes, and n.

    Measuring the model's bits per byte costs 256 probabilities per byte: on the 327 kB of PUD's
    measured sentences it was 3.6 s of a first visit's CPU. Every n-th line keeps every language in.

    >>> heldout_sample("a\nb\nc\nd", most=4)
    (b'a\nc', 2)
    """
    data = text.encode()
    if len(data) <= most:
        return data, 1
    lines = text.splitlines()
    every = -(-len(data) // most)
    return "\n".join(lines[::every]).encode(), every


def ngram_corpus_options() -> dict[str, str]:
    """Corpus choices for the entropy model, key → label."""
    options = {
        SAMPLES: "Built-in essays and code (English, Spanish, Python; 9 kB)",
        PUD_MIX: "PUD sentences in 21 languages (2.7 MB; the measured ones left out)",
    }
    for item in corpora.catalog():
        if item.group == "Public corpora" and not item.key.startswith("pud:"):
            options[item.key] = f"{item.title} ({item.size_bytes / 1e6:,.1f} MB)"
    return options


def _ngram_texts(corpus: str) -> tuple[str, str, str, str]:
    """``(training text, held-out text, title, held-out title)`` for an entropy-model corpus."""
    options = ngram_corpus_options()
    if corpus == PUD_MIX:
        heldout = "\n".join(t.text for t in multilingual.pud_texts())
        return multilingual.pud_training_text(), heldout, "PUD (21 languages)", "the measured PUD sentences"
    if corpus == SAMPLES:
        text = "\n".join(corpora.load_corpus(key) for key in SAMPLE_KEYS)
    elif corpus in options:
        text = corpora.load_corpus(corpus)
    else:
        raise ValueError(f"no corpus called {corpus!r}; pick one from the list")
    train, heldout = corpora.split_heldout(text, HELDOUT)
    title = options[corpus].rpartition(" (")[0] if corpus != SAMPLES else "the built-in essays and code"
    return train, heldout, f"{title} (first 90 %)", "its last 10 %"


def entropy_model(settings: NgramSettings) -> EntropyModel:
    """The model for ``settings``: from the store, or trained now under a progress bar.

    Raises ``ValueError`` with one sentence to show when the corpus cannot be had or is too short.
    """

    def make(bar: Any) -> EntropyModel:
        try:
            train, heldout, title, heldout_title = _ngram_texts(settings.corpus)
        except SourceUnavailable as exc:
            raise ValueError(str(exc)) from None

        def progress(done: int, total: int) -> None:
            bar.progress(done / total, text=f"Counting n-grams: {done} of {total} steps")

        held, every = heldout_sample(heldout)
        if every > 1:
            heldout_title = f"{heldout_title} (every {every} lines of them: {size_label(len(held))})"

        def trained() -> byte_ngram.ByteNgramModel:
            return byte_ngram.train(train, order=settings.order, progress=progress)

        def measured() -> float:
            return float(model.surprisal(held).mean()) if held else float("nan")

        kept_as = _kept_parts(settings, train)
        if kept_as is None:
            model = trained()
            bits = measured()
        else:  # the first visit's model: trained once for every later process (a 2.7 MB corpus: 0.5 s, 23 MB)
            model = derived.made_once(KEPT_KIND, kept_as, trained, dump=byte_ngram.to_bytes,
                                      load=byte_ngram.from_bytes, suffix=".npz")
            bits = derived.made_once(KEPT_KIND, (*kept_as, "held-out bits", _digest(held)), measured,
                                     dump=lambda bits: np.float64(bits).tobytes(), load=_float)
        return EntropyModel(settings, model, title, heldout_title, len(held), bits, kept_as)

    return ngram_store().get_with_bar(settings, make)


KEPT_KIND = "byte-ngram"  # core.fetch.derived's folder for the default entropy model and its measures


def _kept_parts(settings: NgramSettings, train: str) -> tuple[str, ...] | None:
    """What names the model of ``settings`` trained on ``train`` on disk, or ``None``: only the page's
    default settings (what a first visit shows) are kept, by the training text's digest and the
    versions of the code and numpy (other settings are trained when asked, under a progress bar, and
    may be large: order 8 on a public corpus)."""
    from ui import state

    defaults = state.beyond_defaults()
    if settings != NgramSettings(defaults[state.BT_NGRAM_CORPUS], defaults[state.BT_NGRAM_ORDER]):
        return None
    return ("v1", str(byte_ngram.VERSION), np.__version__, settings.corpus, str(settings.order), _digest(train))


def _digest(text: str | bytes) -> str:
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _float(payload: bytes) -> float | None:
    return float(np.frombuffer(payload, dtype=np.float64)[0]) if len(payload) == 8 else None



@st.cache_data(show_spinner=False, max_entries=32)
def text_entropy(settings: NgramSettings, text: str, _model: byte_ngram.ByteNgramModel) -> np.ndarray:
    """The entropy of the next byte at every byte of ``text`` under the model ``settings`` names."""
    return _model.entropy(text.encode())


@dataclass(frozen=True)
class LanguageText:
    """One language of the parallel text and the entropy at each of its bytes."""

    code: str
    name: str
    text: str
    entropy: np.ndarray


PARALLEL_SOURCES = {"pud": "PUD, 21 languages", "builtin": "built-in sentence, 17 languages"}


def parallel_sources() -> list[str]:
    """The parallel texts on offer: PUD when the data folder is there, and always the built-in one."""
    return ["pud", "builtin"] if multilingual.pud_available() else ["builtin"]


def parallel_texts(source: str) -> tuple[str, list[multilingual.ParallelText]]:
    """A description and the texts of ``source`` (a key of ``PARALLEL_SOURCES``)."""
    if source == "pud":
        try:
            texts = multilingual.pud_texts()
        except SourceUnavailable as exc:
            raise ValueError(str(exc)) from None
        return f"the first {multilingual.PUD_MEASURED} PUD sentences of each language ({corpora.PUD_NOTICE})", texts
    return "the built-in sentence (data/samples/multilingual_mix.txt)", multilingual.builtin_texts()


@st.cache_data(show_spinner=False, max_entries=8)
def language_entropies(
    settings: NgramSettings, source: str, _model: byte_ngram.ByteNgramModel, _kept_as: tuple[str, ...] | None = None,
) -> tuple[str, list[LanguageText]]:
    """Every language of the parallel text ``source`` with its per-byte entropy under the model; kept on disk
    with the model when it is (``_kept_as``, unhashed: ``settings`` names it; PUD's 327 kB in 21 languages
    took 0.7 s of a first visit)."""
    description, texts = parallel_texts(source)

    def measure() -> list[np.ndarray]:
        return [_model.entropy(t.text.encode()) for t in texts]

    if _kept_as is None:
        entropies = measure()
    else:
        parts = (*_kept_as, "entropies", _digest("\x1f".join(f"{t.code}\x1e{t.text}" for t in texts)))
        entropies = derived.made_once(KEPT_KIND, parts, measure, dump=_arrays_bytes,
                                      load=lambda payload: _arrays(payload, len(texts)), suffix=".npz")
    return description, [LanguageText(t.code, t.name, t.text, h) for t, h in zip(texts, entropies, strict=True)]


def _arrays_bytes(arrays: list[np.ndarray]) -> bytes:
    out = io.BytesIO()
    np.savez(out, *arrays, allow_pickle=False)
    return out.getvalue()


def _arrays(payload: bytes, n: int) -> list[np.ndarray] | None:
    """The ``n`` arrays ``_arrays_bytes`` wrote, or ``None``."""
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as arrays:
            found = [arrays[f"arr_{i}"] for i in range(n)]
    except (ValueError, OSError, EOFError, KeyError):
        return None
    return found if len(found) == n else None


@st.cache_data(show_spinner=False, max_entries=256)
def token_count(key: str, text: str) -> int:
    """Tokens of ``text`` under the (already loaded) registry tokenizer ``key``, as the counts table
    counts them (tokens the tokenizer adds on its own, such as BOS, left out).

    Counted from the library's ids (``core.tax.language_tax.token_counter``, the Language tax's route),
    not from ``Token`` objects: 5-8 times less CPU for the same number, and the first visit of the
    page counts 21 languages under each tokenizer compared."""
    tokenizer = cache.tokenizer_store().get(key)
    if isinstance(tokenizer, cache.Unavailable):
        raise ValueError(f"{tokenizer.name} is unavailable: {tokenizer.reason}")
    return token_counter(tokenizer)(text)[0]


# -- superwords ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SuperSettings:
    """What one superword run trains on and to which sizes."""

    corpus: str
    vocab_size: int
    transition: int


@dataclass(frozen=True, eq=False)
class SuperwordModels:
    """Plain BPE and SuperBPE trained on the same text to the same size, measured on held-out text."""

    settings: SuperSettings
    title: str
    train_bytes: int
    heldout: str
    plain: bpe.BPEResult  # plain BPE at SuperBPE's vocabulary size
    super: superbpe.SuperBPEResult
    heldout_plain: int  # tokens of the held-out text, plain BPE at the full vocabulary
    heldout_super: int  # … SuperBPE at the full vocabulary
    heldout_transition: int  # … plain BPE at the transition (where stage 2 starts)

    @property
    def heldout_bytes(self) -> int:
        return len(self.heldout.encode())


def super_corpus_options() -> dict[str, str]:
    """Corpus choices for superwords, key → label: the catalog without the non-English PUD files."""
    return {
        item.key: f"{item.title} ({item.size_bytes / 1000:,.0f} kB)"
        for item in corpora.catalog()
        if not item.key.startswith("pud:") or item.key == "pud:en"
    }


def check_super_settings(corpus: str, vocab_size: int, transition: int) -> SuperSettings:
    """Settings from the form, or ``ValueError`` saying what to change."""
    if not 257 <= vocab_size <= MAX_VOCAB:
        raise ValueError(f"Pick a vocabulary size between 257 and {MAX_VOCAB:,} (asked: {vocab_size:,}).")
    if not 256 <= transition <= vocab_size:
        raise ValueError(
            f"The transition must lie between 256 (bytes only) and the vocabulary size {vocab_size:,} "
            f"(asked: {transition:,})."
        )
    if corpus not in super_corpus_options():
        raise ValueError(f"No corpus called {corpus!r}; pick one from the list.")
    return SuperSettings(corpus, int(vocab_size), int(transition))


def superword_models(settings: SuperSettings) -> SuperwordModels:
    """Both tokenizers for ``settings``: from the store, or trained now under a progress bar."""

    def make(bar: Any) -> SuperwordModels:
        try:
            text = corpora.load_corpus(settings.corpus)
        except SourceUnavailable as exc:
            raise ValueError(str(exc)) from None
        train, heldout = corpora.split_heldout(text, HELDOUT)

        def plain_progress(done: int, total: int) -> None:
            bar.progress(0.5 * done / max(total, 1), text=f"Plain BPE: {done:,} of {total:,} merges")

        def super_progress(done: int, total: int) -> None:
            bar.progress(0.5 + 0.45 * done / max(total, 1), text=f"SuperBPE: {done:,} of {total:,} merges")

        plain = bpe.train(train, vocab_size=settings.vocab_size, progress=plain_progress)
        result = superbpe.train(
            train, vocab_size=settings.vocab_size, transition=settings.transition, stage1=plain,
            progress=super_progress,
        )
        bar.progress(0.95, text="Measuring the held-out text …")
        # subtle: when stage 2 runs out of pairs, compare with plain BPE cut at SuperBPE's actual size
        largest = plain.tokenizer.vocab_size  # plain BPE too can stop early on a tiny corpus
        plain_at_size = superbpe.plain_prefix(plain, min(result.vocab_size, largest))
        at_transition = superbpe.plain_prefix(plain, min(result.transition, largest))
        return SuperwordModels(
            settings, corpora.entry(settings.corpus).title, len(train.encode()), heldout, plain_at_size, result,
            len(plain_at_size.tokenizer.encode_ids(heldout)), len(result.tokenizer.encode_ids(heldout)),
            len(at_transition.tokenizer.encode_ids(heldout)),
        )

    return superword_store().get_with_bar(settings, make)
