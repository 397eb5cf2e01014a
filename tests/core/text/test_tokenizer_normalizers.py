"""core.text.tokenizer_normalizers against the real libraries: each registry tokenizer's normalization is read
from its own configuration, and "the text it sees" gets the very same tokens as the text itself."""

from __future__ import annotations

import functools

import pytest

from core import pretrained
from core.text.tokenizer_normalizers import describe, seen_text
from tests.loaded import load_once

pytestmark = pytest.mark.data

SAMPLES = ["Café e\u0301 ﬁ ① Straße İ", "zero\u200bwidth\u00a0nbsp\ttab\x07bell", "日本語 👨\u200d👩\u200d👧", "  two  spaces ", ""]


@functools.cache
def loaded(key: str):
    return load_once(key)


def tokenizer(key: str, data_dir):  # noqa: ARG001 — the fixture skips when the data folder is absent
    try:
        return loaded(key)
    except pretrained.TokenizerUnavailable as exc:
        pytest.skip(f"{key}: {exc.reason}")


@pytest.mark.parametrize("key", list(pretrained.registry()))
def test_every_tokenizer_is_described_and_its_view_keeps_its_tokens(key: str, data_dir) -> None:
    tok = tokenizer(key, data_dir)
    info = describe(tok)
    assert info.library in ("tiktoken", "sentencepiece", "tokenizers") and info.name
    for text in SAMPLES:
        seen = seen_text(tok, text)
        assert isinstance(seen, str)
        # normalizing twice changes nothing: the model gets the same ids for what it "sees"
        assert [t.id for t in tok.encode(seen)] == [t.id for t in tok.encode(text)], (key, text, seen)


@pytest.mark.parametrize(
    ("key", "name", "text", "seen"),
    [
        ("gpt2", "none", "Cafe\u0301 ﬁ", "Cafe\u0301 ﬁ"),
        ("cl100k_base", "none", "ﬁ ①", "ﬁ ①"),
        ("qwen", "NFC", "Cafe\u0301", "Café"),
        ("bert_uncased", "BertNormalizer", "Café Straße", "cafe straße"),
        ("bert_cased", "BertNormalizer", "Café\x07", "Café"),
        ("t5", "nmt_nfkc", "ﬁ ①  x", "fi 1 x"),
        ("claude_legacy", "NFKC", "ﬁ ①", "fi 1"),
        ("llama2", "identity", "ﬁ  ①", "ﬁ  ①"),
    ],
)
def test_known_normalizations(key: str, name: str, text: str, seen: str, data_dir) -> None:
    tok = tokenizer(key, data_dir)
    assert describe(tok).name == name
    assert seen_text(tok, text) == seen


def test_bert_uncased_steps_name_accent_stripping_and_lowercasing(data_dir) -> None:
    steps = " ".join(describe(tokenizer("bert_uncased", data_dir)).steps)
    assert "accents stripped" in steps and "lowercased" in steps
    assert "accents" not in " ".join(describe(tokenizer("bert_cased", data_dir)).steps)


def test_lone_surrogates_are_read_as_replacement_characters(data_dir) -> None:
    assert seen_text(tokenizer("gpt2", data_dir), "a\ud800b") == "a\ufffdb"
    assert seen_text(tokenizer("t5", data_dir), "a\ud800b") == "a b"  # nmt_nfkc makes U+FFFD a space


def test_an_unknown_object_is_refused() -> None:
    with pytest.raises(ValueError, match="not a core.pretrained tokenizer"):
        describe(object())
