"""core.measures.wordstats: counts checked by hand, fits that recover known exponents, the OOV curve against brute force."""

from __future__ import annotations

import re
from collections import Counter
from string import ascii_lowercase

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.corpora import load_corpus
from core.measures import wordstats as ws

TINY = "The cat and the dog. The cat!"


def word_name(i: int) -> str:
    """A distinct letters-only word for each i (base 26): a, b, …, z, ba, bb, …"""
    out = ""
    while True:
        i, r = divmod(i, 26)
        out = ascii_lowercase[r] + out
        if i == 0:
            return out


def stats_from(frequencies: np.ndarray) -> ws.WordStats:
    """WordStats with these frequencies by rank (no text needed for the Zipf fit)."""
    return ws.WordStats("letters", int(frequencies.sum()), len(frequencies), int((frequencies == 1).sum()),
                        np.asarray(frequencies), tuple(word_name(i) for i in range(len(frequencies))),
                        np.zeros(0, dtype=np.int64))


def test_counts_on_a_tiny_corpus_checked_by_hand() -> None:
    stats = ws.word_stats(TINY)
    assert (stats.tokens, stats.types, stats.hapax) == (7, 4, 2)  # the ×3, cat ×2, and, dog
    assert stats.by_rank == ("the", "cat", "and", "dog")
    assert stats.frequencies.tolist() == [3, 2, 1, 1]
    assert stats.distinct_after.tolist() == [1, 2, 3, 3, 4, 4, 4]
    assert stats.hapax_share_of_types == 0.5
    assert stats.hapax_share_of_tokens == pytest.approx(2 / 7)


def test_whitespace_words_keep_case_and_punctuation() -> None:
    stats = ws.word_stats(TINY, "whitespace")
    # The ×2, cat, and, the, dog., cat! — case and punctuation make six types, five of them once
    assert (stats.tokens, stats.types, stats.hapax) == (7, 6, 5)
    assert stats.by_rank[0] == "The"


def test_the_letter_rule_keeps_inner_apostrophes_and_marks() -> None:
    assert ws.words("Don't tell l'eau o’clock 'quoted' rock'n'roll") == [
        "don't", "tell", "l'eau", "o’clock", "quoted", "rock'n'roll",
    ]
    assert ws.words("नमस्ते दुनिया 42 x2") == ["नमस्ते", "दुनिया", "x"]
    assert ws.words("日本語のテキスト、Tokyo") == ["日", "本", "語", "の", "テ", "キ", "ス", "ト", "tokyo"]
    assert ws.words("") == [] and ws.word_stats("").types == 0


def test_an_unknown_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="word rule"):
        ws.words("x", "bytes")


def test_every_rule_has_a_description_for_the_page() -> None:
    for key, rule in ws.WORD_RULES.items():
        assert rule.key == key and rule.label and rule.description


@pytest.mark.parametrize("exponent", [0.8, 1.0, 1.3])
def test_zipf_fit_recovers_the_exponent_of_exact_power_law_frequencies(exponent: float) -> None:
    ranks = np.arange(1, 5_001)
    stats = stats_from(np.maximum(np.round(1e7 * ranks**-exponent), 1).astype(np.int64))
    fit = ws.zipf_fit(stats, 10, 1_000, method="log_spaced")
    assert fit.exponent == pytest.approx(-exponent, abs=0.005)
    assert fit.r2 > 0.999
    assert fit.x[0] == 10 and fit.x[-1] == 1_000 and len(fit.x) <= ws.ZIPF_POINTS


def test_zipf_fit_recovers_the_exponent_of_a_sampled_text() -> None:
    rng = np.random.default_rng(7)
    ranks = np.arange(1, 20_001)
    p = ranks**-1.1
    draws = rng.choice(len(ranks), size=300_000, p=p / p.sum())
    text = " ".join(word_name(int(i)) for i in draws)
    fit = ws.zipf_fit(ws.word_stats(text), 1, 200, method="log_spaced")
    assert fit.exponent == pytest.approx(-1.1, abs=0.05)


def test_zipf_window_is_clamped_to_the_ranks_there_are_and_refused_when_empty() -> None:
    stats = ws.word_stats(TINY)
    fit = ws.zipf_fit(stats, 1, 1_000)
    assert fit.x.tolist() == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="two ranks"):
        ws.zipf_fit(stats, 10, 1_000)


def heaps_text(k: float, beta: float, n: int) -> list[str]:
    """n words whose distinct count after i words is exactly floor(k · i^beta): new word when it grows."""
    out, distinct = [], 0
    for i in range(1, n + 1):
        target = int(k * i**beta)
        if target > distinct:
            distinct += 1
            out.append(word_name(distinct))
        else:
            out.append(word_name(1))
    return out


def test_heaps_fit_recovers_beta_and_k_on_log_spaced_points() -> None:
    text = " ".join(heaps_text(4.0, 0.62, 200_000))
    stats = ws.word_stats(text)
    fit = ws.heaps_fit(stats, start=100)
    assert fit.exponent == pytest.approx(0.62, abs=0.01)
    assert fit.constant == pytest.approx(4.0, rel=0.05)
    # the points used: log-spaced from 100 to the end, each decade weighted alike
    assert fit.x[0] == 100 and fit.x[-1] == stats.tokens and len(fit.x) <= ws.HEAPS_POINTS
    ratios = fit.x[1:] / fit.x[:-1]
    assert ratios.max() / ratios.min() < 1.05
    assert fit.y.tolist() == stats.distinct_after[fit.x.astype(int) - 1].tolist()


def test_heaps_needs_two_words() -> None:
    with pytest.raises(ValueError, match="two words"):
        ws.heaps_fit(ws.word_stats("alone"))


def test_heaps_of_real_prose_is_below_one() -> None:
    fit = ws.heaps_fit(ws.word_stats(load_corpus("sample_essay_en")))
    assert 0.4 < fit.exponent < 1.0


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10_000), st.integers(0, 10_000), st.integers(2, 100))
def test_log_spaced_is_sorted_bounded_and_short(lo: int, extra: int, points: int) -> None:
    hi = lo + extra
    out = ws.log_spaced(lo, hi, points)
    assert out[0] == lo and out[-1] == hi
    assert np.all(np.diff(out) > 0)
    assert len(out) <= points


def test_oov_curve_checked_by_hand() -> None:
    # training ranks: the 0, cat 1, sat 2; held-out: the cat dog the → dog never seen
    curve = ws.oov_curve(["the", "the", "cat", "sat"], ["the", "cat", "dog", "the"])
    assert curve.sizes.tolist() == [1, 2, 3]
    assert curve.rates.tolist() == [0.5, 0.25, 0.25]
    assert curve.unseen == 0.25 and curve.rate_at(10_000) == 0.25 and curve.rate_at(2) == 0.25
    assert (curve.heldout_tokens, curve.train_types) == (4, 3)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from("abcdefghij"), min_size=1, max_size=60),
    st.lists(st.sampled_from("abcdefghijklm"), min_size=1, max_size=40),
)
def test_oov_curve_matches_brute_force(train: list[str], heldout: list[str]) -> None:
    curve = ws.oov_curve(train, heldout)
    ranked = [word for word, _ in Counter(train).most_common()]
    for size, rate in zip(curve.sizes.tolist(), curve.rates.tolist(), strict=True):
        vocabulary = set(ranked[:size])
        assert rate == pytest.approx(sum(w not in vocabulary for w in heldout) / len(heldout))
    assert np.all(np.diff(curve.rates) <= 0)
    assert curve.rates[-1] == pytest.approx(curve.unseen)


def test_oov_needs_held_out_words() -> None:
    with pytest.raises(ValueError, match="held-out part has no words"):
        ws.oov_curve(["a"], [])


def test_fit_power_law_refuses_a_single_x() -> None:
    with pytest.raises(ValueError, match="two points"):
        ws.fit_power_law([5, 5], [1, 2])


@pytest.mark.parametrize("rule", list(ws.WORD_RULES))
@pytest.mark.parametrize("cut", ["line", "mid-word"])
def test_split_report_counts_the_whole_text_exactly(rule: str, cut: str) -> None:
    text = load_corpus("sample_essay_en")
    at = text.rfind("\n", 0, len(text) * 9 // 10) + 1 if cut == "line" else text.find("tion") + 2
    train, heldout = text[:at], text[at:]
    stats, oov = ws.split_report(train, heldout, rule)
    whole = ws.word_stats(text, rule)
    assert (stats.tokens, stats.types, stats.hapax) == (whole.tokens, whole.types, whole.hapax)
    assert stats.by_rank == whole.by_rank and stats.distinct_after.tolist() == whole.distinct_after.tolist()
    expected = ws.oov_curve(ws.words(train, rule), ws.words(heldout, rule))
    assert oov.rates.tolist() == expected.rates.tolist()
    assert ws.split_report(text, "", rule)[1] is None


def test_the_textbook_word_rule_counts_ascii_letters_with_one_inner_apostrophe() -> None:
    text = "Don't stop: O'ER the rock'n'roll café, 42 times -- 'tis 'quoted'."
    assert ws.words(text, "textbook") == [
        "don't", "stop", "o'er", "the", "rock'n", "roll", "caf", "times", "tis", "quoted",
    ]
    assert ws.words(text, "textbook") == re.findall(r"[a-z]+(?:'[a-z]+)?", text.lower())


def test_zipf_every_rank_is_least_squares_through_every_point_of_the_window() -> None:
    rng = np.random.default_rng(3)
    stats = stats_from(np.sort(rng.integers(1, 10_000, size=3_000))[::-1])
    fit = ws.zipf_fit(stats, 5, 2_000)
    ranks = np.arange(5, 2_001)
    slope, intercept = np.polyfit(np.log10(ranks), np.log10(stats.frequencies[ranks - 1]), 1)
    assert fit.x.tolist() == ranks.tolist()
    assert fit.exponent == pytest.approx(slope) and fit.constant == pytest.approx(10**intercept)
    assert ws.zipf_fit(stats, 5, 2_000, method="log_spaced").exponent != pytest.approx(slope)
    with pytest.raises(ValueError, match="every_rank"):
        ws.zipf_fit(stats, 5, 2_000, method="nope")


def test_heaps_starts_at_1000_words_in_a_text_of_10000_and_where_asked() -> None:
    stats = ws.word_stats(" ".join(heaps_text(4.0, 0.62, 20_000)))
    assert ws.heaps_fit(stats).x[0] == 1_000
    assert ws.heaps_fit(ws.word_stats(" ".join(heaps_text(4.0, 0.62, 9_999)))).x[0] == 100
    assert ws.heaps_fit(stats, start=10).x[0] == 10
    with pytest.raises(ValueError, match="between word 1 and word 19,999"):
        ws.heaps_fit(stats, start=20_000)
