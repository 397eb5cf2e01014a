"""Our pattern splits are the chunks tiktoken itself merges within, for every byte-level BPE tokenizer
of the registry: encoding chunk by chunk gives the ids of encoding the whole text, and BPE on each
chunk's bytes alone (tiktoken's ``_encode_single_piece``, no regex) gives them too."""

from __future__ import annotations

import functools
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import pretrained
from core.text.patterns import NAMED_PATTERNS
from core.text.pretokenize import chunks
from core.types import ADDED
from tests.loaded import load_once

pytestmark = pytest.mark.data

TIKTOKEN_KEYS = ["gpt2", "p50k_base", "cl100k_base", "o200k_base", "llama3", "qwen", "mistral_nemo", "whisper"]
SEPARATOR = "\n__ggml_vocab_test__\n"
EXTRA = [
    "I'M SURE THEY'LL SAY IT'S FINE. don't we’re",
    "1234567 2026 3.14159 1,000,000 007 ١٢٣",
    "getHTTPResponseCode  myVariable\n\n\t\tx = 1\r\n    return",
    "Café e\u0301 👨\u200d👩\u200d👧\u200d👦 日本語 مرحبا   \n\n  ",
]


@functools.cache
def load(key: str):
    return load_once(key)


@functools.cache
def encoding(key: str):
    """A bare tiktoken Encoding over the adapter's public ranks and pattern (ids are public ids)."""
    import tiktoken

    tok = load(key)
    return tiktoken.Encoding(f"test-{key}", pat_str=tok.pattern, mergeable_ranks=dict(tok.mergeable_ranks),
                             special_tokens={})


def reference_strings(data_dir) -> list[str]:
    text = (data_dir / "testdata" / "ggml-vocab-gpt-2.gguf.inp").read_text(encoding="utf-8")
    return [s for s in text.split(SEPARATOR) if s] + EXTRA


def check(key: str, text: str) -> None:
    tok = load(key)
    if tok.key == "qwen":
        text = unicodedata.normalize("NFC", text)  # Qwen cuts the NFC text
    whole = [t.id for t in tok.encode(text) if t.kind != ADDED]
    pieces = chunks(text, tok.pattern)
    by_chunk = [t.id for chunk in pieces for t in tok.encode(chunk) if t.kind != ADDED]
    assert by_chunk == whole, (key, text)
    enc = encoding(key)
    by_bytes = [i for chunk in pieces for i in enc._encode_single_piece(chunk.encode())]
    assert by_bytes == whole, (key, text)


@pytest.mark.parametrize("key", TIKTOKEN_KEYS)
def test_chunks_are_the_pieces_tiktoken_merges_within(key: str, data_dir) -> None:
    try:
        load(key)
    except pretrained.TokenizerUnavailable as exc:
        pytest.skip(exc.reason)
    for text in reference_strings(data_dir):
        check(key, text)


def test_the_named_patterns_are_the_ones_the_tokenizers_use(data_dir) -> None:  # noqa: ARG001
    used = {key: load(key).pattern for key in ("gpt2", "cl100k_base", "o200k_base", "llama3", "qwen")}
    assert used == {
        "gpt2": NAMED_PATTERNS["GPT-2"], "cl100k_base": NAMED_PATTERNS["cl100k_base"],
        "o200k_base": NAMED_PATTERNS["o200k_base"], "llama3": NAMED_PATTERNS["Llama 3"],
        "qwen": NAMED_PATTERNS["Qwen"],
    }


ALPHABET = st.sampled_from(list("aZé'sltdvrem 0123456789\n\r\t.,!?-_/") + ["\u00a0", "ℕ", "日", "🙂", "\u0301", "’", "Ǆ", "ǅ"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ALPHABET, max_size=40).map("".join), st.sampled_from(["gpt2", "cl100k_base", "o200k_base", "llama3", "qwen"]))
def test_random_texts_cut_the_same_way(data_dir, text: str, key: str) -> None:  # noqa: ARG001
    check(key, text)
