"""Every ``tokenizers``-backed tokenizer gives the library's own ids, on text made to trip the offset fixes.

The adapter encodes part of a text on its own when the normalizer deletes control characters at the
start (the library then shifts every offset); that must never change an id. The reference is the
library itself on the same file (BERT's through ``BertWordPieceTokenizer``), ids with its added
tokens, compared with every token ``encode`` returns; offsets must still be valid.
"""

from __future__ import annotations

import os
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.fetch import sources
from core.pretrained import TokenizerUnavailable, registry
from core.pretrained.hf_adapter import HFTokenizer
from core.pretrained.uploaded import read_upload
from tests.core.pretrained.test_offsets_content import check_content
from tests.loaded import load_once

_LOADED: dict[str, tuple[HFTokenizer, object] | None] = {}
_XLMR = "xlm-roberta-base.tokenizer.json"

# controls XLM-R deletes alone (BS, NEL, C1), spaces it reads as a space or strips (NBSP, U+3000, U+2003),
# combining marks and a zero-width joiner, around plain letters
TRICKY = ["\x08", "\x85", "\x00", "\x1f", "\x9f", "\xa0", "\u3000", "\u2003", "\u0301", "\u0308", "\u200d",
          " ", "  ", "\t", "\n", "a", "hello", "ﬃ", "é", "<s>", "你", "2026"]
texts = st.lists(st.sampled_from(TRICKY), max_size=6).map("".join)


def hf_keys() -> list[str]:
    from core.pretrained.registry import _BUILDERS

    return [key for key in registry() if _BUILDERS[key].__qualname__.startswith(("_hf_json", "_bert_vocab"))]


def loaded(key: str) -> tuple[HFTokenizer, object]:
    """The adapter and the library's own tokenizer on the same file."""
    if key not in _LOADED:
        try:
            with mock.patch.dict(os.environ, {"PLAYGROUND_OFFLINE": "1"}):
                tok = load_once(key)
                path = sources.obtain(registry()[key].files[0]).path
        except (TokenizerUnavailable, sources.SourceUnavailable):
            _LOADED[key] = None
        else:
            _LOADED[key] = (tok, library(key, path))
    if _LOADED[key] is None:
        pytest.skip(f"{key} is not available")
    return _LOADED[key]


def library(key: str, path: Path):
    from tokenizers import BertWordPieceTokenizer, Tokenizer

    if path.suffix == ".txt":  # the wrapper's own pipeline, on a Tokenizer that has the special-token switch
        return Tokenizer.from_str(BertWordPieceTokenizer(str(path), lowercase=key == "bert_uncased").to_str())
    return Tokenizer.from_file(str(path))


def check(tok: HFTokenizer, lib, text: str) -> None:
    for allow_special in (False, True):
        lib.encode_special_tokens = not allow_special
        tokens = tok.encode(text, allow_special=allow_special)
        assert [t.id for t in tokens] == lib.encode(text).ids, (text, allow_special)
    tokens = tok.encode(text)
    assert all(0 <= t.start <= t.end <= len(text) for t in tokens), (text, tokens)
    assert [t.start for t in tokens if t.start < t.end] == sorted(t.start for t in tokens if t.start < t.end)
    check_content(tok, text, tokens)


def test_the_hf_keys_are_found() -> None:
    assert {"xlmr", "bert_uncased", "deepseek_v4"} <= set(hf_keys())


@pytest.mark.parametrize("text", ["\x85hello", "\xa0\u0301x", "\u3000\u0301x", "\u2003\u0301", "\x08\x85hi",
                                  "\x08abc", "\x85", "\x08\xa0\u0308y"])
def test_xlmr_ids_are_the_librarys_when_a_lead_is_kept_in_context(text: str) -> None:
    tok, lib = loaded("xlmr")
    check(tok, lib, text)


@pytest.mark.parametrize("key", hf_keys())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_ids_are_the_librarys_on_controls_spaces_and_marks(key: str, text: str) -> None:
    tok, lib = loaded(key)
    check(tok, lib, text)


def test_an_uploaded_xlmr_tokenizer_json_gives_the_librarys_ids() -> None:
    path = Path(os.environ.get("PLAYGROUND_DATA_DIR", "")) / "tokenizers" / _XLMR
    if not path.is_file():
        pytest.skip(f"{_XLMR} is not in PLAYGROUND_DATA_DIR")
    from tokenizers import Tokenizer

    tok = read_upload(path.read_bytes(), _XLMR).tokenizer
    lib = Tokenizer.from_file(str(path))
    for text in ("\x85hello", "\xa0\u0301x", "\x08\x85hi", "\x08abc"):
        check(tok, lib, text)
