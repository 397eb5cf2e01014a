"""core.bpe BPE-dropout: ``BPETokenizer.sample`` skips each merge with probability p, seeded."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import bpe
from core.bpe.history import NEVER, merge_lowest_first
from core.corpora import load_corpus
from core.types import TEXT

MULTILINGUAL = "El niño juega en el jardín. Съешь ещё этих булок 日本語 🙂👩‍💻  \n\n\tx = 2026;"


@pytest.fixture(scope="module")
def essay() -> str:
    return load_corpus("sample_essay_en")


@pytest.fixture(scope="module", params=["byte", "glued", "separate"])
def tokenizer(request: pytest.FixtureRequest, essay: str) -> bpe.BPETokenizer:
    if request.param == "byte":
        return bpe.train(essay, vocab_size=500).tokenizer
    return bpe.train(essay, num_merges=300, mode="char", end_of_word=request.param).tokenizer


def units(tok: bpe.BPETokenizer, text: str) -> list[int]:
    """The ids before any merge: bytes, or characters (and </w>) per word."""
    return [i for _, ids, _ in tok._chunk_units(text) for i in ids]


def test_p_zero_is_plain_bpe(tokenizer: bpe.BPETokenizer, essay: str) -> None:
    for text in (essay, MULTILINGUAL, ""):
        assert tokenizer.sample(text, dropout=0.0, seed=1) == tokenizer.encode(text)


def test_p_one_leaves_bytes_or_characters(tokenizer: bpe.BPETokenizer, essay: str) -> None:
    for text in (essay[:500], MULTILINGUAL):
        tokens = tokenizer.sample(text, dropout=1.0, seed=3)
        assert [t.id for t in tokens] == units(tokenizer, text)
        assert tokens == tokenizer.segment(text, 0)


def test_the_same_seed_gives_the_same_tokens(tokenizer: bpe.BPETokenizer, essay: str) -> None:
    text = essay[:400]
    assert tokenizer.sample(text, dropout=0.3, seed=7) == tokenizer.sample(text, dropout=0.3, seed=7)
    draws = {tuple(t.id for t in tokenizer.sample(text, dropout=0.3, seed=s)) for s in range(5)}
    assert len(draws) == 5  # 400 characters, dozens of merges: five seeds never agree


def test_more_dropout_means_more_tokens_on_average(tokenizer: bpe.BPETokenizer, essay: str) -> None:
    text = essay[:600]
    def mean_tokens(p: float) -> float:
        return statistics.mean(len(tokenizer.sample(text, dropout=p, seed=s)) for s in range(15))

    means = [mean_tokens(p) for p in (0.1, 0.4, 0.8)]
    plain, base = len(tokenizer.encode(text)), len(units(tokenizer, text))
    assert plain < means[0] < means[1] < means[2] < base


def test_a_word_is_cut_differently_at_different_places(essay: str) -> None:
    tok = bpe.train(essay, vocab_size=500).tokenizer
    tokens = tok.sample(" token" * 40, dropout=0.5, seed=0)
    cuts = {tuple(t.bytes for t in tokens if 6 * i <= t.start < 6 * i + 6) for i in range(40)}
    assert len(cuts) > 3


@settings(max_examples=40, deadline=None)
@given(text=st.text(max_size=40), p=st.floats(0.0, 1.0), seed=st.integers(0, 2**32))
def test_byte_level_samples_stay_lossless_with_valid_offsets(essay: str, text: str, p: float, seed: int) -> None:
    tok = bpe.train(essay, vocab_size=400).tokenizer
    tokens = tok.sample(text, dropout=p, seed=seed)
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")  # as the tokenizer reads it
    assert b"".join(t.bytes for t in tokens) == text.encode()
    assert tok.decode([t.id for t in tokens]) == text
    assert all(t.kind == TEXT and t.start < t.end for t in tokens)
    assert [t.start for t in tokens] == sorted(t.start for t in tokens)


def test_bad_dropout_is_a_clear_value_error(tokenizer: bpe.BPETokenizer) -> None:
    for p in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="dropout must be between 0 and 1"):
            tokenizer.sample("hi", dropout=p)


def test_a_skipped_merge_waits_for_the_next_merge_then_competes_again() -> None:
    """a b c with merges ab (rank 0) and bc (rank 1): "ab" skipped, "bc" applies, "ab" is stale."""
    ranks = {(1, 2): 0, (2, 3): 1}

    def pair_rank(first: int, mid: int, end: int, left: int, right: int) -> int:
        return ranks.get((left, right), NEVER)

    answers = iter([True, False])
    final, made = merge_lowest_first([1, 2, 3], pair_rank, id_offset=10, skip=lambda: next(answers))
    assert final == [1, 11] and made == [(1, 1, 2, 3, 11)]
    # skipped once, then back: ab (rank 0) is skipped, bc is skipped, nothing is left to try
    answers = iter([True, True])
    assert merge_lowest_first([1, 2, 3], pair_rank, id_offset=10, skip=lambda: next(answers))[0] == [1, 2, 3]
    # a b a b: the first ab skipped, the second applies, the first is back and applies too
    ranks[(1, 2)] = 0
    answers = iter([True, False, False])
    assert merge_lowest_first([1, 2, 1, 2], pair_rank, id_offset=10, skip=lambda: next(answers))[0] == [10, 10]
