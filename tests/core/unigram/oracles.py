"""Brute-force oracles, small random models and the small corpus of the Unigram tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from core import unigram
from core.unigram.lattice import Lattices

CORPUS = (
    "the cat sat on the mat. the dog sat on the log; the cats and the dogs sat together.\n"
    "a quick brown fox jumps over the lazy dog, and the lazy dog sleeps in the sun.\n"
) * 4


def segmentations(word: str, vocab: dict[str, int]) -> Iterator[list[str]]:
    """Every way to write ``word`` as vocabulary pieces, by brute force."""
    if not word:
        yield []
        return
    for end in range(1, len(word) + 1):
        if word[:end] in vocab:
            for rest in segmentations(word[end:], vocab):
                yield [word[:end], *rest]


def random_model(rng: random.Random, alphabet: str = "abc", n_words: int = 6) -> tuple[list[str], dict[str, int], list[float]]:
    """Short random words, every character plus some of their substrings, random log-probabilities."""
    words_ = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(n_words)]
    substrings = sorted({w[i:j] for w in words_ for i in range(len(w)) for j in range(i + 2, min(len(w), i + 4) + 1)})
    pieces = sorted(set(alphabet)) + [s for s in substrings if rng.random() < 0.6]
    return words_, {p: i for i, p in enumerate(pieces)}, [rng.uniform(-6.0, -0.5) for _ in pieces]


def batch(words_: list[str], vocab: dict[str, int], weights: list[float]) -> Lattices:
    rows = [
        (w, i, j, vocab[word[i:j]])
        for w, word in enumerate(words_)
        for i in range(len(word))
        for j in range(i + 1, len(word) + 1)
        if word[i:j] in vocab
    ]
    w, s, e, p = (np.array(col) for col in zip(*rows, strict=True))
    return Lattices(np.array([len(x) for x in words_]), np.array(weights, dtype=float), w, s, e, p)


def tokenizer_for(vocab: dict[str, int], scores: list[float]) -> unigram.UnigramTokenizer:
    """A tokenizer under a pattern that keeps each test word whole, with ``vocab``'s pieces."""
    return unigram.UnigramTokenizer(pieces=[(p, scores[i]) for p, i in vocab.items()], pattern=r"\S+")
