"""Training on text without spaces: long words are cut for training, and a progress callback can stop it.

Issue 19, item 6: a megabyte without a space is one pre-token; BPE rescanned it at every merge that
touched it and Unigram ran its forward pass over all of it. The cut is checked here without timing
(bench/long_word.py measures it).
"""

from __future__ import annotations

from collections import Counter

import pytest

from core import bpe, unigram, wordpiece
from core.measures import vocab_grid
from core.text.pretokenize import MAX_TRAINING_WORD, cut_long_words

NO_SPACES = "ab" * 5_000  # one pre-token of 10,000 characters under every pattern


class Stop(Exception):
    """What a page's Stop button amounts to: an exception out of the progress callback."""


def test_cut_long_words_cuts_only_what_is_too_long() -> None:
    counted = Counter({"x" * 600: 2, "short": 3})
    cut = cut_long_words(counted, limit=256)
    assert cut == Counter({"x" * 256: 4, "x" * 88: 2, "short": 3})
    same = Counter({"short": 1})
    assert cut_long_words(same) is same
    with pytest.raises(ValueError):
        cut_long_words(same, limit=0)


@pytest.mark.parametrize("mode", ["byte", "char"])
def test_bpe_never_learns_a_token_longer_than_the_cut(mode: str) -> None:
    # doubling merges (ab, abab, ...) would pass 256 characters after eight of them on the whole run
    result = bpe.train(NO_SPACES, num_merges=40, mode=mode)
    longest = max(len(bpe.piece_label(step.piece).removesuffix("</w>")) for step in result.trace)
    assert longest == MAX_TRAINING_WORD


def test_unigram_trains_on_words_cut_to_the_same_length() -> None:
    assert unigram.MAX_WORD_CHARS == MAX_TRAINING_WORD
    words, _, _ = unigram._count_words(NO_SPACES, None, 8)
    assert max(map(len, words)) == MAX_TRAINING_WORD


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece", "unigram"])
def test_an_exception_from_progress_stops_training_at_once(algorithm: str) -> None:
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        raise Stop

    train = {"bpe": lambda: bpe.train(NO_SPACES + " ba ab", vocab_size=400, progress=progress),
             "wordpiece": lambda: wordpiece.train("ab ba abba " * 200, vocab_size=40, progress=progress),
             "unigram": lambda: unigram.train("ab ba abba baab " * 200, vocab_size=12, progress=progress)}
    with pytest.raises(Stop):
        train[algorithm]()
    assert len(calls) == 1


def test_the_grid_lets_a_stop_through_rather_than_calling_it_unavailable() -> None:
    def progress(fraction: float, message: str) -> None:
        raise Stop

    for algorithm in vocab_grid.ALGORITHMS:
        with pytest.raises(Stop):
            vocab_grid.train_models(algorithm, "ab ba abba baab " * 200, sizes=[300], progress=progress)


def test_unigram_refuses_more_distinct_text_than_its_budget_at_once() -> None:
    import random
    import time

    rng = random.Random(6)
    text = "".join(rng.choice("etaoinshrdlu") for _ in range(unigram.MAX_TRAINING_CHARS + 10_000))
    began = time.monotonic()
    with pytest.raises(ValueError, match=f"at most {unigram.MAX_TRAINING_CHARS:,}"):
        unigram.train_sizes(text, vocab_sizes=[8000])
    assert time.monotonic() - began < 30  # refused before the seed, not after minutes (generous: shared machine)
    ok = text[: unigram.MAX_TRAINING_CHARS // 50]  # well under the budget: trains
    assert unigram.train(ok, vocab_size=200).tokenizer.vocab_size == 200


def test_the_result_says_how_many_words_were_cut() -> None:
    assert bpe.train(NO_SPACES + " " + "cd" * 300 + " ef", num_merges=5).words_cut == 2
    assert bpe.train(NO_SPACES, num_merges=5, mode="char").words_cut == 1
    assert bpe.train("ordinary words only", num_merges=5).words_cut == 0


def test_the_unigram_budget_is_a_parameter_the_command_line_lifts() -> None:
    rng = __import__("random").Random(3)
    text = "".join(rng.choice("abcdefgh ") for _ in range(3_000))  # ~2,600 characters of distinct words
    with pytest.raises(ValueError, match="at most 1,000"):
        unigram.train(text, vocab_size=60, max_chars=1_000)
    assert unigram.train(text, vocab_size=60, max_chars=None).tokenizer.vocab_size == 60


def test_bpe_refuses_more_distinct_text_than_its_budget_unless_lifted() -> None:
    from core.bpe.model import MAX_TRAINING_CHARS

    rng = __import__("random").Random(4)
    text = "".join(rng.choice("abcdefgh ") for _ in range(3_000))
    with pytest.raises(ValueError, match="at most 1,000"):
        bpe.train(text, num_merges=10, max_chars=1_000)
    assert len(bpe.train(text, num_merges=10, max_chars=None).trace) == 10
    assert len(bpe.train(text, num_merges=10).trace) == 10 and MAX_TRAINING_CHARS == 2_000_000
