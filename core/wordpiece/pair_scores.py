"""Pair scores for WordPiece training, kept up to date incrementally: the hot part of training.

A pair's score is ``count(ab) / (count(a) * count(b))``, with counts taken in the current
segmentation of the training words (weighted by how often each word occurs). ``core.wordpiece.training``
drives this module: ``leaders(k)`` names the best pairs, ``merge(...)`` applies the winner. The corpus is
counted once; a merge rewrites only the words that hold its pair.

Subtle: unlike BPE's counts, a score can go *up*. Merging ``a + b`` lowers ``count(a)`` and
``count(b)``, which raises the score of every other pair holding ``a`` or ``b``, words away from
the merge. So each symbol knows the pairs it is in (``partners``), and after a merge every pair of
``a``, ``b`` or the new symbol is rescored: a higher score is pushed on the heap at once, a lower one
is left for later (the heap entry overestimates and is corrected when it surfaces, as in lazy
deletion). Every live pair always has an entry at ``pushed[pair]``, which is at least its score.

Scores are compared exactly: a pair's key is ``count(ab) * 2**128 // (count(a) * count(b))``, an
integer whose order is the order of the fractions and which is equal only for equal fractions (two
different fractions with denominators below 2**64 differ by more than 2**-128). Floats would let two
different fractions round to the same value and the tie rule decide what the scores should have.

>>> scores = PairScores(["abc", "ab"], [1, 2])  # one character per symbol; a tie: "ab" was seen first
>>> [(pair, score) for pair, score, *_ in scores.leaders(3)]
[('ab', 0.3333333333333333), ('bc', 0.3333333333333333)]
"""

from __future__ import annotations

import bisect
import heapq

_BITS = 128  # key = count << _BITS // (left count * right count): exact, see the module's docstring


class PairScores:
    """Words with counts, and the count and score of every adjacent pair, kept up to date incrementally.

    A word is a ``str`` with one character per symbol id (``chr(id)``) and a pair is the
    two-character ``str`` of its ids, so finding and rewriting pairs are ``str`` methods, done in C.
    ``where`` may list words that lost a pair since (entries are only checked, never removed).
    Ties on the score go to the pair seen first: pairs of the starting corpus are numbered by first
    occurrence, pairs a merge creates after every pair seen before, in corpus order. Only pairs that
    occur ``min_count`` times or more take part: they alone have a ``score`` and heap entries.
    """

    def __init__(self, words: list[str], freqs: list[int], *, min_count: int = 1) -> None:
        """``words`` spelled one character per symbol id; ``freqs[i]`` is how often ``words[i]`` occurs."""
        self.words, self.freqs, self.min_count = words, freqs, min_count
        counts: dict[str, int] = {}
        where: dict[str, set[int]] = {}
        symbols: dict[str, int] = {}
        get, where_get, sym_get = counts.get, where.get, symbols.get
        for index, (word, freq) in enumerate(zip(words, freqs, strict=True)):
            for ch in word:
                symbols[ch] = sym_get(ch, 0) + freq
            for i in range(len(word) - 1):
                pair = word[i : i + 2]
                counts[pair] = get(pair, 0) + freq
                found = where_get(pair)
                if found is None:
                    where[pair] = {index}
                else:
                    found.add(index)
        self.counts, self.where, self.symbols = counts, where, symbols
        self.seen = {pair: order for order, pair in enumerate(counts)}  # dicts keep first-seen order
        self.partners: dict[str, set[str]] = {}
        self.score: dict[str, int] = {}  # the key of each pair in the race
        self.ties: dict[int, int] = {}  # how many pairs in the race have each key: the trace's n_tied
        for pair, count in counts.items():
            self._add_partner(pair)
            if count < min_count:
                continue
            score = (count << _BITS) // (symbols[pair[0]] * symbols[pair[1]])
            self.score[pair] = score
            self.ties[score] = self.ties.get(score, 0) + 1
        self.pushed = dict(self.score)
        self.board: list[tuple[int, int, str]] = []  # the last leaders, off the heap: see ``leaders``
        self.heap = [(-score, self.seen[pair], pair) for pair, score in self.score.items()]
        heapq.heapify(self.heap)
        self.initial_tokens = self.tokens = sum(len(w) * f for w, f in zip(words, freqs, strict=True))

    def _add_partner(self, pair: str) -> None:
        for ch in {pair[0], pair[1]}:
            found = self.partners.get(ch)
            if found is None:
                self.partners[ch] = {pair}
            else:
                found.add(pair)

    def leaders(self, k: int) -> list[tuple[str, float, int, int, int]]:
        """The best ``k`` live pairs, best first, as ``(pair, score, count, left count, right count)``.

        Subtle: the leaders stay off the heap, on ``board``, between calls: most of them lead again
        after the next merge, so they are checked in place instead of pushed and popped every step.
        A board entry counts as a heap entry for the ``pushed`` invariant.
        """
        heap, score_of, pushed, push = self.heap, self.score, self.pushed, heapq.heappush
        found: list[tuple[int, int, str]] = []
        for score, tie, pair in self.board:
            if pushed.get(pair) != score:
                continue  # gone, or pushed again with a higher score
            now = score_of[pair]
            if now == score:
                found.append((-score, tie, pair))
            else:  # lower now: back on the heap with its current score
                pushed[pair] = now
                push(heap, (-now, tie, pair))
        names = {pair for _, _, pair in found}
        while heap and (len(found) < k or heap[0] < found[k - 1]):
            neg, tie, pair = heapq.heappop(heap)
            if pushed.get(pair) != -neg or pair in names:
                continue  # dead, superseded by a higher push, or a duplicate of one already found
            now = score_of[pair]
            if now != -neg:  # lower than when pushed: push the current score and look again
                pushed[pair] = now
                push(heap, (-now, tie, pair))
                continue
            bisect.insort(found, (neg, tie, pair))
            names.add(pair)
        for entry in found[k:]:  # pushed off the board by better pairs: back on the heap
            push(heap, entry)
        best = found[:k]
        self.board = [(-neg, tie, pair) for neg, tie, pair in best]
        counts, symbols = self.counts, self.symbols
        out = []
        for _, _, pair in best:
            count, left, right = counts[pair], symbols[pair[0]], symbols[pair[1]]
            out.append((pair, count / (left * right), count, left, right))
        return out

    def n_tied(self, pair: str) -> int:
        """How many pairs in the race have exactly the score of ``pair`` (itself included)."""
        return self.ties[self.score[pair]]

    def merge(self, pair: str, new: str) -> int:
        """Replace ``pair`` by the symbol ``new`` in every word; return how many times it was replaced.

        ``new`` may be a symbol that already occurs (two merges can spell the same piece): its
        count and pairs add up.
        """
        words, freqs, counts = self.words, self.freqs, self.counts
        affected = sorted(self.where.pop(pair))  # sorted: new pairs are numbered in corpus order
        delta: dict[str, int] = {}
        holders: dict[str, set[int]] = {}
        delta_get = delta.get
        replaced = 0
        for index in affected:
            word = words[index]
            if pair not in word:
                continue  # subtle: ``where`` keeps words that lost the pair since; skip them
            freq = freqs[index]
            shorter = word.replace(pair, new)
            # Words are short: take away all their old pairs and add all new ones; the pairs away
            # from the merge cancel out. Simpler than tracking overlaps such as "aaa" by hand.
            for i in range(len(word) - 1):
                old = word[i : i + 2]
                delta[old] = delta_get(old, 0) - freq
            for i in range(len(shorter) - 1):
                made = shorter[i : i + 2]
                delta[made] = delta_get(made, 0) + freq
                if new in made:
                    found = holders.get(made)
                    if found is None:
                        holders[made] = {index}
                    else:
                        found.add(index)
            words[index] = shorter
            replaced += (len(word) - len(shorter)) * freq
        self.tokens -= replaced
        left, right = pair
        symbols = self.symbols
        symbols[left] -= replaced
        symbols[right] -= replaced
        symbols[new] = symbols.get(new, 0) + replaced
        for made, change in delta.items():
            if change == 0:
                continue
            total = counts.get(made, 0) + change
            if total:
                if made not in counts:
                    self.seen.setdefault(made, len(self.seen))
                    self._add_partner(made)
                counts[made] = total
            else:
                del counts[made]
        where = self.where
        for made, indices in holders.items():
            if made in where:
                where[made] |= indices
            else:
                where[made] = indices
        self._rescore({left, right, new})
        return replaced

    def _rescore(self, changed: set[str]) -> None:
        """New scores for every pair holding a symbol whose count changed; push the ones that went up."""
        counts_get, symbols, score_of, pushed, ties, heap, seen = (
            self.counts.get, self.symbols, self.score, self.pushed, self.ties, self.heap, self.seen,
        )
        partners, min_count, push = self.partners, self.min_count, heapq.heappush
        forget, ties_get, pushed_get = score_of.pop, ties.get, pushed.get
        for pair in set().union(*(partners.get(ch, ()) for ch in changed)):
            old = forget(pair, None)
            if old is not None:
                left_over = ties[old] - 1
                if left_over:
                    ties[old] = left_over
                else:
                    del ties[old]
            count = counts_get(pair)
            if count is None or count < min_count:  # out of the race (and if gone, forgotten)
                if old is not None:
                    del pushed[pair]
                if count is None:
                    partners[pair[0]].discard(pair)
                    partners[pair[1]].discard(pair)
                continue
            score = (count << _BITS) // (symbols[pair[0]] * symbols[pair[1]])
            score_of[pair] = score
            ties[score] = ties_get(score, 0) + 1
            if score > pushed_get(pair, -1):
                pushed[pair] = score
                push(heap, (-score, seen[pair], pair))
