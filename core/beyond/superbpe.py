"""Superword BPE in the spirit of SuperBPE (Liu et al., 2025): subwords first, then tokens across spaces.

Plain byte-level BPE never merges across the chunks its pattern cuts, so " of" and " the" stay two
tokens however often they meet. SuperBPE trains in two stages:

1. **Stage 1**: plain byte-level BPE with the GPT-2 pattern (``core.bpe.train``) up to a
   *transition* vocabulary size ``t``.
2. **Stage 2**: training resumes from those ``t`` vocabulary entries with the whitespace
   pre-tokenization lifted: ``STAGE2_PATTERN`` cuts only at line breaks and around numbers, so
   merges may now cross spaces (", and", " of the", " in order to").

The result is one ``core.bpe.BPETokenizer`` holding all merges with the stage-2 pattern, which is
what the authors' tokenizers are (a merge list and a pre-tokenizer): encoding applies every merge,
lowest rank first, inside each line. Training stage 2 starts each chunk from exactly that (the first
``t`` merges applied to the whole chunk), so training and encoding agree.

Subtle: because the stage-1 merges then apply to whole lines, a few cuts differ from plain BPE's at
the same ``t`` even before any stage-2 merge: a merge of two spaces can now take the space in front
of a word inside a run of spaces ("a␣␣␣b"). Words separated by single spaces cut as plain BPE cuts
them. The merge list up to ``t`` is plain BPE's, merge for merge.

>>> result = train("in order to see the cat, in order to see the hat\\n" * 20, vocab_size=272, transition=270)
>>> result.superword_labels()
['in order', ' to see']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from core import bpe
from core.text.patterns import GPT2_PATTERN

# SuperBPE's stage 2 (the authors' train_tokenizer.py and its trainer, which reads one line at a
# time): no whitespace pre-tokenization; numbers in groups of three digits counted from the right
# ("1234567" -> "1", "234", "567"); line breaks on their own. Everything else on a line is one chunk.
STAGE2_PATTERN = r"""\p{N}{1,3}(?=(?:\p{N}{3})*(?!\p{N}))|[^\r\n\p{N}]+|[\r\n]+"""
STAGE1_PATTERN = GPT2_PATTERN
# A token spans a word boundary when whitespace follows something that is not whitespace.
_CROSSES_A_SPACE = regex.compile(rb"\S\s")


def is_superword(piece: bytes) -> bool:
    """Whether a token's bytes cross a word boundary (whitespace after a non-space).

    >>> is_superword(b" of the"), is_superword(b", and"), is_superword(b" the"), is_superword(b"   ")
    (True, True, False, False)
    """
    return _CROSSES_A_SPACE.search(piece) is not None


@dataclass(frozen=True)
class SuperBPEResult:
    """Both stages: the merges learned before and after the transition, and the final tokenizer.

    ``stage1`` and ``stage2`` are ``core.bpe.BPEResult``s; ``stage2.trace`` continues the ranks and
    ids of ``stage1`` (its first merge makes id ``transition``). ``tokenizer`` holds all merges.
    """

    stage1: bpe.BPEResult
    stage2: bpe.BPEResult
    transition: int

    @property
    def tokenizer(self) -> bpe.BPETokenizer:
        return self.stage2.tokenizer

    @property
    def vocab_size(self) -> int:
        return self.tokenizer.vocab_size

    @property
    def stop_reason(self) -> str | None:
        return self.stage1.stop_reason or self.stage2.stop_reason

    def superwords(self) -> list[bpe.MergeStep]:
        """The stage-2 merges whose token crosses a word boundary, in the order they were learned."""
        return [step for step in self.stage2.trace if is_superword(step.piece)]

    def superword_labels(self) -> list[str]:
        """The superword tokens as text (``core.bpe.piece_label``), in the order they were learned."""
        return [bpe.piece_label(step.piece) for step in self.superwords()]


def train(
    corpus: str,
    *,
    vocab_size: int,
    transition: int,
    stage1: bpe.BPEResult | None = None,
    min_count: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> SuperBPEResult:
    """Train superword BPE on ``corpus``: plain BPE up to ``transition`` tokens, then across spaces.

    ``stage1`` may be a plain BPE trained on the same ``corpus`` with ``STAGE1_PATTERN`` and at least
    ``transition`` tokens (the baseline a page trains anyway); its first merges are reused instead of
    training them again. Stage 2 stops early, and says why, when no pair occurs ``min_count`` times.
    ``progress(done, total)`` counts merges of both stages.
    """
    if transition < 256:
        raise ValueError("the transition must be at least 256, the byte vocabulary every BPE starts from")
    if vocab_size < transition:
        raise ValueError(
            f"the vocabulary ({vocab_size:,}) must be at least the transition ({transition:,}): "
            "stage 2 only adds tokens"
        )
    first = transition - 256
    total = vocab_size - 256

    def stage_progress(offset: int) -> Callable[[int, int], None] | None:
        if progress is None:
            return None
        return lambda done, _: progress(offset + done, total)

    if stage1 is None or len(stage1.trace) < first or stage1.tokenizer.pattern != STAGE1_PATTERN:
        stage1 = bpe.train(corpus, num_merges=first, pattern=STAGE1_PATTERN, progress=stage_progress(0))
    elif len(stage1.trace) > first:
        stage1 = plain_prefix(stage1, transition)
    if len(stage1.trace) < first:  # the corpus ran out of pairs before the transition
        transition = 256 + len(stage1.trace)
    stage2 = bpe.train(
        corpus, num_merges=vocab_size - transition, pattern=STAGE2_PATTERN, min_count=min_count,
        start_merges=stage1.tokenizer.merges, progress=stage_progress(transition - 256),
    )
    return SuperBPEResult(stage1, stage2, transition)


def plain_prefix(result: bpe.BPEResult, vocab_size: int) -> bpe.BPEResult:
    """A plain BPE result cut at ``vocab_size`` tokens: what training to that size gives (training is
    greedy, so a shorter run makes the same first merges).

    >>> full = bpe.train("abcabcabd", vocab_size=259)
    >>> [s.new_id for s in plain_prefix(full, 257).trace]
    [256]
    """
    k = vocab_size - 256
    if not 0 <= k <= len(result.trace):
        raise ValueError(f"vocab_size must be between 256 and {256 + len(result.trace):,}, not {vocab_size:,}")
    if k == len(result.trace):
        return result
    trace = result.trace[:k]
    tokenizer = bpe.BPETokenizer(merges=[(s.left, s.right) for s in trace], pattern=result.tokenizer.pattern)
    return bpe.BPEResult(tokenizer, trace, False, None, result.tie_break, result.initial_tokens)
