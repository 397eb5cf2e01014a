"""ui.beyond.models: form checks, corpus options and the model store (no Streamlit run needed)."""

from __future__ import annotations

import threading
import time

import pytest

from ui.beyond import models


def test_check_super_settings() -> None:
    assert models.check_super_settings("sample_essay_en", 600, 450) == models.SuperSettings("sample_essay_en", 600, 450)
    with pytest.raises(ValueError, match="between 257 and 20,000"):
        models.check_super_settings("sample_essay_en", 50_000, 450)
    with pytest.raises(ValueError, match="transition must lie between 256"):
        models.check_super_settings("sample_essay_en", 600, 700)
    with pytest.raises(ValueError, match="No corpus called"):
        models.check_super_settings("nope", 600, 450)


def test_corpus_options() -> None:
    ngram = models.ngram_corpus_options()
    assert list(ngram)[:2] == [models.SAMPLES, models.PUD_MIX]
    assert not [key for key in ngram if key.startswith("pud:")]
    superwords = models.super_corpus_options()
    assert "sample_essay_en" in superwords and "pud:en" in superwords and "pud:de" not in superwords


def test_size_label() -> None:
    assert models.size_label(8_600) == "8.6 kB" and models.size_label(2_714_270) == "2.71 MB"


def test_the_store_makes_each_value_once_even_when_asked_at_once() -> None:
    store = models.ModelStore(max_items=2)
    calls = []

    def make() -> str:
        calls.append(1)
        time.sleep(0.05)
        return "model"

    threads = [threading.Thread(target=store.get, args=("a", make)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert calls == [1] and store.peek("a") == "model"
    store.get("b", lambda: "b")
    store.get("c", lambda: "c")
    assert store.peek("a") is None  # the oldest is dropped beyond max_items


@pytest.mark.parametrize("key", ["gpt2", "llama3", "bert_uncased", "xlmr"])
def test_token_count_is_the_counts_tables_number_without_building_tokens(key: str, monkeypatch) -> None:
    """The languages chart counts 21 languages under each tokenizer on the page's first visit: from the
    library's ids (no ``Token`` objects, 5-8 times less CPU), the same number the counts table shows
    (a BOS the tokenizer adds left out, unknown tokens counted)."""
    from core.beyond import multilingual
    from core.measures.metrics import text_counts
    from ui import cache

    tokenizer = cache.tokenizer_store().get(key)
    if isinstance(tokenizer, cache.Unavailable):
        pytest.skip(tokenizer.reason)
    texts = [t.text for t in multilingual.builtin_texts()]
    expected = [text_counts(text, tokenizer.encode(text)).tokens for text in texts]

    def no_tokens(*args, **kwargs):
        raise AssertionError("token_count built Token objects to count them")

    models.token_count.clear()
    monkeypatch.setattr(tokenizer, "encode", no_tokens)
    assert [models.token_count(key, text) for text in texts] == expected
