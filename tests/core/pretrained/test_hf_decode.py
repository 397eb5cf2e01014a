"""A lossless ``tokenizers``-backed tokenizer stays lossless when special tokens are typed in the text.

DeepSeek V4's file is byte-level BPE with special tokens (``<｜begin▁of▁sentence｜>``) and added
non-special ones (``<｜User｜>``, ``<think>``). With "Read special tokens" on, a typed special token
is one id; decoding must give it back, or the Playground calls the tokenizer lossy. The real file
is used when it is at hand; a small tokenizer.json with the same structure (ByteLevel pre-tokenizer
and decoder, special and non-special added tokens) is built here so the check always runs.
"""

from __future__ import annotations

import os
from unittest import mock

import pytest

from core.pretrained import TokenizerUnavailable
from core.pretrained.uploaded import read_upload
from core.types import SPECIAL
from tests.loaded import load_once
from ui.cache import compute_analysis

BOS, USER, THINK = "<｜begin▁of▁sentence｜>", "<｜User｜>", "<think>"
TEXTS = [f"{BOS}hi {USER}x {THINK}y", f"a{BOS}{BOS} b", f"{USER}{BOS}"]


def small_deepseek_like() -> str:
    """A byte-level BPE tokenizer.json with DeepSeek V4's kinds of added tokens."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    vocab = {symbol: i for i, symbol in enumerate(sorted(alphabet))}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(BOS, special=True, normalized=False)])
    tok.add_tokens([AddedToken(USER, special=False, normalized=False), AddedToken(THINK, special=False, normalized=False)])
    return tok.to_str()


def deepseek_v4():
    try:
        with mock.patch.dict(os.environ, {"PLAYGROUND_OFFLINE": "1"}):
            return load_once("deepseek_v4")
    except TokenizerUnavailable:
        pytest.skip("deepseek_v4's file is not in the data folder or the user cache")


@pytest.mark.parametrize("text", TEXTS)
def test_typed_special_tokens_survive_the_round_trip_of_a_small_deepseek_like_file(text: str) -> None:
    tok = read_upload(small_deepseek_like().encode(), "tokenizer.json").tokenizer
    assert tok.lossless
    tokens = tok.encode(text, allow_special=True)
    assert any(t.kind == SPECIAL for t in tokens)
    assert tok.decode([t.id for t in tokens]) == text
    assert not compute_analysis("small", tok, text, True).lossy


@pytest.mark.parametrize("text", TEXTS)
def test_typed_special_tokens_survive_deepseek_v4s_round_trip(text: str) -> None:
    tok = deepseek_v4()
    tokens = tok.encode(text, allow_special=True)
    assert tokens[0].kind == SPECIAL or BOS not in text[:1]
    assert tok.decode([t.id for t in tokens]) == text
    assert not compute_analysis("deepseek_v4", tok, text, True).lossy
    assert not compute_analysis("deepseek_v4", tok, text, False).lossy
