"""Byte-pair encoding trained here, step by step: ``train``, and the ``BPETokenizer`` it returns.

Two training modes share one merge loop:

- ``"byte"``: byte-level BPE (GPT-2 style). A pattern cuts the text into pre-tokens; each starts as
  its UTF-8 bytes (ids 0–255) and merges never cross pre-token borders. Lossless.
- ``"char"``: classic character BPE (Sennrich et al.). The text is split on whitespace; a word starts
  as its characters and the end-of-word marker ``</w>``, in one of two layouts (``END_OF_WORDS``):
  ``"separate"``, the marker a symbol of its own (``low`` → ``l o w </w>``, as in the paper and most
  teaching material, so early merges are often ``a + </w>``), or ``"glued"`` to the last character
  (``l o w</w>``, as subword-nmt does now). Id 0 is ``<unk>`` for characters never seen in training;
  ids 1… are the alphabet: ``</w>`` first when separate, then the characters in code-point order
  (when glued, each ``c`` before ``c</w>``). A bare ``</w>`` token is zero-width at the word's end.
  Whitespace is not kept, so decoding puts one space between words: not lossless.

BPE-dropout (Provilkov et al., 2020): ``sample(text, dropout=p, seed=s)`` encodes with each merge
skipped with probability ``p`` (``p = 0`` is ``encode``, ``p = 1`` leaves bytes or characters).
A character never seen in training (``UNSEEN_CHARACTER``): byte-level BPE still has its bytes;
character BPE makes it ``<unk>``, an ``UNKNOWN`` token over that character only.

The vocabulary is derived from the merges (one source of truth): merge ``rank`` makes id
``base + rank`` whose bytes are its two parts' bytes joined. Encoding replays the merges lowest rank
first inside each pre-token; decoding joins bytes. What this module does not do: special tokens,
normalization, drawing (``ui``). Elsewhere: the incremental pair counts training runs on
(``core.bpe.pair_counts``), the per-text history behind ``segment`` (``core.bpe.history``), the replay
of a real tokenizer's merges (``core.bpe.replay``), export and saving (``core.bpe.export``).

>>> result = train("aaabdaaabac", num_merges=3, min_count=2)
>>> [(piece_label(s.piece), s.count) for s in result.trace]
[('aa', 4), ('ab', 2), ('aaab', 2)]
"""

from __future__ import annotations

import random
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

import numpy as np
import regex

from core.bpe.history import NEVER, History, Merges, build_tokens, byte_owners, merge_lowest_first
from core.bpe.pair_counts import MAX_VOCAB, PairCounts, TieBreak, pair_counts
from core.text.patterns import GPT2_PATTERN, NAMED_PATTERNS
from core.text.pretokenize import MAX_TRAINING_WORD, chunks, compile_pattern, cut_long_words, split
from core.text.textio import without_surrogates
from core.types import TEXT, UNKNOWN, Token

Mode = Literal["byte", "char"]
EndOfWord = Literal["separate", "glued"]

END_OF_WORD = "</w>"
UNK = "<unk>"
# What each tie rule does, in the words the page shows next to the trace (named by what it does,
# not by a project: TIE_MATCHES says which library each matches).
TIE_BREAKS: dict[str, str] = {
    "first_seen": "ties go to the pair seen first in the corpus",
    "largest_pair": "ties go to the largest pair, by its two ids",
    "minbpe": "ties go to the pair met first in the text as the merges so far left it",
}
TIE_MATCHES: dict[str, str] = {
    "first_seen": (
        "the playground's default, which no library follows exactly: a pair of the starting corpus is "
        "numbered where it first occurs, a pair a merge makes after every pair seen before it (Hugging "
        "Face tokenizers breaks ties by its own pair ids, so its merges part from these at the first tie)"
    ),
    "largest_pair": (
        "the largest (left id, right id), what max() over (count, pair) tuples picks: the form of "
        "subword-nmt's learn_bpe, which compares the symbols' text where this compares their ids"
    ),
    "minbpe": (
        "the tied pair that occurs first in the text as the merges so far have left it: what karpathy's "
        "minbpe picks (max() over its pair counts, counted in text order), so its merges come out exactly"
    ),
}
MODES: dict[str, str] = {"byte": "byte-level BPE", "char": "character BPE"}
# Character BPE's two layouts of the end-of-word marker, in the words the page shows.
END_OF_WORDS: dict[str, str] = {
    "separate": "l o w </w>: the marker is a symbol of its own (the original paper)",
    "glued": "l o w</w>: the marker is glued to the last character (subword-nmt today)",
}
UNSEEN_CHARACTER: dict[str, str] = {
    "byte": "A character never seen in training still has its UTF-8 bytes, and every byte is a token: "
    "nothing is lost, the character just costs up to four tokens.",
    "char": f"A character never seen in training is not in the alphabet: it becomes {UNK}, an unknown "
    "token over that character alone, and its text is lost (glued, a last character takes the word's "
    "end with it).",
}
_WORDS = regex.compile(r"\S+")  # char mode's words; the same cut in training and encoding
_SHIFT = 32  # a pair (left, right) is the int left << 32 | right: faster dict keys than tuples
_PROGRESS_CALLS = 100  # progress is reported about this many times, not once per merge
# The training budget, in characters of distinct pre-tokens (each counted once however often it
# occurs): work and memory grow with them (905,502, a megabyte without spaces: about 40 s for 20,000
# merges on a busy 2-core machine, 270 MB). Ordinary corpora repeat their words and stay far below.
MAX_TRAINING_CHARS = 2_000_000
# Up to this many units a pre-token is merged by rescanning its pairs once per rank (fastest for the
# short words of real text); longer ones go through the O(n log n) heap of core.bpe.history.
_SCAN_UNITS = 48
_SPELL_SCAN_UNITS = 12  # the same trade-off in _spell, where parts are many and unlike one another


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
    over a short text costs a bisect per pre-token. A pre-token of n units costs O(n log n) time and
    O(n) memory however long it is (``core.bpe.history``). Every method reads lone surrogates as
    U+FFFD, one for one, so offsets stay valid (``core.text.textio.without_surrogates``).

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
        end_of_word: EndOfWord = "glued",
        name: str | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        _check_end_of_word(end_of_word)
        if mode == "char" and (END_OF_WORD in alphabet) != (end_of_word == "separate"):
            has = "has" if END_OF_WORD in alphabet else "lacks"
            raise ValueError(
                f"the alphabet {has} a separate {END_OF_WORD}: it does not fit the {end_of_word!r} layout"
            )
        self.mode = mode
        self.end_of_word: EndOfWord = end_of_word if mode == "char" else "glued"
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
        self.name = name or default_name(mode, pattern, self.vocab_size, end_of_word=self.end_of_word)
        self._separate = self.mode == "char" and self.end_of_word == "separate"
        self._end_id = self._symbols.get(END_OF_WORD, -1)
        self._chunk_cache: dict[str, tuple[int, ...]] = {}
        self._histories: OrderedDict[str, History] = OrderedDict()
        self._histories_lock = threading.Lock()

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_chunk_cache"], state["_histories"] = {}, OrderedDict()  # caches are not data
        del state["_histories_lock"]  # a lock does not pickle; each copy gets its own
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._histories_lock = threading.Lock()

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
        text = without_surrogates(text)
        memo: dict[tuple[int, ...], list[int]] = {}
        tokens: list[Token] = []
        for start, ids, owners in self._chunk_units(text):
            key = tuple(ids)
            final = memo.get(key)
            if final is None:
                final = memo[key] = self._merge_ids(ids)
            tokens.extend(build_tokens(final, start, owners, self._info))
        return self._zero_width_ends(tokens)

    def sample(self, text: str, *, dropout: float = 0.1, seed: int | None = None) -> list[Token]:
        """Tokens of ``text`` under BPE-dropout: each merge skipped with probability ``dropout``.

        Subtle: a skipped merge waits and can still apply once another merge has (Hugging Face
        tokenizers' rule), so the same word can come out cut differently each time it occurs. The
        same ``seed`` gives the same tokens; ``dropout=0`` gives ``encode``'s, ``dropout=1`` the
        bytes (or characters) the merges start from.

        >>> tok = BPETokenizer(merges=[(104, 105)])
        >>> [t.bytes for t in tok.sample("hi", dropout=1.0)], [t.bytes for t in tok.sample("hi", dropout=0.0)]
        ([b'h', b'i'], [b'hi'])
        """
        if not 0.0 <= dropout <= 1.0:
            raise ValueError(f"dropout must be between 0 and 1, not {dropout}")
        if dropout == 0.0:
            return self.encode(text)
        draw = random.Random(seed).random
        get = self._ranks.get

        def pair_rank(first: int, mid: int, end: int, left: int, right: int) -> int:
            return get((left << _SHIFT) | right, NEVER)

        def skip() -> bool:
            return draw() < dropout

        tokens: list[Token] = []
        for start, ids, owners in self._chunk_units(without_surrogates(text)):
            final = merge_lowest_first(ids, pair_rank, id_offset=self.base_size, skip=skip)[0]
            tokens.extend(build_tokens(final, start, owners, self._info))
        return self._zero_width_ends(tokens)

    def encode_ids(self, text: str) -> list[int]:
        """Only the ids of ``text``: the fast path for measuring (no offsets, no Token objects).

        >>> BPETokenizer(merges=[(104, 105)]).encode_ids("hi hi")
        [256, 32, 256]
        """
        ids: list[int] = []
        cache = self._chunk_cache
        if len(cache) > 200_000:
            cache.clear()
        for chunk in self._chunk_strings(without_surrogates(text)):
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
        return self._zero_width_ends(self._history(text).tokens(k, self._info))

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

    def _history(self, text: str) -> History:
        """The history of ``text``, from the cache of the 8 last texts or built now.

        Subtle: one trained tokenizer is shared by every Streamlit session (threads), so the
        cache's look-up, insertion and eviction happen under a lock; building a history happens
        outside it (two sessions may build the same one; the second simply replaces the first).
        """
        text = without_surrogates(text)
        with self._histories_lock:
            history = self._histories.get(text)
            if history is not None:
                self._histories.move_to_end(text)
                return history
        memo: dict[tuple[int, ...], Merges] = {}
        rows = []
        for start, ids, owners in self._chunk_units(text):
            made = memo.get(tuple(ids))
            if made is None:
                made = memo[tuple(ids)] = Merges(ids, self._merge_steps(ids)[1])
            rows.append((start, owners, made))
        history = History(rows)
        with self._histories_lock:
            self._histories[text] = history
            self._histories.move_to_end(text)
            while len(self._histories) > 8:
                self._histories.popitem(last=False)
        return history

    def _chunk_strings(self, text: str) -> list[str]:
        return chunks(text, self.pattern) if self.mode == "byte" else _WORDS.findall(text)

    def _chunk_units(self, text: str) -> list[tuple[int, list[int], list[int]]]:
        """Per pre-token: its start, its starting ids, and each id's length in code points."""
        out = []
        if self.mode == "byte":
            for start, end in split(text, self.pattern):
                chunk = text[start:end]
                out.append((start, self._units(chunk), byte_owners(chunk)))
        else:
            # subtle: a separate </w> unit belongs to the word's last character, so a token that
            # ends with it ends there; a bare </w> token is made zero-width by _zero_width_ends
            for match in _WORDS.finditer(text):
                word = match.group()
                owners = list(range(len(word)))
                if self._separate:
                    owners.append(len(word) - 1)
                out.append((match.start(), self._units(word), owners))
        return out

    def _zero_width_ends(self, tokens: list[Token]) -> list[Token]:
        """A bare separate ``</w>`` covers no character: it stands, zero-width, where its word ends."""
        if not self._separate:
            return tokens
        end_id = self._end_id
        return [t._replace(start=t.end) if t.id == end_id else t for t in tokens]

    def _units(self, chunk: str) -> list[int]:
        if self.mode == "byte":
            return list(chunk.encode())
        symbols = self._symbols
        if self._separate:
            return [symbols.get(c, 0) for c in chunk] + [self._end_id]
        ids = [symbols.get(c, 0) for c in chunk[:-1]]
        ids.append(symbols.get(chunk[-1] + END_OF_WORD, 0))
        return ids

    def _merge_ids(self, ids: list[int]) -> list[int]:
        """The ids after every merge, lowest rank first; each rank replaces all its pairs, left to right.

        Subtle: the rescan and the heap agree. A merge's new id is younger than every id in the
        merges of lower rank, so the pairs it creates rank higher: one rank's pairs merge together.
        """
        if len(ids) > _SCAN_UNITS:
            return self._merge_steps(ids)[0]
        get, base = self._ranks.get, self.base_size
        while len(ids) > 1:
            rank = min([get(key, NEVER) for key in _pair_keys(ids)])
            if rank == NEVER:
                break
            left, right = self.merges[rank]
            ids = _replace_pair(ids, left, right, base + rank)
        return ids

    def _merge_steps(self, ids: list[int]) -> tuple[list[int], list]:
        """The final ids and every single merge ``(rank, first, mid, end, new id)``, in O(n log n)."""
        get = self._ranks.get

        def pair_rank(first: int, mid: int, end: int, left: int, right: int) -> int:
            return get((left << _SHIFT) | right, NEVER)

        return merge_lowest_first(ids, pair_rank, id_offset=self.base_size)

    def _describe(self) -> list[tuple[bytes, int, str]]:
        """Per id: the bytes a Token carries, how many units (bytes or characters) it spans, its kind."""
        if self.mode == "byte":
            return [(b, len(b), TEXT) for b in self.vocab]
        separate = self.end_of_word == "separate"  # then a word end is a unit of its own, </w>
        units = [len(b.decode()) + (separate and ends) for b, ends in zip(self.vocab, self._ends_word, strict=True)]
        return [(b"", 1, UNKNOWN)] + [(b, n, TEXT) for b, n in zip(self.vocab[1:], units[1:], strict=True)]


def default_name(mode: Mode, pattern: str, vocab_size: int, *, end_of_word: EndOfWord = "glued") -> str:
    """A readable name for a tokenizer trained here.

    >>> default_name("byte", GPT2_PATTERN, 2000)
    'BPE trained here (byte-level, GPT-2 pattern, 2,000 tokens)'
    >>> default_name("char", "", 90, end_of_word="separate")
    'BPE trained here (character, l o w </w>, 90 tokens)'
    """
    if mode == "char":
        layout = f"l o w {END_OF_WORD}" if end_of_word == "separate" else f"l o w{END_OF_WORD}"
        return f"BPE trained here (character, {layout}, {vocab_size:,} tokens)"
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


@dataclass(frozen=True)
class BPEResult:
    """What training returns: the tokenizer, the trace of merges, and whether it stopped early.

    ``initial_tokens`` is the training corpus's size in tokens before any merge (its bytes, or its
    characters in char mode); with each step's ``tokens_after`` it draws tokens-vs-vocabulary
    without re-encoding anything. ``words_cut`` counts the distinct pre-tokens (words in char mode)
    longer than ``core.text.pretokenize.MAX_TRAINING_WORD`` characters that training read cut into pieces.
    """

    tokenizer: BPETokenizer
    trace: tuple[MergeStep, ...]
    stopped_early: bool
    stop_reason: str | None
    tie_break: TieBreak
    initial_tokens: int
    words_cut: int = 0

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
    end_of_word: EndOfWord = "glued",
    top_k: int = 10,
    min_count: int = 1,
    progress: Callable[[int, int], None] | None = None,
    name: str | None = None,
    start_merges: Sequence[tuple[int, int]] = (),
    max_chars: int | None = MAX_TRAINING_CHARS,
) -> BPEResult:
    """Learn BPE merges from ``corpus``: give ``vocab_size`` or ``num_merges``.

    Subtle: pair counts are kept up to date incrementally (only words holding the merged pair are
    touched) and the best pair comes from a heap with lazy deletion, so the corpus is counted once.
    Ties go by ``tie_break``: ``"first_seen"`` takes the pair seen first in corpus order (pairs of the
    starting corpus are numbered by first occurrence; a pair a merge creates is numbered after every
    pair seen before, in the corpus order of its first creation); ``"largest_pair"`` takes the
    largest ``(left, right)``, as ``max`` over ``(count, pair)`` tuples would; ``"minbpe"`` takes the
    top pair whose first occurrence comes first in the corpus as it stands after the merges so far,
    which is what minbpe's ``max(stats, key=stats.get)`` does, so its merges come out exactly (subtle:
    not ``"largest_pair"``, whatever the shape of that ``max`` suggests). Training stops early,
    and says why, when no pair occurs ``min_count`` times. ``progress(done, total)`` is called before
    the first merge and about a hundred times after, not once per merge; an exception it raises (a
    page's Stop button) ends the training there, with nothing kept. Pre-tokens longer than
    ``core.text.pretokenize.MAX_TRAINING_WORD`` characters are cut into pieces that long (a text without
    spaces is one pre-token); encoding does not cut. ``max_chars`` bounds the characters of distinct
    pre-tokens trained on (``MAX_TRAINING_CHARS``; ``None`` lifts it, as the command line does): a
    corpus over it is refused at once. Lone surrogates in ``corpus`` are read as U+FFFD.
    ``end_of_word`` picks character BPE's layout of ``</w>`` (see the module's docstring).

    ``start_merges`` (byte mode) continues training after merges learned before, possibly with
    another pattern (SuperBPE's second stage, ``core.beyond.superbpe``): each chunk starts as its ids once
    those merges are applied, lowest rank first, as ``encode`` applies them; the new merges' ranks and
    ids follow them. ``vocab_size`` counts every token; the trace holds only the new merges and
    ``initial_tokens`` is the corpus after the start merges; the tokenizer holds all merges.

    >>> result = train("low low low lower", num_merges=2, mode="char")
    >>> [piece_label(step.piece) for step in result.trace]
    ['lo', 'low</w>']
    >>> result = train("low low low lower", num_merges=3, mode="char", end_of_word="separate")
    >>> [piece_label(step.piece) for step in result.trace]
    ['lo', 'low', 'low</w>']
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {', '.join(TIE_BREAKS)}, not {tie_break!r}")
    if top_k < 1:
        raise ValueError("top_k must be at least 1")
    if min_count < 1:
        raise ValueError("min_count must be at least 1")
    _check_end_of_word(end_of_word)
    start = _start(start_merges, mode, pattern, vocab_size)
    if mode == "byte":
        _merges_wanted(vocab_size, num_merges, mode, start.vocab_size)  # fail fast, before reading the corpus
    separate = mode == "char" and end_of_word == "separate"
    counted, alphabet, words_cut = _count_words(without_surrogates(corpus), mode, pattern, separate=separate)
    if not counted:
        raise ValueError("the corpus is empty: give it some text to learn merges from")
    _check_budget(counted, max_chars)
    base = start.vocab_size if mode == "byte" else len(alphabet) + 1
    merges_wanted = _merges_wanted(vocab_size, num_merges, mode, base)
    if mode == "byte" and start.merges:
        words = _spell(start, counted)
        pieces = list(start.vocab)
    elif mode == "byte":
        words = [chunk.encode().decode("latin-1") for chunk in counted]  # one character per byte
        pieces = [bytes([i]) for i in range(256)]
    else:
        symbols = {s: chr(i + 1) for i, s in enumerate(alphabet)}
        if separate:
            words = ["".join([symbols[c] for c in w]) + symbols[END_OF_WORD] for w in counted]
        else:
            words = ["".join([symbols[c] for c in w[:-1]] + [symbols[w[-1] + END_OF_WORD]]) for w in counted]
        pieces = [UNK.encode()] + [s.encode() for s in alphabet]
    counts = pair_counts(words, list(counted.values()), tie_break=tie_break)
    trace = _run_merges(
        counts, merges_wanted, first_id=base, first_rank=len(start.merges), pieces=pieces, top_k=top_k,
        min_count=min_count, progress=progress,
    )
    stop_reason = None
    if len(trace) < merges_wanted:
        rule = "is left to merge" if min_count == 1 else f"occurs {min_count} times or more"
        stop_reason = (
            f"stopped after {len(trace):,} of {merges_wanted:,} merges: no pair {rule} "
            f"(vocabulary {base + len(trace):,} instead of {base + merges_wanted:,})"
        )
    tokenizer = BPETokenizer(
        merges=[*start.merges, *((s.left, s.right) for s in trace)], mode=mode, pattern=pattern,
        alphabet=alphabet, end_of_word=end_of_word, name=name,
    )
    return BPEResult(
        tokenizer, tuple(trace), stop_reason is not None, stop_reason, tie_break, counts.initial_tokens, words_cut,
    )


def _run_merges(
    counts: PairCounts,
    merges_wanted: int,
    *,
    first_id: int,
    first_rank: int = 0,
    pieces: list[bytes],
    top_k: int,
    min_count: int,
    progress: Callable[[int, int], None] | None,
) -> list[MergeStep]:
    """Merge the best pair ``merges_wanted`` times, or until none occurs ``min_count`` times.

    The ``i``-th merge gets rank ``first_rank + i`` and id ``first_id + i``.
    """
    trace: list[MergeStep] = []
    every = max(1, merges_wanted // _PROGRESS_CALLS)
    if progress is not None:
        progress(0, merges_wanted)
    for i in range(merges_wanted):
        top = counts.leaders(top_k)
        if not top or top[0][2] < min_count:
            break
        left, right, count = top[0]
        new_id = first_id + i
        tied = counts.histogram[count]
        counts.merge(left, right, new_id, count)
        pieces.append(pieces[left] + pieces[right])
        trace.append(
            MergeStep(first_rank + i, left, right, new_id, pieces[-1], count, tied, tuple(top), counts.tokens)
        )
        if progress is not None and (i + 1) % every == 0:
            progress(i + 1, merges_wanted)
    if progress is not None:
        progress(merges_wanted, merges_wanted)
    return trace


def _start(
    start_merges: Sequence[tuple[int, int]], mode: Mode, pattern: str, vocab_size: int | None
) -> BPETokenizer:
    """The tokenizer training continues from: bytes alone, or bytes and ``start_merges``."""
    if start_merges and mode != "byte":
        raise ValueError("start_merges works in byte mode only")
    start = BPETokenizer(merges=start_merges, pattern=pattern) if mode == "byte" else BPETokenizer(merges=())
    if start.merges and vocab_size is not None and vocab_size < start.vocab_size:
        raise ValueError(
            f"vocab_size must be at least {start.vocab_size:,}: the bytes and the start merges already make "
            f"{start.vocab_size:,} tokens"
        )
    return start


def _spell(start: BPETokenizer, chunks: Iterable[str]) -> list[str]:
    """Each chunk as its ids once ``start``'s merges apply to it whole, lowest rank first (as
    ``_merge_ids``), spelled one character per id for ``PairCounts``.

    Subtle: fast on long chunks (SuperBPE's lines) because a chunk is first cut between bytes ``a`` and
    ``b`` that sit next to each other in no token of the vocabulary. No merge can cross such a cut (the
    token it made would hold ``a`` next to ``b``), so the parts merge independently, and equal parts
    (with the GPT-2 pattern's merges: a word and the space before it, mostly) are merged once.
    """
    joined = np.zeros(1 << 16, dtype=bool)  # a << 8 | b -> some token holds byte a right before byte b
    for token in start.vocab[256:]:
        joined[[a << 8 | b for a, b in zip(token, token[1:], strict=False)]] = True
    memo: dict[bytes, str] = {}
    words = []
    for chunk in chunks:
        data = chunk.encode()
        array = np.frombuffer(data, dtype=np.uint8).astype(np.int64)
        cuts = [0, *(np.flatnonzero(~joined[array[:-1] << 8 | array[1:]]) + 1).tolist(), len(data)]
        parts = []
        for begin, end in zip(cuts, cuts[1:], strict=False):
            part = data[begin:end]
            spelled = memo.get(part)
            if spelled is None:
                ids = list(part)
                # the rescan suits a word; longer runs (Chinese, Japanese: no spaces to cut at) take the heap
                merged = start._merge_ids(ids) if len(ids) <= _SPELL_SCAN_UNITS else start._merge_steps(ids)[0]
                spelled = memo[part] = "".join(map(chr, merged))
            parts.append(spelled)
        words.append("".join(parts))
    return words


def _count_words(
    corpus: str, mode: Mode, pattern: str, *, separate: bool = False
) -> tuple[Counter[str], tuple[str, ...], int]:
    """Pre-tokens (byte mode) or words (char mode) with their counts, in order of first appearance
    (those over ``MAX_TRAINING_WORD`` characters cut into pieces of that many: ``cut_long_words``; how
    many distinct ones were cut comes third),
    and in char mode the alphabet: each character, and ``c</w>`` for each character ending a word
    (glued) or one ``</w>`` first (separate)."""
    found = Counter(chunks(corpus, pattern) if mode == "byte" else _WORDS.findall(corpus))
    cut = sum(len(word) > MAX_TRAINING_WORD for word in found)
    counted = cut_long_words(found)
    if mode == "byte":
        return counted, (), cut
    if separate:
        return counted, (END_OF_WORD, *sorted(set().union(*counted))), cut
    inner = {c for word in counted for c in word[:-1]}
    return counted, tuple(sorted(inner | {word[-1] + END_OF_WORD for word in counted})), cut


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
            f"(its characters, {END_OF_WORD} and {UNK})"
        )
    else:
        num_merges = vocab_size - base
    if base + num_merges > MAX_VOCAB:
        raise ValueError(f"the vocabulary can have at most {MAX_VOCAB:,} tokens")
    return num_merges


def _check_budget(counted: Counter[str], max_chars: int | None) -> None:
    distinct = sum(map(len, counted))
    if max_chars is not None and distinct > max_chars:
        raise ValueError(
            f"the corpus has {distinct:,} characters in distinct pre-tokens, and BPE trains here on at most "
            f"{max_chars:,}; a text with few spaces repeats few words: train on a smaller part of it"
        )


def _check_end_of_word(end_of_word: str) -> None:
    if end_of_word not in END_OF_WORDS:
        raise ValueError(f"end_of_word must be one of {', '.join(END_OF_WORDS)}, not {end_of_word!r}")
