"""core.unigram.seed and core.unigram.lattice: hand-checked seeds and EM steps, brute-force oracles."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from core.unigram.lattice import digamma
from core.unigram.seed import make_seed
from core.unigram.words import METASPACE, script
from tests.core.unigram.oracles import batch, random_model, segmentations


def test_the_seed_by_hand() -> None:
    """▁ab 3 times, ▁ac twice, ▁b once. Characters: ▁ 6, a 5, b 4, c 2. Of the longer substrings only
    ▁a is seen twice and followed by two different symbols (b, c), so only it joins: count 5, value
    5 × 2 = 10. First log-probabilities: value / 27."""
    words_, counts = ["▁ab", "▁ac", "▁b"], np.array([3.0, 2.0, 1.0])
    seed = make_seed(words_, counts, max_len=16, seed_size=100, needed=4, by_script=True)
    assert seed.pieces == ["a", "b", "c", "▁", "▁a"]
    assert seed.counts.tolist() == [5, 4, 2, 6, 5]
    assert np.allclose(np.exp(seed.scores), np.array([5, 4, 2, 6, 10]) / 27)
    assert seed.possible == 10  # 4 characters, ▁a ab ac ▁b, ▁ab ▁ac
    # a vocabulary of 7 needs two more: the best others by count × length (▁ab 9; ab and ▁ac 6, tied: shorter first)
    bigger = make_seed(words_, counts, max_len=16, seed_size=100, needed=7, by_script=True)
    assert bigger.pieces == ["a", "b", "c", "▁", "▁a", "▁ab", "ab"]


def test_pieces_do_not_mix_scripts() -> None:
    """With room for everything, the seed is every substring that may be a piece: none ends in , or 1."""
    seed = make_seed(["▁hi,", "▁año1"], np.ones(2), max_len=16, seed_size=100, needed=100, by_script=True)
    assert sorted(seed.pieces) == sorted(
        ["▁", "h", "i", ",", "▁h", "hi", "▁hi", "a", "ñ", "o", "1", "▁a", "añ", "ño", "▁añ", "año", "▁año"]
    )
    assert seed.possible == 17
    mixed = make_seed(["▁hi,"], np.ones(1), max_len=3, seed_size=100, needed=100, by_script=False)
    assert {"i,", "hi,"} <= set(mixed.pieces) and "▁hi," not in mixed.pieces  # max_len 3
    assert script("a") == script("é") != script("ж") and script("日") == script("の") == script("カ")
    assert script(",") == script("1") and script(" ") == script(METASPACE)


def test_expected_counts_by_hand() -> None:
    """``ab`` with p(a) = p(b) = p(ab) = 1/2: [ab] has 1/2, [a, b] 1/4; so E[ab] = 2/3, E[a] = E[b] = 1/3."""
    vocab = {"a": 0, "b": 1, "ab": 2}
    counts, log_likelihood = batch(["ab"], vocab, [3.0]).expected_counts(np.log(np.full(3, 0.5)), 3)
    assert np.allclose(counts, [1.0, 1.0, 2.0])  # three occurrences of the word
    assert log_likelihood == pytest.approx(3 * math.log(0.75))


@pytest.mark.parametrize("seed", range(12))
def test_forward_backward_and_viterbi_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    words_, vocab, scores = random_model(rng)
    weights = [rng.randint(1, 5) for _ in words_]
    lattices = batch(words_, vocab, weights)
    counts, log_likelihood = lattices.expected_counts(np.array(scores), len(vocab))
    expected, total = np.zeros(len(vocab)), 0.0
    for word, weight in zip(words_, weights, strict=True):
        options = list(segmentations(word, vocab))
        probs = [math.exp(sum(scores[vocab[p]] for p in seg)) for seg in options]
        z = sum(probs)
        total += weight * math.log(z)
        for seg, prob in zip(options, probs, strict=True):
            for piece in seg:
                expected[vocab[piece]] += weight * prob / z
    assert np.allclose(counts, expected) and log_likelihood == pytest.approx(total)
    best, owner, pieces = lattices.viterbi(np.array(scores))
    for w, word in enumerate(words_):
        top = max(sum(scores[vocab[p]] for p in seg) for seg in segmentations(word, vocab))
        path = [list(vocab)[p] for p in pieces[owner == w][::-1]]
        assert "".join(path) == word and best[w] == pytest.approx(top)
        assert sum(scores[vocab[p]] for p in path) == pytest.approx(top)


def test_log_space_survives_long_words() -> None:
    """A 600-character word: probabilities near e^-1,900 underflow in linear space, not here."""
    vocab = {"a": 0, "aa": 1}
    counts, log_likelihood = batch(["a" * 600], vocab, [1.0]).expected_counts(np.array([-3.0, -4.0]), 2)
    z = [0.0, -3.0]  # log Z(n) = log(e^-3 Z(n - 1) + e^-4 Z(n - 2)), every way to write a^n as a and aa
    for _ in range(2, 601):
        z.append(np.logaddexp(z[-1] - 3.0, z[-2] - 4.0))
    assert log_likelihood == pytest.approx(z[600]) and log_likelihood < -1000
    assert counts[0] + 2 * counts[1] == pytest.approx(600)


def test_digamma() -> None:
    x = np.array([0.5, 1.0, 2.0, 10.0, 1e6])
    known = [-1.9635100260214235, -0.5772156649015329, 0.42278433509846713, 2.251752589066721, 13.815510057964274]
    assert np.allclose(digamma(x), known, rtol=1e-10)
