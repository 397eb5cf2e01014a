"""core.beyond.multilingual: the built-in multilingual sentence and the PUD sentences, measured apart from training."""

from __future__ import annotations

from pathlib import Path

from core.beyond import multilingual


def test_builtin_sentence_in_17_languages() -> None:
    texts = multilingual.builtin_texts()
    assert len(texts) == 17 and len({t.code for t in texts}) == 17
    english = next(t for t in texts if t.code == "en")
    assert english.text == "The library opens at nine, and the reading room is quiet until noon."
    assert next(t for t in texts if t.code == "zh").text.startswith("图书馆")  # full-width colon label


def test_pud_measured_sentences_are_not_in_the_training_text(data_dir: Path) -> None:
    assert multilingual.pud_available()
    texts = multilingual.pud_texts(50)
    assert len(texts) == 21 and all(len(t.text.splitlines()) == 50 for t in texts)
    assert {t.name for t in texts} >= {"English", "German", "Thai", "Chinese"}
    training = set(multilingual.pud_training_text(50).splitlines())
    measured = {line for t in texts for line in t.text.splitlines()}
    assert len(training) > 15_000
    assert not measured & training
