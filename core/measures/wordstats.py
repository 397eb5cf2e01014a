"""Word statistics of a corpus: counts, Zipf's law, Heaps' law, and the out-of-vocabulary rate of a word vocabulary.

Why subword vocabularies exist, in numbers: a few words are very frequent and most are rare
(Zipf: the r-th most frequent word occurs about C / r^s times, s near 1); new words keep coming
however much text has been read (Heaps: after n words about K · n^β distinct ones, β below 1); so
a vocabulary of whole words, however large, misses some of the words of new text.

Fits are least squares on log-log axes. Zipf's fit has two methods (``ZIPF_METHODS``): through
every rank in the window, as the textbook chapter fits it (the default), or through **log-spaced**
ranks (``log_spaced``), so that each decade weighs the same: a fit over every rank is dominated by
the long tail, where the points crowd together on a log axis. Heaps' fit always uses log-spaced
positions (half of its positions lie in the last half of the text, one decade of many), from a start
that is a choice (``heaps_start``: 1,000 words in once the text has 10,000, as the chapter fits it).

What this module does not do: tokenize into subwords (``core.bpe``), draw (``ui``).

>>> stats = word_stats("the cat and the dog and the bird")
>>> (stats.tokens, stats.types, stats.hapax)
(8, 5, 3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import regex

from core.text.textio import without_surrogates


@dataclass(frozen=True)
class WordRule:
    """What counts as a word: a pattern, whether to lowercase first, and the rule in words for the page."""

    key: str
    label: str
    description: str
    pattern: str
    lowercase: bool


# Letters and combining marks (so Hindi's vowel signs stay inside a word), apostrophes inside a word
# kept (don't, l'eau, o’clock). Digits and punctuation are not words under this rule. As in
# core.measures.metrics, each Han, Hiragana or Katakana character is a word of its own: Chinese and Japanese
# do not separate words with spaces, and a run of them would be a whole sentence. VERSION1 for ``--``.
_NO_SPACE = r"\p{Han}\p{Hiragana}\p{Katakana}"
_LETTER = rf"[\p{{L}}\p{{M}}--[{_NO_SPACE}]]"
LETTERS = WordRule(
    "letters",
    "letters (lowercased)",
    "a word is a run of letters, lowercased, with apostrophes inside it kept (don't, l'eau); digits and "
    "punctuation are not words; each Chinese or Japanese character is a word of its own",
    rf"(?V1)[{_NO_SPACE}]|[\p{{L}}--[{_NO_SPACE}]]{_LETTER}*+(?:['’]{_LETTER}++)*+",
    True,
)
WHITESPACE = WordRule(
    "whitespace",
    "whitespace-separated",
    "a word is whatever lies between spaces and line breaks, as written: case and punctuation kept, "
    "so 'Hello,' and 'hello' are two different words",
    r"\S+",
    False,
)
# The textbook chapter's count: ASCII letters of the lowercased text, at most one inner apostrophe
# (don't, o'er; rock'n'roll is rock'n and roll), which gives the chapter's word counts.
TEXTBOOK = WordRule(
    "textbook",
    "English letters, as the textbook counts",
    "a word is a run of the letters a to z in the lowercased text, with at most one apostrophe inside it "
    "(don't, o'er): the rule that gives the textbook chapter's counts; accented letters, digits and "
    "punctuation are not part of words",
    r"[a-z]+(?:'[a-z]+)?",
    True,
)
WORD_RULES: dict[str, WordRule] = {rule.key: rule for rule in (LETTERS, WHITESPACE, TEXTBOOK)}


def words(text: str, rule: str = "letters") -> list[str]:
    """The words of ``text`` under the rule ``rule`` (a key of ``WORD_RULES``), in order.

    >>> words("Don't PANIC, don't!")
    ["don't", 'panic', "don't"]
    >>> words("Don't PANIC, don't!", "whitespace")
    ["Don't", 'PANIC,', "don't!"]
    >>> words("O'er the rock'n'roll café", "textbook")
    ["o'er", 'the', "rock'n", 'roll', 'caf']
    """
    if rule not in WORD_RULES:
        raise ValueError(f"word rule must be one of {', '.join(WORD_RULES)}, not {rule!r}")
    chosen = WORD_RULES[rule]
    text = without_surrogates(text)
    if chosen.lowercase:
        text = text.lower()
    return _compiled(chosen.pattern).findall(text)


_COMPILED: dict[str, regex.Pattern[str]] = {}


def _compiled(pattern: str) -> regex.Pattern[str]:
    if pattern not in _COMPILED:
        _COMPILED[pattern] = regex.compile(pattern)
    return _COMPILED[pattern]


@dataclass(frozen=True, eq=False)
class WordStats:
    """A text's words counted: totals, the frequency of each type by rank, and Heaps' curve.

    ``frequencies[r - 1]`` is the count of the r-th most frequent word (``by_rank[r - 1]``); ties are
    ranked by first appearance. ``distinct_after[n - 1]`` is the number of distinct words among the
    first ``n``. Hapax legomena are the words that occur exactly once.
    """

    rule: str
    tokens: int
    types: int
    hapax: int
    frequencies: np.ndarray
    by_rank: tuple[str, ...]
    distinct_after: np.ndarray

    @property
    def hapax_share_of_types(self) -> float:
        return self.hapax / self.types if self.types else 0.0

    @property
    def hapax_share_of_tokens(self) -> float:
        return self.hapax / self.tokens if self.tokens else 0.0


def word_stats(text: str, rule: str = "letters") -> WordStats:
    """Count the words of ``text`` under ``rule``: one pass, then numpy (2 MB of prose: about 0.2 s).

    Subtle: ids are given in order of first appearance, so the word at position i is new exactly when
    its id is larger than every id before it, and Heaps' curve is a running maximum.

    >>> word_stats("a b a c").distinct_after.tolist()
    [1, 2, 2, 3]
    """
    return stats_of_words(words(text, rule), rule)


def stats_of_words(found: Sequence[str], rule: str = "letters") -> WordStats:
    """``word_stats`` of words already found (``rule`` only names the rule they were found by)."""
    index: dict[str, int] = {}
    ids = np.fromiter((index.setdefault(w, len(index)) for w in found), dtype=np.int64, count=len(found))
    counts = np.bincount(ids, minlength=len(index)) if len(found) else np.zeros(0, dtype=np.int64)
    order = np.argsort(-counts, kind="stable")  # stable: equal counts keep first-appearance order
    names = list(index)
    distinct = np.maximum.accumulate(ids) + 1 if len(found) else np.zeros(0, dtype=np.int64)
    return WordStats(
        rule=rule,
        tokens=len(found),
        types=len(index),
        hapax=int(np.count_nonzero(counts == 1)),
        frequencies=counts[order],
        by_rank=tuple(names[i] for i in order),
        distinct_after=distinct,
    )


def log_spaced(lo: int, hi: int, points: int) -> np.ndarray:
    """About ``points`` integers from ``lo`` to ``hi`` (both included), evenly spaced on a log axis.

    Subtle: rounding makes neighbours equal at the low end, where they are dropped, so a short range
    gives every integer in it, and never more than ``points`` values.

    >>> log_spaced(1, 1000, 4).tolist()
    [1, 10, 100, 1000]
    >>> log_spaced(3, 6, 40).tolist()
    [3, 4, 5, 6]
    """
    if lo < 1 or hi < lo:
        raise ValueError(f"need 1 <= lo <= hi, not lo={lo}, hi={hi}")
    if points < 2 or lo == hi:
        return np.array([lo] if lo == hi or points < 2 else [lo, hi], dtype=np.int64)
    return np.unique(np.round(np.geomspace(lo, hi, points)).astype(np.int64))


@dataclass(frozen=True, eq=False)
class PowerFit:
    """``y ≈ constant · x ** exponent``, fitted by least squares on log10 x and log10 y.

    ``x`` and ``y`` are the points the fit used; ``r2`` is the share of the variance of log y it
    explains.

    >>> fit = fit_power_law([1, 10, 100], [5, 50, 500])
    >>> round(fit.exponent, 6), round(fit.constant, 6)
    (1.0, 5.0)
    """

    exponent: float
    constant: float
    r2: float
    x: np.ndarray
    y: np.ndarray

    def predict(self, x: Sequence[float] | np.ndarray) -> np.ndarray:
        return self.constant * np.asarray(x, dtype=float) ** self.exponent


def fit_power_law(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> PowerFit:
    """Least-squares line through ``(log10 x, log10 y)``; ``ValueError`` without two distinct positive x."""
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xs.shape != ys.shape:
        raise ValueError("x and y must have the same length")
    keep = (xs > 0) & (ys > 0)
    xs, ys = xs[keep], ys[keep]
    if len(np.unique(xs)) < 2:
        raise ValueError("a fit needs at least two points with different positive x")
    lx, ly = np.log10(xs), np.log10(ys)
    slope, intercept = np.polyfit(lx, ly, 1)
    residual = ly - (slope * lx + intercept)
    spread = float(np.sum((ly - ly.mean()) ** 2))
    r2 = 1.0 - float(np.sum(residual**2)) / spread if spread > 0 else 1.0
    return PowerFit(float(slope), float(10**intercept), r2, xs, ys)


ZIPF_POINTS = 60
HEAPS_POINTS = 40
# Zipf's fit methods: key -> (label, the method in one sentence)
ZIPF_METHODS: dict[str, tuple[str, str]] = {
    "every_rank": (
        "every rank in the window",
        "a least-squares line through the point of every rank in the window, as the textbook fits it: "
        "the many ranks of the tail weigh the most",
    ),
    "log_spaced": (
        "log-spaced ranks",
        f"a least-squares line through about {ZIPF_POINTS} ranks evenly spaced on the log axis, so each "
        "decade of ranks weighs the same",
    ),
}
TEXTBOOK_HEAPS_START = 1_000  # where the chapter starts Heaps' fit
TEXTBOOK_HEAPS_MIN_TOKENS = 10_000  # ... on texts at least this long


def zipf_fit(stats: WordStats, lo: int, hi: int, *, method: str = "every_rank", points: int = ZIPF_POINTS) -> PowerFit:
    """Zipf's law over the ranks ``lo``…``hi`` (clamped to the ranks there are): frequency ≈ C · rank^slope.

    The slope is negative (about −1 for prose); ``-slope`` is Zipf's exponent s. ``method`` is a key of
    ``ZIPF_METHODS``: every rank of the window, or ``log_spaced(lo, hi, points)`` ranks.

    >>> stats = stats_of_words("a a a a b b c d".split())
    >>> zipf_fit(stats, 1, 4).x.tolist(), len(zipf_fit(stats, 1, 4, method="log_spaced", points=3).x)
    ([1.0, 2.0, 3.0, 4.0], 3)
    """
    if method not in ZIPF_METHODS:
        raise ValueError(f"the Zipf fit method must be one of {', '.join(ZIPF_METHODS)}, not {method!r}")
    hi = min(hi, stats.types)
    if hi - lo < 1:
        raise ValueError(
            f"the rank window needs at least two ranks, and the text has {stats.types:,} distinct words"
        )
    ranks = np.arange(lo, hi + 1) if method == "every_rank" else log_spaced(lo, hi, points)
    return fit_power_law(ranks, stats.frequencies[ranks - 1])


def heaps_start(tokens: int) -> int:
    """Where Heaps' fit starts by default: 1,000 words in once the text has 10,000 (the textbook's
    start); in a shorter text 100 words in (the first sentences are all new words), less for tiny ones.

    >>> heaps_start(400_000), heaps_start(9_000), heaps_start(300)
    (1000, 100, 30)
    """
    if tokens >= TEXTBOOK_HEAPS_MIN_TOKENS:
        return TEXTBOOK_HEAPS_START
    return max(1, min(100, tokens // 10))


def heaps_fit(stats: WordStats, *, start: int | None = None, points: int = HEAPS_POINTS) -> PowerFit:
    """Heaps' law: distinct words after n words ≈ K · n^β, fitted on log-spaced n from ``start`` to the end.

    ``fit.exponent`` is β, ``fit.constant`` is K and ``fit.x`` the positions used; ``start=None`` is
    ``heaps_start``'s default.
    """
    if stats.tokens < 2:
        raise ValueError("Heaps' law needs a text of at least two words")
    start = heaps_start(stats.tokens) if start is None else start
    if not 1 <= start < stats.tokens:
        raise ValueError(
            f"Heaps' fit must start between word 1 and word {stats.tokens - 1:,} of this text, not at {start:,}"
        )
    positions = log_spaced(start, stats.tokens, points)
    return fit_power_law(positions, stats.distinct_after[positions - 1])


@dataclass(frozen=True, eq=False)
class OOVCurve:
    """The share of held-out words missing from a vocabulary of the ``V`` most frequent training words.

    ``rates[i]`` belongs to ``sizes[i]``. ``unseen`` is the share of held-out words that never occur
    in the training part: the floor no word vocabulary built from it can go below.
    """

    sizes: np.ndarray
    rates: np.ndarray
    heldout_tokens: int
    train_types: int
    unseen: float

    def rate_at(self, size: int) -> float:
        """The OOV rate for a vocabulary of ``size`` words (beyond the training types: ``unseen``)."""
        i = int(np.searchsorted(self.sizes, size, side="right")) - 1
        return float(self.rates[max(i, 0)]) if size >= 1 else 1.0


def oov_curve(
    train_words: Sequence[str], heldout_words: Sequence[str], *, points: int = 80
) -> OOVCurve:
    """The OOV rate of held-out words for word vocabularies of log-spaced sizes up to every training type.

    Subtle: each held-out word gets the rank of its word in training (by frequency, ties by first
    appearance); it is out of a top-V vocabulary exactly when its rank is V or more, so one sort
    answers every V at once.

    >>> curve = oov_curve(["a", "a", "b"], ["a", "b", "c", "a"])
    >>> curve.sizes.tolist(), curve.rates.tolist(), curve.unseen
    ([1, 2], [0.5, 0.25], 0.25)
    """
    if not heldout_words:
        raise ValueError("the held-out part has no words, so there is nothing to miss")
    rank = {word: r for r, (word, _) in enumerate(Counter(train_words).most_common())}
    never = len(rank)
    ranks = np.sort(np.fromiter((rank.get(w, never) for w in heldout_words), dtype=np.int64))
    sizes = log_spaced(1, max(never, 1), points)
    covered = np.searchsorted(ranks, sizes, side="left")  # held-out words of rank < V
    n = len(ranks)
    rates = 1.0 - covered / n
    unseen = float(np.count_nonzero(ranks == never)) / n
    return OOVCurve(sizes, rates, n, never, unseen)


def split_report(train: str, heldout: str, rule: str = "letters") -> tuple[WordStats, OOVCurve | None]:
    """Word statistics of the whole text ``train + heldout`` and the OOV curve of ``heldout`` against ``train``.

    One pass of the word pattern over the text: the whole text's words are the two parts' words
    joined, exactly, when the cut falls next to whitespace (``core.corpora.split_heldout`` cuts at a
    line start); otherwise a word may straddle the cut, and the whole text is counted again. The
    curve is ``None`` when the held-out part has no words.

    >>> stats, oov = split_report("a b a\\n", "b c\\n")
    >>> (stats.tokens, stats.types), oov.unseen
    ((5, 3), 0.5)
    """
    train_words, held_words = words(train, rule), words(heldout, rule)
    if train and heldout and not (train[-1].isspace() or heldout[0].isspace()):
        stats = word_stats(train + heldout, rule)
    else:
        stats = stats_of_words(train_words + held_words, rule)
    return stats, oov_curve(train_words, held_words) if held_words else None
