"""Pair scores for WordPiece training, kept up to date incrementally: the hot part of training.

A pair's score is ``count(ab) / (count(a) * count(b))``, with counts taken in the current
segmentation of the training words (weighted by how often each word occurs). ``core.wordpiece.training``
drives this module: ``board(k)`` names the best pairs, ``merge(...)`` applies the winner. The corpus is
counted once; a merge rewrites only the words that hold its pair.

Subtle: unlike BPE's counts, a score can go *up*. Merging ``a + b`` lowers ``count(a)`` and
``count(b)``, which raises the score of every other pair holding ``a`` or ``b``, words away from the
merge. A merge rescores the pairs whose count changed, and the pool's pairs holding one of its symbols;
the race is run on that *pool*: the pairs whose float is at least a threshold, chosen (by a
partition of every pair's float, computed afresh) so that about ``POOL`` pairs pass it, and chosen
again when fewer than ``k`` of them are surely ahead of every pair outside, or when too many pass
it. Each rescore adds to the pool the pairs it lifts over the threshold (a scan of every pair,
tens of thousands, cost more than the rest of a late merge), and moves or lets go the pool's pairs
it touches: the pool is kept ranked, as a sorted list of ``(-float, slot)`` (a merge moves a
handful of them, each by bisection; sorting the pool again at every board cost more than the
rescore itself).

The other pairs of a merged symbol are rescored late: only once the symbol's count has fallen
below ``1/SLACK`` of its count when they last were (or has risen: a merge can make a piece that
exists). A frequent symbol such as ``##e`` is in hundreds of pairs and loses a little at many
merges; rescoring them all at each (a hundred pairs a merge) was a fifth of training. Until then a
pair's float may be below its score, by at most ``SLACK`` for each of its symbols: so a pair
outside the pool scores below ``threshold * SLACK**2``, and only the pool's pairs above that are
surely ahead of it (``sure``).
A merge rescores a median of a dozen pairs: at most ``FEW`` of them (none of a symbol with an
array of pairs, see ``_SymbolPairs``) are rescored in Python, the rest in a few array operations.

Scores are compared exactly: a pair's key is ``count(ab) * 2**128 // (count(a) * count(b))``, an
integer whose order is the order of the fractions and which is equal only for equal fractions (two
different fractions with denominators below 2**64 differ by more than 2**-128). Floats would let two
different fractions round to the same value and the tie rule decide what the scores should have.
The floats only sort the pool: a float is within 2**-51 of its fraction (counts below 2**53 are
exact as floats; the product of the two symbols' counts and the division round once each), so two
floats further apart than ``_NEAR`` are in the order of their fractions, and the pairs whose floats
are nearer than that to the ``k``-th (the only ones that can be out of order) are put in exact order
by their keys.

Most boards need no key: where the ``k``-th float is ``_EXACT`` (2**-17) or more, floats are in the
exact order of their fractions, ties included. A count is at most each of its symbols' counts, so a
pair scoring ``s`` has ``count <= 1/s`` and ``count(a) * count(b) <= 1/s**2``; two different fractions
``c/d < c'/d'`` then differ by at least ``1/(d * d')``, relatively ``1/(c' * d) >= 2**-51`` when both
score above 2**-17, more than two roundings (each 2**-53) can undo; and ``d`` below 2**53 makes the
float the correctly rounded fraction, so equal fractions have equal floats. Every board of Tiny
Shakespeare to 8,000 pieces is such a board; the keys stay for the rest (counts in the millions).

>>> scores = PairScores(["abc", "ab"], [1, 2])  # one character per symbol; a tie: "ab" was seen first
>>> [(pair, score) for pair, score, *_ in scores.leaders(3)]
[('ab', 0.3333333333333333), ('bc', 0.3333333333333333)]
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import defaultdict
from itertools import repeat
from math import inf
from operator import add, ge, mul, neg
from typing import NamedTuple

import numpy as np

_BITS = 128  # key = count << _BITS // (left count * right count): exact, see the module's docstring
POOL = 32  # about this many pairs pass the threshold when it is chosen (see the module's docstring)
GROUP_AT = 32  # a symbol in this many pairs keeps their slots as a numpy array (see ``_SymbolPairs``)
FEW = 32  # a merge that rescores at most this many pairs, none of a grouped symbol, does it in Python
# A symbol's pairs are rescored once its count has fallen below 1/SLACK of what it was when they last
# were (the module's docstring says why that is enough); a power of two plus one, so that SLACK * count
# and SLACK**2 are exact floats.
SLACK = 1 + 2.0**-7
# Floats further apart than _NEAR (relative) are in the order of their fractions (see the module's
# docstring); the threshold sits _MARGIN below the pool's last pair, so that the pairs near it, which
# move a little at most merges, stay in the pool instead of making it be chosen again.
_NEAR = 2.0**-44
_BELOW = 1 - _NEAR  # a float at least this times another is near it (or above it)
_MARGIN = 2.0**-30
_EXACT = 2.0**-17  # floats at least this are in the order of their fractions, ties included (module docstring)
_ALL = 5e-324  # the least positive float: a threshold every pair in the race passes
_new = tuple.__new__  # makes a named tuple without its Python-level ``__new__``: thousands per training


class Candidate(NamedTuple):
    """A pair in the race for one merge: its ids, its score and the three counts behind it.

    ``score == count / (left_count * right_count)``, counts in the training corpus as cut just
    before the merge.
    """

    left: int
    right: int
    score: float
    count: int
    left_count: int
    right_count: int


class _SymbolPairs:
    """For each symbol, the slots of the pairs holding it, to rescore them when its count changes.

    Entries are only added (when a pair appears, or comes back), never removed: a slot whose pair
    is gone rescores to 0, harmlessly. A symbol in fewer than ``GROUP_AT`` pairs keeps a Python
    list, cheap to extend; one in more keeps a numpy array (its *group*) plus the slots added since
    it was built, so that rescoring ``##e``'s hundreds of pairs does not convert hundreds of ints.
    """

    __slots__ = ("lists", "arrays", "sizes", "group_at")

    def __init__(self, group_at: int) -> None:
        self.lists: defaultdict[str, list[int]] = defaultdict(list)  # the slots, or those added since the array
        self.arrays: dict[str, np.ndarray] = {}
        self.sizes: dict[str, int] = {}  # an array's length when it was last rid of gone pairs
        self.group_at = group_at

    def add(self, pair: str, slot: int) -> None:
        """List ``slot`` under both symbols of ``pair`` (once if they are the same)."""
        self.lists[pair[0]].append(slot)
        if pair[1] != pair[0]:
            self.lists[pair[1]].append(slot)

    def listed(self, chars: list[str], extra: list[int], most: int) -> list[int] | None:
        """``extra`` (extended in place) and the slots of every pair holding one of ``chars``, as a
        list; None, and ``extra`` as it was, when one of them keeps an array or there are more than
        ``most``."""
        lists = self.lists
        if chars:
            if any(ch in self.arrays for ch in chars):
                return None
            if len(extra) + sum(len(lists.get(ch, ())) for ch in chars) > most:
                return None
            for ch in chars:
                extra += lists.get(ch, ())
        return extra if len(extra) <= most else None

    def gather(self, chars: list[str], extra: list[int], counts_at: np.ndarray) -> np.ndarray:
        """The slots of every pair holding one of ``chars``, then ``extra`` (extended in place); a slot
        may come twice."""
        small, parts, lists, arrays = extra, [], self.lists, self.arrays
        for ch in chars:
            pending, array = lists.get(ch), arrays.get(ch)
            if array is None:
                if pending is None or len(pending) < self.group_at:
                    small += pending or ()
                    continue
                array = np.array(pending, np.intp)
            elif pending:
                array = np.concatenate([array, pending])
            else:
                parts.append(array)
                continue
            pending.clear()
            if len(array) >= 2 * self.sizes.get(ch, 0):  # at most half of it gone pairs, in the long run
                array = np.unique(array[counts_at[array] > 0])
                self.sizes[ch] = len(array)
            self.arrays[ch] = array
            parts.append(array)
        small = np.fromiter(small, np.intp, len(small))
        return np.concatenate([*parts, small]) if parts else small


class PairScores:
    """Words with counts, and the count and score of every adjacent pair, kept up to date incrementally.

    A word is a ``str`` with one character per symbol id (``chr(id)``) and a pair is the
    two-character ``str`` of its ids, so finding and rewriting pairs are ``str`` methods, done in C.
    ``where`` may list words that lost a pair since (entries are only checked, never removed).
    Ties on the score go to the pair seen first: pairs of the starting corpus are numbered by first
    occurrence, pairs a merge creates after every pair seen before, in corpus order. Only pairs that
    occur ``min_count`` times or more take part in the race.

    Each pair seen has a *slot*, its number in first-seen order (a pair gone and back keeps its
    slot), indexing ``names`` (the pair), ``parts`` (its two symbols) and the arrays ``counts_at``
    (its count, as a float), ``lefts`` and ``rights`` (its symbols' ids). A pair's float is its
    score (0 out of the race) when it was last rescored. The pool is the slots whose float is at
    least ``threshold``, with their floats (``pool``, exact) and ranked (``ranked``); each pair
    outside it is behind every pair whose float is ``sure`` or more (``sure`` 0: the pool holds
    every pair in the race).
    """

    def __init__(self, words: list[str], freqs: list[int], *, min_count: int = 1) -> None:
        """``words`` spelled one character per symbol id; ``freqs[i]`` is how often ``words[i]`` occurs."""
        self.words, self.freqs, self.min_count = words, freqs, min_count
        counts, where, self.symbols = _count(words, freqs)
        self.where = defaultdict(set, where)
        self.counts = counts
        self.initial_tokens = self.tokens = sum(self.symbols.values())
        self.seen = {pair: slot for slot, pair in enumerate(counts)}  # dicts keep first-seen order
        self.names = list(counts)  # slot -> pair
        self.parts = [(pair[0], pair[1]) for pair in counts]  # slot -> its two symbols (made once, hashed once)
        size = max(64, 2 * len(counts))
        # counts as floats (exact: below 2**53, see the module's docstring): scoring divides without casting
        self.counts_at = np.zeros(size, np.float64)
        self.counts_at[: len(counts)] = list(counts.values())
        self.lefts, self.rights = np.zeros(size, np.intp), np.zeros(size, np.intp)
        self.lefts[: len(counts)] = [ord(pair[0]) for pair in counts]
        self.rights[: len(counts)] = [ord(pair[1]) for pair in counts]
        # subtle: a symbol's count in this array is at least 1, so that the pairs of a symbol gone
        # (all of count 0, out of the race) divide 0 by something; the dict ``symbols`` has the truth
        self.symbol_counts = np.ones(max(map(ord, self.symbols)) + 1, np.float64)
        self.symbol_counts[[ord(ch) for ch in self.symbols]] = list(self.symbols.values())
        self.pairs_of = _SymbolPairs(GROUP_AT)
        for slot, pair in enumerate(counts):
            self.pairs_of.add(pair, slot)
        self.threshold, self.sure, self.chosen = _ALL, 0.0, 0
        self.pool: dict[int, float] = {}  # slot -> float, for every slot whose float passes the threshold,
        self.ranked: list[tuple[float, int]] = []  # and the same as (-float, slot), best first
        # the float a rescored slot must reach to be looked at by ``_update_pool``: the threshold, or
        # -1 for the pool's own slots (whose floats are kept up to date, or which leave it)
        self.bars = np.full(size, self.threshold)
        self.pool_of: defaultdict[str, set[int]] = defaultdict(set)  # symbol -> its pairs in the pool
        self.made: dict[int, Candidate] = {}  # the last board's candidates, by slot
        self.refs: dict[str, int] = {}  # symbol -> its count when its pairs were last all rescored
        floats = self._score_all()
        self._set_pool(np.flatnonzero(floats >= self.threshold), floats)
        self.leader: str | None = None  # the best pair at the last ``board``, and how many tie with it
        self.tied = 0

    # -- the race ---------------------------------------------------------------------------------

    def board(self, k: int) -> tuple[Candidate, ...]:
        """The best ``k`` pairs in the race, best first, as candidates; sets ``leader`` and ``tied``.

        Subtle: the pool is ranked by float, equal floats by slot; the pairs that come after the
        ``k``-th and not near it are behind the first ``k`` for sure. When the ``k``-th float is
        ``_EXACT`` or more, that order is the exact one (see the module's docstring); else each run of
        floats near one another (those can be out of order, or tied) is put in exact order by the
        pairs' keys, ties by slot. A candidate of the last board whose counts have not changed since
        is given again (training keeps thousands of boards, most of their candidates the same): a
        change of counts rescores its slot, which ``_update_pool`` takes out of ``made``.
        """
        ranked = self._ranked_pool(k)
        end = min(k, len(ranked))
        if end and -ranked[end - 1][0] >= _EXACT:
            slots = [slot for _, slot in ranked[:k]]
            out = self._candidates(slots)
            self.tied = bisect_left(ranked, (ranked[0][0], inf))  # equal floats are equal scores here
        else:
            out, slots = self._near_runs_in_order(k, ranked)
        self.made = dict(zip(slots, out, strict=True))
        self.leader = chr(out[0][0]) + chr(out[0][1]) if out else None
        return tuple(out)

    def leaders(self, k: int) -> list[tuple[str, float, int, int, int]]:
        """``board`` as ``(pair, score, count, left count, right count)``, best first."""
        return [(chr(c.left) + chr(c.right), c.score, c.count, c.left_count, c.right_count) for c in self.board(k)]

    def _candidates(self, slots: list[int]) -> list[Candidate]:
        """A candidate for each of ``slots``: the last board's where its counts have not changed
        (its slot not rescored since)."""
        names, counts, symbols, made = self.names, self.counts, self.symbols, self.made
        out = []
        for slot in slots:
            found = made.get(slot)
            if found is None:
                pair = names[slot]
                count, left, right = counts[pair], symbols[pair[0]], symbols[pair[1]]
                found = _new(Candidate, (ord(pair[0]), ord(pair[1]), count / (left * right), count, left, right))
            out.append(found)
        return out

    def _near_runs_in_order(self, k: int, ranked: list[tuple[float, int]]) -> tuple[list[Candidate], list[int]]:
        """The first ``k`` candidates and their slots, in exact order, when floats may mislead."""
        end = min(k, len(ranked))
        if end:
            bound = ranked[end - 1][0] * _BELOW  # negated floats: -f >= -g * _BELOW is f <= g * _BELOW
            while end < len(ranked) and ranked[end][0] <= bound:
                end += 1
        found = [-value for value, _ in ranked[:end]]
        slots = [slot for _, slot in ranked[:end]]
        out = self._candidates(slots)
        self.tied = 1
        if any(map(ge, found[1:end], map(mul, found[: end - 1], repeat(_BELOW)))):  # a run of near floats
            out, slots = self._exact_order(out, slots, found[:end])
        return out[:k], slots[:k]

    def _exact_order(
        self, out: list[Candidate], slots: list[int], found: list[float]
    ) -> tuple[list[Candidate], list[int]]:
        """``out`` and ``slots`` (in float order) with each run of near floats sorted by exact key, ties
        by slot; the ties with the best pair counted in ``tied``."""
        ordered: list[tuple[int, int, Candidate]] = []
        start = 0
        while start < len(found):
            stop = start + 1
            while stop < len(found) and found[stop] >= found[stop - 1] * _BELOW:
                stop += 1
            keys = [-((c.count << _BITS) // (c.left_count * c.right_count)) for c in out[start:stop]]
            ranked = sorted(zip(keys, slots[start:stop], out[start:stop], strict=True))  # slots differ: never
            ordered += ranked  # compares candidates
            if not start:
                self.tied = keys.count(ranked[0][0])
            start = stop
        return [c for _, _, c in ordered], [slot for _, slot, _ in ordered]

    def n_tied(self, pair: str) -> int:
        """How many pairs in the race have exactly the score of ``pair`` (itself included)."""
        count, symbols = self.counts.get(pair, 0), self.symbols
        if count < self.min_count:
            return 0
        if pair == self.leader:  # its ties are all near it, counted by ``board``
            return self.tied
        key = (count << _BITS) // (symbols[pair[0]] * symbols[pair[1]])
        return sum(
            (c << _BITS) // (symbols[p[0]] * symbols[p[1]]) == key for p, c in self.counts.items() if c >= self.min_count
        )

    def _ranked_pool(self, k: int) -> list[tuple[float, int]]:
        """The pool as ``(-float, slot)``, best first, equal floats by slot; the threshold is chosen
        again first when too many pairs pass it to rank every step, or too few are surely ahead of
        every pair outside."""
        for _ in range(2):
            ranked = self.ranked
            crowded = len(ranked) > max(4 * POOL, 2 * self.chosen)
            if not crowded and (not self.sure or (len(ranked) >= k and -ranked[k - 1][0] >= self.sure)):
                break
            self._choose(k)
        return self.ranked

    def _choose(self, k: int) -> None:
        """Set the threshold so that about ``POOL`` pairs, and at least ``k``, pass it; pool them."""
        wanted = max(POOL, k)
        floats = self._score_all()
        if np.count_nonzero(floats) <= wanted:
            self.threshold, self.sure = _ALL, 0.0
        else:
            cut = float(np.partition(floats, len(floats) - wanted)[len(floats) - wanted])
            # subtle: a float outside the pool may be up to SLACK**2 below its pair's score (see the
            # module's docstring); the pairs passing ``cut`` must still be surely ahead of it
            self.threshold = cut * (1 - _MARGIN) / (SLACK * SLACK)
            self.sure = self.threshold * (SLACK * SLACK) * (1 + _NEAR)
        self._set_pool(np.flatnonzero(floats >= self.threshold), floats)
        self.chosen = len(self.pool)

    def _set_pool(self, slots: np.ndarray, floats: np.ndarray) -> None:
        """Make ``slots`` the pool (their ``floats`` pass the threshold)."""
        found = floats[slots].tolist()
        slots = slots.tolist()
        self.pool = dict(zip(slots, found, strict=True))
        self.ranked = sorted(zip(map(neg, found), slots, strict=True))
        self.bars[:] = self.threshold
        self.bars[slots] = -1.0
        self.pool_of.clear()
        parts, pool_of = self.parts, self.pool_of
        for slot in slots:
            left, right = parts[slot]
            pool_of[left].add(slot)
            pool_of[right].add(slot)

    def _score_all(self) -> np.ndarray:
        """Every pair's float, exact (every symbol's pairs up to date from now on)."""
        self.refs = dict(self.symbols)
        return self._score(np.arange(len(self.names)))

    def _score(self, slots: np.ndarray) -> np.ndarray:
        """The floats of ``slots``, from the arrays of counts (0 for a pair out of the race).

        Subtle: one division by the product of the two counts, so that a float is the correctly
        rounded fraction while that product is below 2**53: equal fractions, equal floats.
        """
        counts, symbol_counts = self.counts_at[slots], self.symbol_counts
        found = counts / (symbol_counts[self.lefts[slots]] * symbol_counts[self.rights[slots]])
        if self.min_count > 1:
            found[counts < self.min_count] = 0.0
        return found

    def _rescore(self, slots: np.ndarray) -> None:
        """Score ``slots`` again; update the pool with those of them that are in it or now pass the
        threshold (a slot may come twice in ``slots``)."""
        found = self._score(slots)
        looked = found >= self.bars[slots]
        self._update_pool(slots[looked].tolist(), found[looked].tolist())

    def _rescore_few(self, slots: list[int]) -> None:
        """``_rescore`` in Python, for a handful of slots: the same floats, without numpy's cost per call.

        Subtle: the same float operations as ``_score`` (the product of the two counts as floats,
        then one division), so that a pair gets the same float whichever way it is rescored.
        """
        names, parts, counts, symbols, pool = self.names, self.parts, self.counts, self.symbols, self.pool
        threshold, min_count = self.threshold, self.min_count
        looked, found = [], []
        for slot in slots:
            count = counts.get(names[slot], 0)
            if count >= min_count:
                left, right = parts[slot]
                value = count / (float(symbols[left]) * symbols[right])
            else:
                value = 0.0
            if value >= threshold or slot in pool:
                looked.append(slot)
                found.append(value)
        if looked:
            self._update_pool(looked, found)

    def _update_pool(self, slots: list[int], found: list[float]) -> None:
        """Give the pool the new floats of ``slots``: in it, kept up to date or let go; out of it,
        let in where they pass the threshold. Their candidates on the last board are out of date.

        Subtle: a merge changes a handful of the pool's pairs, so each is taken out of ``ranked``
        and put back at its new place by bisection, instead of sorting the pool again at each step.
        """
        pool, ranked, made, bars, threshold = self.pool, self.ranked, self.made, self.bars, self.threshold
        parts, pool_of = self.parts, self.pool_of
        for slot, value in zip(slots, found, strict=True):
            made.pop(slot, None)
            old = pool.get(slot)
            if old is not None:
                if old == value:
                    continue
                del ranked[bisect_left(ranked, (-old, slot))]
                if value < threshold:
                    del pool[slot]
                    bars[slot] = threshold
                    left, right = parts[slot]
                    pool_of[left].discard(slot)
                    pool_of[right].discard(slot)
                    continue
            elif value < threshold:
                continue  # the second time of a slot that has just left the pool
            else:
                bars[slot] = -1.0
                left, right = parts[slot]
                pool_of[left].add(slot)
                pool_of[right].add(slot)
            pool[slot] = value
            insort(ranked, (-value, slot))

    # -- merging ----------------------------------------------------------------------------------

    def merge(self, pair: str, new: str) -> int:
        """Replace ``pair`` by the symbol ``new`` in every word; return how many times it was replaced.

        ``new`` may be a symbol that already occurs (two merges can spell the same piece): its
        count and pairs add up.
        """
        delta, replaced = self._rewrite(pair, new)
        self.tokens -= replaced
        left, right = pair
        symbols = self.symbols
        had = symbols.get(new, 0)
        symbols[left] -= replaced
        symbols[right] -= replaced
        symbols[new] = had + replaced
        self._set_symbol_counts(left, right, new)
        changed = self._apply(delta)
        # subtle: a symbol gone (count 0) has no pair left, and a new one only pairs just made: all
        # of those are in ``changed`` already. A symbol whose count fell a little has its pairs
        # rescored later (``SLACK``), but those in the pool now: the pool's floats are exact.
        refs, pool_of = self.refs, self.pool_of
        due = [ch for ch in {left, right} if symbols[ch] and refs[ch] > SLACK * symbols[ch]]
        if had:
            due.append(new)  # its count rose, so its pairs' scores fell: their floats are too high
        for ch in due:
            refs[ch] = symbols[ch]
        refs[new] = symbols[new]
        for ch in (left, right, new):
            changed += pool_of.get(ch, ())
        few = self.pairs_of.listed(due, changed, FEW)
        if few is not None:
            self._rescore_few(few)
        else:
            self._rescore(self.pairs_of.gather(due, changed, self.counts_at))
        return replaced

    def _set_symbol_counts(self, left: str, right: str, new: str) -> None:
        code = ord(new)
        if code >= len(self.symbol_counts):
            grown = np.ones(max(2 * len(self.symbol_counts), code + 1), np.float64)
            grown[: len(self.symbol_counts)] = self.symbol_counts
            self.symbol_counts = grown
        symbols, counts = self.symbols, self.symbol_counts
        counts[ord(left)] = symbols[left] or 1
        counts[ord(right)] = symbols[right] or 1
        counts[code] = symbols[new] or 1

    def _apply(self, delta: dict[str, int]) -> list[int]:
        """Add ``delta`` to the pairs' counts; return the slots of the pairs whose count changed.

        A pair seen for the first time gets the next slot, and its symbols in ``lefts`` and ``rights``;
        the arrays are written one item at a time: a merge changes a handful of counts, and a list
        would cost more to convert than they do.
        """
        counts, seen, names, parts, add_pair = self.counts, self.seen, self.names, self.parts, self.pairs_of.add
        lefts, rights, counts_at = self.lefts, self.rights, self.counts_at
        slots = []
        for made, change in delta.items():
            if not change:
                continue
            before = counts.get(made, 0)  # never 0 in ``counts``: a pair whose count falls to 0 leaves it
            total = before + change
            slot = seen.get(made)
            if slot is None:
                slot = seen[made] = len(names)
                names.append(made)
                parts.append((made[0], made[1]))
                if slot == len(lefts):
                    lefts, rights, counts_at = self._grow()
                lefts[slot], rights[slot] = ord(made[0]), ord(made[1])
            if total:
                if not before:  # new, or back
                    add_pair(made, slot)
                counts[made] = total
            else:
                del counts[made]
            slots.append(slot)
            counts_at[slot] = total
        return slots

    def _grow(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Double the room in the arrays indexed by slot; return the new ``lefts``, ``rights`` and
        ``counts_at``."""
        self.counts_at, self.lefts, self.rights = (
            np.concatenate([a, np.zeros(len(a), a.dtype)]) for a in (self.counts_at, self.lefts, self.rights)
        )
        self.bars = np.concatenate([self.bars, np.full(len(self.bars), self.threshold)])
        return self.lefts, self.rights, self.counts_at

    def _rewrite(self, pair: str, new: str) -> tuple[dict[str, int], int]:
        """Rewrite the words holding ``pair``, listing them in ``where`` under the pairs with ``new``
        they now hold; return how each pair's count changes and how many times ``pair`` was
        replaced (occurrences times word counts).

        Subtle: new pairs are numbered in the order they first enter the returned dict, so the words
        are taken in corpus order and, in each word, the pairs left to right.
        """
        words, freqs, where = self.words, self.freqs, self.where
        delta: dict[str, int] = {}
        get = delta.get
        once = many = 0  # replaced in words holding the pair once (most), and in the others
        for index in sorted(where.pop(pair)):
            word = words[index]
            at = word.find(pair)
            if at < 0:
                continue  # subtle: ``where`` keeps words that lost the pair since; skip them
            freq = freqs[index]
            if word.find(pair, at + 2) >= 0:
                shorter = word.replace(pair, new)
                _replace_all(word, shorter, new, freq, delta, where, index)
                words[index] = shorter
                many += (len(word) - len(shorter)) * freq
                continue
            # once: the pair and its neighbours' pairs go, two pairs holding ``new`` come
            words[index] = word[:at] + new + word[at + 2 :]
            once += freq
            if at:
                old, made = word[at - 1 : at + 1], word[at - 1] + new
                delta[old] = get(old, 0) - freq
                delta[made] = get(made, 0) + freq
                where[made].add(index)
            if at + 2 < len(word):
                old, made = word[at + 1 : at + 3], new + word[at + 2]
                delta[old] = get(old, 0) - freq
                delta[made] = get(made, 0) + freq
                where[made].add(index)
        delta[pair] = get(pair, 0) - once
        return delta, once + many


def _replace_all(
    word: str, shorter: str, new: str, freq: int, delta: dict[str, int], where: defaultdict[str, set[int]], index: int
) -> None:
    """The count changes of rewriting ``word`` as ``shorter`` (``freq`` times). Words are short: take
    away all their old pairs and add all new ones; the pairs away from the merges cancel out. Simpler
    than tracking overlaps such as "aaaa" by hand."""
    get = delta.get
    for old in map(add, word, word[1:]):  # each adjacent pair, left to right
        delta[old] = get(old, 0) - freq
    for made in map(add, shorter, shorter[1:]):
        delta[made] = get(made, 0) + freq
        if new in made:
            where[made].add(index)


def _count(words: list[str], freqs: list[int]) -> tuple[dict[str, int], dict[str, set[int]], dict[str, int]]:
    """Each pair's count and the words it is in, in first-seen order, and each symbol's count.

    The same as ``core.bpe.pair_counts.count_pairs`` plus symbol counts, in numpy: the words are
    laid end to end as code points, and the pairs that straddle two words are left out.

    >>> _count(["abab", "ba"], [2, 3])
    ({'ab': 4, 'ba': 5}, {'ab': {0}, 'ba': {0, 1}}, {'a': 7, 'b': 7})
    """
    if len(words) != len(freqs):
        raise ValueError("words and freqs must have the same length")
    codes = np.frombuffer("".join(words).encode("utf-32-le", "surrogatepass"), np.uint32).astype(np.int64)
    lengths = np.fromiter(map(len, words), np.intp, len(words))
    weights = np.repeat(np.asarray(freqs, np.int64), lengths)
    found = np.flatnonzero(np.bincount(codes, minlength=1))
    totals = np.bincount(codes, weights=weights)[found].astype(np.int64)  # exact: below 2**53
    symbols = dict(zip(map(chr, found.tolist()), totals.tolist(), strict=True))
    inside = np.ones(max(len(codes) - 1, 0), bool)  # a pair from the last code of a word to the next word's first
    inside[np.cumsum(lengths)[:-1][lengths[:-1] > 0] - 1] = False
    starts = np.flatnonzero(inside)
    keys = codes[starts] << 21 | codes[starts + 1]  # code points are below 2**21
    by_pair = keys.argsort(kind="stable")  # one sort: each pair's occurrences together, in corpus order
    ordered = keys[by_pair]
    heads = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]]) if len(keys) else np.zeros(0, np.intp)
    pair_counts = np.add.reduceat(weights[starts][by_pair], heads).tolist() if len(keys) else []
    bounds = [*heads.tolist(), len(keys)]
    holders = np.repeat(np.arange(len(words)), lengths)[starts][by_pair].tolist()
    unique = ordered[heads].tolist()
    counts, where = {}, {}
    for index in by_pair[heads].argsort().tolist():  # first-seen order (each head is a first occurrence)
        key = unique[index]
        pair = chr(key >> 21) + chr(key & 0x1FFFFF)
        counts[pair] = pair_counts[index]
        where[pair] = set(holders[bounds[index] : bounds[index + 1]])
    return counts, where, symbols
