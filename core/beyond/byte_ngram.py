"""A byte-level n-gram language model, counted in numpy arrays: the entropy model behind entropy patches.

The Byte Latent Transformer (Pagnoni et al., 2024) decides where a patch of bytes ends with a small
byte-level language model: where the next byte is hard to predict, a new patch starts. Here that
model is an n-gram model over UTF-8 bytes, with **interpolated Kneser-Ney smoothing** (Chen and
Goodman's formulation, one absolute discount per order, estimated as ``D = n1 / (n1 + 2 n2)`` from
the number of n-grams seen once and twice, Ney et al. 1994; clipped to ``[0.1, 0.9]`` so a tiny
corpus cannot make it 0 or 1). The highest order uses raw counts; lower orders use continuation
counts (in how many distinct contexts a shorter n-gram occurs); order 0 interpolates with the uniform
distribution over the 256 bytes, so no byte ever gets probability 0.

How it is stored: a context of ``k`` bytes and the byte after it pack exactly into one ``uint64``
(most recent byte lowest), for contexts of up to ``MAX_ORDER - 1 = 7`` bytes, so counting is
``np.unique`` over one array per order, with no hashing and no collisions. Each order keeps its
contexts sorted with the entries (next byte, discounted weight) of each context in one flat array;
a query finds its contexts with ``np.searchsorted`` and adds the entries in one scatter per order.

Subtle: every n-gram is counted at positions with a full ``order - 1`` bytes of context, the lower
orders' continuation counts included, so the first ``order - 1`` bytes of the training text add no
counts. A query position with fewer bytes before it (the start of the user's text) uses the orders
its context allows. What this module does not do: cut patches (``core.beyond.patches``) or draw (``ui``).

>>> model = train(b"abababab", order=2)
>>> round(float(model.distribution(b"a")[ord("b")]), 3)
0.882
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

VERSION = 1  # bump when training or the smoothing changes: models kept on disk (to_bytes) are named with it
MAX_ORDER = 8  # 7 context bytes and the next one fill a uint64
BYTES = 256
_CHUNK = 4096  # query positions per block: a block's distributions take _CHUNK * 256 * 8 bytes
_MIN_DISCOUNT, _MAX_DISCOUNT, _NO_EVIDENCE_DISCOUNT = 0.1, 0.9, 0.5


@dataclass(frozen=True, eq=False)
class Level:
    """The counts of one context length ``k``, ready for queries.

    ``contexts`` are the distinct ``k``-byte contexts, packed and sorted; the entries of context
    ``c`` are ``[offsets[c], offsets[c + 1])`` of ``next_bytes``, ``counts`` (raw at the highest
    order, continuation counts below) and ``weights`` (``max(count - D, 0) / total``). ``backoff[c]``
    is the weight ``D * types / total`` given to the next lower order.
    """

    k: int
    contexts: np.ndarray  # uint64, sorted
    offsets: np.ndarray  # int64, len(contexts) + 1
    next_bytes: np.ndarray  # uint8, one per entry
    counts: np.ndarray  # int64, one per entry
    weights: np.ndarray  # float64, one per entry
    totals: np.ndarray  # int64, per context
    backoff: np.ndarray  # float64, per context
    discount: float

    @property
    def n_grams(self) -> int:
        """Distinct ``(context, next byte)`` pairs at this order."""
        return len(self.next_bytes)


@dataclass(frozen=True, eq=False)
class ByteNgramModel:
    """A trained byte n-gram model: ``entropy(data)`` per position, ``distribution(context)``.

    ``levels[k]`` holds the counts for ``k`` bytes of context, ``k = 0 .. order - 1``.
    """

    order: int
    levels: tuple[Level, ...]
    trained_bytes: int

    def distribution(self, context: bytes) -> np.ndarray:
        """The probabilities of the 256 possible next bytes after ``context`` (its last bytes count).

        >>> round(float(train(b"hello hello", order=3).distribution(b"he").sum()), 12)
        1.0
        """
        data = np.frombuffer(bytes(context[-(self.order - 1) :] if self.order > 1 else b""), dtype=np.uint8)
        data = np.append(data, np.uint8(0))  # a placeholder next byte: only its context is read
        return self._distributions(data, np.asarray([len(data) - 1]))[0]

    def entropy(self, data: bytes) -> np.ndarray:
        """Entropy in bits of the next-byte distribution at every byte of ``data``.

        ``entropy(data)[i]`` is the model's uncertainty about ``data[i]`` having seen ``data[:i]``
        (at most ``order - 1`` bytes of it): 8 bits is a uniform guess, 0 a certain one.

        >>> model = train(b"the cat the hat the mat", order=3)
        >>> h = model.entropy(b"the")
        >>> bool(h[0] > h[2])
        True
        """
        array = np.frombuffer(bytes(data), dtype=np.uint8)
        out = np.empty(len(array), dtype=np.float64)
        for probs, positions, rows in self._blocks(array):
            out[positions] = _entropy_rows(probs)[rows]
        return out

    def surprisal(self, data: bytes) -> np.ndarray:
        """Bits the model needs for each actual byte of ``data``: ``-log2 P(data[i] | data[:i])``.

        Its mean over held-out text is the model's cross-entropy in bits per byte.

        >>> model = train(b"abababab", order=2)
        >>> bool(model.surprisal(b"ab")[1] < 1)
        True
        """
        array = np.frombuffer(bytes(data), dtype=np.uint8)
        out = np.empty(len(array), dtype=np.float64)
        for probs, positions, rows in self._blocks(array):
            out[positions] = -np.log2(probs[rows, array[positions]])
        return out

    def _blocks(self, array: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """``(distributions, positions, rows)`` a block at a time: the next-byte distributions of up to
        ``_CHUNK`` contexts, the positions of ``array`` that have one of them, and the row of each.

        Subtle: past the first ``order - 1`` bytes (a shorter context each: a block of their own) a
        distribution depends only on the ``order - 1`` bytes before it, so it is computed once per
        distinct context, which text repeats a lot, and shared by every position that has it.
        """
        head = min(self.order - 1, len(array))
        if head:
            yield self._distributions(array, np.arange(head)), np.arange(head), np.arange(head)
        if len(array) == head:
            return
        positions = np.arange(head, len(array))
        _, first, inverse = np.unique(_context_keys(array, positions, self.order - 1), return_index=True,
                                      return_inverse=True)
        by_context = np.argsort(inverse, kind="stable")
        ordered = inverse[by_context]
        for start in range(0, len(first), _CHUNK):
            low, high = np.searchsorted(ordered, [start, start + _CHUNK])
            mine = by_context[low:high]
            yield self._distributions(array, positions[first[start:start + _CHUNK]]), positions[mine], inverse[mine] - start

    def _distributions(self, data: np.ndarray, positions: np.ndarray) -> np.ndarray:
        """Next-byte distributions at ``positions`` of ``data``, one row each.

        Interpolation, lowest order first: ``P_k = weights_k + backoff_k * P_{k-1}`` where the
        context of order ``k`` was seen, ``P_k = P_{k-1}`` where it was not (or the text is shorter).
        """
        base = self.levels[0]
        p0 = np.full(BYTES, base.backoff[0] / BYTES)
        p0[base.next_bytes] += base.weights
        probs = np.tile(p0, (len(positions), 1))
        for level in self.levels[1:]:
            rows = np.flatnonzero(positions >= level.k)
            if len(rows) == 0:
                break
            keys = _context_keys(data, positions[rows], level.k)
            found = np.searchsorted(level.contexts, keys)
            hit = found < len(level.contexts)
            hit[hit] = level.contexts[found[hit]] == keys[hit]
            rows, contexts = rows[hit], found[hit]
            if len(rows) == 0:
                continue
            # every row scaled in place, by 1.0 where the context was not seen (exact: x * 1.0 == x);
            # half the CPU of gathering the rows, scaling them and scattering them back
            scale = np.ones(len(positions))
            scale[rows] = level.backoff[contexts]
            probs *= scale[:, None]
            lengths = np.diff(level.offsets)[contexts]
            entries = _ranges(level.offsets[contexts], lengths)
            # one flat index per entry (row * 256 + byte): each is hit once, as in probs[rows, bytes] += …
            flat = np.repeat(rows * BYTES, lengths) + level.next_bytes[entries]
            probs.reshape(-1)[flat] += level.weights[entries]
        return probs


def train(
    data: bytes | str,
    *,
    order: int = 5,
    progress: Callable[[int, int], None] | None = None,
) -> ByteNgramModel:
    """Count the n-grams of ``data`` (bytes, or a ``str`` read as UTF-8) up to ``order`` bytes long.

    ``order`` counts the predicted byte too: order 5 reads 4 bytes of context. ``progress(done,
    total)`` is called once per order counted. Raises ``ValueError`` when ``data`` is shorter than
    ``order`` bytes (nothing to count) or ``order`` is out of range.

    >>> [level.n_grams for level in train("abab", order=2).levels]
    [2, 2]
    """
    if not 1 <= order <= MAX_ORDER:
        raise ValueError(f"order must be between 1 and {MAX_ORDER} (it counts the predicted byte), not {order}")
    raw = data.encode("utf-8", errors="replace") if isinstance(data, str) else bytes(data)
    if len(raw) < order:
        raise ValueError(
            f"the training text has {len(raw):,} bytes; an order-{order} model needs at least {order}: "
            "give it more text"
        )
    array = np.frombuffer(raw, dtype=np.uint8)
    top = order - 1
    total = order + 1
    grams = _context_keys(array, np.arange(top, len(array)), top) << np.uint64(8) | array[top:].astype(np.uint64)
    if progress is not None:
        progress(1, total)
    keys, counts = np.unique(grams, return_counts=True)
    levels = [_level(top, keys, counts)]
    if progress is not None:
        progress(2, total)
    for k in range(top - 1, -1, -1):
        # continuation counts: drop the oldest context byte of every distinct (k+1)-gram and count
        # how many distinct ones collapse onto each k-gram
        keys, counts = np.unique(keys & np.uint64((1 << (8 * (k + 1))) - 1), return_counts=True)
        levels.append(_level(k, keys, counts))
        if progress is not None:
            progress(total - k, total)
    return ByteNgramModel(order, tuple(reversed(levels)), len(raw))


def discount(counts: np.ndarray) -> float:
    """The absolute discount for one order: ``n1 / (n1 + 2 n2)``, clipped to ``[0.1, 0.9]``.

    0.5 when no n-gram occurs once or twice (nothing to estimate it from).

    >>> discount(np.array([1, 1, 2, 5]))
    0.5
    """
    n1 = int(np.count_nonzero(counts == 1))
    n2 = int(np.count_nonzero(counts == 2))
    if n1 + 2 * n2 == 0:
        return _NO_EVIDENCE_DISCOUNT
    return float(min(max(n1 / (n1 + 2 * n2), _MIN_DISCOUNT), _MAX_DISCOUNT))


def to_bytes(model: ByteNgramModel) -> bytes:
    """``model`` as an ``.npz`` payload: its counts only (the weights are derived again on reading), so
    a model trained once on a fixed corpus can be kept on disk (``ui.beyond.models``).

    >>> model = train(b"abababab", order=3)
    >>> again = from_bytes(to_bytes(model))
    >>> bool((again.entropy(b"abba") == model.entropy(b"abba")).all())
    True
    """
    arrays = {"order": np.array([model.order, model.trained_bytes], dtype=np.int64)}
    for level in model.levels:
        arrays |= {f"{level.k}_contexts": level.contexts, f"{level.k}_offsets": level.offsets,
                   f"{level.k}_next_bytes": level.next_bytes, f"{level.k}_counts": level.counts}
    out = io.BytesIO()
    np.savez(out, allow_pickle=False, **arrays)
    return out.getvalue()


def from_bytes(payload: bytes) -> ByteNgramModel | None:
    """The model ``to_bytes`` wrote, or ``None`` if ``payload`` is not one."""
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as arrays:
            order, trained = (int(v) for v in arrays["order"])
            levels = tuple(
                _tables(k, arrays[f"{k}_contexts"], arrays[f"{k}_offsets"], arrays[f"{k}_next_bytes"],
                        arrays[f"{k}_counts"])
                for k in range(order)
            )
    except (ValueError, OSError, EOFError, KeyError, TypeError):
        return None
    return ByteNgramModel(order, levels, trained)


def _level(k: int, keys: np.ndarray, counts: np.ndarray) -> Level:
    """One order's query tables from its sorted distinct n-gram keys and their counts."""
    contexts, starts = np.unique(keys >> np.uint64(8), return_index=True)
    offsets = np.append(starts, len(keys)).astype(np.int64)
    return _tables(k, contexts, offsets, (keys & np.uint64(0xFF)).astype(np.uint8), counts.astype(np.int64))


def _tables(k: int, contexts: np.ndarray, offsets: np.ndarray, next_bytes: np.ndarray, counts: np.ndarray) -> Level:
    """One order's ``Level`` from its contexts, their entries' offsets, next bytes and counts."""
    starts = offsets[:-1]
    totals = np.add.reduceat(counts, starts)
    d = discount(counts)
    per_entry_total = np.repeat(totals, np.diff(offsets))
    weights = np.maximum(counts - d, 0.0) / per_entry_total
    backoff = d * np.diff(offsets) / totals
    return Level(k, contexts, offsets, next_bytes, counts, weights, totals, backoff, d)


def _entropy_rows(probs: np.ndarray) -> np.ndarray:
    """The entropy in bits of each row of next-byte probabilities (every one above 0: interpolated)."""
    terms = np.log2(probs)
    terms *= probs  # in place: the same products as probs * log2(probs), one array fewer
    return -terms.sum(axis=1)


def _context_keys(data: np.ndarray, positions: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` bytes before each position, packed into a ``uint64`` (most recent byte lowest)."""
    keys = np.zeros(len(positions), dtype=np.uint64)
    for back in range(1, k + 1):
        keys |= data[positions - back].astype(np.uint64) << np.uint64(8 * (back - 1))
    return keys


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The concatenation of ``range(s, s + n)`` for each start ``s`` and length ``n``, vectorized."""
    total = int(lengths.sum())
    ends = np.cumsum(lengths)
    return np.repeat(starts - (ends - lengths), lengths) + np.arange(total)
