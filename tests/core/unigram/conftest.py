"""The small corpus and the tokenizer trained on it, shared by the Unigram tests."""

from __future__ import annotations

import pytest

from core import unigram
from tests.core.unigram.oracles import CORPUS


@pytest.fixture(scope="session")
def trained() -> unigram.UnigramResult:
    return unigram.train(CORPUS, vocab_size=60)
