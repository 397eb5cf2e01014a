"""core.tax.tax_stats: per-segment premiums from language_tax's memo, validated pairs, the leaderboard."""

from __future__ import annotations

import numpy as np
import pytest

from core.tax import tax_stats
from core.tax.language_tax import language_tax
from core.tax.parallel_corpus import ParallelCorpus, ParallelLanguage, load_parallel
from core.types import UNKNOWN, Token
from tests.loaded import load_once


class Chars:
    """One token per character; 'X' is unknown."""

    name = "chars"

    def encode(self, text: str) -> list[Token]:
        return [Token(99 if c == "X" else ord(c), c.encode(), k, k + 1, UNKNOWN if c == "X" else "normal")
                for k, c in enumerate(text)]


def corpus() -> ParallelCorpus:
    languages = tuple(ParallelLanguage(c, c, c, "Latn", "ltr") for c in ("en", "de", "xx"))
    segments = {"en": {"1": "ab", "2": "abcd", "3": "a"}, "de": {"1": "abab", "2": "abcd"},
                "xx": {"1": "XXXX", "2": "XX", "3": "XXXXX"}}
    return ParallelCorpus("t", "t", "sentence", languages, ("1", "2", "3"), segments, "l", "s", fingerprint="f")


def test_per_segment_premiums_use_only_segments_shared_with_the_base() -> None:
    c, memo = corpus(), {}
    table = language_tax(c, {"c": Chars()}, base="en", memo=memo)
    premiums = tax_stats.segment_premiums(c, memo, base="en", languages=["de", "xx"], tokenizers=["c"])
    de = premiums[premiums["language"] == "de"]
    assert de["segment"].tolist() == ["1", "2"] and de["premium"].tolist() == [2.0, 1.0]
    assert premiums[premiums["language"] == "xx"]["premium"].tolist() == [2.0, 0.5, 5.0]
    joined = tax_stats.with_distribution(table, premiums).set_index("language")
    assert joined.loc["de", "median"] == 1.5 and joined.loc["de", "share_above_2x"] == 0.0
    assert joined.loc["xx", "median"] == 2.0 and joined.loc["xx", "share_above_2x"] == pytest.approx(1 / 3)
    assert joined.loc["xx", "q1"] == 1.25 and joined.loc["xx", "q3"] == 3.5


def test_counts_must_have_been_made_first() -> None:
    with pytest.raises(KeyError):
        tax_stats.segment_premiums(corpus(), {}, base="en", languages=["de"], tokenizers=["c"])


def test_validated_pairs_mark_unknown_heavy_pairs() -> None:
    c = corpus()
    table = tax_stats.validated(language_tax(c, {"c": Chars()}, base="en"))
    assert table.set_index("language")["valid"].to_dict() == {"en": True, "de": True, "xx": False}
    assert tax_stats.validated(table, threshold=1.0)["valid"].all()
    with pytest.raises(ValueError, match="between 0 and 1"):
        tax_stats.validated(table, threshold=10)


def test_leaderboard_bytes_and_chars_per_token_and_matrix_order() -> None:
    c = corpus()

    class Pairs(Chars):
        name = "pairs"

        def encode(self, text: str) -> list[Token]:
            return [Token(1, text[k:k + 2].encode(), k, min(k + 2, len(text)), "normal")
                    for k in range(0, len(text), 2)]

    board = tax_stats.leaderboard(c, {"c": Chars(), "p": Pairs()}, base="en", languages=["de"])
    row = board[(board["tokenizer"] == "p") & (board["language"] == "de")].iloc[0]
    assert row["bytes_per_token"] == 2.0 and row["chars_per_token"] == 2.0
    matrix = tax_stats.leaderboard_matrix(board)
    assert list(matrix.index) == ["p", "c"] and list(matrix.columns) == ["en", "de"]
    assert list(tax_stats.leaderboard_matrix(board, "premium").columns) == ["en", "de"]
    with pytest.raises(ValueError, match="leaderboard shows"):
        tax_stats.leaderboard_matrix(board, "tokens")



def test_the_leaderboard_leaves_unknown_heavy_pairs_out_of_its_cells_and_means() -> None:
    import pandas as pd

    board = pd.DataFrame({
        "tokenizer": ["a", "a", "b", "b"], "language": ["en", "my", "en", "my"],
        "bytes_per_token": [4.0, 3.0, 3.5, 9.0], "unknown_share": [0.0, 0.0, 0.0, 0.6],
    })
    assert list(tax_stats.leaderboard_matrix(board).index) == ["b", "a"]  # b's lost text looks like compression
    matrix = tax_stats.leaderboard_matrix(board, unknown_max=0.1)
    assert list(matrix.index) == ["a", "b"] and np.isnan(matrix.loc["b", "my"]) and matrix.loc["b", "en"] == 3.5
    left_out = tax_stats.leaderboard_left_out(board, 0.1)
    assert left_out.loc["b", "my"] and not left_out.loc["a", "my"] and not left_out.loc["b", "en"]

@pytest.mark.data
def test_udhr_distribution_under_a_real_tokenizer(data_dir) -> None:

    udhr, memo = load_parallel("udhr"), {}
    tok = load_once("cl100k_base")
    table = language_tax(udhr, {"cl100k_base": tok}, base="eng", languages=["hin", "spa"], memo=memo)
    premiums = tax_stats.segment_premiums(udhr, memo, base="eng", languages=["eng", "hin", "spa"],
                                          tokenizers=["cl100k_base"])
    summary = tax_stats.with_distribution(table, premiums).set_index("language")
    assert len(premiums[premiums["language"] == "hin"]) == 30
    assert summary.loc["hin", "q1"] <= summary.loc["hin", "median"] <= summary.loc["hin", "q3"]
    assert summary.loc["hin", "median"] > 2 * summary.loc["spa", "median"]
    assert np.isclose(summary.loc["eng", "median"], 1.0)


def test_table_spread_columns_are_numpys_quartiles_of_the_per_segment_premium() -> None:
    # known data: 9 segments, the base "a" × k, the other language's lengths chosen by hand
    en = {str(k): "a" * k for k in range(1, 10)}
    de_lengths = [1, 5, 2, 9, 3, 30, 4, 8, 27]
    de = {str(k): "b" * n for k, n in zip(range(1, 10), de_lengths, strict=True)}
    de.pop("5")  # a segment missing from one language is not in its spread
    languages = tuple(ParallelLanguage(c, c, c, "Latn", "ltr") for c in ("en", "de"))
    c = ParallelCorpus("k", "k", "sentence", languages, tuple(en), {"en": en, "de": de}, "l", "s", fingerprint="k")
    memo: dict = {}
    row = language_tax(c, {"c": Chars()}, base="en", memo=memo).set_index("language").loc["de"]
    expected = np.array([n / k for k, n in zip(range(1, 10), de_lengths, strict=True) if k != 5])
    assert row["median"] == pytest.approx(np.median(expected))
    assert row["q1"] == pytest.approx(np.percentile(expected, 25))
    assert row["q3"] == pytest.approx(np.percentile(expected, 75))
    assert row["share_above_2x"] == pytest.approx(np.mean(expected > 2.0))
    # the same numbers as the distribution plot's premiums give
    premiums = tax_stats.segment_premiums(c, memo, base="en", languages=["de"], tokenizers=["c"])
    plotted = tax_stats.distribution_summary(premiums).iloc[0]
    for column in ("median", "q1", "q3", "share_above_2x"):
        assert row[column] == pytest.approx(plotted[column])


def test_spread_is_nan_where_no_segment_is_shared_and_equals_the_joined_summary() -> None:
    c, memo = corpus(), {}
    table = language_tax(c, {"c": Chars()}, base="en", memo=memo)
    premiums = tax_stats.segment_premiums(c, memo, base="en", languages=["en", "de", "xx"], tokenizers=["c"])
    joined = tax_stats.with_distribution(table, premiums)
    assert list(joined.columns) == list(table.columns)  # recomputed in place, never median_x / median_y
    for column in ("median", "q1", "q3", "share_above_2x"):
        assert np.allclose(joined[column], table[column])
    languages = tuple(ParallelLanguage(x, x, x, "Latn", "ltr") for x in ("en", "zz"))
    apart = ParallelCorpus("a", "a", "sentence", languages, ("1", "2"), {"en": {"1": "ab"}, "zz": {"2": "cd"}},
                           "l", "s", fingerprint="a")
    zz = language_tax(apart, {"c": Chars()}, base="en").set_index("language").loc["zz"]
    assert np.isnan(zz["median"]) and np.isnan(zz["q1"]) and np.isnan(zz["share_above_2x"])


def test_premium_spread_equals_numpys_percentiles_on_random_rows() -> None:
    from core.tax.language_tax import premium_spread

    rng = np.random.default_rng(23)
    tokens = rng.integers(0, 400, size=(40, 31))
    base = rng.integers(0, 120, size=31)
    shared = rng.random((40, 31)) < 0.8
    shared[3] = False  # a language sharing nothing with the base
    median, q1, q3, above = premium_spread(tokens, base, shared)
    for row in range(40):
        used = shared[row] & (base > 0)
        values = tokens[row, used] / base[used]
        if not len(values):
            assert np.isnan(median[row]) and np.isnan(q1[row]) and np.isnan(above[row])
            continue
        assert np.allclose([median[row], q1[row], q3[row]], np.percentile(values, [50, 25, 75]))
        assert above[row] == pytest.approx(np.mean(values > 2.0))


def test_the_counts_memo_is_bounded_and_drops_the_least_recently_used_corpus_first() -> None:
    """A server keeps counts for every session: uploaded corpora must not grow it without end."""
    from core.tax.language_tax import CountsMemo, language_tax
    from core.tax.parallel_corpus import parallel_from_texts

    class Chars:
        name, lossless = "chars", True

        def count(self, text: str) -> int:
            return len(text)

    memo = CountsMemo(max_bytes=2_000)
    corpora = [parallel_from_texts({"en": f"a{k}" * 3, "xx": f"bb{k}"}) for k in range(40)]
    first = language_tax(corpora[0], {"c": Chars()}, base="en", memo=memo)
    for corpus in corpora[1:]:
        language_tax(corpus, {"c": Chars()}, base="en", memo=memo)
        assert memo.nbytes() <= 2_000
    held = {key[:2] for key in memo}
    assert (corpora[-1].key, corpora[-1].fingerprint) in held  # the newest is kept
    assert (corpora[0].key, corpora[0].fingerprint) not in held  # the oldest went
    # counting again after eviction gives the same table
    assert language_tax(corpora[0], {"c": Chars()}, base="en", memo=memo).equals(first)
