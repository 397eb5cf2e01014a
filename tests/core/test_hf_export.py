"""tokenizer.json exports of WordPiece and Unigram trained here: tokenizers loads them and gives our ids."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
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


@pytest.fixture(scope="module")
def unigram_models(essay: tuple[str, str]) -> list[tuple[object, Tokenizer]]:
    """A Unigram trained here with ▁ words and one with GPT-2's pattern, each beside its export."""
    from core.text.patterns import GPT2_PATTERN

    train, _ = essay
    models = [unigram.train(train, vocab_size=300).tokenizer,
              unigram.train(train, vocab_size=300, pattern=GPT2_PATTERN).tokenizer]
    return [(tok, Tokenizer.from_str(unigram_json(tok))) for tok in models]


def test_unigram_export_and_model_read_a_typed_unk_alike(unigram_models) -> None:
    """The library reads "<unk>" in a word as the unknown piece: the model must give the same ids."""
    for ours, hf in unigram_models:
        for text in ("hug <unk>", "a<unk>b", "<unk><unk> ~<unk>~", "<unk", "unk>"):
            assert hf.encode(text).ids == ours.encode_ids(text) == [t.id for t in ours.encode(text)], text


_PIECES = ["<unk>", "<", ">", "unk", "the", "e", " ", "ÆØ", "\u0301", "~", "2026", "q", "zz"]


@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_unigram_export_gives_the_models_ids(unigram_models, text: str) -> None:
    for ours, hf in unigram_models:
        if ours.pattern is None:
            text = " ".join(text.split())  # single spaces: see the module's note
        assert hf.encode(text).ids == ours.encode_ids(text) == [t.id for t in ours.encode(text)], text
