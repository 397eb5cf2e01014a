"""core.measures.vocab_grid: each algorithm trained once serves every vocabulary size, and each size is what a
run of its own (BPE, WordPiece) or the same ladder (Unigram) gives; sizes a corpus cannot give say why."""

from __future__ import annotations

import pytest

from core import bpe, corpora, unigram, wordpiece
from core.measures import vocab_grid
from core.measures.vocab_grid import SIZE_OPTIONS, train_models, unseen_characters
from core.types import UNKNOWN

ESSAY = corpora.load_corpus("sample_essay_en")
TEXT = "The model never sees letters, only pieces: understanding tokenizers 🙂"


@pytest.fixture(scope="module")
def trained() -> dict[str, vocab_grid.Models]:
    return {alg: train_models(alg, ESSAY, sizes=[300, 500, 1000]) for alg in vocab_grid.ALGORITHMS}


def test_bpe_at_two_sizes_trains_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = bpe.train

    def counting(*args, **kwargs):
        calls.append(kwargs.get("vocab_size"))
        return real(*args, **kwargs)

    monkeypatch.setattr(bpe, "train", counting)
    models = train_models("bpe", ESSAY, sizes=[300, 500])
    cells = [models.cell(300), models.cell(500)]
    assert calls == [500]  # one run, to the largest size
    assert [c.tokenizer.vocab_size for c in cells] == [300, 500]
    assert models.covers([300, 500]) and not models.covers([1000])


@pytest.mark.parametrize("flavour", list(vocab_grid.BPE_FLAVOURS))
def test_a_smaller_bpe_is_exactly_a_run_of_its_own(trained: dict, flavour: str) -> None:
    mode, end_of_word, _ = vocab_grid.BPE_FLAVOURS[flavour]
    models = trained["bpe"] if flavour == "byte" else train_models("bpe", ESSAY, sizes=[300, 500],
                                                                    bpe_flavour=flavour)
    own = bpe.train(ESSAY, vocab_size=300, mode=mode, end_of_word=end_of_word).tokenizer
    served = models.cell(300).tokenizer
    assert served.merges == own.merges and served.alphabet == own.alphabet
    assert [tuple(t) for t in served.encode(TEXT)] == [tuple(t) for t in own.encode(TEXT)]


def test_a_smaller_wordpiece_is_exactly_a_run_of_its_own(trained: dict) -> None:
    own = wordpiece.train(ESSAY, vocab_size=300).tokenizer
    served = trained["wordpiece"].cell(300).tokenizer
    assert served.pieces == own.pieces
    assert served.encode(TEXT) == own.encode(TEXT)


def test_a_unigram_size_is_the_same_whichever_smaller_sizes_are_on_screen() -> None:
    alone = train_models("unigram", ESSAY, sizes=[1000])
    with_smaller = train_models("unigram", ESSAY, sizes=[200, 1000])
    for size in (1000, 2000):
        a, b = alone.cell(size).tokenizer, with_smaller.cell(size).tokenizer
        assert a.vocab == b.vocab and a.scores == b.scores
    assert with_smaller.covers([200]) and not alone.covers([200])


def test_unigram_trains_the_ladder_above_the_smallest_size_in_one_run(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = unigram.train_sizes

    def counting(*args, **kwargs):
        calls.append(tuple(kwargs["vocab_sizes"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(unigram, "train_sizes", counting)
    models = train_models("unigram", ESSAY, sizes=[500, 1000])
    # the essay holds 3,740 substrings that may be pieces: the first attempt learns it, the second trains
    assert len(calls) == 2 and calls[0] == tuple(s for s in SIZE_OPTIONS if s >= 500)
    assert calls[1] == (500, 1000, 2000, 3741)
    assert [models.cell(s).tokenizer.vocab_size for s in (500, 1000, 2000)] == [500, 1000, 2000]


def test_sizes_a_corpus_cannot_give_say_why(trained: dict) -> None:
    assert trained["bpe"].cell(100).tokenizer is None
    assert "256 bytes" in trained["bpe"].cell(100).note
    multilingual = corpora.load_corpus("sample_multilingual")
    wp = train_models("wordpiece", multilingual, sizes=[300, 1000])
    assert wp.cell(300).tokenizer is None and "at least 394" in wp.cell(300).note
    uni = train_models("unigram", multilingual, sizes=[300, 1000])
    assert uni.cell(300).tokenizer is None and "at least 331" in uni.cell(300).note
    assert uni.cell(1000).tokenizer.vocab_size == 1000


def test_sizes_beyond_what_training_reaches_get_the_largest_model_with_a_note(trained: dict) -> None:
    bpe_cell = train_models("bpe", ESSAY, sizes=[8000]).cell(8000)
    assert bpe_cell.tokenizer.vocab_size == 1045 and "Stopped at 1,045" in bpe_cell.note
    uni_cell = trained["unigram"].cell(8000)
    assert uni_cell.tokenizer.vocab_size == 3741 and "at most 3,741" in uni_cell.note
    assert trained["unigram"].cell(4000).tokenizer is uni_cell.tokenizer


def test_a_corpus_no_algorithm_can_use_makes_every_cell_say_why() -> None:
    for algorithm in vocab_grid.ALGORITHMS:
        models = train_models(algorithm, "", sizes=[300, 500])
        cell = models.cell(300)
        assert cell.tokenizer is None and "could not be trained on this corpus: the corpus" in cell.note


def test_details_say_what_the_vocabulary_is_made_of(trained: dict) -> None:
    assert trained["bpe"].cell(300).detail == "256 bytes + 44 merges"
    assert trained["wordpiece"].cell(300).detail == "74 base + 226 merged pieces"
    assert trained["unigram"].cell(300).detail == "50 characters + 249 longer pieces"


def test_an_unseen_character_per_algorithm(trained: dict) -> None:
    """Byte-level BPE keeps its bytes; WordPiece loses the whole word; Unigram loses the character."""
    text = "sees 🙂x"
    bpe_tokens = trained["bpe"].cell(500).tokenizer.encode(text)
    assert not any(t.kind == UNKNOWN for t in bpe_tokens)
    wp_unknown = [t for t in trained["wordpiece"].cell(500).tokenizer.encode(text) if t.kind == UNKNOWN]
    assert [(t.start, t.end) for t in wp_unknown] == [(5, 7)]  # "🙂x": the whole word
    uni_unknown = [t for t in trained["unigram"].cell(500).tokenizer.encode(text) if t.kind == UNKNOWN]
    assert [(t.start, t.end) for t in uni_unknown] == [(5, 6)]  # the emoji alone
    assert "<unk>" in vocab_grid.UNSEEN_CHARACTER["unigram"]
    assert set(vocab_grid.UNSEEN_CHARACTER) == {*vocab_grid.BPE_FLAVOURS, "wordpiece", "unigram", "unigram_textbook"}


def test_unseen_characters() -> None:
    assert unseen_characters(set("abc "), "a\tb d 🙂 d") == ["d", "🙂"]
    assert unseen_characters(set(), "") == []


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="algorithm"):
        train_models("sentencepiece", ESSAY, sizes=[300])
    with pytest.raises(ValueError, match="size"):
        train_models("bpe", ESSAY, sizes=[])
    with pytest.raises(ValueError, match="bpe_flavour"):
        train_models("bpe", ESSAY, sizes=[300], bpe_flavour="bytes")


def test_unigram_vocab_size_error_says_the_range() -> None:
    with pytest.raises(unigram.VocabSizeError) as small:
        unigram.train(ESSAY, vocab_size=10)
    assert small.value.least == 51 and small.value.most is None
    with pytest.raises(unigram.VocabSizeError) as large:
        unigram.train_sizes(ESSAY, vocab_sizes=[100, 9000])
    assert (large.value.least, large.value.most) == (51, 3741)
    assert isinstance(large.value, ValueError)


def test_the_textbook_unigram_recipe_serves_each_size_exactly_as_training_to_it() -> None:
    from core.unigram import textbook

    corpus = "the cat sat on the mat, the cats sat on the mats. " * 20 + "a dog; a log.\n" * 10
    models = train_models("unigram", corpus, sizes=[30, 60], unigram_recipe="textbook")
    assert models.covers([30, 60])
    alone = textbook.train(corpus, vocab_size=60).tokenizer
    assert models.cell(60).tokenizer.vocab == alone.vocab
    assert "longer pieces" in models.cell(30).detail
    tiny = models.cell(5)
    assert tiny.tokenizer is None and "at least" in tiny.note
    with pytest.raises(ValueError, match="unigram_recipe"):
        train_models("unigram", corpus, sizes=[30], unigram_recipe="nope")
    unknown = [t for t in models.cell(60).tokenizer.encode("the 🙂 cat") if t.kind == UNKNOWN]
    assert [(t.start, t.end) for t in unknown] == [(4, 5)] and "<unk>" in vocab_grid.UNSEEN_CHARACTER["unigram_textbook"]


def test_each_unigram_recipe_is_named_by_its_pre_tokens_seed_and_pruning_rule() -> None:
    """Issue 22: the two Unigram choices are named by what differs (pre-tokens, seed, pruning rule)."""
    sentencepiece, textbook = vocab_grid.UNIGRAM_RECIPES["sentencepiece"], vocab_grid.UNIGRAM_RECIPES["textbook"]
    assert "▁ words" in sentencepiece and "GPT-2-style pre-tokens" in textbook
    assert "seed of the substrings covering the most characters" in sentencepiece
    assert "seed of every substring seen twice" in textbook
    assert "prunes what the corpus misses least" in sentencepiece and "prunes the least probable" in textbook


def test_the_textbook_recipe_over_the_budget_is_a_sentence_in_the_cells() -> None:
    import random

    rng = random.Random(7)
    text = "".join(rng.choice("etaoinshrdlu") for _ in range(unigram.MAX_TRAINING_CHARS + 10_000))
    models = train_models("unigram", text, sizes=[300, 500], unigram_recipe="textbook")
    assert isinstance(models, vocab_grid.Unavailable)
    assert f"at most {unigram.MAX_TRAINING_CHARS:,}" in models.reason
