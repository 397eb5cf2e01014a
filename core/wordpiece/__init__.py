"""WordPiece trained here: ``train``, and the ``WordPieceTokenizer`` it returns.

Training starts from characters: a word is its first character followed by the others as
continuation pieces (``hug`` → ``h ##u ##g``), and each step merges the adjacent pair with the highest
score ``count(ab) / (count(a) · count(b))``, counts taken over the corpus as currently cut. Encoding
takes, from the start of each word, the longest piece in the vocabulary, then the longest ``##``
piece for the rest, and so on; a word that cannot be cut all the way, or is longer than
``max_chars_per_word``, becomes a single ``[UNK]``.

How this differs from BPE (``core.bpe``): BPE merges the most *frequent* pair, so its first merges
join common letters (``e`` + ``##r``). The WordPiece score divides by how common the two parts are,
so it prefers pairs whose parts rarely occur apart (``##g`` + ``##s`` in "hugs" beats ``##u`` +
``##g`` although the latter is four times as frequent): a likelihood gain, not a count. And BPE
encodes by replaying its merges in order, WordPiece by greedy longest match over the vocabulary,
without the merge list.

How this differs from Hugging Face's ``WordPieceTrainer``: that trainer is its BPE trainer with a
``##`` prefix: it merges the most frequent pair and only the encoding is WordPiece's. This module
trains as Hugging Face's course describes WordPiece, with the score (which spends pieces on rare
pairs, so at the same size it compresses text less: ``min_count`` tempers that). Their alphabet also
holds every character as a word start, ours only those seen starting a word (the course's). The
encoding is the same: given their vocabulary, ``WordPieceTokenizer`` returns their tokens (tested).
A character never seen in training makes its whole word ``[UNK]`` (``UNSEEN_CHARACTER``), as in BERT.

Modules: ``training`` (``train``, the trace), ``pair_scores`` (the incremental scores training runs
on), ``tokenizer`` (``WordPieceTokenizer``, pre-tokenization). What this package does not do: BERT's
normalizer beyond lowercasing (no accent stripping, no Chinese-character splitting), special tokens
other than ``[UNK]``, drawing (``ui``).

>>> result = train("hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5, vocab_size=10)
>>> [step.piece for step in result.trace]
['##gs', 'hu']
>>> [t.bytes for t in result.tokenizer.encode("hugs bugs")]
[b'hu', b'gs', b'b', b'u', b'gs']
"""

from __future__ import annotations

from core.wordpiece.tokenizer import (
    MAX_CHARS_PER_WORD,
    PRE_TOKENIZERS,
    PREFIX,
    UNK,
    Attempt,
    WordMatch,
    WordPieceTokenizer,
    default_name,
)
from core.wordpiece.training import Candidate, WordPieceResult, WordPieceStep, train

UNSEEN_CHARACTER = (
    "A character never seen in training is not in the vocabulary, so no piece can cover it: the whole "
    "word it is in becomes one [UNK], and the rest of that word is lost too."
)

__all__ = [
    "MAX_CHARS_PER_WORD", "PRE_TOKENIZERS", "PREFIX", "UNK", "UNSEEN_CHARACTER", "Attempt", "Candidate", "WordMatch",
    "WordPieceResult", "WordPieceStep", "WordPieceTokenizer", "default_name", "train",
]
