"""Glitch-token candidates: long vocabulary tokens that a reference corpus never produces.

A byte-level BPE vocabulary is learned on one corpus and its model trained on another; a string
frequent only in the first (a forum username, a fragment of a scraped page) got a token the model
hardly ever saw. Without the model's weights the closest honest signal is the tokenizer's own:
encode a reference corpus of ordinary text, and list the long tokens it never produces, grouped by
shape (identifiers in camelCase, letters mixed with digits, runs of one symbol, mojibake, code).
Long ordinary words that the corpus merely lacks ("telecommunications") have no shape and are only
counted. Within a shape the longest come first (a long token was a whole string repeated verbatim
in the tokenizer's corpus), then later merges (higher ids).

What this module does not do: load corpora's files (``core.corpora``) or tokenizers (``core.pretrained``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import regex

from core import corpora
from core.fetch.sources import SourceUnavailable
from core.types import ADDED

# Ordinary text from the data folder: English prose, Python code, news and Wikipedia in nine languages.
REFERENCE_KEYS = (
    "don_quixote_en", "python_stdlib", "pud:en", "pud:es", "pud:de", "pud:fr", "pud:ru", "pud:zh",
    "pud:ja", "pud:ar", "pud:hi",
)
# Always there (data/samples): the reference when the data folder is missing, a small extra otherwise.
SAMPLE_KEYS = ("sample_essay_en", "sample_mercado_es", "sample_multilingual", "sample_python")
MIN_CHARS = 8
# No shape for letters mixed with digits: every pattern here cuts letters from digits, so no token has both.
SHAPES = ("identifier", "code", "symbol run", "mojibake")
SHAPE_NOTES = {
    "identifier": "camelCase or CamelCase: usernames, field and class names",
    "symbol run": "one symbol repeated: separators and ASCII art",
    "mojibake": "UTF-8 read as Latin-1 (Ã, Â): text broken twice",
    "code": "letters with code punctuation (_ . / = ( ) …)",
}

Progress = Callable[[float, str], None]
_CAMEL = regex.compile(r"\p{Ll}\p{Lu}|\p{Lu}{2}\p{Ll}")
_SURNAME = regex.compile(r"(?:Mc|Mac|O')\p{Lu}\p{Ll}+$")  # McAuliffe, MacArthur: names, not identifiers
_CODE = regex.compile(r"[_./\\=(){}\[\]<>;:#$@]")


@dataclass(frozen=True)
class Reference:
    """The reference corpus: its texts, what they are, and whether the data folder provided them."""

    texts: tuple[str, ...]
    titles: tuple[str, ...]
    size_bytes: int
    from_data_folder: bool

    def describe(self) -> str:
        """One line: how big, from where, and what (PUD languages counted, not listed).

        >>> Reference(("",), ("PUD news and Wikipedia sentences (English)", "Essay"), 2_000_000, True).describe()
        "2.0 MB from the data folder's corpora: Essay, PUD news and Wikipedia sentences in 1 language"
        """
        where = "the data folder's corpora" if self.from_data_folder else "the built-in samples only (no data folder)"
        pud = [t for t in self.titles if t.startswith("PUD news")]
        titles = [t for t in self.titles if not t.startswith("PUD news")]
        if pud:
            titles.insert(min(2, len(titles)), f"PUD news and Wikipedia sentences in {len(pud)} language{'s' if len(pud) != 1 else ''}")
        return f"{self.size_bytes / 1e6:,.1f} MB from {where}: {', '.join(titles)}"


def reference_corpus() -> Reference:
    """The data folder's corpora of ``REFERENCE_KEYS`` that are there, plus the built-in samples."""
    texts, titles = [], []
    for key in REFERENCE_KEYS:
        try:
            texts.append(corpora.load_corpus(key))
        except SourceUnavailable:
            continue
        titles.append(corpora.entry(key).title)
    from_data = bool(texts)
    for key in SAMPLE_KEYS:
        texts.append(corpora.load_corpus(key))
        titles.append(corpora.entry(key).title)
    return Reference(tuple(texts), tuple(titles), sum(len(t.encode()) for t in texts), from_data)


def shape(text: str) -> str | None:
    """The shape of a token's text that marks it as a fragment rather than a word, or ``None``.

    >>> [shape(t) for t in [" SolidGoldMagikarp", "rawdownload", "--------", "ÃÂÃÂ", "x_train", " McAuliffe"]]
    ['identifier', None, 'symbol run', 'mojibake', 'code', None]
    """
    core = text.strip()
    if sum(ch in "ÃÂâ€" for ch in core) >= 2:
        return "mojibake"
    if core and len(set(core)) <= 2 and not regex.search(r"[\p{L}\p{N}]", core):
        return "symbol run"
    if _CAMEL.search(core) and not _SURNAME.match(core):
        return "identifier"
    if regex.search(r"\p{L}", core) and _CODE.search(core):
        return "code"
    return None


def count_ids(tokenizer: Any, texts: Iterable[str], *, size: int, progress: Progress | None = None) -> np.ndarray:
    """How often each id occurs when ``tokenizer`` encodes ``texts`` (an array of length ``size``).

    Subtle: a tokenizer with ``encode_ids`` (ids only, no offsets) is counted through it; building
    ``Token``s with offsets is most of the time otherwise (GPT-2 on 4 MB: 8 s against tiktoken's 1.7 s).
    """
    texts = list(texts)
    counts = np.zeros(size, dtype=np.int64)
    encode_ids = getattr(tokenizer, "encode_ids", None)
    for done, text in enumerate(texts):
        if progress is not None:
            progress(done / len(texts), f"encoding reference text {done + 1} of {len(texts)}")
        if encode_ids is not None:
            ids = np.asarray(encode_ids(text), dtype=np.int64)
        else:
            ids = np.fromiter((t.id for t in tokenizer.encode(text) if t.kind != ADDED), dtype=np.int64)
        ids = ids[(ids >= 0) & (ids < size)]
        counts += np.bincount(ids, minlength=size)[:size]
    if progress is not None:
        progress(1.0, "done")
    return counts


@dataclass(frozen=True)
class GlitchToken:
    """One candidate: its id, bytes, text and shape."""

    id: int
    data: bytes
    text: str
    shape: str


@dataclass(frozen=True)
class GlitchScan:
    """The result of scanning one vocabulary against one reference corpus."""

    vocabulary: int  # ordinary tokens scanned
    long_tokens: int  # of at least MIN_CHARS characters (leading space not counted)
    unseen_long: int  # long tokens the corpus never produced
    corpus_tokens: int
    by_shape: dict[str, tuple[GlitchToken, ...]]  # the first ``per_shape`` of each shape
    shape_counts: dict[str, int]  # all of each shape


def scan(
    vocabulary: Mapping[int, bytes], counts: np.ndarray, *, min_chars: int = MIN_CHARS, per_shape: int = 12
) -> GlitchScan:
    """Long tokens of ``vocabulary`` with a zero count, grouped by ``shape``, longest first.

    Tokens that are not whole UTF-8 (pieces of a character) are skipped: they have no text.
    """
    long_tokens = unseen = 0
    found: dict[str, list[GlitchToken]] = {name: [] for name in SHAPES}
    for token_id, data in vocabulary.items():
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if len(text.strip()) < min_chars:
            continue
        long_tokens += 1
        if token_id < len(counts) and counts[token_id]:
            continue
        unseen += 1
        kind = shape(text)
        if kind is not None:
            found[kind].append(GlitchToken(token_id, data, text, kind))
    for tokens in found.values():
        tokens.sort(key=lambda token: (-len(token.text.strip()), -token.id))
    return GlitchScan(
        len(vocabulary), long_tokens, unseen, int(counts.sum()),
        {name: tuple(tokens[:per_shape]) for name, tokens in found.items()},
        {name: len(tokens) for name, tokens in found.items()},
    )
