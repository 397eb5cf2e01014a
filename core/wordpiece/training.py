"""WordPiece training: grow a vocabulary from characters by merging the pair with the best score.

The score of a pair is ``count(ab) / (count(a) * count(b))``; ``core.wordpiece`` says why and how
it differs from BPE and from Hugging Face's trainer. What this module does not do: encode
(``core.wordpiece.tokenizer``), keep the counts (``core.wordpiece.pair_scores``), draw (``ui``).
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

from core.text.patterns import BERT_PATTERN
from core.text.pretokenize import compile_pattern
from core.text.textio import without_surrogates
from core.wordpiece.pair_scores import Candidate, PairScores
from core.wordpiece.tokenizer import (
    MAX_CHARS_PER_WORD,
    PREFIX,
    UNK,
    WordPieceTokenizer,
    count_words,
    default_name,
)

MAX_VOCAB = 0x110000  # a symbol id is spelled as one character, chr(id), while training
_PROGRESS_CALLS = 100  # progress is reported about this many times, not once per merge
_new = tuple.__new__  # makes a named tuple without its Python-level ``__new__``: one per merge


class WordPieceStep(NamedTuple):
    """One merge of training: which pair became which piece, its score, and the race it won.

    ``piece`` is the new piece's label (``##`` on a continuation). ``new_id`` is usually a new id;
    ``added`` is false when another merge had already made the same piece (``ab`` + ``##c`` and
    ``a`` + ``##bc`` both spell ``abc``), which then gets more occurrences but the vocabulary does
    not grow. ``n_tied`` is how many pairs had exactly the winning score (1 when there was no tie;
    ties go to the pair seen first in corpus order); ``top`` is the leaderboard, best first;
    ``tokens_after`` is the size of the training corpus in tokens once this merge is applied.

    A named tuple, as ``Candidate``: training makes one per merge, thousands, and a frozen dataclass
    took ten times as long to build (each field set through ``object.__setattr__``).
    """

    rank: int
    left: int
    right: int
    new_id: int
    piece: str
    score: float
    count: int
    left_count: int
    right_count: int
    n_tied: int
    top: tuple[Candidate, ...]
    tokens_after: int
    added: bool


@dataclass(frozen=True)
class WordPieceResult:
    """What training returns: the tokenizer, the trace of merges, and whether it stopped early.

    ``base_size`` is ``[UNK]`` plus the alphabet (every character that starts a word, and as
    ``##c`` every one that continues one); ``initial_tokens`` the training corpus in characters;
    ``skipped_words`` how many word occurrences were longer than ``max_chars_per_word`` and left out
    (they would only ever be ``[UNK]``).
    """

    tokenizer: WordPieceTokenizer
    trace: tuple[WordPieceStep, ...]
    stopped_early: bool
    stop_reason: str | None
    initial_tokens: int
    base_size: int
    skipped_words: int

    def corpus_tokens(self, k: int) -> int:
        """Tokens in the training corpus after the first ``k`` merges.

        >>> train("hug hug pug", vocab_size=7).corpus_tokens(1)
        7
        """
        if not 0 <= k <= len(self.trace):
            raise ValueError(f"k must be between 0 and {len(self.trace)}, not {k}")
        return self.trace[k - 1].tokens_after if k else self.initial_tokens

    def tokenizer_at(self, vocab_size: int, *, name: str | None = None) -> WordPieceTokenizer:
        """The tokenizer training would have returned for a smaller ``vocab_size``: a prefix of this one.

        Subtle: training is greedy and deterministic, so a longer run passes through every shorter
        one; one run serves every size up to its own.

        >>> train("hug hug pug", vocab_size=8).tokenizer_at(7).pieces
        ('[UNK]', '##g', 'h', 'p', '##u', 'hu', 'pu')
        """
        full = self.tokenizer
        if not self.base_size <= vocab_size <= full.vocab_size:
            raise ValueError(
                f"vocab_size must be between {self.base_size:,} and {full.vocab_size:,}, not {vocab_size:,}"
            )
        return WordPieceTokenizer(
            pieces=full.pieces[:vocab_size], continuation=full.continuation[:vocab_size], pattern=full.pattern,
            lowercase=full.lowercase, max_chars_per_word=full.max_chars_per_word,
            name=name or default_name(vocab_size, lowercase=full.lowercase),
        )


def train(
    corpus: str,
    *,
    vocab_size: int,
    pattern: str = BERT_PATTERN,
    lowercase: bool = False,
    max_chars_per_word: int = MAX_CHARS_PER_WORD,
    min_count: int = 1,
    top_k: int = 10,
    progress: Callable[[int, int], None] | None = None,
    name: str | None = None,
) -> WordPieceResult:
    """Learn a WordPiece vocabulary of ``vocab_size`` pieces (``[UNK]`` included) from ``corpus``.

    Words are the matches of ``pattern`` (BERT's: whitespace and punctuation) that are not only
    whitespace, lowercased when ``lowercase``; each starts as its first character followed by
    ``##`` continuations of the others. Each step merges the pair with the highest
    ``count(ab) / (count(a) * count(b))`` (ties: the pair seen first in corpus order) until the
    vocabulary has ``vocab_size`` pieces. Only pairs occurring ``min_count`` times or more compete (as
    ``min_frequency`` in Hugging Face's trainers): the score alone favours pairs of rare symbols, a name
    seen once scores 1. Training stops early, and says why, when no pair is left to merge.
    ``progress(done, total)`` is called about a hundred times; an exception it raises (a page's Stop
    button) ends the training there. Lone surrogates read as U+FFFD.

    >>> result = train("hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5, vocab_size=11)
    >>> [(step.piece, step.count, step.left_count, step.right_count) for step in result.trace]
    [('##gs', 5, 20, 5), ('hu', 15, 15, 36), ('hugs', 5, 15, 5)]
    """
    if top_k < 1:
        raise ValueError("top_k must be at least 1")
    if min_count < 1:
        raise ValueError("min_count must be at least 1")
    if max_chars_per_word < 1:
        raise ValueError("max_chars_per_word must be at least 1")
    if not 2 <= vocab_size < MAX_VOCAB:
        raise ValueError(f"vocab_size must be between 2 and {MAX_VOCAB - 1:,}, not {vocab_size:,}")
    compile_pattern(pattern)
    counted, skipped = _count_words(without_surrogates(corpus), pattern, lowercase, max_chars_per_word)
    if not counted:
        if skipped:
            raise ValueError(f"every word of the corpus is longer than max_chars_per_word ({max_chars_per_word})")
        raise ValueError("the corpus has no words: give it some text to learn from")
    labels, flags = _alphabet(counted)
    base = len(labels)
    if vocab_size < base:
        raise ValueError(
            f"vocab_size must be at least {base:,}: {UNK} and the corpus's alphabet (each character "
            "that starts a word, and with ## each one that continues a word) come first"
        )
    texts = [label.removeprefix(PREFIX) if flag else label for label, flag in zip(labels, flags, strict=True)]
    # subtle: [UNK] (id 0) is not a piece of text; a word spelled "[UNK]" gets pieces of its own
    ids = {(text, flag): i for i, (text, flag) in enumerate(zip(texts, flags, strict=True)) if i}
    first = {text: chr(i) for (text, flag), i in ids.items() if not flag}
    rest = str.maketrans({text: chr(i) for (text, flag), i in ids.items() if flag})
    words = [first[w[0]] + w[1:].translate(rest) for w in counted]
    with _no_cycle_collection():
        scores = PairScores(words, list(counted.values()), min_count=min_count)
        trace = _run_merges(scores, vocab_size, labels, flags, texts, ids, top_k=top_k, progress=progress)
        initial_tokens = scores.initial_tokens
        del scores  # before the collector is back on: see ``_no_cycle_collection``
        tokenizer = WordPieceTokenizer(
            pieces=labels, continuation=flags, pattern=pattern, lowercase=lowercase,
            max_chars_per_word=max_chars_per_word, name=name,
        )
    stop_reason = None
    if len(labels) < vocab_size:
        rule = f"no pair occurs {min_count:,} times or more"
        if min_count == 1:
            rule = "every word of the corpus is a single piece already"
        stop_reason = f"stopped at {len(labels):,} of {vocab_size:,} pieces: {rule}, so no pair is left to merge"
    stopped = stop_reason is not None
    return WordPieceResult(tokenizer, tuple(trace), stopped, stop_reason, initial_tokens, base, skipped)


def _run_merges(
    scores: PairScores,
    vocab_size: int,
    labels: list[str],
    flags: list[bool],
    texts: list[str],
    ids: dict[tuple[str, bool], int],
    *,
    top_k: int,
    progress: Callable[[int, int], None] | None,
) -> list[WordPieceStep]:
    """Merge the best pair until the vocabulary has ``vocab_size`` pieces or no pair is left.

    ``labels``, ``flags``, ``texts`` and ``ids`` grow with every new piece.
    """
    trace: list[WordPieceStep] = []
    base = len(labels)
    wanted = vocab_size - base
    every = max(1, wanted // _PROGRESS_CALLS)
    while len(labels) < vocab_size:
        board = scores.board(top_k)
        if not board:
            break
        left, right, score, count, left_count, right_count = board[0]
        pair = chr(left) + chr(right)
        key = (texts[left] + texts[right], flags[left])
        new_id = ids.get(key)
        added = new_id is None
        if added:
            new_id = ids[key] = len(labels)
            texts.append(key[0])
            flags.append(key[1])
            labels.append(PREFIX + key[0] if key[1] else key[0])
        n_tied = scores.n_tied(pair)
        scores.merge(pair, chr(new_id))
        trace.append(_new(WordPieceStep, (
            len(trace), left, right, new_id, labels[new_id], score, count, left_count, right_count, n_tied, board,
            scores.tokens, added,
        )))
        if progress is not None and added and (len(labels) - base) % every == 0:
            progress(len(labels) - base, wanted)
    if progress is not None:
        progress(wanted, wanted)
    return trace


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Pause Python's cycle collector, if on, and switch it back on after.

    Subtle: training makes tens of thousands of sets (the words holding each pair) and step records
    that stay alive to the end and hold no cycles, so a collection frees nothing; but each of these
    objects counts toward the next one, and a full collection walks them all (and every other
    object of the process): 5 to 10 % of the time at a vocabulary of 8,000 (bench/algorithms_train.py).
    Reference counting still frees everything else as usual. The first collection once the collector
    is back on walks every object made meanwhile and still alive: ``train`` lets the pair scores
    (their sets and lists) go first, so that only the trace is left to walk (at 8,000 pieces on Tiny
    Shakespeare, 46,000 objects instead of 58,000). The tokenizer is built before too: its tens of
    thousands of short-lived tuples would set off collections, one of which (of the second
    generation) walked the trace a second time (30 ms at 8,000 pieces on a busy machine).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _count_words(corpus: str, pattern: str, lowercase: bool, max_chars: int) -> tuple[Counter[str], int]:
    """Words with their counts in order of first appearance, as the tokenizer will see them, and how
    many occurrences were too long to keep."""
    found = count_words(corpus, pattern)
    if lowercase:
        normalize = WordPieceTokenizer(pieces=[UNK], pattern=pattern, lowercase=True)._normalize
        lowered: Counter[str] = Counter()
        for chunk, n in found.items():
            lowered[normalize(chunk)[0]] += n
        found = lowered
    if max(map(len, found), default=0) <= max_chars:
        return found, 0
    kept = Counter({word: n for word, n in found.items() if len(word) <= max_chars})
    return kept, sum(found.values()) - sum(kept.values())


def _alphabet(counted: Counter[str]) -> tuple[list[str], list[bool]]:
    """``[UNK]``, then each character in code-point order: as a word start and as ``##c``, where seen."""
    starts = {word[0] for word in counted}
    inner = set().union(*(word[1:] for word in counted))
    labels, flags = [UNK], [False]
    for ch in sorted(starts | inner):
        if ch in starts:
            labels.append(ch)
            flags.append(False)
        if ch in inner:
            labels.append(PREFIX + ch)
            flags.append(True)
    return labels, flags
