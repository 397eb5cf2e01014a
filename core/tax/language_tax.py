"""The language tax: what the same content costs in tokens in each language, under each tokenizer.

``language_tax(corpus, tokenizers, base=...)`` returns one table, a row per language and tokenizer.
Definitions (stated once, here):

- Every segment (sentence, article) is tokenized on its own and the counts are summed.
- **tokens**: the tokens that stand for the text, without those the tokenizer adds on its own
  (BOS, ``[CLS]``, ``</s>``), as ``core.measures.metrics`` counts them.
- **premium**: tokens of a language over tokens of the base language, both summed over the
  segments *these two* languages share. Subtle: the comparison is pairwise, so a UDHR translation
  without Articles 5-11 is compared on the other 23, and adding it to the selection never shrinks
  the comparison of any other language.
- **bytes_ratio**, **chars_ratio**: the same ratio in UTF-8 bytes and in code points. A premium near
  the bytes ratio is the script's density (Devanagari takes three bytes a letter); a premium far
  above it (``premium_beyond_bytes`` > 1) is the tokenizer's vocabulary giving the language fewer,
  shorter tokens.
- **median**, **q1**, **q3**, **share_above_2x**: the spread of the *per-segment* premium (a
  segment's tokens over the base's tokens for that segment, on the segments shared with the base
  where the base has a token): its median, first and third quartiles (linear interpolation, as
  ``numpy.percentile``) and the share of segments above 2x. NaN when no segment qualifies.
- **unknown_share**: unknown tokens over tokens. A tokenizer that turns a script into ``[UNK]``
  looks like a great compressor of it while it has lost the text; this column says so.

Pure: no I/O, no caching of its own. ``memo`` (any mutable mapping) keeps the per-segment counts
so a second call (another base language, another selection) counts nothing twice; the UI passes a
cached one. Counting uses each tokenizer's ids-only path where it has one (no ``Token`` objects).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from core.measures.metrics import count_words
from core.tax.parallel_corpus import ParallelCorpus
from core.types import ADDED, UNKNOWN

Progress = Callable[[float, str], None]
ABOVE = 2.0  # the share of segments whose premium exceeds this is reported
Counter = Callable[[str], tuple[int, int]]

# Generations of one vendor's tokenizers, oldest first (registry keys), for the slope chart.
GENERATIONS: Mapping[str, tuple[str, ...]] = {
    "OpenAI": ("gpt2", "cl100k_base", "o200k_base"),
    "Meta Llama": ("llama2", "llama3"),
}
COLUMNS = (
    "language", "name", "bcp47", "script", "script_name", "direction", "is_base", "tokenizer", "tokenizer_name",
    "segments", "tokens", "base_tokens", "premium", "median", "q1", "q3", "share_above_2x", "unknown", "unknown_share", "chars", "base_chars",
    "chars_ratio", "bytes", "base_bytes", "bytes_ratio", "premium_beyond_bytes", "words", "base_words", "lossless",
)


def token_counter(tokenizer: Any) -> Counter:
    """``text -> (tokens, unknown tokens)`` by the cheapest route ``tokenizer`` offers.

    In order: ``text_ids`` with ``unknown_ids`` (the library's ids, nothing else built); ``count``
    for a tokenizer that is ``lossless`` (it has no unknown token); else ``encode``, reading each
    token's kind. All three agree (``tests/core/tax/test_language_tax.py`` checks it).
    """
    text_ids = getattr(tokenizer, "text_ids", None)
    unknown_ids = getattr(tokenizer, "unknown_ids", None)
    if callable(text_ids) and unknown_ids is not None:
        if not unknown_ids:
            return lambda text: (len(text_ids(text)), 0)
        contains = frozenset(unknown_ids).__contains__
        return lambda text: _ids_and_unknown(text_ids(text), contains)
    count = getattr(tokenizer, "count", None)
    if callable(count) and getattr(tokenizer, "lossless", False):
        return lambda text: (count(text), 0)
    return lambda text: _encoded_counts(tokenizer.encode(text))


def _ids_and_unknown(ids: Sequence[int], contains: Callable[[int], bool]) -> tuple[int, int]:
    return len(ids), sum(map(contains, ids))


def _encoded_counts(tokens: Sequence[Any]) -> tuple[int, int]:
    kinds = [token.kind for token in tokens]
    return len(kinds) - kinds.count(ADDED), kinds.count(UNKNOWN)


def segment_stats(corpus: ParallelCorpus, code: str) -> np.ndarray:
    """Per segment of ``corpus.segment_ids``: present (0/1), characters, UTF-8 bytes, words; shape (4, n)."""
    texts = corpus.segments[corpus.language(code).code]
    out = np.zeros((4, len(corpus.segment_ids)), dtype=np.int64)
    for k, segment in enumerate(corpus.segment_ids):
        text = texts.get(segment)
        if text is not None:
            out[:, k] = (1, len(text), len(text.encode("utf-8", "surrogatepass")), count_words(text))
    return out


def segment_tokens(corpus: ParallelCorpus, code: str, counter: Counter) -> np.ndarray:
    """Per segment of ``corpus.segment_ids``: tokens and unknown tokens (0 where absent); shape (2, n)."""
    texts = corpus.segments[corpus.language(code).code]
    out = np.zeros((2, len(corpus.segment_ids)), dtype=np.int64)
    for k, segment in enumerate(corpus.segment_ids):
        text = texts.get(segment)
        if text is not None:
            out[:, k] = counter(text)
    return out


class CountsMemo(MutableMapping):
    """A ``language_tax`` memo holding at most ``max_bytes`` of counts, for a server's many sessions.

    Counts are kept per corpus (the first two parts of a key: corpus key and fingerprint); when the
    total goes over the budget, the counts of the corpus used least recently go first, never those of
    the corpus being written. A reader that finds its counts gone calls ``language_tax`` again, which
    counts them anew. Thread-safe (Streamlit runs sessions in threads).

    >>> memo = CountsMemo(max_bytes=100)
    >>> memo[("a", "1", "en", "t")] = np.zeros(10, dtype=np.int64)  # 80 bytes
    >>> memo[("b", "2", "en", "t")] = np.zeros(5, dtype=np.int64)  # 40 more: corpus "a" goes
    >>> sorted(k[0] for k in memo)
    ['b']
    """

    def __init__(self, *, max_bytes: int) -> None:
        self._max = max_bytes
        self._data: dict[tuple[str, ...], np.ndarray] = {}
        self._corpora: OrderedDict[tuple[str, ...], int] = OrderedDict()  # corpus -> bytes, oldest first
        self._lock = threading.Lock()

    def __getitem__(self, key: tuple[str, ...]) -> np.ndarray:
        with self._lock:
            value = self._data[key]
            self._corpora.move_to_end(tuple(key[:2]))
            return value

    def __setitem__(self, key: tuple[str, ...], value: np.ndarray) -> None:
        corpus = tuple(key[:2])
        with self._lock:
            old = self._data.get(key)
            self._data[key] = value
            size = self._corpora.pop(corpus, 0) + value.nbytes - (old.nbytes if old is not None else 0)
            self._corpora[corpus] = size
            while len(self._corpora) > 1 and sum(self._corpora.values()) > self._max:
                gone, _ = self._corpora.popitem(last=False)
                for k in [k for k in self._data if tuple(k[:2]) == gone]:
                    del self._data[k]

    def __delitem__(self, key: tuple[str, ...]) -> None:
        with self._lock:
            value = self._data.pop(key)
            self._corpora[tuple(key[:2])] -= value.nbytes

    def __iter__(self):
        with self._lock:
            return iter(list(self._data))

    def __len__(self) -> int:
        return len(self._data)

    def nbytes(self) -> int:
        """The bytes of counts held."""
        with self._lock:
            return sum(self._corpora.values())


def language_tax(
    corpus: ParallelCorpus,
    tokenizers: Mapping[str, Any],
    *,
    base: str,
    languages: Sequence[str] | None = None,
    progress: Progress | None = None,
    memo: MutableMapping[tuple[str, ...], np.ndarray] | None = None,
) -> pd.DataFrame:
    """One row per language (``base`` first, then ``languages`` in order) and tokenizer; see the module doc.

    ``tokenizers`` maps a key (a registry key, or any unique name for a trained or uploaded one) to a
    tokenizer; ``memo`` is keyed by (corpus key, corpus fingerprint, language, tokenizer key), and by
    the same with an empty tokenizer key for the texts' own counts (characters, bytes, words).
    ``progress(fraction, message)`` is called after each language under each tokenizer.

    >>> from core.tax.parallel_corpus import parallel_from_texts
    >>> class Chars:  # one token per character
    ...     name, lossless = "chars", True
    ...     def count(self, text): return len(text)
    >>> table = language_tax(parallel_from_texts({"en": "ab", "xx": "abcd"}), {"c": Chars()}, base="en")
    >>> table.set_index("language")["premium"].to_dict()
    {'en': 1.0, 'xx': 2.0}
    """
    if not tokenizers:
        raise ValueError("pick at least one tokenizer to measure")
    if "" in tokenizers:
        raise ValueError("a tokenizer key cannot be empty")
    chosen = [base, *(code for code in (languages if languages is not None else corpus.codes()) if code != base)]
    chosen = list(dict.fromkeys(chosen))
    for code in chosen:
        corpus.language(code)  # an unknown code fails here, before any counting
    memo = {} if memo is None else memo
    stats = {}
    for code in chosen:
        # subtle: "" is never a tokenizer key here, so the text's own counts share the memo safely
        stats_key = (corpus.key, corpus.fingerprint, code, "")
        if stats_key not in memo:
            memo[stats_key] = segment_stats(corpus, code)
        stats[code] = memo[stats_key]
    total, done = len(chosen) * len(tokenizers), 0
    text_stats = np.stack([stats[code] for code in chosen])  # (languages, 4, segments)
    shared = (text_stats[:, 0] > 0) & (text_stats[chosen.index(base), 0] > 0)  # (languages, segments)
    mine = np.einsum("lks,ls->lk", text_stats, shared)  # each language's counts on what it shares with base
    theirs = np.einsum("ks,ls->lk", text_stats[chosen.index(base)], shared)  # the base's, on the same
    frames = []
    for key, tokenizer in tokenizers.items():
        counter = None
        counted = []
        for code in chosen:
            memo_key = (corpus.key, corpus.fingerprint, code, key)
            if memo_key not in memo:
                counter = counter or token_counter(tokenizer)
                memo[memo_key] = segment_tokens(corpus, code, counter)
            counted.append(memo[memo_key])
            done += 1
            if progress is not None:
                progress(done / total, f"{getattr(tokenizer, 'name', key)}: {corpus.language(code).name}")
        counts = np.stack(counted)  # (languages, 2, segments)
        frames.append(_frame(corpus, chosen, base, key, tokenizer, shared, mine, theirs, counts))
    return pd.concat(frames, ignore_index=True)[list(COLUMNS)]


def _frame(
    corpus: ParallelCorpus, chosen: Sequence[str], base: str, key: str, tokenizer: Any,
    shared: np.ndarray, mine: np.ndarray, theirs: np.ndarray, counts: np.ndarray,
) -> pd.DataFrame:
    """The rows of one tokenizer: sums over each language's segments shared with the base."""
    tokens = np.einsum("lks,ls->lk", counts, shared)
    base_tokens = np.einsum("ks,ls->l", counts[chosen.index(base), :1], shared)
    languages = [corpus.language(code) for code in chosen]
    premium = _ratio(tokens[:, 0], base_tokens)
    median, q1, q3, above = premium_spread(counts[:, 0], counts[chosen.index(base), 0], shared)
    bytes_ratio = _ratio(mine[:, 2], theirs[:, 2])
    return pd.DataFrame({
        "language": list(chosen), "name": [lang.name for lang in languages],
        "bcp47": [lang.bcp47 for lang in languages], "script": [lang.script for lang in languages],
        "script_name": [lang.script_name for lang in languages],
        "direction": [lang.direction for lang in languages], "is_base": [code == base for code in chosen],
        "tokenizer": key, "tokenizer_name": getattr(tokenizer, "name", key), "segments": shared.sum(axis=1),
        "tokens": tokens[:, 0], "base_tokens": base_tokens, "premium": premium, "median": median, "q1": q1, "q3": q3, "share_above_2x": above,
        "unknown": tokens[:, 1],
        "unknown_share": _ratio(tokens[:, 1], tokens[:, 0]), "chars": mine[:, 1], "base_chars": theirs[:, 1],
        "chars_ratio": _ratio(mine[:, 1], theirs[:, 1]), "bytes": mine[:, 2], "base_bytes": theirs[:, 2],
        "bytes_ratio": bytes_ratio, "premium_beyond_bytes": _ratio(premium, bytes_ratio), "words": mine[:, 3],
        "base_words": theirs[:, 3], "lossless": bool(getattr(tokenizer, "lossless", False)),
    })


def premium_spread(
    tokens: np.ndarray, base_tokens: np.ndarray, shared: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per language: median, Q1, Q3 of the per-segment premium and the share of segments above 2x.

    ``tokens`` (languages, segments), ``base_tokens`` (segments), ``shared`` (languages, segments)
    booleans; a segment counts where it is shared and the base has a token (as
    ``core.tax.tax_stats.segment_premiums``, which the distribution plot draws).

    >>> spread = premium_spread(np.array([[1, 2, 3, 4]]), np.array([1, 1, 1, 1]), np.array([[True] * 4]))
    >>> [float(v[0]) for v in spread]
    [2.5, 1.75, 3.25, 0.5]
    """
    used = shared & (base_tokens > 0)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        premiums = np.where(used, tokens / np.where(base_tokens > 0, base_tokens, 1)[None, :], np.nan)
    n = used.sum(axis=1)
    # subtle: numpy's nanpercentile loops over the rows in Python (it was two thirds of a warm
    # leaderboard); sorting puts each row's NaNs last, so its first n values are its segments and
    # the quantile is the same linear interpolation between the two nearest ranks
    ordered, rows = np.sort(premiums, axis=1), np.flatnonzero(n > 0)
    quartiles = np.full((3, len(tokens)), np.nan)
    for k, q in enumerate((0.5, 0.25, 0.75)):
        place = q * (n[rows] - 1)
        low = np.floor(place).astype(np.int64)
        high = np.minimum(low + 1, n[rows] - 1)
        a, b = ordered[rows, low], ordered[rows, high]
        quartiles[k, rows] = a + (b - a) * (place - low)
    above = np.where(n > 0, (premiums > ABOVE).sum(axis=1) / np.maximum(n, 1), np.nan)
    return quartiles[0], quartiles[1], quartiles[2], above


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a / b`` as floats, NaN where ``b`` is 0 or either is NaN."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1.0), np.nan)


def context_fit(table: pd.DataFrame, *, context_tokens: int, price_per_million: float) -> pd.DataFrame:
    """Practical units for each row of a ``language_tax`` table.

    - ``segments_per_context``: segments (sentences, articles) of the language that fit in
      ``context_tokens``;
    - ``base_words_per_context``: the same content measured in words of the base language (a fair
      unit: Thai or Chinese words are not space-separated, a translation of N base words is);
    - ``cost_per_million_words``: what the translation of a million base-language words costs at
      ``price_per_million`` per million tokens.

    >>> row = pd.DataFrame({"segments": [2], "tokens": [40], "base_words": [20]})
    >>> context_fit(row, context_tokens=100, price_per_million=3.0).iloc[0].tolist()
    [5.0, 50.0, 6.0]
    """
    if context_tokens <= 0:
        raise ValueError("the context must hold at least one token")
    if price_per_million < 0:
        raise ValueError("a price cannot be negative")
    tokens = table["tokens"].astype(float).where(table["tokens"] > 0)
    return pd.DataFrame(
        {
            "segments_per_context": context_tokens * table["segments"] / tokens,
            "base_words_per_context": context_tokens * table["base_words"] / tokens,
            "cost_per_million_words": tokens / table["base_words"].astype(float).where(table["base_words"] > 0)
            * price_per_million,
        },
        index=table.index,
    )
