"""core.measures.compression: the one-run BPE sweep against separate trainings, the ceiling, and pluggable algorithms."""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence

import numpy as np
import pytest

from core import bpe
from core.corpora import load_corpus, split_heldout
from core.measures import compression
from core.text.patterns import CL100K_PATTERN, GPT2_PATTERN
from core.types import ADDED, Token
from tests.conftest import data_dir_or_none

MIXED = "El niño juega en el jardín. Съешь ещё этих булок 日本語のテキスト 🙂👩‍💻  \n\n\tx = 2026; don't stop!\n"


@pytest.fixture(scope="module")
def essay_split() -> tuple[str, str]:
    return split_heldout(load_corpus("sample_essay_en"))


@pytest.fixture(scope="module")
def shakespeare_split() -> tuple[str, str]:
    if data_dir_or_none() is None:
        pytest.skip("PLAYGROUND_DATA_DIR is not set to an existing folder (see README: offline use)")
    return split_heldout(load_corpus("tinyshakespeare"))


def test_heldout_tokens_after_k_merges_equal_encoding_with_the_first_k_merges() -> None:
    train = load_corpus("sample_essay_en") + MIXED * 3
    tokenizer = bpe.train(train, vocab_size=500).tokenizer
    heldout = load_corpus("sample_mercado_es") + MIXED
    counts = compression.bpe_heldout_tokens(tokenizer, heldout)
    assert len(counts) == len(tokenizer.merges) + 1
    for k in range(len(tokenizer.merges) + 1):
        shorter = bpe.BPETokenizer(merges=tokenizer.merges[:k])
        assert counts[k] == len(shorter.encode_ids(heldout)), k


def test_a_custom_pattern_is_respected() -> None:
    tokenizer = bpe.train(MIXED * 20, vocab_size=300, pattern=CL100K_PATTERN).tokenizer
    counts = compression.bpe_heldout_tokens(tokenizer, MIXED)
    assert counts[-1] == len(tokenizer.encode_ids(MIXED))


def test_the_incremental_sweep_needs_byte_mode() -> None:
    tokenizer = bpe.train("low lower", num_merges=2, mode="char").tokenizer
    with pytest.raises(ValueError, match="byte-level"):
        compression.bpe_heldout_tokens(tokenizer, "low")


def separate_trainings(train: str, heldout: str, sizes: Sequence[int]) -> list[int]:
    return [len(bpe.train(train, vocab_size=size).tokenizer.encode_ids(heldout)) for size in sizes]


def test_the_sweep_equals_a_separate_training_to_each_size_on_the_essay(essay_split: tuple[str, str]) -> None:
    train, heldout = essay_split
    sizes = [256, 300, 420, 700, 1_000]
    sweep = compression.bpe_sweep(train, heldout, max_vocab=max(sizes))
    curve = sweep.curve(sizes)
    reached = [min(s, sweep.max_vocab) for s in sizes]
    assert curve.vocab_sizes.tolist() == sorted(set(reached))
    assert curve.tokens.tolist() == separate_trainings(train, heldout, curve.vocab_sizes.tolist())


@pytest.mark.data
def test_the_sweep_equals_a_separate_training_to_each_size_on_tiny_shakespeare(
    shakespeare_split: tuple[str, str],
) -> None:
    train, heldout = shakespeare_split
    sizes = compression.default_sizes()  # 256 … 8,256, eight log-spaced points, as the bench
    curve = compression.bpe_sweep(train, heldout, max_vocab=max(sizes)).curve(sizes)
    assert curve.vocab_sizes.tolist() == sizes
    assert curve.tokens.tolist() == separate_trainings(train, heldout, sizes)
    assert curve.note == ""


@pytest.mark.parametrize("source", ["essay", "shakespeare"])
def test_compression_rises_with_vocabulary_and_stays_under_the_pretoken_ceiling(
    source: str, request: pytest.FixtureRequest
) -> None:
    train, heldout = request.getfixturevalue(f"{source}_split")
    sweep = compression.bpe_sweep(train, heldout, max_vocab=4_096)
    per_token = sweep.heldout_bytes / sweep.tokens_after
    ceiling = compression.pretoken_ceiling(heldout, GPT2_PATTERN)
    assert per_token[0] == 1.0  # bytes before any merge
    assert np.all(np.diff(per_token) >= 0)
    assert per_token[-1] > per_token[0] * 1.5
    assert np.all(per_token <= ceiling + 1e-12)
    assert sweep.tokens_after[-1] >= len(heldout.split())  # at least one token per word


def test_training_that_stops_early_is_clamped_and_says_so() -> None:
    sweep = compression.bpe_sweep("ab ab ab ab", "ab", max_vocab=1_000)
    assert sweep.max_vocab < 1_000
    curve = sweep.curve([256, 1_000])
    assert curve.vocab_sizes.tolist() == [256, sweep.max_vocab]
    assert "stopped after" in curve.note
    assert sweep.tokens_at(5_000) == sweep.tokens_at(sweep.max_vocab) == 1
    assert curve.dense_sizes.tolist() == list(range(256, sweep.max_vocab + 1))


def test_the_sweep_reports_progress_up_to_the_end(essay_split: tuple[str, str]) -> None:
    seen: list[float] = []
    compression.bpe_sweep(*essay_split, max_vocab=400, progress=lambda f, m: seen.append(f))
    assert seen and seen == sorted(seen) and seen[0] >= 0 and seen[-1] == pytest.approx(0.9)


def test_pretoken_ceiling_checked_by_hand() -> None:
    assert compression.pretoken_ceiling("Hello world!", GPT2_PATTERN) == 4.0  # Hello · " world" · "!"
    with pytest.raises(ValueError, match="empty"):
        compression.pretoken_ceiling("")


def test_default_sizes_are_log_spaced_from_the_base() -> None:
    sizes = compression.default_sizes(top=8_256, points=8)
    assert sizes[0] == 256 and sizes[-1] == 8_256 and len(sizes) == 8
    ratios = np.diff(np.log(sizes))
    assert ratios.max() - ratios.min() < 0.01
    with pytest.raises(ValueError):
        compression.default_sizes(top=100)


class AddsBos:
    """A tokenizer that adds a BOS and reads every character as one token."""

    name, algorithm, vocab_size = "toy (with BOS)", "Unigram", 1_000

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        return [Token(1, b"<s>", 0, 0, ADDED)] + [Token(2, c.encode(), i, i + 1) for i, c in enumerate(text)]


def test_tokenizer_points_do_not_count_tokens_the_tokenizer_adds() -> None:
    point = compression.tokenizer_point(AddsBos(), "héllo")
    assert (point.tokens, point.heldout_bytes, point.vocab_size) == (5, 6, 1_000)
    assert point.bytes_per_token == pytest.approx(1.2)


# -- pluggable algorithms ---------------------------------------------------------------------------


def fake_engine(calls: list[int]) -> types.ModuleType:
    """A module with the engines' shape: train(corpus, *, vocab_size, progress) -> result.tokenizer.

    It trains BPE underneath, refuses sizes below 256 like an engine whose alphabet is bigger, and
    reports progress as (done, total).
    """
    module = types.ModuleType("fake_engine")

    def train(corpus: str, *, vocab_size: int, progress: object = None) -> object:
        calls.append(vocab_size)
        if vocab_size < 300:
            raise ValueError(f"vocab_size must be at least 300, not {vocab_size}")
        if progress is not None:
            progress(1, 2)
            progress(2, 2)
        return types.SimpleNamespace(tokenizer=bpe.train(corpus, vocab_size=vocab_size).tokenizer)

    module.train = train
    return module


def test_a_missing_engine_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "core.wordpiece", None)  # as if the module were absent from this build
    assert compression.unavailable_reason(compression.ALGORITHMS["WordPiece"]) == "WordPiece: not available in this build"
    assert compression.unavailable_reason(compression.ALGORITHMS["BPE"]) is None


def test_a_present_engine_switches_its_entry_on_and_sweeps_by_training(
    monkeypatch: pytest.MonkeyPatch, essay_split: tuple[str, str]
) -> None:
    calls: list[int] = []
    monkeypatch.setitem(sys.modules, "core.wordpiece", fake_engine(calls))
    entry = compression.ALGORITHMS["WordPiece"]
    assert compression.unavailable_reason(entry) is None
    train, heldout = essay_split
    seen: list[float] = []
    curve = entry.sweep(train, heldout, [256, 400, 700], progress=lambda f, m: seen.append(f))
    assert sorted(calls) == [256, 400, 700]  # the largest first, then each size alone (no tokenizer_at)
    assert curve.algorithm == "WordPiece" and curve.dense_sizes is None
    assert curve.vocab_sizes.tolist() == [400, 700]
    assert curve.tokens.tolist() == separate_trainings(train, heldout, [400, 700])
    assert "256" in curve.note and "at least 300" in curve.note
    assert seen == sorted(seen) and min(seen) >= 0 and max(seen) <= 1


def test_an_engine_without_train_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "core.unigram", types.ModuleType("core.unigram"))
    reason = compression.unavailable_reason(compression.ALGORITHMS["Unigram"])
    assert reason is not None and "no train function" in reason


def test_a_new_algorithm_plugs_in_with_a_name_a_module_and_a_sweep(
    monkeypatch: pytest.MonkeyPatch, essay_split: tuple[str, str]
) -> None:
    monkeypatch.setitem(sys.modules, "tests_fake_engine", fake_engine([]))
    algorithm = compression.Algorithm(
        "Fake", "Unigram", "tests_fake_engine", compression.sweep_by_training("Fake", "tests_fake_engine")
    )
    assert compression.unavailable_reason(algorithm) is None
    curve = algorithm.sweep(*essay_split, [500])
    assert curve.vocab_sizes.tolist() == [500] and curve.bytes_per_token[0] > 1.0


def test_the_bpe_entry_is_the_one_run_sweep(essay_split: tuple[str, str]) -> None:
    curve = compression.ALGORITHMS["BPE"].sweep(*essay_split, [256, 600])
    direct = compression.bpe_sweep(*essay_split, max_vocab=600).curve([256, 600])
    assert curve.tokens.tolist() == direct.tokens.tolist()
    assert curve.dense_tokens is not None


def test_an_engine_with_train_sizes_is_swept_in_one_run(
    monkeypatch: pytest.MonkeyPatch, essay_split: tuple[str, str]
) -> None:
    calls: list[object] = []
    engine = fake_engine(calls)

    def train_sizes(corpus: str, *, vocab_sizes: Sequence[int], progress: object = None) -> dict:
        calls.append(tuple(vocab_sizes))
        if min(vocab_sizes) < 300:
            raise ValueError("vocab_size must be at least 300")
        return {size: engine.train(corpus, vocab_size=size) for size in vocab_sizes}

    engine.train_sizes = train_sizes
    monkeypatch.setitem(sys.modules, "core.unigram", engine)
    sweep = compression.ALGORITHMS["Unigram"].sweep
    curve = sweep(*essay_split, [400, 700])
    assert calls[0] == (400, 700) and curve.vocab_sizes.tolist() == [400, 700] and curve.note == ""
    calls.clear()
    curve = sweep(*essay_split, [256, 400])  # refused as a whole: each size alone, to name the one refused
    assert calls[0] == (256, 400) and 256 in calls and curve.vocab_sizes.tolist() == [400]
    assert "256" in curve.note


def test_the_real_unigram_engine_sweeps_when_present(essay_split: tuple[str, str]) -> None:
    entry = compression.ALGORITHMS["Unigram"]
    if compression.unavailable_reason(entry):
        pytest.skip("core.unigram is not in this build")
    curve = entry.sweep(*essay_split, [150, 300])
    assert curve.vocab_sizes.tolist() == [150, 300]
    assert curve.bytes_per_token[1] > curve.bytes_per_token[0] > 1.0


def test_an_engine_whose_result_has_tokenizer_at_trains_once(
    monkeypatch: pytest.MonkeyPatch, essay_split: tuple[str, str]
) -> None:
    calls: list[int] = []
    module = types.ModuleType("core.wordpiece")

    def train(corpus: str, *, vocab_size: int, progress: object = None) -> object:
        calls.append(vocab_size)
        result = bpe.train(corpus, vocab_size=vocab_size)

        def tokenizer_at(size: int) -> bpe.BPETokenizer:
            if size < 300:
                raise ValueError("vocab_size must be between 300 and the run's size")
            return bpe.BPETokenizer(merges=result.tokenizer.merges[: size - 256])

        return types.SimpleNamespace(tokenizer=result.tokenizer, tokenizer_at=tokenizer_at)

    module.train = train
    monkeypatch.setitem(sys.modules, "core.wordpiece", module)
    curve = compression.ALGORITHMS["WordPiece"].sweep(*essay_split, [256, 400, 700])
    assert calls == [700]
    assert curve.vocab_sizes.tolist() == [400, 700]
    assert curve.tokens.tolist() == separate_trainings(*essay_split, [400, 700])
    assert "256" in curve.note


def test_the_real_wordpiece_engine_sweeps_from_one_run_when_present(essay_split: tuple[str, str]) -> None:
    entry = compression.ALGORITHMS["WordPiece"]
    if compression.unavailable_reason(entry):
        pytest.skip("core.wordpiece is not in this build")
    from core import wordpiece

    train, heldout = essay_split
    curve = entry.sweep(train, heldout, [200, 400])
    assert curve.vocab_sizes.tolist() == [200, 400]
    alone = wordpiece.train(train, vocab_size=200).tokenizer
    assert curve.tokens[0] == compression.heldout_tokens(alone, heldout)  # the prefix is the shorter run
    assert curve.bytes_per_token[1] > curve.bytes_per_token[0] > 1.0


def test_the_textbook_unigram_is_a_curve_of_its_own(essay_split: tuple[str, str]) -> None:
    from core.unigram import textbook

    entry = compression.ALGORITHMS[compression.TEXTBOOK_UNIGRAM]
    assert compression.unavailable_reason(entry) is None
    curve = entry.sweep(*essay_split, [150, 300])
    alone = [compression.heldout_tokens(textbook.train(essay_split[0], vocab_size=s).tokenizer, essay_split[1])
             for s in (150, 300)]
    assert curve.vocab_sizes.tolist() == [151, 301]  # the pieces asked for, and <unk>
    assert curve.tokens.tolist() == alone
    sentencepiece_style = compression.ALGORITHMS["Unigram"].sweep(*essay_split, [151])  # the same 150 pieces
    assert sentencepiece_style.bytes_per_token[0] > curve.bytes_per_token[0]


@pytest.mark.parametrize("module", ["core.bpe", "core.wordpiece", "core.unigram", "core.unigram.textbook"])
def test_heldout_tokens_counted_from_ids_equal_the_tokens_encode_makes(
    module: str, essay_split: tuple[str, str]
) -> None:
    import importlib

    train, heldout = essay_split
    engine = importlib.import_module(module)
    result = engine.train(train, vocab_size=300)
    tokenizer = getattr(result, "tokenizer", result)
    for text in (heldout, MIXED, heldout[:2_000] + MIXED * 3):  # MIXED: characters never seen in training
        expected = sum(1 for token in tokenizer.encode(text) if token.kind != ADDED)
        assert compression.heldout_tokens(tokenizer, text) == expected
