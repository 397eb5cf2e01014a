"""Byte-pair encoding trained here, step by step, and the replay of a real tokenizer's merges.

Two training modes share one merge loop:

- ``"byte"``: byte-level BPE (GPT-2 style). A pattern cuts the text into pre-tokens; each starts as
  its UTF-8 bytes (ids 0–255) and merges never cross pre-token borders. Lossless.
- ``"char"``: classic character BPE (Sennrich et al., as in subword-nmt). The text is split on
  whitespace; a word starts as its characters, the last one carrying the end-of-word marker
  ``</w>`` (``low`` → ``l o w</w>``). Id 0 is ``<unk>`` for characters never seen in training;
  ids 1… are the alphabet in code-point order (each ``c`` before ``c</w>``). Whitespace is not kept,
  so decoding puts one space between words: not lossless.

The vocabulary is derived from the merges (one source of truth): merge ``rank`` makes id
``base + rank`` whose bytes are its two parts' bytes joined. Encoding replays the merges lowest rank
first inside each pre-token; decoding joins bytes. What this module does not do: special tokens,
normalization, drawing (``ui``). Also here: ``replay`` of a real tokenizer's ranked merges on a text,
export to ``tiktoken`` and to a Hugging Face ``tokenizer.json``, and saving a result as JSON.

>>> result = train("aaabdaaabac", num_merges=3, min_count=2)
>>> [(piece_label(s.piece), s.count) for s in result.trace]
[('aa', 4), ('ab', 2), ('aaab', 2)]
"""

from __future__ import annotations

import heapq
import json
from bisect import bisect_left
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

import regex

from core.patterns import GPT2_PATTERN, NAMED_PATTERNS
from core.pretokenize import chunks, compile_pattern, split
from core.types import TEXT, UNKNOWN, Token

if TYPE_CHECKING:
    import tiktoken

Mode = Literal["byte", "char"]
TieBreak = Literal["first_seen", "largest_pair"]

END_OF_WORD = "</w>"
UNK = "<unk>"
# What each tie rule means, in the words the page shows next to the trace.
TIE_BREAKS: dict[str, str] = {
    "first_seen": "first pair seen in corpus order",
    "largest_pair": "largest pair of ids, max by (count, pair)",
}
MODES: dict[str, str] = {"byte": "byte-level BPE", "char": "character BPE"}
_WORDS = regex.compile(r"\S+")  # char mode's words; the same cut in training and encoding
_SHIFT = 32  # a pair (left, right) is the int left << 32 | right: faster dict keys than tuples
_NEVER = 1 << 62  # the rank of a pair that is not a merge
_MAX_VOCAB = 0x110000  # the merge loop spells a token id as one character, chr(id)
# A heap entry is one int, -count << 42 | tie: smaller is better, and ints compare faster than tuples.
_TIE_BITS = 42
_TIE_MASK = (1 << _TIE_BITS) - 1
_PROGRESS_CALLS = 100  # progress is reported about this many times, not once per merge


@dataclass(frozen=True, slots=True)
class MergeStep:
    """One merge of training: which pair became which token, and the race it won.

    ``piece`` is the new token's symbol as bytes: its bytes in byte mode, the UTF-8 of the symbol
    (``</w>`` included) in char mode; ``piece_label`` shows it. ``count`` is how often the pair
    occurred, overlaps included (``aaa`` holds ``aa`` twice); ``n_tied`` is how many pairs had that
    count (1 when there was no tie); ``top`` is the leaderboard, best first, as
    ``(left, right, count)``; ``tokens_after`` is the size of the training corpus in tokens once
    this merge is applied (it can drop by less than ``count`` when occurrences overlap).

    >>> MergeStep(0, 97, 97, 256, b"aa", 4, 1, ((97, 97, 4),), 9).piece
    b'aa'
    """

    rank: int
    left: int
    right: int
    new_id: int
    piece: bytes
    count: int
    n_tied: int
    top: tuple[tuple[int, int, int], ...]
    tokens_after: int


class BPETokenizer:
    """A tokenizer trained here: merges, mode and pattern; the vocabulary is derived from them.

    Satisfies ``core.types.Tokenizer``. ``segment(text, k)`` and ``changed_spans(text, k)`` show the
    text after the first ``k`` merges; both reuse one precomputed history per text, so scrubbing ``k``
    over a short text costs a bisect per pre-token.

    >>> tok = BPETokenizer(merges=[(104, 105)])
    >>> [(t.id, t.bytes) for t in tok.encode("hi!")]
    [(256, b'hi'), (33, b'!')]
    """

    family = "trained here"
    special_tokens: Mapping[str, int] = MappingProxyType({})  # none: a class attribute, so it pickles

    def __init__(
        self,
        *,
        merges: Sequence[tuple[int, int]],
        mode: Mode = "byte",
        pattern: str = GPT2_PATTERN,
        alphabet: Sequence[str] = (),
        name: str | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.pattern = pattern if mode == "byte" else ""
        self.alphabet = tuple(alphabet) if mode == "char" else ()
        self.merges = tuple((int(left), int(right)) for left, right in merges)
        self.algorithm = MODES[mode]
        self.lossless = mode == "byte"
        if mode == "byte":
            compile_pattern(pattern)  # fail early on a bad pattern
            meaning = [bytes([i]) for i in range(256)]
            ends_word = [False] * 256
        else:
            meaning = [b""] + [s.removesuffix(END_OF_WORD).encode() for s in self.alphabet]
            ends_word = [False] + [s.endswith(END_OF_WORD) for s in self.alphabet]
        self.base_size = len(meaning)
        for rank, (left, right) in enumerate(self.merges):
            if not (0 <= left < len(meaning) and 0 <= right < len(meaning)):
                raise ValueError(f"merge {rank} uses an id that does not exist yet: {(left, right)}")
            meaning.append(meaning[left] + meaning[right])
            ends_word.append(ends_word[right])
        self.vocab: tuple[bytes, ...] = tuple(meaning)
        self._ends_word = tuple(ends_word)
        self.vocab_size = len(meaning)
        self._info = self._describe()
        self._ranks = {(left << _SHIFT) | right: rank for rank, (left, right) in enumerate(self.merges)}
        self._symbols = {s: i + 1 for i, s in enumerate(self.alphabet)}
        self.name = name or default_name(mode, pattern, self.vocab_size)
        self._chunk_cache: dict[str, tuple[int, ...]] = {}
        self._histories: OrderedDict[str, _History] = OrderedDict()

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_chunk_cache"], state["_histories"] = {}, OrderedDict()  # caches are not data
        return state

    def __repr__(self) -> str:
        return f"BPETokenizer(name={self.name!r}, vocab_size={self.vocab_size})"

    def piece(self, token_id: int) -> bytes:
        """The symbol of ``token_id`` as bytes: its bytes, plus ``</w>`` for a char-mode word end.

        >>> BPETokenizer(merges=[]).piece(104)
        b'h'
        """
        if self.mode == "char" and token_id == 0:
            return UNK.encode()
        suffix = END_OF_WORD.encode() if self._ends_word[token_id] else b""
        return self.vocab[token_id] + suffix

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        """Tokens of ``text`` with code-point offsets; there are no special tokens to allow.

        >>> [t.bytes for t in BPETokenizer(merges=[]).encode("é")]
        [b'\\xc3', b'\\xa9']
        """
        history = self._history_of(text, lambda ids: [(-1, ids), (0, self._merge_ids(ids))])
        return history.tokens(1, self._info)

    def encode_ids(self, text: str) -> list[int]:
        """Only the ids of ``text``: the fast path for measuring (no offsets, no Token objects).

        >>> BPETokenizer(merges=[(104, 105)]).encode_ids("hi hi")
        [256, 32, 256]
        """
        ids: list[int] = []
        cache = self._chunk_cache
        if len(cache) > 200_000:
            cache.clear()
        for chunk in self._chunk_strings(text):
            found = cache.get(chunk)
            if found is None:
                found = cache[chunk] = tuple(self._merge_ids(self._units(chunk)))
            ids.extend(found)
        return ids

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids``: bytes joined (byte mode) or words joined by one space (char mode).

        >>> BPETokenizer(merges=[]).decode([104, 105])
        'hi'
        """
        for i in ids:
            if not 0 <= i < self.vocab_size:
                raise ValueError(f"token id {i} is not in this vocabulary (0 to {self.vocab_size - 1})")
        if self.mode == "byte":
            return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
        parts = []
        for i in ids:
            parts.append(self.vocab[i].decode() if i else UNK)
            if self._ends_word[i]:
                parts.append(" ")
        return "".join(parts).rstrip(" ")

    def segment(self, text: str, k: int) -> list[Token]:
        """Tokens of ``text`` using only the merges of rank below ``k`` (``k=0``: bytes/characters).

        >>> [t.bytes for t in BPETokenizer(merges=[(104, 105)]).segment("hi", 0)]
        [b'h', b'i']
        """
        return self._history(text).tokens(k, self._info)

    def changed_spans(self, text: str, k: int) -> list[tuple[int, int]]:
        """Code-point spans of the tokens that merge ``k - 1`` made in ``text`` (none for ``k=0``).

        >>> BPETokenizer(merges=[(104, 105)]).changed_spans("hi hi", 1)
        [(0, 2), (3, 5)]
        """
        return self._history(text).changed(k - 1, self._info)

    def change_steps(self, text: str) -> list[int]:
        """The ``k`` at which ``text``'s segmentation changes, i.e. where ``changed_spans`` is not empty.

        >>> BPETokenizer(merges=[(104, 105), (120, 121)]).change_steps("hi")
        [1]
        """
        return [rank + 1 for rank in sorted(self._history(text).by_key)]

    # -- internals --------------------------------------------------------------------------------

    def _history(self, text: str) -> _History:
        history = self._histories.get(text)
        if history is None:
            history = self._history_of(text, self._merge_events)
            self._histories[text] = history
            if len(self._histories) > 8:
                self._histories.popitem(last=False)
        self._histories.move_to_end(text)
        return history

    def _history_of(self, text: str, events_of: Callable[[list[int]], list[tuple[int, list[int]]]]) -> _History:
        memo: dict[tuple[int, ...], list[tuple[int, list[int]]]] = {}
        rows = []
        for start, ids, owners in self._chunk_units(text):
            events = memo.get(tuple(ids))
            if events is None:
                events = memo[tuple(ids)] = events_of(ids)
            rows.append((start, owners, events))
        return _History(rows)

    def _chunk_strings(self, text: str) -> list[str]:
        return chunks(text, self.pattern) if self.mode == "byte" else _WORDS.findall(text)

    def _chunk_units(self, text: str) -> list[tuple[int, list[int], list[int]]]:
        """Per pre-token: its start, its starting ids, and each id's length in code points."""
        out = []
        if self.mode == "byte":
            for start, end in split(text, self.pattern):
                chunk = text[start:end]
                out.append((start, self._units(chunk), _byte_owners(chunk)))
        else:
            for match in _WORDS.finditer(text):
                word = match.group()
                out.append((match.start(), self._units(word), list(range(len(word)))))
        return out

    def _units(self, chunk: str) -> list[int]:
        if self.mode == "byte":
            return list(chunk.encode())
        symbols = self._symbols
        ids = [symbols.get(c, 0) for c in chunk[:-1]]
        ids.append(symbols.get(chunk[-1] + END_OF_WORD, 0))
        return ids

    def _merge_ids(self, ids: list[int]) -> list[int]:
        return self._merge_events(ids)[-1][1]

    def _merge_events(self, ids: list[int]) -> list[tuple[int, list[int]]]:
        """``[(rank, ids after every merge of that rank)]``, starting with ``(-1, ids)``."""
        get, base = self._ranks.get, self.base_size
        events = [(-1, ids)]
        while len(ids) > 1:
            rank = min([get(key, _NEVER) for key in _pair_keys(ids)])
            if rank == _NEVER:
                break
            left, right = self.merges[rank]
            ids = _replace_pair(ids, left, right, base + rank)
            events.append((rank, ids))
        return events

    def _describe(self) -> list[tuple[bytes, int, str]]:
        """Per id: the bytes a Token carries, how many units (bytes or characters) it spans, its kind."""
        if self.mode == "byte":
            return [(b, len(b), TEXT) for b in self.vocab]
        return [(b"", 1, UNKNOWN)] + [(b, len(b.decode()), TEXT) for b in self.vocab[1:]]


def default_name(mode: Mode, pattern: str, vocab_size: int) -> str:
    """A readable name for a tokenizer trained here.

    >>> default_name("byte", GPT2_PATTERN, 2000)
    'BPE trained here (byte-level, GPT-2 pattern, 2,000 tokens)'
    """
    if mode == "char":
        return f"BPE trained here (character, {END_OF_WORD}, {vocab_size:,} tokens)"
    pattern_name = next((name for name, p in NAMED_PATTERNS.items() if p == pattern), "custom")
    return f"BPE trained here (byte-level, {pattern_name} pattern, {vocab_size:,} tokens)"


def piece_label(piece: bytes) -> str:
    """A piece as text for a label: UTF-8 where it decodes, ``\\xNN`` for stray bytes.

    >>> piece_label(b"caf\\xc3")
    'caf\\\\xc3'
    """
    return piece.decode("utf-8", errors="backslashreplace")


def _pair_keys(ids: list[int]) -> list[int]:
    return [(a << _SHIFT) | b for a, b in zip(ids, ids[1:], strict=False)]


def _replace_pair(ids: list[int], left: int, right: int, new_id: int) -> list[int]:
    out, i, n = [], 0, len(ids)
    while i < n:
        if i < n - 1 and ids[i] == left and ids[i + 1] == right:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def _byte_owners(chunk: str) -> list[int]:
    """For each UTF-8 byte of ``chunk``, the index of the character it belongs to."""
    if chunk.isascii():
        return list(range(len(chunk)))
    owners = []
    for i, char in enumerate(chunk):
        owners.extend([i] * len(char.encode()))
    return owners


class _History:
    """Per pre-token, the segmentations it goes through, keyed by merge rank (or replay step).

    Subtle: identical pre-tokens share one computation, and a segmentation's ``Token`` objects are
    built the first time it is asked for; ``tokens(k)`` is then a bisect per pre-token.
    """

    def __init__(self, rows: list[tuple[int, list[int], list[tuple[int, list[int]]]]]) -> None:
        """``rows``: per pre-token its start, each unit's code point, and ``[(key, ids), ...]`` events
        whose first entry is ``(-1, starting ids)`` and whose keys then increase."""
        self.chunks: list[tuple[int, list[int], list[int], list[list[int]], list]] = []
        self.by_key: dict[int, list[int]] = {}
        for index, (start, owners, events) in enumerate(rows):
            keys = [k for k, _ in events[1:]]
            for k in keys:
                self.by_key.setdefault(k, []).append(index)
            segs = [seg for _, seg in events]
            self.chunks.append((start, owners, keys, segs, [None] * len(segs)))

    def tokens(self, limit: int, info: Sequence[tuple[bytes, int, str]] | Mapping) -> list[Token]:
        """All tokens once every event keyed below ``limit`` has happened."""
        out: list[Token] = []
        for index, (_, _, keys, _, built) in enumerate(self.chunks):
            at = bisect_left(keys, limit)
            made = built[at]
            if made is None:
                made = built[at] = self._build(index, at, info)
            out.extend(made)
        return out

    def changed(self, key: int, info: Sequence[tuple[bytes, int, str]] | Mapping) -> list[tuple[int, int]]:
        """Code-point spans of the tokens that the event ``key`` made."""
        spans: list[tuple[int, int]] = []
        for index in self.by_key.get(key, ()):
            at = self.chunks[index][2].index(key)
            before = {(t.start, t.end, t.id) for t in self._segment(index, at, info)}
            spans.extend(
                (t.start, t.end) for t in self._segment(index, at + 1, info) if (t.start, t.end, t.id) not in before
            )
        return sorted(set(spans))

    def _segment(self, index: int, at: int, info: Sequence | Mapping) -> list[Token]:
        built = self.chunks[index][4]
        if built[at] is None:
            built[at] = self._build(index, at, info)
        return built[at]

    def _build(self, index: int, at: int, info: Sequence | Mapping) -> list[Token]:
        start, owners, _, segs, _ = self.chunks[index]
        made, pos = [], 0
        for token_id in segs[at]:
            data, units, kind = info[token_id]
            made.append(Token(token_id, data, start + owners[pos], start + owners[pos + units - 1] + 1, kind))
            pos += units
        return made


@dataclass(frozen=True)
class BPEResult:
    """What training returns: the tokenizer, the trace of merges, and whether it stopped early.

    ``initial_tokens`` is the training corpus's size in tokens before any merge (its bytes, or its
    characters in char mode); with each step's ``tokens_after`` it draws tokens-vs-vocabulary
    without re-encoding anything.
    """

    tokenizer: BPETokenizer
    trace: tuple[MergeStep, ...]
    stopped_early: bool
    stop_reason: str | None
    tie_break: TieBreak
    initial_tokens: int

    def corpus_tokens(self, k: int) -> int:
        """Tokens in the training corpus after the first ``k`` merges.

        >>> train("abab", num_merges=1).corpus_tokens(1)
        2
        """
        if not 0 <= k <= len(self.trace):
            raise ValueError(f"k must be between 0 and {len(self.trace)}, not {k}")
        return self.trace[k - 1].tokens_after if k else self.initial_tokens


def train(
    corpus: str,
    *,
    vocab_size: int | None = None,
    num_merges: int | None = None,
    mode: Mode = "byte",
    pattern: str = GPT2_PATTERN,
    tie_break: TieBreak = "first_seen",
    top_k: int = 10,
    min_count: int = 1,
    progress: Callable[[int, int], None] | None = None,
    name: str | None = None,
) -> BPEResult:
    """Learn BPE merges from ``corpus``: give ``vocab_size`` or ``num_merges``.

    Subtle: pair counts are kept up to date incrementally (only words holding the merged pair are
    touched) and the best pair comes from a heap with lazy deletion, so the corpus is counted once.
    Ties go by ``tie_break``: ``"first_seen"`` takes the pair seen first in corpus order (pairs of the
    starting corpus are numbered by first occurrence; a pair a merge creates is numbered after every
    pair seen before, in the corpus order of its first creation); ``"largest_pair"`` takes the
    largest ``(left, right)`` as minbpe's ``max`` by ``(count, pair)`` does. Training stops early,
    and says why, when no pair occurs ``min_count`` times. ``progress(done, total)`` is called about
    a hundred times, not once per merge.

    >>> result = train("low low low lower", num_merges=2, mode="char")
    >>> [piece_label(step.piece) for step in result.trace]
    ['lo', 'low</w>']
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {', '.join(TIE_BREAKS)}, not {tie_break!r}")
    if top_k < 1:
        raise ValueError("top_k must be at least 1")
    if min_count < 1:
        raise ValueError("min_count must be at least 1")
    if mode == "byte":
        _merges_wanted(vocab_size, num_merges, mode, 256)  # fail fast, before reading the corpus
    counted, alphabet = _count_words(corpus, mode, pattern)
    if not counted:
        raise ValueError("the corpus is empty: give it some text to learn merges from")
    base = 256 if mode == "byte" else len(alphabet) + 1
    merges_wanted = _merges_wanted(vocab_size, num_merges, mode, base)
    if mode == "byte":
        words = [chunk.encode().decode("latin-1") for chunk in counted]  # one character per byte
        pieces = [bytes([i]) for i in range(256)]
    else:
        symbols = {s: chr(i + 1) for i, s in enumerate(alphabet)}
        words = ["".join([symbols[c] for c in w[:-1]] + [symbols[w[-1] + END_OF_WORD]]) for w in counted]
        pieces = [UNK.encode()] + [s.encode() for s in alphabet]
    loop = _MergeLoop(words, list(counted.values()), first_id=base, tie_break=tie_break)
    trace = loop.run(merges_wanted, pieces=pieces, top_k=top_k, min_count=min_count, progress=progress)
    stop_reason = None
    if len(trace) < merges_wanted:
        rule = "is left to merge" if min_count == 1 else f"occurs {min_count} times or more"
        stop_reason = (
            f"stopped after {len(trace):,} of {merges_wanted:,} merges: no pair {rule} "
            f"(vocabulary {base + len(trace):,} instead of {base + merges_wanted:,})"
        )
    tokenizer = BPETokenizer(
        merges=[(s.left, s.right) for s in trace], mode=mode, pattern=pattern, alphabet=alphabet, name=name
    )
    return BPEResult(tokenizer, tuple(trace), stop_reason is not None, stop_reason, tie_break, loop.initial_tokens)


def _count_words(corpus: str, mode: Mode, pattern: str) -> tuple[Counter[str], tuple[str, ...]]:
    """Pre-tokens (byte mode) or words (char mode) with their counts, in order of first appearance,
    and in char mode the alphabet: each character, and ``c</w>`` for each character ending a word."""
    if mode == "byte":
        return Counter(chunks(corpus, pattern)), ()
    counted = Counter(_WORDS.findall(corpus))
    inner = {c for word in counted for c in word[:-1]}
    return counted, tuple(sorted(inner | {word[-1] + END_OF_WORD for word in counted}))


def _merges_wanted(vocab_size: int | None, num_merges: int | None, mode: Mode, base: int) -> int:
    if (vocab_size is None) == (num_merges is None):
        raise ValueError("give either vocab_size or num_merges (exactly one of them)")
    if num_merges is not None:
        if num_merges < 0:
            raise ValueError("num_merges must be 0 or more")
    elif vocab_size < base:
        if mode == "byte":
            raise ValueError("vocab_size must be at least 256, so every byte has a token")
        raise ValueError(
            f"vocab_size must be at least {base:,}: the corpus's alphabet has {base:,} symbols "
            f"(its characters, their {END_OF_WORD} forms and {UNK})"
        )
    else:
        num_merges = vocab_size - base
    if base + num_merges > _MAX_VOCAB:
        raise ValueError(f"the vocabulary can have at most {_MAX_VOCAB:,} tokens")
    return num_merges


class _MergeLoop:
    """The merge loop both modes share: words with counts, pair counts kept up to date incrementally.

    Subtle: a word is a ``str`` with one character per token (``chr(id)``) and a pair is the
    two-character ``str`` of its ids, so finding and rewriting pairs are ``str.find`` and
    ``str.replace``, done in C. ``where`` may list words that lost a pair since (entries are never
    removed, only checked); heap entries ``-count << 42 | tie`` can be stale and are corrected when
    they surface. Only pairs with the new id appear after a merge, so old pairs only go down and new
    ones are pushed once, at the end of the step.
    """

    def __init__(self, words: list[str], freqs: list[int], *, first_id: int, tie_break: TieBreak) -> None:
        self.words, self.freqs, self.first_id = words, freqs, first_id
        self.largest = tie_break == "largest_pair"
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
        self.counts, self.where = counts, where
        self.seen = {pair: order for order, pair in enumerate(counts)}  # dicts keep first-seen order
        self.by_seen = list(counts)
        # how many pairs have each count (a list: counts only go down, or start below the merged one)
        self.histogram = [0] * (max(counts.values(), default=0) + 1)
        for count in counts.values():
            self.histogram[count] += 1
        self.heap = [(-count << _TIE_BITS) | self._tie(pair) for pair, count in counts.items()]
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

    def run(
        self,
        merges_wanted: int,
        *,
        pieces: list[bytes],
        top_k: int,
        min_count: int,
        progress: Callable[[int, int], None] | None,
    ) -> list[MergeStep]:
        trace: list[MergeStep] = []
        every = max(1, merges_wanted // _PROGRESS_CALLS)
        for rank in range(merges_wanted):
            top = self._leaders(top_k)
            if not top or top[0][2] < min_count:
                break
            left, right, count = top[0]
            new_id = self.first_id + rank
            tied = self.histogram[count]
            self._merge(chr(left) + chr(right), chr(new_id), count)
            pieces.append(pieces[left] + pieces[right])
            trace.append(MergeStep(rank, left, right, new_id, pieces[-1], count, tied, tuple(top), self.tokens))
            if progress is not None and (rank + 1) % every == 0:
                progress(rank + 1, merges_wanted)
        if progress is not None:
            progress(merges_wanted, merges_wanted)
        return trace

    def _leaders(self, k: int) -> list[tuple[int, int, int]]:
        """The best ``k`` live pairs as ``(left, right, count)``; all but the best go back on the heap."""
        heap, counts, pair_of = self.heap, self.counts, self._pair
        found: list[tuple[int, str]] = []
        while heap and len(found) < k:
            key = heapq.heappop(heap)
            tie = key & _TIE_MASK
            pair = pair_of(tie)
            count = counts.get(pair, 0)
            if count == -(key >> _TIE_BITS):
                found.append((key, pair))
            elif count:
                heapq.heappush(heap, (-count << _TIE_BITS) | tie)
        for key, _ in found[1:]:
            heapq.heappush(heap, key)
        return [(ord(pair[0]), ord(pair[1]), -(key >> _TIE_BITS)) for key, pair in found]

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
            heapq.heappush(heap, (-new << _TIE_BITS) | self._tie(pair))


# -- replay of a real tokenizer's merges --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReplayEvent:
    """One merge as a real tokenizer applies it to a text: the token it made and where.

    ``position`` is the index of the left part among the pre-token's tokens at that moment;
    ``start``/``end`` are the code points the new token covers.
    """

    step: int
    rank: int
    chunk: int
    position: int
    start: int
    end: int


@dataclass(frozen=True)
class Replay:
    """The merges a ranked byte-level vocabulary applies to one text, in rank order.

    Step 0 is the text as bytes; step ``n_steps`` is the tokenizer's answer. Token ids are ranks.
    """

    text: str
    chunk_spans: tuple[tuple[int, int], ...]
    events: tuple[ReplayEvent, ...]
    _history: _History = field(repr=False, compare=False)
    _info: Mapping[int, tuple[bytes, int, str]] = field(repr=False, compare=False)

    @property
    def n_steps(self) -> int:
        return len(self.events)

    def segmentation(self, step: int) -> list[Token]:
        """Tokens after the first ``step`` events (clamped to ``0..n_steps``)."""
        return self._history.tokens(max(0, min(step, self.n_steps)), self._info)

    def changed_spans(self, step: int) -> list[tuple[int, int]]:
        """Code-point spans of the token that event ``step - 1`` made (none for step 0)."""
        return self._history.changed(step - 1, self._info)


def replay(text: str, *, mergeable_ranks: Mapping[bytes, int], pattern: str) -> Replay:
    """Replay a tiktoken-style vocabulary on ``text``: bytes first, then merges lowest rank first.

    Subtle: as tiktoken does, each pre-token repeatedly merges the adjacent pair whose joined bytes
    have the lowest rank (the leftmost on a tie); events of all pre-tokens are then ordered by rank,
    each pre-token keeping its own order, so scrubbing shows the vocabulary's merges as they apply.
    Meant for short texts (the cost grows with the square of a pre-token's length).

    >>> ranks = {bytes([i]): i for i in range(256)} | {b"hi": 256}
    >>> r = replay("hi", mergeable_ranks=ranks, pattern=GPT2_PATTERN)
    >>> [(t.id, t.bytes) for t in r.segmentation(r.n_steps)]
    [(256, b'hi')]
    """
    spans = split(text, pattern)
    memo: dict[str, list[tuple[int, int, list[bytes]]]] = {}
    local = []
    for start, end in spans:
        chunk = text[start:end]
        if chunk not in memo:
            memo[chunk] = _rank_merges(chunk.encode(), mergeable_ranks)
        local.append(memo[chunk])
    order = heapq.merge(*[[(ev[0], index, j) for j, ev in enumerate(evs[1:])] for index, evs in enumerate(local)])
    steps: list[list[int]] = [[] for _ in spans]
    for step, (_, index, _) in enumerate(order):
        steps[index].append(step)
    rows, info, made = [], {}, []
    for index, ((start, end), evs) in enumerate(zip(spans, local, strict=True)):
        owners = _byte_owners(text[start:end])
        for _, _, parts in evs:
            for part in parts:
                rank = mergeable_ranks[part]
                info[rank] = (part, len(part), TEXT)
        keys = [-1, *steps[index]]
        rows.append((start, owners, [(k, [mergeable_ranks[p] for p in ev[2]]) for k, ev in zip(keys, evs, strict=True)]))
        for step, (rank, position, parts) in zip(steps[index], evs[1:], strict=True):
            first = sum(map(len, parts[:position]))
            last = first + len(parts[position]) - 1
            made.append(ReplayEvent(step, rank, index, position, start + owners[first], start + owners[last] + 1))
    made.sort(key=lambda event: event.step)
    return Replay(text, tuple(spans), tuple(made), _History(rows), info)


def _rank_merges(data: bytes, ranks: Mapping[bytes, int]) -> list[tuple[int, int, list[bytes]]]:
    """``[(rank, position, parts after)]`` for one pre-token, starting with ``(-1, -1, its bytes)``."""
    parts = [data[i : i + 1] for i in range(len(data))]
    for part in parts:
        if part not in ranks:
            raise ValueError(f"the vocabulary has no token for the byte {part!r}; it cannot encode this text")
    events = [(-1, -1, parts)]
    while len(parts) > 1:
        best, at = _NEVER, -1
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1], _NEVER)
            if rank < best:
                best, at = rank, i
        if at < 0:
            break
        parts = parts[:at] + [parts[at] + parts[at + 1]] + parts[at + 2 :]
        events.append((best, at, parts))
    return events


# -- export and saving ------------------------------------------------------------------------------


def to_tiktoken(result: BPEResult | BPETokenizer) -> tiktoken.Encoding:
    """The trained byte-level BPE as a ``tiktoken.Encoding``: the fast path for encoding.

    Ranks are ids (0–255 are the single bytes in byte order), so ids match ``encode``.

    >>> to_tiktoken(train("hi hi", num_merges=1)).encode("hi")
    [256]
    """
    tokenizer = _tokenizer_of(result)
    if tokenizer.mode != "byte":
        raise ValueError("only byte-level BPE exports to tiktoken; character BPE has no bytes for whitespace")
    import tiktoken

    try:
        return tiktoken.Encoding(
            name="trained-here",
            pat_str=tokenizer.pattern,
            mergeable_ranks=_unique(tokenizer.vocab, "tiktoken"),
            special_tokens={},
        )
    except ValueError as exc:
        raise ValueError(f"tiktoken cannot use this tokenizer's pattern: {exc}") from None


def to_hf_json(result: BPEResult | BPETokenizer) -> str:
    """The trained tokenizer as a Hugging Face ``tokenizer.json`` string (``Tokenizer.from_str`` loads it).

    Byte mode: a BPE model in GPT-2's byte-to-unicode alphabet behind ``Split(pattern)`` and
    ``ByteLevel(use_regex=False)``. Char mode: a BPE model with ``unk_token`` and
    ``end_of_word_suffix="</w>"`` behind ``WhitespaceSplit``, decoded by ``BPEDecoder``.
    """
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers

    tokenizer = _tokenizer_of(result)
    if tokenizer.mode == "byte":
        alphabet = _bytes_to_unicode()
        symbols = ["".join(alphabet[b] for b in piece) for piece in tokenizer.vocab]
    else:
        symbols = [tokenizer.piece(i).decode() for i in range(tokenizer.vocab_size)]
    vocab = {s: i for s, i in _unique(symbols, "tokenizer.json").items()}
    merges = [(symbols[left], symbols[right]) for left, right in tokenizer.merges]
    if tokenizer.mode == "byte":
        try:
            split = pre_tokenizers.Split(Regex(tokenizer.pattern), behavior="isolated")
        except Exception as exc:  # tokenizers raises a bare Exception for Oniguruma's errors
            raise ValueError(f"tokenizers cannot use this tokenizer's pattern: {exc}") from None
        hf = Tokenizer(models.BPE(vocab=vocab, merges=merges))
        hf.pre_tokenizer = pre_tokenizers.Sequence(
            [split, pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
        )
        hf.decoder = decoders.ByteLevel()
    else:
        hf = Tokenizer(models.BPE(vocab=vocab, merges=merges, unk_token=UNK, end_of_word_suffix=END_OF_WORD))
        hf.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        hf.decoder = decoders.BPEDecoder(suffix=END_OF_WORD)
    return hf.to_str(pretty=True)


def to_json(result: BPEResult) -> str:
    """Save a training result (settings, merges, trace) as JSON; ``from_json`` reads it back."""
    tok = result.tokenizer
    return json.dumps(
        {
            "format": "tokenizer-playground/bpe",
            "version": 1,
            "name": tok.name,
            "mode": tok.mode,
            "pattern": tok.pattern,
            "alphabet": list(tok.alphabet),
            "merges": [list(m) for m in tok.merges],
            "tie_break": result.tie_break,
            "stop_reason": result.stop_reason,
            "initial_tokens": result.initial_tokens,
            "trace": [[s.count, s.n_tied, [list(t) for t in s.top], s.tokens_after] for s in result.trace],
        },
        ensure_ascii=False,
    )


def from_json(text: str) -> BPEResult:
    """Read a result saved by ``to_json``; the vocabulary is derived again from the merges.

    >>> from_json(to_json(train("abab", num_merges=1))).tokenizer.encode_ids("ab")
    [256]
    """
    try:
        data = json.loads(text)
        if data.get("format") != "tokenizer-playground/bpe":
            raise KeyError("format")
        tok = BPETokenizer(
            merges=[tuple(m) for m in data["merges"]],
            mode=data["mode"],
            pattern=data["pattern"] or GPT2_PATTERN,
            alphabet=data["alphabet"],
            name=data["name"],
        )
        trace = tuple(
            MergeStep(
                rank, left, right, tok.base_size + rank, tok.piece(tok.base_size + rank),
                count, n_tied, tuple(tuple(t) for t in top), after,
            )
            for rank, ((left, right), (count, n_tied, top, after)) in enumerate(zip(tok.merges, data["trace"], strict=True))
        )
        reason = data["stop_reason"]
        return BPEResult(tok, trace, reason is not None, reason, data["tie_break"], data["initial_tokens"])
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise ValueError(f"this is not a saved BPE result ({exc})") from None


def _tokenizer_of(result: BPEResult | BPETokenizer) -> BPETokenizer:
    return result.tokenizer if isinstance(result, BPEResult) else result


def _unique(pieces: Sequence, target: str) -> dict:
    """``{piece: id}``, or a ValueError when two ids share a piece (the format needs them distinct)."""
    out: dict = {}
    for i, piece in enumerate(pieces):
        if piece in out:
            raise ValueError(f"ids {out[piece]} and {i} are the same piece {piece!r}; {target} needs them distinct")
        out[piece] = i
    return out


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2's printable stand-in character for each byte, as tokenizer.json's ByteLevel uses."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table
