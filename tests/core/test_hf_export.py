"""tokenizer.json exports of WordPiece and Unigram trained here: tokenizers loads them and gives our ids."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer

from core import unigram, wordpiece
from core.corpora import load_corpus, split_heldout
from core.unigram.export import to_hf_json as unigram_json
from core.wordpiece.export import to_hf_json as wordpiece_json


@pytest.fixture(scope="module")
def essay() -> tuple[str, str]:
    return split_heldout(load_corpus("sample_essay_en"))


@pytest.mark.parametrize("lowercase", [False, True])
def test_wordpiece_tokenizer_json_gives_identical_ids(essay: tuple[str, str], lowercase: bool) -> None:
    train, heldout = essay
    result = wordpiece.train(train, vocab_size=400, lowercase=lowercase)
    hf = Tokenizer.from_str(wordpiece_json(result))
    text = heldout + " Zyzzyva ÆØÅ unseen-characters 2026!"
    assert hf.encode(text).ids == [t.id for t in result.tokenizer.encode(text)]
    assert hf.get_vocab_size() == result.tokenizer.vocab_size


def test_unigram_tokenizer_json_gives_identical_ids(essay: tuple[str, str]) -> None:
    train, heldout = essay
    result = unigram.train(train, vocab_size=400)
    hf = Tokenizer.from_str(unigram_json(result))
    text = " ".join((heldout + " Zyzzyva ÆØÅ 2026!").split())  # single spaces: see the module's note
    ours = [t.id for t in result.tokenizer.encode(text)]
    assert hf.encode(text).ids == ours
    assert hf.get_vocab_size() == result.tokenizer.vocab_size
