"""Pair counts for BPE training, kept up to date incrementally as merges apply: the hot part of training.

``core.bpe.train`` drives it: ``leaders(k)`` names the best pairs, ``merge(left, right, new_id, count)``
applies the winner. The corpus is counted once; after that a merge touches only the words that hold
its pair. What this module does not do: choose when to stop, build the trace, or know about modes and
patterns (``core.bpe``). Tuned for speed: measure with ``bench/bpe_train.py`` before changing it.
Below, after the merge, ``ab`` and the new ``(256, 97)`` tie at 2 and ``ab`` wins: it was seen first.

>>> counts = PairCounts(["aaab"], [2], tie_break="first_seen")
>>> counts.leaders(2)
[(97, 97, 4), (97, 98, 2)]
>>> counts.merge(97, 97, 256, 4)
>>> counts.leaders(2), counts.tokens
([(97, 98, 2), (256, 97, 2)], 6)
"""

from __future__ import annotations

import heapq
from typing import Literal

# How a tie between pairs with the same count is settled (core.bpe.model.TIE_BREAKS says it in words).
TieBreak = Literal["first_seen", "largest_pair", "minbpe"]

MAX_VOCAB = 0x110000  # a token id is spelled as one character, chr(id), so ids stop below this
MAX_FIRST = 1 << 21  # "minbpe": at most this many distinct words, each at most this many units long
# A heap entry is one int, -count << 42 | tie: smaller is better, and ints compare faster than tuples.
_TIE_BITS = 42
_TIE_MASK = (1 << _TIE_BITS) - 1


def count_pairs(words: list[str], freqs: list[int]) -> tuple[dict[str, int], dict[str, set[int]]]:
    """Each adjacent pair's count (weighted by ``freqs``) and the indices of the words it is in, in
    first-seen order; words are spelled one character per symbol (see ``PairCounts``).

    >>> count_pairs(["abab", "ba"], [2, 3])
    ({'ab': 4, 'ba': 5}, {'ab': {0}, 'ba': {0, 1}})
    """
    counts: dict[str, int] = {}
    where: dict[str, set[int]] = {}
    get, where_get = counts.get, where.get
    for index, (word, freq) in enumerate(zip(words, freqs, strict=True)):
        for i in range(len(word) - 1):
            pair = word[i : i + 2]
            counts[pair] = get(pair, 0) + freq
            found = where_get(pair)
            if found is None:
                where[pair] = {index}
            else:
                found.add(index)
    return counts, where


class PairCounts:
    """Words with counts and the count of every adjacent pair, kept up to date incrementally.

    Subtle: a word is a ``str`` with one character per token (``chr(id)``) and a pair is the
    two-character ``str`` of its ids, so finding and rewriting pairs are ``str.find`` and
    ``str.replace``, done in C. ``where`` may list words that lost a pair since (entries are never
    removed, only checked); heap entries ``-count << 42 | tie`` can be stale and are corrected when
    they surface. Only pairs with the new id appear after a merge, so old pairs only go down and new
    ones are pushed once, at the end of the step.
    """

    def __init__(self, words: list[str], freqs: list[int], *, tie_break: TieBreak) -> None:
        """``words`` spelled one character per token id; ``freqs[i]`` is how often ``words[i]`` occurs."""
        self.words, self.freqs = words, freqs
        self.largest = tie_break == "largest_pair"
        self.tie_bits, self.tie_mask = _TIE_BITS, _TIE_MASK
        counts, where = count_pairs(words, freqs)
        self.counts, self.where = counts, where
        self.seen = {pair: order for order, pair in enumerate(counts)}  # dicts keep first-seen order
        self.by_seen = list(counts)
        # how many pairs have each count (a list: counts only go down, or start below the merged one)
        self.histogram = [0] * (max(counts.values(), default=0) + 1)
        for count in counts.values():
            self.histogram[count] += 1
        self.heap = [(-count << self.tie_bits) | self._tie(pair) for pair, count in counts.items()]
        heapq.heapify(self.heap)
        self.initial_tokens = self.tokens = sum(len(w) * f for w, f in zip(words, freqs, strict=True))

    def _tie(self, pair: str) -> int:
        """The tie-break rank of ``pair``, lower wins: its first-seen number, or the pair reversed."""
        if self.largest:
            return _TIE_MASK - ((ord(pair[0]) << 21) | ord(pair[1]))
        return self.seen[pair]

    def _pair(self, tie: int) -> str:
        if self.largest:
            both = _TIE_MASK - tie
            return chr(both >> 21) + chr(both & 0x1FFFFF)
        return self.by_seen[tie]

    # A tie rank that can change while a pair waits on the heap is recomputed when it is pushed back.
    _retie = None

    def leaders(self, k: int) -> list[tuple[int, int, int]]:
        """The best ``k`` live pairs as ``(left, right, count)``; all but the best go back on the heap."""
        heap, counts, pair_of, retie = self.heap, self.counts, self._pair, self._retie
        bits, mask = self.tie_bits, self.tie_mask
        found: list[tuple[int, str]] = []
        while heap and len(found) < k:
            key = heapq.heappop(heap)
            tie = key & mask
            pair = pair_of(tie)
            count = counts.get(pair, 0)
            if count == -(key >> bits):
                found.append((key, pair))
            elif count:
                heapq.heappush(heap, (-count << bits) | (tie if retie is None else retie(pair)))
        for key, _ in found[1:]:
            heapq.heappush(heap, key)
        return [(ord(pair[0]), ord(pair[1]), -(key >> bits)) for key, pair in found]

    def merge(self, left: int, right: int, new_id: int, count: int) -> None:
        """Merge the pair ``(left, right)``, which occurs ``count`` times, into ``new_id`` everywhere."""
        self._merge(chr(left) + chr(right), chr(new_id), count)

    def _merge(self, merged: str, new: str, count: int) -> None:
        """Rewrite every word holding the pair ``merged`` and apply the pair-count changes."""
        words, freqs = self.words, self.freqs
        affected = self.where.pop(merged)
        if not self.largest:
            affected = sorted(affected)  # new pairs are numbered in corpus order
        lost: dict[str, int] = {}  # old pair -> how many fewer
        made: dict[str, list] = {}  # new pair -> [count, the words it is in]
        lost_get, made_get = lost.get, made.get
        left, right = merged
        right_left, new_new = right + left, new + new
        removed = 0
        for index in affected:
            word = words[index]
            at = word.find(merged)
            if at < 0:
                continue  # subtle: ``where`` keeps words that lost the pair since; skip them
            freq, n, end = freqs[index], len(word), -1
            while at >= 0:
                if at:  # the pair on the left: (x, left) becomes (x, new)
                    if at == end:  # subtle: the previous hit ended right here, so x is new too
                        old, pair = right_left, new_new
                    else:
                        x = word[at - 1]
                        old, pair = x + left, x + new
                    if old != merged:
                        lost[old] = lost_get(old, 0) + freq
                    entry = made_get(pair)
                    if entry is None:
                        made[pair] = [freq, {index}]
                    else:
                        entry[0] += freq
                        entry[1].add(index)
                end = at + 2
                if end < n and not word.startswith(merged, end):  # the pair on the right
                    y = word[end]
                    old, pair = right + y, new + y
                    # the same bookkeeping as the left pair's, inlined: a shared helper slowed this loop ~5 %
                    if old != merged:
                        lost[old] = lost_get(old, 0) + freq
                    entry = made_get(pair)
                    if entry is None:
                        made[pair] = [freq, {index}]
                    else:
                        entry[0] += freq
                        entry[1].add(index)
                at = word.find(merged, end)
            words[index] = shorter = word.replace(merged, new)
            removed += (n - len(shorter)) * freq
        self.tokens -= removed
        self._apply(merged, count, lost, made)

    def _apply(self, merged: str, count: int, lost: dict[str, int], made: dict[str, list]) -> None:
        counts, histogram, seen, heap, where = self.counts, self.histogram, self.seen, self.heap, self.where
        bits = self.tie_bits
        del counts[merged]
        histogram[count] -= 1
        for pair, fewer in lost.items():
            old = counts[pair]
            histogram[old] -= 1
            if old > fewer:
                counts[pair] = old - fewer
                histogram[old - fewer] += 1
            else:
                del counts[pair]
        for pair, (new, holders) in made.items():  # pairs this merge created: number them, push them
            counts[pair] = new
            histogram[new] += 1
            where[pair] = holders
            seen[pair] = len(seen)
            self.by_seen.append(pair)
            heapq.heappush(heap, (-new << bits) | self._tie(pair))


class FirstInTextCounts(PairCounts):
    """``PairCounts`` whose ties go as in minbpe: to the top pair that occurs first in the text as it is now.

    Subtle: minbpe recounts every pair on each merge and takes ``max(stats, key=stats.get)``; a
    dict keeps insertion order, so of equal counts the pair whose first occurrence comes first in
    the current sequence wins. Here that place is ``(w, u)``: the first word (words are in order of
    first appearance, so that word's first occurrence comes before any other word's) that holds the
    pair, and the unit (byte or character) where the pair starts in it. A pair whose count has not
    changed has not lost an occurrence, so its place has not moved either, and only pairs with the
    new id are created: the lazy heap stays exact, a place being recomputed only when a pair's count
    is. Heap entries carry the pair too (``place << 42 | pair``), as two pairs can start at one place
    at different times.
    """

    def __init__(self, words: list[str], freqs: list[int]) -> None:
        if len(words) > MAX_FIRST or max(map(len, words), default=0) > MAX_FIRST:
            raise ValueError(
                f"the minbpe tie rule handles up to {MAX_FIRST:,} distinct pre-tokens of up to {MAX_FIRST:,} "
                "units each; pick another tie rule or a smaller corpus"
            )
        self.width: dict[int, int] = {}  # units (bytes or characters) a merged id spans; 1 otherwise
        self.first_word: dict[str, int] = {}  # a lower bound of the first word holding a pair
        self._placed = False  # PairCounts.__init__ builds a heap of its own first: skip that work
        super().__init__(words, freqs, tie_break="first_seen")
        self._placed = True
        self.tie_bits, self.tie_mask = 2 * _TIE_BITS, (1 << (2 * _TIE_BITS)) - 1
        self.heap = [(-count << self.tie_bits) | self._tie(pair) for pair, count in self.counts.items()]
        heapq.heapify(self.heap)

    def _tie(self, pair: str) -> int:
        if not self._placed:
            return 0
        word, unit = self._place(pair)
        return (((word << 21) | unit) << _TIE_BITS) | (ord(pair[0]) << 21) | ord(pair[1])

    _retie = _tie

    def _pair(self, tie: int) -> str:
        return chr((tie >> 21) & 0x1FFFFF) + chr(tie & 0x1FFFFF)

    def _place(self, pair: str) -> tuple[int, int]:
        """``(word index, start unit)`` of the first occurrence of ``pair`` in the corpus now."""
        words, holders = self.words, self.where[pair]
        known = self.first_word.get(pair)
        if known is None or pair not in words[known]:
            # the words holding the pair only ever lose it: later ones only, stale entries dropped
            holders.difference_update([w for w in holders if pair not in words[w]])
            known = self.first_word[pair] = min(holders)
        word = words[known]
        at = word.find(pair)
        width = self.width
        return known, sum(width.get(ord(c), 1) for c in word[:at])

    def merge(self, left: int, right: int, new_id: int, count: int) -> None:
        self.width[new_id] = self.width.get(left, 1) + self.width.get(right, 1)
        super().merge(left, right, new_id, count)


def pair_counts(words: list[str], freqs: list[int], *, tie_break: TieBreak) -> PairCounts:
    """The pair counts for ``tie_break``: ``FirstInTextCounts`` for "minbpe", else ``PairCounts``."""
    if tie_break == "minbpe":
        return FirstInTextCounts(words, freqs)
    return PairCounts(words, freqs, tie_break=tie_break)
