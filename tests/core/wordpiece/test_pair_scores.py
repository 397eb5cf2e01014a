"""core.wordpiece.pair_scores: the numpy counts against the plain ones, exact order where floats tie,
and training against the from-scratch oracle with pools small enough to be chosen again and again."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import wordpiece
from core.bpe.pair_counts import count_pairs
from core.corpora import load_corpus
from core.wordpiece import pair_scores
from core.wordpiece.pair_scores import PairScores
from tests.core.wordpiece.test_wordpiece import naive_train, symbol

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    words=st.lists(st.text(st.sampled_from("ab\u00e9\u4e2d\U0001f600\ud800"), min_size=1, max_size=6), min_size=1, max_size=20),
    seed=st.integers(1, 9),
)
def test_count_matches_the_plain_count(words: list[str], seed: int) -> None:
    freqs = [(i * seed) % 7 + 1 for i in range(len(words))]
    counts, where, symbols = pair_scores._count(words, freqs)
    plain_counts, plain_where = count_pairs(words, freqs)
    assert list(counts.items()) == list(plain_counts.items())  # the same first-seen order
    assert where == plain_where
    expected: dict[str, int] = {}
    for word, freq in zip(words, freqs, strict=True):
        for ch in word:
            expected[ch] = expected.get(ch, 0) + freq
    assert symbols == expected


def test_fractions_whose_floats_are_equal_are_put_in_exact_order() -> None:
    """ab and ef score 1/n², cd 1/(n²-1): higher, although all three floats are the same number."""
    n = 3**17
    assert (1 / n) / n == (1 / (n - 1)) / (n + 1)  # the case this test is about
    words = ["ab", "a", "b", "cd", "c", "d", "ef", "e", "f"]
    scores = PairScores(words, [1, n - 1, n - 1, 1, n - 2, n, 1, n - 1, n - 1])
    assert [pair for pair, *_ in scores.leaders(1)] == ["cd"]  # ab has the lower slot and the same float
    assert scores.n_tied("cd") == 1
    assert [pair for pair, *_ in scores.leaders(3)] == ["cd", "ab", "ef"]
    assert (scores.n_tied("cd"), scores.n_tied("ab")) == (1, 2)


def test_equal_fractions_whose_floats_differ_tie_in_slot_order() -> None:
    """ab = 1/(1*35) and cd = 1/(5*7) are equal, but (1/1)/35 < (1/5)/7 as floats: ab was seen first."""
    assert (1 / 1) / 35 < (1 / 5) / 7  # the case this test is about
    scores = PairScores(["ab", "b", "cd", "c", "d"], [1, 34, 1, 4, 6])
    assert [pair for pair, *_ in scores.leaders(2)] == ["ab", "cd"]
    assert scores.n_tied("ab") == 2


@pytest.mark.parametrize("pool", [1, 2, 3])
@pytest.mark.parametrize("group_at", [1, 4])
def test_small_pools_train_as_the_oracle(pool: int, group_at: int) -> None:
    """A pool of 1 to 3 pairs is chosen again at most steps, and top_k 10 is more than it holds."""
    text = load_corpus("sample_mercado_es")
    with mock.patch.object(pair_scores, "POOL", pool), mock.patch.object(pair_scores, "GROUP_AT", group_at):
        result = wordpiece.train(text, vocab_size=260, min_count=2)
    vocab, steps = naive_train(text, 260, min_count=2)
    tok = result.tokenizer
    assert [symbol(tok, i) for i in range(tok.vocab_size)] == vocab
    assert [(s.n_tied, s.tokens_after) for s in result.trace] == [(tied, after) for _, tied, _, after in steps]
    top = [[(symbol(tok, c.left), symbol(tok, c.right), c.count, c.score) for c in s.top] for s in result.trace]
    assert top == [[(p[0], p[1], c, float(score)) for p, score, c, _, _ in board] for _, _, board, _ in steps]


@SETTINGS
@given(
    words=st.lists(st.text("aabbcd,A", min_size=1, max_size=7), min_size=1, max_size=25),
    extra=st.integers(0, 30),
    pool=st.integers(1, 4),
)
def test_small_pools_on_small_corpora_train_as_the_oracle(words: list[str], extra: int, pool: int) -> None:
    corpus = " ".join(words)
    try:
        base = wordpiece.train(corpus, vocab_size=200).base_size
    except ValueError:
        return
    with mock.patch.object(pair_scores, "POOL", pool):
        result = wordpiece.train(corpus, vocab_size=base + extra, top_k=3)
    vocab, steps = naive_train(corpus, base + extra, top_k=3)
    tok = result.tokenizer
    assert [symbol(tok, i) for i in range(tok.vocab_size)] == vocab
    assert [(s.n_tied, s.tokens_after, len(s.top)) for s in result.trace] == [
        (tied, after, len(board)) for _, tied, board, after in steps
    ]
