"""Uploaded tokenizer files: every format round-trips to the registry's ids; GGUF vocabularies built
here with gguf.GGUFWriter tokenize like the tokenizer they came from; bad files get one line."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from core.pretrained import TokenizerUnavailable
from core.pretrained.uploaded import TIKTOKEN_PATTERNS, UploadRejected, read_upload
from core.types import ADDED
from tests.loaded import load_once

STRINGS = [
    "", "a", "Hello world", "Héllo, wörld! 12345", "👨‍👩‍👧 🙂", "日本語のテキスト", "مرحبا بالعالم", "नमस्ते दुनिया",
    "  \t\n  spaces\n\n", "def f(x):\n    return x ** 2", "Ａ１ ﬁ e\u0301", "don't I'LL 2026",
]

# (registry key, file in PLAYGROUND_DATA_DIR/tokenizers, pattern name for rank files)
FILES = [
    ("gpt2", "r50k_base.tiktoken", "GPT-2"),
    ("cl100k_base", "cl100k_base.tiktoken", "cl100k_base"),
    ("o200k_base", "o200k_base.tiktoken", "o200k_base"),
    ("llama3", "llama3_tokenizer.model", "Llama 3"),  # Llama 3's .model is a rank file
    ("llama2", "llama2_tokenizer.model", None),
    ("mistral_v3", "mistral_v3_tokenizer.model", None),
    ("t5", "t5_spiece.model", None),
    ("bert_uncased", "bert-base-uncased_vocab.txt", None),
    ("bert_cased", "bert-base-cased_vocab.txt", None),
    ("mbert", "bert-base-multilingual-cased_tokenizer.json", None),
    ("xlmr", "xlm-roberta-base.tokenizer.json", None),
    ("claude_legacy", "anthropic_legacy_claude_tokenizer.json", None),
    ("mistral_nemo", "mistral_tekken_240718.json", None),
]


def text_ids(tokenizer, text: str) -> list[int]:
    return [t.id for t in tokenizer.encode(text) if t.kind != ADDED]


def registry_tokenizer(key: str):
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("PLAYGROUND_OFFLINE", "1")
            return load_once(key)
    except TokenizerUnavailable as exc:
        pytest.skip(exc.reason)


@pytest.mark.data
@pytest.mark.parametrize(("key", "filename", "pattern"), FILES, ids=[f[0] for f in FILES])
def test_an_uploaded_registry_file_gives_the_registry_ids(data_dir: Path, key: str, filename: str, pattern) -> None:
    path = data_dir / "tokenizers" / filename
    kwargs = {"pattern": TIKTOKEN_PATTERNS[pattern], "pattern_name": pattern} if pattern else {}
    upload = read_upload(path.read_bytes(), filename, **kwargs)
    reference = registry_tokenizer(key)
    assert upload.key.startswith("upload:") and upload.filename == filename
    assert upload.tokenizer.name == filename and upload.tokenizer.family == "uploaded"
    assert "uploaded" in upload.tokenizer.source and upload.sha256[:8] in upload.tokenizer.source
    for text in STRINGS:
        assert text_ids(upload.tokenizer, text) == text_ids(reference, text), (key, text)
        assert upload.tokenizer.count(text) == reference.count(text)


@pytest.mark.data
def test_a_tiktoken_upload_follows_the_chosen_pattern(data_dir: Path) -> None:
    data = (data_dir / "tokenizers" / "cl100k_base.tiktoken").read_bytes()
    with_cl100k = read_upload(data, "x.tiktoken", pattern=TIKTOKEN_PATTERNS["cl100k_base"], pattern_name="cl100k_base")
    with_gpt2 = read_upload(data, "x.tiktoken", pattern=TIKTOKEN_PATTERNS["GPT-2"], pattern_name="GPT-2")
    custom = read_upload(data, "x.tiktoken", pattern=r"\S+|\s+", pattern_name="a custom regex")
    assert [t.bytes for t in with_cl100k.tokenizer.encode("2026")] == [b"202", b"6"]
    # the same ranks, but GPT-2 keeps the digits in one chunk, where the merges make 20 + 26
    assert [t.bytes for t in with_gpt2.tokenizer.encode("2026")] == [b"20", b"26"]
    assert len({with_cl100k.key, with_gpt2.key, custom.key}) == 3  # the pattern is part of the key
    assert custom.tokenizer.pattern == r"\S+|\s+" and "custom" in custom.notes[0]


# -- GGUF vocabularies built here ------------------------------------------------------------------


def write_gguf(path: Path, *, model: str, tokens: list[str], types: list[int], merges=None, scores=None,
               pre: str | None = None, bos: int | None = None, add_bos: bool = False, unk: int | None = None) -> bytes:
    import gguf

    writer = gguf.GGUFWriter(str(path), arch="llama")
    writer.add_name("test vocabulary")
    writer.add_tokenizer_model(model)
    if pre:
        writer.add_tokenizer_pre(pre)
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    if merges is not None:
        writer.add_token_merges(merges)
    if scores is not None:
        writer.add_token_scores(scores)
    if bos is not None:
        writer.add_bos_token_id(bos)
        writer.add_add_bos_token(add_bos)
    if unk is not None:
        writer.add_unk_token_id(unk)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path.read_bytes()


CORPUS = ["the quick brown fox jumps over the lazy dog. " * 20, "tokenizers cut text into tokens; 12345 67890\n" * 20,
          "Héllo wörld, ünïcode façade naïve café " * 20]


@pytest.fixture(scope="module")
def small_byte_level_bpe():
    """A 400-token byte-level BPE trained here with tokenizers, cut by GPT-2's pattern."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

    from core.text.patterns import GPT2_PATTERN

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(GPT2_PATTERN), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  special_tokens=["<|endoftext|>"], show_progress=False)
    tokenizer.train_from_iterator(CORPUS, trainer=trainer)
    return tokenizer


def test_a_gguf_byte_level_bpe_tokenizes_like_its_source(small_byte_level_bpe, tmp_path: Path) -> None:
    import json

    source = small_byte_level_bpe
    model = json.loads(source.to_str())["model"]
    vocab = model["vocab"]
    tokens = [None] * len(vocab)
    for token, i in vocab.items():
        tokens[i] = token
    merges = [m if isinstance(m, str) else " ".join(m) for m in model["merges"]]
    types = [3 if t == "<|endoftext|>" else 1 for t in tokens]
    data = write_gguf(tmp_path / "v.gguf", model="gpt2", tokens=tokens, types=types, merges=merges, pre="gpt-2")
    upload = read_upload(data, "small.gguf")
    assert upload.kind == "GGUF" and upload.tokenizer.algorithm == "byte-level BPE"
    assert upload.tokenizer.vocab_size == len(tokens)
    assert any("GPT-2's pattern" in note for note in upload.notes)
    for text in [*STRINGS, *CORPUS]:
        assert text_ids(upload.tokenizer, text) == source.encode(text).ids, text
        assert upload.tokenizer.decode(text_ids(upload.tokenizer, text)) == text
    assert upload.tokenizer.special_tokens == {"<|endoftext|>": vocab["<|endoftext|>"]}


@pytest.fixture(scope="module")
def small_sentencepiece(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 400-piece SentencePiece BPE model with byte fallback, trained here."""
    import sentencepiece

    folder = tmp_path_factory.mktemp("spm")
    corpus = folder / "corpus.txt"
    corpus.write_text("\n".join(CORPUS * 3), encoding="utf-8")
    sentencepiece.SentencePieceTrainer.train(
        input=str(corpus), model_prefix=str(folder / "small"), vocab_size=400, model_type="bpe",
        byte_fallback=True, character_coverage=1.0, minloglevel=2, normalization_rule_name="identity",
        remove_extra_whitespaces=False, split_digits=True,  # as Llama 2 is trained
    )
    return folder / "small.model"


def test_a_gguf_sentencepiece_vocabulary_tokenizes_like_its_source(small_sentencepiece: Path, tmp_path: Path) -> None:
    import sentencepiece

    processor = sentencepiece.SentencePieceProcessor(model_file=str(small_sentencepiece))
    size = processor.get_piece_size()
    tokens = [processor.id_to_piece(i) for i in range(size)]
    scores = [float(processor.get_score(i)) for i in range(size)]
    types = [2 if processor.is_unknown(i) else 3 if processor.is_control(i) else 6 if processor.is_byte(i) else 1
             for i in range(size)]
    data = write_gguf(tmp_path / "v.gguf", model="llama", tokens=tokens, types=types, scores=scores,
                      bos=processor.bos_id(), add_bos=True, unk=processor.unk_id())
    upload = read_upload(data, "small-spm.gguf")
    assert upload.tokenizer.algorithm == "SentencePiece BPE"
    for text in [*STRINGS, *CORPUS]:
        assert text_ids(upload.tokenizer, text) == processor.encode(text), text
    first = upload.tokenizer.encode("hi")[0]
    assert first.kind == ADDED and first.bytes == b"<s>"  # add_bos_token from the file


@pytest.mark.data
def test_a_gguf_of_llama2_matches_llama_cpp(data_dir: Path, tmp_path: Path) -> None:
    from sentencepiece import sentencepiece_model_pb2 as pb

    from tests.core.pretrained.test_reference_ids import read_reference

    proto = pb.ModelProto()
    proto.ParseFromString((data_dir / "tokenizers" / "llama2_tokenizer.model").read_bytes())
    data = write_gguf(tmp_path / "v.gguf", model="llama", tokens=[p.piece for p in proto.pieces],
                      types=[int(p.type) for p in proto.pieces], scores=[p.score for p in proto.pieces], bos=1,
                      add_bos=True, unk=0)
    upload = read_upload(data, "llama2.gguf")
    for text, expected in read_reference(data_dir / "testdata", "llama-spm"):
        assert text_ids(upload.tokenizer, text) == expected, text


def test_a_gguf_wordpiece_vocabulary(tmp_path: Path) -> None:
    tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "##s", "!", "h", "##e", "##l", "##o"]
    types = [3, 2, 3, 3] + [1] * 8
    upload = read_upload(write_gguf(tmp_path / "v.gguf", model="bert", tokens=tokens, types=types), "bert.gguf")
    assert upload.tokenizer.algorithm == "WordPiece"
    assert [upload.tokenizer.piece(t.id) for t in upload.tokenizer.encode("Hello worlds!")] == [
        "[CLS]", "hello", "world", "##s", "!", "[SEP]",
    ]


# -- refusals ------------------------------------------------------------------------------------


def test_unknown_gguf_vocabulary_types_and_missing_parts(tmp_path: Path) -> None:
    with pytest.raises(UploadRejected, match="vocabulary type is 'rwkv'"):
        read_upload(write_gguf(tmp_path / "a.gguf", model="rwkv", tokens=["a"], types=[1]), "a.gguf")
    with pytest.raises(UploadRejected, match="no merges"):
        read_upload(write_gguf(tmp_path / "b.gguf", model="gpt2", tokens=["a"], types=[1]), "b.gguf")
    with pytest.raises(UploadRejected, match="no score"):
        read_upload(write_gguf(tmp_path / "c.gguf", model="llama", tokens=["a"], types=[1]), "c.gguf")
    with pytest.raises(UploadRejected, match="not in its vocabulary"):
        read_upload(write_gguf(tmp_path / "d.gguf", model="gpt2", tokens=["a", "b"], types=[1, 1], merges=["a c"]),
                    "d.gguf")


def test_a_gguf_without_a_tokenizer(tmp_path: Path) -> None:
    import gguf

    writer = gguf.GGUFWriter(str(tmp_path / "m.gguf"), arch="llama")
    writer.add_name("weights only")
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(UploadRejected, match="without a tokenizer"):
        read_upload((tmp_path / "m.gguf").read_bytes(), "m.gguf")


BAD = [
    (b"", "tokenizer.json", "is empty"),
    (b"{not json", "tokenizer.json", "not valid JSON"),
    (b'{"name": "x", "items": [1, 2]}', "config.json", "JSON but not a tokenizer.*name, items"),
    (b"[1, 2, 3]", "tokenizer.json", "JSON but not a tokenizer"),
    (b'{"model": {"type": "BPE", "vocab": 3}}', "tokenizer.json", "could not be read"),
    (b"\x00\x01\x02garbage\xff\xfe", "tokenizer.model", "not a SentencePiece model"),
    (b"hello\nworld\n", "vocab.txt", "not a BERT vocab.txt"),
    (b"[UNK]\nhello\n", "vocab.txt", "lacks \\[CLS\\] and \\[SEP\\]"),
    (b"\xff\xfe\x00h\x00i", "vocab.txt", "neither a tokenizer file nor UTF-8"),
    (b"GGUF\x03\x00\x00\x00truncated", "model.gguf", "shorter than a GGUF header"),
    (b"not gguf at all", "model.gguf", "not a GGUF file"),
    (b"this is not base64 0\n", "ranks.tiktoken", "not a rank file"),
    (b"YQ== 0\nYg== x\n", "ranks.tiktoken", "line 2"),
    (b"YQ== 0\nYg== 1\n", "ranks.tiktoken", "lacks 254 of the 256 single bytes"),
    (b"YQ== 0\nYg== 0\n", "ranks.tiktoken", "same rank"),
]


@pytest.mark.parametrize(("data", "name", "message"), BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(BAD)])
def test_a_bad_file_gets_one_line(data: bytes, name: str, message: str) -> None:
    with pytest.raises(UploadRejected, match=message) as info:
        read_upload(data, name)
    assert "\n" not in str(info.value) and name in str(info.value)
    assert "Traceback" not in str(info.value)


@pytest.mark.parametrize("name", ["tokenizer.json", "x.tiktoken", "tokenizer.model", "vocab.txt", "model.gguf"])
def test_an_oversized_file_of_any_kind(name: str) -> None:
    with pytest.raises(UploadRejected, match=r"1\.0 MB; tokenizer files up to 1 MB") as info:
        read_upload(b"x" * 1_000_001, name, max_bytes=1_000_000)
    assert "\n" not in str(info.value)


def test_a_bad_custom_pattern() -> None:
    ranks = b"".join(__import__("base64").b64encode(bytes([b])) + b" %d\n" % b for b in range(256))
    with pytest.raises(UploadRejected, match="not a valid regular expression"):
        read_upload(ranks, "x.tiktoken", pattern="(unclosed", pattern_name="a custom regex")
    with pytest.raises(UploadRejected, match="pattern is empty"):
        read_upload(ranks, "x.tiktoken", pattern="", pattern_name="a custom regex")
    ok = read_upload(ranks, "x.tiktoken", pattern=r"\S+|\s+", pattern_name="a custom regex")
    assert [t.bytes for t in ok.tokenizer.encode("ab")] == [b"a", b"b"]  # only bytes: nothing merges


def test_no_file_is_left_on_disk(small_sentencepiece: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    read_upload(small_sentencepiece.read_bytes(), "small.model")
    read_upload(b"[PAD]\n[UNK]\n[CLS]\n[SEP]\nhello\n", "vocab.txt")
    with pytest.raises(UploadRejected):
        read_upload(b"GGUF\x03\x00\x00\x00truncated", "model.gguf")
    assert os.listdir(scratch) == []
