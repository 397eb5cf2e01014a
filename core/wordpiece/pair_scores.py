"""Pair scores for WordPiece training, kept up to date incrementally: the hot part of training.

A pair's score is ``count(ab) / (count(a) * count(b))``, with counts taken in the current
segmentation of the training words (weighted by how often each word occurs). ``core.wordpiece.training``
drives this module: ``leaders(k)`` names the best pairs, ``merge(...)`` applies the winner. The corpus is
counted once; a merge rewrites only the words that hold its pair.

Subtle: unlike BPE's counts, a score can go *up*. Merging ``a + b`` lowers ``count(a)`` and
``count(b)``, which raises the score of every other pair holding ``a`` or ``b``, words away from the
merge; a frequent symbol such as ``##e`` is in hundreds of pairs and loses a little at many merges.
So a symbol in many pairs (``group_at`` or more at the start) *anchors a group*: its pairs are kept
in a heap of their own ordered by ``count(ab) / count(other)``, which does not depend on the anchor's
count, and the main heap holds one entry for the whole group, its best pair's score. When the
anchor's count changes, one entry moves instead of hundreds. Every other pair sits on the main heap
itself. Either way, a score that went up is pushed at once and one that went down is left for later
(the entry overestimates and is corrected when it surfaces, as in lazy deletion).

Scores are compared exactly: a pair's key is ``count(ab) * 2**128 // (count(a) * count(b))``, an
integer whose order is the order of the fractions and which is equal only for equal fractions (two
different fractions with denominators below 2**64 differ by more than 2**-128). Floats would let two
different fractions round to the same value and the tie rule decide what the scores should have.
Inside a group the key is ``count(ab) * 2**128 // count(other)``, and ``floor(floor(x / y) / z)`` is
``floor(x / (y * z))``, so dividing it by the anchor's count gives exactly the pair's key.

>>> scores = PairScores(["abc", "ab"], [1, 2])  # one character per symbol; a tie: "ab" was seen first
>>> [(pair, score) for pair, score, *_ in scores.leaders(3)]
[('ab', 0.3333333333333333), ('bc', 0.3333333333333333)]
"""

from __future__ import annotations

import bisect
import heapq

from core.bpe.pair_counts import count_pairs

_BITS = 128  # key = count << _BITS // (left count * right count): exact, see the module's docstring
GROUP_AT = 32  # a symbol in this many pairs at the start anchors a group (see the module's docstring)


class _Group:
    """The pairs of one anchor symbol: a heap by ``count << 128 // count(other)``, ties per key, and
    the ``(key, tie)`` of the group's latest entry on the main heap (``None``: no entry)."""

    __slots__ = ("heap", "ties", "top")

    def __init__(self) -> None:
        self.heap: list[tuple[int, int, str]] = []
        self.ties: dict[int, int] = {}
        self.top: tuple[int, int] | None = None


class PairScores:
    """Words with counts, and the count and score of every adjacent pair, kept up to date incrementally.

    A word is a ``str`` with one character per symbol id (``chr(id)``) and a pair is the
    two-character ``str`` of its ids, so finding and rewriting pairs are ``str`` methods, done in C.
    ``where`` may list words that lost a pair since (entries are only checked, never removed).
    Ties on the score go to the pair seen first: pairs of the starting corpus are numbered by first
    occurrence, pairs a merge creates after every pair seen before, in corpus order. Only pairs that
    occur ``min_count`` times or more take part in the race.

    Main-heap entries are ``(-key, tie, name)``: ``name`` is a pair, or an anchor symbol standing
    for its group. ``score[pair]`` is a pair's current key in its home (the main heap, or its group's
    heap) and ``pushed[pair]`` the key of its latest entry there, never below ``score[pair]``.
    """

    def __init__(
        self, words: list[str], freqs: list[int], *, min_count: int = 1, group_at: int | None = None
    ) -> None:
        """``words`` spelled one character per symbol id; ``freqs[i]`` is how often ``words[i]`` occurs.

        ``group_at`` overrides ``GROUP_AT`` (tests make every symbol an anchor with 1).
        """
        group_at = GROUP_AT if group_at is None else group_at
        self.words, self.freqs, self.min_count = words, freqs, min_count
        self.counts, self.where, self.symbols = _count(words, freqs)
        counts = self.counts
        self.seen = {pair: order for order, pair in enumerate(counts)}  # dicts keep first-seen order
        self.initial_tokens = self.tokens = sum(len(w) * f for w, f in zip(words, freqs, strict=True))
        in_pairs: dict[str, int] = {}
        for pair in counts:
            for ch in {pair[0], pair[1]}:
                in_pairs[ch] = in_pairs.get(ch, 0) + 1
        self.rank = in_pairs  # which of two anchors a pair joins: the one in more pairs at the start
        self.groups = {ch: _Group() for ch, n in in_pairs.items() if n >= group_at}
        self.home: dict[str, str] = {}  # pair -> its anchor, or "" for the main heap
        self.foreign: dict[str, set[str]] = {}  # symbol -> the pairs holding it that it does not anchor
        self.score: dict[str, int] = {}
        self.pushed: dict[str, int] = {}
        self.ties: dict[int, int] = {}  # main-heap pairs per key; a group keeps its own
        self.heap: list[tuple[int, int, str]] = []
        self.board: list[tuple[int, str, int]] = []  # the last leaders as (tie, pair, key at home)
        for pair in counts:
            self._settle(pair)
        self._update_all(list(counts), push=False)
        heapq.heapify(self.heap)
        for anchor, group in self.groups.items():
            heapq.heapify(group.heap)
            self._offer(anchor)

    # -- the race ---------------------------------------------------------------------------------

    def leaders(self, k: int) -> list[tuple[str, float, int, int, int]]:
        """The best ``k`` pairs in the race, best first, as ``(pair, score, count, left count, right count)``.

        Subtle: the leaders stay off the heaps, on ``board``, between calls: most of them lead again
        after the next merge, so they are checked in place instead of pushed and popped every step.
        A board entry counts as the pair's entry for the ``pushed`` invariant; a group's best pair
        taken onto the board lets the group's next one compete on the main heap.
        """
        found = self._recall_board()
        names = {pair for _, _, pair in found}
        heap = self.heap
        while heap and (len(found) < k or heap[0] < found[k - 1]):
            neg, tie, name = heapq.heappop(heap)
            pair = self._entry(neg, tie, name)
            if pair is not None and pair not in names:  # subtle: a pair gone and back may have two entries
                bisect.insort(found, (neg, tie, pair))
                names.add(pair)
        self._send_home([pair for _, _, pair in found[k:]])
        best = [pair for _, _, pair in found[:k]]
        pushed, counts, symbols = self.pushed, self.counts, self.symbols
        self.board = [(self.seen[pair], pair, pushed[pair]) for pair in best]
        out = []
        for pair in best:
            count, left, right = counts[pair], symbols[pair[0]], symbols[pair[1]]
            out.append((pair, count / (left * right), count, left, right))
        return out

    def _recall_board(self) -> list[tuple[int, int, str]]:
        """The last leaders still in the race with the key they had, as sorted ``(-key, tie, pair)``;
        the ones whose key went down go back home (a higher key was pushed home already)."""
        pushed, score, home, symbols = self.pushed, self.score, self.home, self.symbols
        found, lower = [], []
        for tie, pair, own in self.board:
            anchor = home.get(pair)
            if anchor is None or pushed.get(pair) != own:
                continue  # gone, out of the race, or pushed again with a higher key
            if score[pair] != own:
                lower.append(pair)
            else:
                found.append((-(own // symbols[anchor]) if anchor else -own, tie, pair))
        self._send_home(lower)
        found.sort()  # subtle: an anchor's count may have changed, moving its pairs' keys
        return found

    def _entry(self, neg: int, tie: int, name: str) -> str | None:
        """The pair a popped main-heap entry stands for if it is live and current, else ``None``
        (a stale entry is dropped, or pushed again with the current key). A group's current best pair
        leaves the group's heap and the group's next pair is offered in its place."""
        pushed, score, heap = self.pushed, self.score, self.heap
        if len(name) == 2:  # a pair of the main heap
            if self.home.get(name) != "" or pushed.get(name) != -neg:
                return None  # gone, moved, or superseded by a higher push
            now = score[name]
            if now != -neg:  # lower than when pushed: push the current key and look again
                pushed[name] = now
                heapq.heappush(heap, (-now, tie, name))
                return None
            return name
        group = self.groups[name]  # a group: its best pair competes
        if group.top != (-neg, tie):
            return None  # superseded by a later entry of the group
        best = self._best(name)
        if best is None:
            group.top = None
            return None
        key = -best[0] // self.symbols[name]
        if (key, best[1]) != (-neg, tie):  # worse than when pushed: push the current best
            group.top = (key, best[1])
            heapq.heappush(heap, (-key, best[1], name))
            return None
        heapq.heappop(group.heap)
        group.top = None
        self._offer(name)
        return best[2]

    def _send_home(self, pairs: list[str]) -> None:
        """Put pairs taken off the heaps back in their home heaps, with their current keys."""
        pushed, score, home, seen = self.pushed, self.score, self.home, self.seen
        anchors = set()
        for pair in pairs:
            key, anchor = score[pair], home[pair]
            pushed[pair] = key
            if anchor:
                heapq.heappush(self.groups[anchor].heap, (-key, seen[pair], pair))
                anchors.add(anchor)
            else:
                heapq.heappush(self.heap, (-key, seen[pair], pair))
        for anchor in anchors:
            self._offer(anchor)

    def n_tied(self, pair: str) -> int:
        """How many pairs in the race have exactly the score of ``pair`` (itself included)."""
        count, product = self.counts[pair], self.symbols[pair[0]] * self.symbols[pair[1]]
        key = (count << _BITS) // product
        tied = self.ties.get(key, 0)
        on_board = {self.home[p] for _, p, _ in self.board}  # their groups' tops do not count them
        for anchor, group in self.groups.items():
            if anchor in on_board or (group.top is not None and group.top[0] >= key):
                # the same fraction, seen from the group: count / count(other) = score * count(anchor)
                tied += group.ties.get(((count * self.symbols[anchor]) << _BITS) // product, 0)
        return tied

    # -- merging ----------------------------------------------------------------------------------

    def merge(self, pair: str, new: str) -> int:
        """Replace ``pair`` by the symbol ``new`` in every word; return how many times it was replaced.

        ``new`` may be a symbol that already occurs (two merges can spell the same piece): its
        count and pairs add up.
        """
        delta, holders, replaced = self._rewrite(pair, new)
        self.tokens -= replaced
        left, right = pair
        symbols, counts = self.symbols, self.counts
        symbols[left] -= replaced
        symbols[right] -= replaced
        symbols[new] = symbols.get(new, 0) + replaced
        changed = []
        for made, change in delta.items():
            if not change:
                continue
            changed.append(made)
            total = counts.get(made, 0) + change
            if not total:
                del counts[made]
            elif made in counts:
                counts[made] = total
            else:
                self.seen.setdefault(made, len(self.seen))
                counts[made] = total
                self._settle(made)
        where = self.where
        for made, indices in holders.items():
            if made in where:
                where[made] |= indices
            else:
                where[made] = indices
        self._update_all(set(changed).union(*(self.foreign.get(ch, ()) for ch in {left, right, new})))
        for ch in {left, right, new}:
            if ch in self.groups:
                self._offer(ch)
        return replaced

    def _rewrite(self, pair: str, new: str) -> tuple[dict[str, int], dict[str, set[int]], int]:
        """Rewrite the words holding ``pair``: how each pair's count changes, which words hold each
        pair with ``new``, and how many times ``pair`` was replaced (occurrences times word counts)."""
        words, freqs = self.words, self.freqs
        delta: dict[str, int] = {}
        holders: dict[str, set[int]] = {}
        delta_get = delta.get
        replaced = 0
        for index in sorted(self.where.pop(pair)):  # sorted: new pairs are numbered in corpus order
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
        return delta, holders, replaced

    # -- internals --------------------------------------------------------------------------------

    def _settle(self, pair: str) -> None:
        """Give a new pair its home: the group of an anchor it holds (the one in more pairs), or the
        main heap; a pair of one symbol twice stays on the main heap (its other symbol is its anchor)."""
        a, b = pair
        groups, rank = self.groups, self.rank
        if a == b or not (a in groups or b in groups):
            anchor = ""
        elif a in groups and (b not in groups or rank[a] >= rank[b]):
            anchor = a
        else:
            anchor = b
        self.home[pair] = anchor
        for ch in {a, b}:
            if ch != anchor:
                found = self.foreign.get(ch)
                if found is None:
                    self.foreign[ch] = {pair}
                else:
                    found.add(pair)

    def _update_all(self, pairs, *, push: bool = True) -> None:
        """Rescore ``pairs`` after their count or a symbol's count changed; drop the ones gone.

        A higher key is pushed at once (``push=False`` while building: the heaps are heapified after).
        """
        counts, symbols, score, pushed, home, groups = self.counts, self.symbols, self.score, self.pushed, self.home, self.groups
        ties, min_count, seen, heap, heappush = self.ties, self.min_count, self.seen, self.heap, heapq.heappush
        lifted: set[str] = set()  # groups with a pair pushed higher: offered once, at the end
        for pair in pairs:
            anchor = home.get(pair)
            if anchor is None:
                continue  # gone already
            group = groups[anchor] if anchor else None
            tally = group.ties if group else ties
            old = score.pop(pair, None)
            if old is not None:
                left_over = tally[old] - 1
                if left_over:
                    tally[old] = left_over
                else:
                    del tally[old]
            count = counts.get(pair)
            if count is None or count < min_count:  # out of the race; gone when its count is 0
                pushed.pop(pair, None)
                if count is None:
                    del home[pair]
                    for ch in {pair[0], pair[1]}:
                        if ch != anchor:
                            self.foreign[ch].discard(pair)
                continue
            if group is None:
                key = (count << _BITS) // (symbols[pair[0]] * symbols[pair[1]])
            else:
                key = (count << _BITS) // symbols[pair[1] if pair[0] == anchor else pair[0]]
            score[pair] = key
            tally[key] = tally.get(key, 0) + 1
            if key > pushed.get(pair, -1):
                pushed[pair] = key
                entry = (-key, seen[pair], pair)
                if group is None:
                    (heappush if push else list.append)(heap, entry)
                else:
                    (heappush if push else list.append)(group.heap, entry)
                    lifted.add(anchor)
        if push:
            for anchor in lifted:
                self._offer(anchor)

    def _best(self, anchor: str) -> tuple[int, int, str] | None:
        """The group's best pair as its heap entry ``(-key, tie, pair)``, stale entries cleared on the way."""
        heap, pushed, score, home = self.groups[anchor].heap, self.pushed, self.score, self.home
        while heap:
            neg, tie, pair = heap[0]
            if pushed.get(pair) != -neg or home.get(pair) != anchor:
                heapq.heappop(heap)
                continue
            now = score[pair]
            if now == -neg:
                return heap[0]
            pushed[pair] = now
            heapq.heapreplace(heap, (-now, tie, pair))
        return None

    def _offer(self, anchor: str) -> None:
        """Put the group's best pair on the main heap when it beats the group's latest entry there."""
        group = self.groups[anchor]
        best = self._best(anchor)
        if best is None:
            return
        key, tie = -best[0] // self.symbols[anchor], best[1]
        top = group.top
        if top is None or key > top[0] or (key == top[0] and tie < top[1]):
            group.top = (key, tie)
            heapq.heappush(self.heap, (-key, tie, anchor))


def _count(words: list[str], freqs: list[int]) -> tuple[dict[str, int], dict[str, set[int]], dict[str, int]]:
    """Each pair's count and the words it is in, in first-seen order, and each symbol's count."""
    symbols: dict[str, int] = {}
    sym_get = symbols.get
    for word, freq in zip(words, freqs, strict=True):
        for ch in word:
            symbols[ch] = sym_get(ch, 0) + freq
    return (*count_pairs(words, freqs), symbols)
