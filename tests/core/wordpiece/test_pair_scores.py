"""core.wordpiece.pair_scores: the numpy counts against the plain ones, exact order where floats tie,
and training against the from-scratch oracle with pools small enough to be chosen again and again."""

from __future__ import annotations

from fractions import Fraction
from unittest import mock

import numpy as np
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


def assert_trains_as_the_oracle(result: object, text: str, vocab_size: int) -> None:
    """``result`` (trained with min_count 2) has the brute-force trainer's vocabulary, ties, corpus sizes
    and leaderboards, step by step."""
    vocab, steps = naive_train(text, vocab_size, min_count=2)
    tok = result.tokenizer
    assert [symbol(tok, i) for i in range(tok.vocab_size)] == vocab
    assert [(s.n_tied, s.tokens_after) for s in result.trace] == [(tied, after) for _, tied, _, after in steps]
    top = [[(symbol(tok, c.left), symbol(tok, c.right), c.count, c.score) for c in s.top] for s in result.trace]
    assert top == [[(p[0], p[1], c, float(score)) for p, score, c, _, _ in board] for _, _, board, _ in steps]


@pytest.mark.parametrize("pool", [1, 2, 3])
@pytest.mark.parametrize("group_at", [1, 4])
def test_small_pools_train_as_the_oracle(pool: int, group_at: int) -> None:
    """A pool of 1 to 3 pairs is chosen again at most steps, and top_k 10 is more than it holds."""
    text = load_corpus("sample_mercado_es")
    with mock.patch.object(pair_scores, "POOL", pool), mock.patch.object(pair_scores, "GROUP_AT", group_at):
        result = wordpiece.train(text, vocab_size=260, min_count=2)
    assert_trains_as_the_oracle(result, text, 260)


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


@pytest.mark.parametrize("min_count", [1, 2])
def test_float_order_and_exact_keys_give_the_same_trace(min_count: int) -> None:
    """Where the k-th score is at least ``_EXACT`` the board is read off the floats (ties by slot);
    forced below it, every board goes through exact keys: the same merges, ties and boards (many
    scores tie on this corpus: 1 / count of a common right part)."""
    text = load_corpus("sample_mercado_es")
    fast = wordpiece.train(text, vocab_size=500, min_count=min_count)
    with mock.patch.object(pair_scores, "_EXACT", float("inf")):
        exact = wordpiece.train(text, vocab_size=500, min_count=min_count)
    assert fast.trace == exact.trace
    assert sum(len({c.score for c in step.top}) < len(step.top) for step in fast.trace) > 200  # ties on boards
    assert fast.tokenizer.pieces == exact.tokenizer.pieces


@pytest.mark.parametrize("seed", range(3))
def test_float_order_is_exact_above_the_bound(seed: int) -> None:
    """The bound's reason: a pair scoring s has count c <= 1/s and count(a) * count(b) <= 1/s**2
    (c is at most each part's count), so two different fractions at or above 2**-17 differ by more
    than their floats' rounding. Checked on fractions c / (a * b), a and b at least c, as the
    scores compute them, near the bound's worst case (c about 2**17) and far from it."""
    rng = np.random.default_rng(seed)
    c = rng.integers(1, 2**17, 4000)
    a = c + rng.integers(0, 2**9, 4000)
    b = c + rng.integers(0, 2**9, 4000)
    c, a, b = [*c.tolist(), *range(1, 60)], [*a.tolist(), *range(1, 60)], [*b.tolist(), *range(2, 61)]
    floats = (np.array(c, np.float64) / (np.array(a, np.float64) * np.array(b, np.float64))).tolist()
    exact = [Fraction(x, y * z) for x, y, z in zip(c, a, b, strict=True)]
    kept = sorted((f, x) for f, x in zip(exact, floats, strict=True) if x >= pair_scores._EXACT)
    assert len(kept) > 1000
    for (f, x), (g, y) in zip(kept, kept[1:], strict=False):
        assert (x < y) if f < g else (x == y)


def test_a_candidate_whose_counts_did_not_change_is_the_last_boards() -> None:
    """Boards share the candidates that did not change (memory: thousands of boards), and only those."""
    steps = wordpiece.train(load_corpus("sample_essay_en"), vocab_size=700).trace
    shared = fresh = 0
    for before, after in zip(steps, steps[1:], strict=False):
        last = {(c.left, c.right): c for c in before.top}
        for c in after.top:
            same = last.get((c.left, c.right))
            if same is not None and same == c:
                assert same is c
                shared += 1
            else:
                assert all(c is not old for old in before.top)
                fresh += 1
    assert shared > 1000 and fresh > 1000


def _exact_floats(scores: PairScores) -> dict[int, float]:
    """Every pair in the race scored from scratch, by slot (as floats: count / (left * right))."""
    out = {}
    for slot, pair in enumerate(scores.names):
        count = scores.counts.get(pair, 0)
        if count >= scores.min_count:
            out[slot] = count / (float(scores.symbols[pair[0]]) * scores.symbols[pair[1]])
    return out


@pytest.mark.parametrize("slack", [pair_scores.SLACK, 1.0, 2.0])
def test_the_pool_holds_every_pair_that_can_be_ahead(slack: float) -> None:
    """After every merge, the pool's floats are its pairs' scores now, its ranking agrees with it,
    and every pair outside it is behind ``sure`` (with ``sure`` 0, no pair is outside), although
    the pairs of a symbol whose count fell less than ``SLACK`` are not rescored (kept by the
    rescores, not by a scan). ``slack`` 1 rescores them at every change, 2 seldom."""
    checked = 0
    with mock.patch.object(pair_scores, "SLACK", slack):
        scores = PairScores(["abcab", "bcd", "abd", "cdcd", "aab", "dcba"] * 3, [3, 2, 5, 1, 7, 2] * 3)
        for new in "EFGHIJKLMN":
            board = scores.board(3)
            if not board:
                break
            exact = _exact_floats(scores)
            assert scores.pool == {slot: exact[slot] for slot in scores.pool}
            assert scores.ranked == sorted((-value, slot) for slot, value in scores.pool.items())
            outside = [value for slot, value in exact.items() if slot not in scores.pool]
            assert all(value < scores.sure for value in outside) if scores.sure else not outside
            scores.merge(chr(board[0].left) + chr(board[0].right), new)
            checked += 1
    assert checked == 10


@pytest.mark.parametrize(
    ("few", "group_at", "slack"),
    [
        (0, pair_scores.GROUP_AT, pair_scores.SLACK),  # every rescore in numpy
        (10**9, 10**9, pair_scores.SLACK),  # every rescore in Python
        (pair_scores.FEW, 4, 1.0),  # every symbol's pairs rescored at every change of its count
        (pair_scores.FEW, pair_scores.GROUP_AT, 2.0),  # a symbol's pairs rescored once its count halved
    ],
)
def test_both_rescores_and_any_slack_train_as_the_oracle(few: int, group_at: int, slack: float) -> None:
    """The Python rescore of a few pairs and the numpy one give the same floats, and how late a
    symbol's pairs are rescored changes nothing but the time: the same vocabulary, ties and boards."""
    calls = {"_rescore": 0, "_rescore_few": 0}

    def counted(name: str):
        method = getattr(PairScores, name)

        def wrapper(self, slots):
            calls[name] += 1
            return method(self, slots)

        return wrapper

    text = load_corpus("sample_mercado_es")
    with (
        mock.patch.object(pair_scores, "FEW", few),
        mock.patch.object(pair_scores, "GROUP_AT", group_at),
        mock.patch.object(pair_scores, "SLACK", slack),
        mock.patch.object(PairScores, "_rescore", counted("_rescore")),
        mock.patch.object(PairScores, "_rescore_few", counted("_rescore_few")),
    ):
        result = wordpiece.train(text, vocab_size=400, min_count=2)
    if few == 0:
        assert calls["_rescore_few"] == 0 and calls["_rescore"] > 100
    elif few > 10**6:
        assert calls["_rescore"] == 0 and calls["_rescore_few"] > 100
    else:
        assert calls["_rescore"] > 10 and calls["_rescore_few"] > 10
    assert_trains_as_the_oracle(result, text, 400)
