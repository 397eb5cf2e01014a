"""GGUF vocabularies written here the way llama.cpp's converter writes them, read back against
llama.cpp's reference tokenizations and the vendors' own files: BERT (phantom-space spelling),
Phi-3 (several pieces typed unknown) and the byte-level pre-tokenizer names llama.cpp defines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.pretrained.adapter import BYTE_TO_UNICODE, UNICODE_TO_BYTE, byte_level_piece
from core.pretrained.gguf_pre import NOT_BYTE_LEVEL, PRE_TOKENIZERS
from core.pretrained.gguf_vocab import GGUFVocab, build
from core.pretrained.uploaded import UploadRejected, read_upload
from core.types import ADDED
from tests.core.pretrained.test_reference_ids import read_reference
from tests.loaded import load_once

NORMAL, UNKNOWN, CONTROL, USER_DEFINED = 1, 2, 3, 4


def write_gguf(path: Path, *, model: str, tokens: list[str], types: list[int], merges: list[str] | None = None,
               scores: list[float] | None = None, pre: str | None = None, ids: dict[str, int] | None = None,
               add_bos: bool | None = None) -> bytes:
    """A vocabulary-only GGUF, as llama.cpp's convert_hf_to_gguf.py writes one (gguf.GGUFWriter)."""
    import gguf

    writer = gguf.GGUFWriter(str(path), arch="llama")
    writer.add_tokenizer_model(model)
    if pre:
        writer.add_tokenizer_pre(pre)
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    if merges is not None:
        writer.add_token_merges(merges)
    if scores is not None:
        writer.add_token_scores(scores)
    for name, value in (ids or {}).items():
        getattr(writer, f"add_{name}_token_id")(value)
    if add_bos is not None:
        writer.add_add_bos_token(add_bos)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path.read_bytes()


def text_ids(tokenizer, text: str) -> list[int]:
    return [t.id for t in tokenizer.encode(text) if t.kind != ADDED]


# -- BERT (item 18) ----------------------------------------------------------------------------------


def phantom(token: str) -> str:
    """convert_hf_to_gguf.py's BertModel spelling: [markers] kept, ##x -> x, a word start -> ▁word."""
    if token.startswith("[") and token.endswith("]"):
        return token
    return token[2:] if token.startswith("##") else "\u2581" + token


@pytest.mark.data
def test_a_gguf_bert_vocabulary_matches_llama_cpp(data_dir: Path, tmp_path: Path) -> None:
    vocab = (data_dir / "tokenizers" / "bert-base-uncased_vocab.txt").read_text(encoding="utf-8").splitlines()
    markers = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}
    data = write_gguf(tmp_path / "bert.gguf", model="bert", tokens=[phantom(t) for t in vocab],
                      types=[CONTROL if t in markers else NORMAL for t in vocab],
                      ids={"unk": 100, "bos": 101, "sep": 102, "pad": 0, "mask": 103})
    upload = read_upload(data, "ggml-vocab-bert-bge.gguf")
    assert text_ids(upload.tokenizer, "hello world") == [7592, 2088]  # was [100, 11108]: ▁hello unknown
    assert any("##" in note for note in upload.notes)
    cases = read_reference(data_dir / "testdata", "bert-bge")
    assert [text for text, expected in cases if text_ids(upload.tokenizer, text) != expected] == []


# -- Phi-3 (item 19) ---------------------------------------------------------------------------------


@pytest.mark.data
def test_a_gguf_with_several_unknown_pieces_uses_unknown_token_id(data_dir: Path, tmp_path: Path) -> None:
    """llama.cpp's ggml-vocab-phi-3.gguf: Llama 2's pieces, Phi-3's added tokens, and padding pieces
    typed UNKNOWN (the converter's default type), which sentencepiece refused ("unk is already defined")."""
    from sentencepiece import sentencepiece_model_pb2 as pb

    proto = pb.ModelProto()
    proto.ParseFromString((data_dir / "tokenizers" / "llama2_tokenizer.model").read_bytes())
    added = ["<|endoftext|>", "<|assistant|>", "<|placeholder1|>", "<|system|>", "<|end|>", "<|user|>"]
    tokens = [p.piece for p in proto.pieces] + added + [f"[PAD{i}]" for i in range(32006, 32064)]
    types = [int(p.type) for p in proto.pieces] + [CONTROL, USER_DEFINED, USER_DEFINED, USER_DEFINED, USER_DEFINED,
                                                   USER_DEFINED] + [UNKNOWN] * 58
    scores = [p.score for p in proto.pieces] + [0.0] * (len(added) + 58)
    data = write_gguf(tmp_path / "phi3.gguf", model="llama", tokens=tokens, types=types, scores=scores,
                      ids={"bos": 1, "eos": 32000, "unk": 0}, add_bos=True)
    upload = read_upload(data, "ggml-vocab-phi-3.gguf")
    tokenizer = upload.tokenizer
    assert tokenizer.vocab_size == 32064 and tokenizer.unknown_ids == frozenset({0})
    assert any("58 other pieces typed unknown" in note for note in upload.notes)
    assert [text for text, expected in read_reference(data_dir / "testdata", "llama-spm")
            if text_ids(tokenizer, text) != expected] == []
    assert 32010 not in text_ids(tokenizer, "[PAD32010]")  # a padding piece is never read from plain text
    assert text_ids(tokenizer, "<|user|>")[-1] == 32005  # user-defined pieces are, as in llama.cpp


def test_without_unknown_token_id_the_default_unknown_piece_is_used() -> None:
    tokens = ["<unk>", "<s>", "</s>", "\u2581a", "a", "[PAD5]"]
    vocab = GGUFVocab(model="llama", tokens=tokens, types=[UNKNOWN, CONTROL, CONTROL, NORMAL, NORMAL, UNKNOWN],
                      scores=[0.0, 0.0, 0.0, -1.0, -2.0, 0.0])
    from sentencepiece import sentencepiece_model_pb2 as pb

    proto = pb.ModelProto()
    proto.ParseFromString(build(vocab).tokenizer)
    assert proto.trainer_spec.unk_id == 0 and [p.type for p in proto.pieces][-1] == CONTROL


# -- byte-level pre-tokenizers (item 20) -------------------------------------------------------------

# Every name src/llama-vocab.cpp maps in llama_vocab::impl::load (ggml-org/llama.cpp, 2026).
_NAMES = """default minicpm5 llama3 llama-v3 llama-bpe falcon3 falcon-h1 pixtral midm-2.0 lfm2 jina-v5-nano
deepseek-llm deepseek-coder deepseek-v3 spark2_5 youtu falcon mpt starcoder gpt-2 phi-2 jina-es jina-de gigachat
jina-v2-es jina-v2-de a.x-4.0 mellum modern-bert jais-2 gemma4 granite-embed-multi-311m sarvam-moe jina-v1-en
jina-v2-code roberta-bpe whitespace refact command-r qwen2 deepseek-r1-qwen kormo f2llmv2 qwen35 stablelm2 olmo dbrx
smaug-bpe poro-chat glm4 chatglm-bpe viking jais tekken smollm codeshell bloom gpt3-finnish exaone exaone4 exaone-moe
chameleon minerva-7b megrez gpt-4o llama4 kanana2 talkie granite-embed-multi-97m tiny_aya cohere2moe superbpe trillion
granite-docling bailingmoe bailingmoe2 llada-moe seed-coder hunyuan hunyuan-dense hy_v4 joyai-llm kimi-k2 ufakzeka
grok-2 afmoe laguna minimax-m2 solar-open mellum2"""
LLAMA_CPP_NAMES = tuple(_NAMES.split())


def test_every_pre_tokenizer_name_of_llama_cpp_has_its_patterns() -> None:
    from tokenizers import Regex

    assert [name for name in LLAMA_CPP_NAMES if name not in PRE_TOKENIZERS and name not in NOT_BYTE_LEVEL] == []
    for pre in PRE_TOKENIZERS.values():
        for pattern in pre.patterns:
            Regex(pattern)  # tokenizers' engine accepts each one


def tiny_byte_level(pre: str | None) -> GGUFVocab:
    tokens = [*BYTE_TO_UNICODE, "ab"]
    return GGUFVocab(model="gpt2", tokens=tokens, types=[NORMAL] * 257, merges=["a b"], pre=pre)


def chunks(pre: str | None, text: str) -> list[str]:
    tokenizer = build(tiny_byte_level(pre)).tokenizer
    pieces = tokenizer.pre_tokenizer.pre_tokenize_str(text)
    return [bytes(UNICODE_TO_BYTE[c] for c in piece).decode("utf-8") for piece, _ in pieces]


CUTS = [  # (name, text, chunks as llama.cpp cuts them: its regexes in turn, the text between matches kept)
    ("starcoder", "abc 2026!", ["abc", " ", "2", "0", "2", "6", "!"]),
    ("command-r", "x=12", ["x", "=", "1", "2"]),
    ("refact", "I'll 42", ["I", "'ll", " ", "4", "2"]),
    ("falcon", "a+b 1234567", ["a", "+", "b", " 1234567"][:3] + [" ", "123", "456", "7"]),
    ("deepseek-coder", "def f(x):\n  return 12", ["def", " f", "(", "x", "):", "\n", " ", " return", " ", "1", "2"]),
    ("deepseek-llm", "Hello, 世界 123\n", ["Hello", ",", " ", "世界", " ", "123", "\n"]),
    ("deepseek-v3", "价格1234元 ok.", ["价格", "123", "4", "元", " ok", "."]),
    ("qwen35", "cafe\u0301 42", ["cafe\u0301", " ", "4", "2"]),
    ("afmoe", "1234567", ["1", "234", "567"]),
    ("superbpe", "x 1234567", ["x ", "1", "234", "567"]),  # no word step: "x " stays whole
    (None, "a+b 1234", ["a", "+", "b", " ", "123", "4"]),  # no name: llama.cpp's default
]


@pytest.mark.parametrize(("name", "text", "expected"), CUTS, ids=[str(c[0]) for c in CUTS])
def test_a_pre_tokenizer_cuts_as_llama_cpp_does(name: str | None, text: str, expected: list[str]) -> None:
    assert chunks(name, text) == expected


def test_an_unknown_name_falls_back_to_gpt2_and_says_so() -> None:
    built = build(tiny_byte_level("not-a-real-pre"))
    assert "not one llama.cpp defines: GPT-2's pattern is used instead" in built.notes[0]
    assert chunks("not-a-real-pre", "abc 2026") == ["abc", " 2026"]
    assert "starcoder" in build(tiny_byte_level("starcoder")).notes[0]


def test_too_many_control_tokens_are_refused_before_they_are_built() -> None:
    import time

    from core.pretrained.gguf_vocab import GGUFVocabError

    vocab = tiny_byte_level("gpt-2")
    crowded = GGUFVocab(model="gpt2", tokens=[*vocab.tokens, *(f"<c{i}>" for i in range(70_000))],
                        types=[*vocab.types, *[CONTROL] * 70_000], merges=vocab.merges, pre="gpt-2")
    start = time.perf_counter()
    with pytest.raises(GGUFVocabError, match="marks 70,000 tokens as control or user-defined; up to 65,536"):
        build(crowded)
    assert time.perf_counter() - start < 1.0  # building 200,000 took 4.0 s and 245 MB (measured)


def test_a_name_of_a_non_byte_level_vocabulary_is_refused(tmp_path: Path) -> None:
    data = write_gguf(tmp_path / "g.gguf", model="gpt2", tokens=[*BYTE_TO_UNICODE, "ab"], types=[NORMAL] * 257,
                      merges=["a b"], pre="gemma4")
    with pytest.raises(UploadRejected, match="'gemma4' works on raw UTF-8"):
        read_upload(data, "g.gguf")


@pytest.mark.data
def test_a_gguf_of_deepseek_v3_gives_the_tokenizer_json_ids(data_dir: Path, tmp_path: Path) -> None:
    """DeepSeek V3's tokenizer.json (a Sequence of Splits) is the oracle for 'deepseek-v3'."""
    from tokenizers import Tokenizer

    path = data_dir / "tokenizers" / "deepseek_v3_tokenizer.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    by_id = {i: token for token, i in document["model"]["vocab"].items()}
    by_id.update({t["id"]: t["content"] for t in document["added_tokens"]})
    size = max(by_id) + 1
    tokens = [by_id.get(i, f"[PAD{i}]") for i in range(size)]
    added = {t["id"]: t["special"] for t in document["added_tokens"]}
    types = [NORMAL if i not in added else CONTROL if added[i] else USER_DEFINED for i in range(size)]
    data = write_gguf(tmp_path / "ds.gguf", model="gpt2", tokens=tokens, types=types, pre="deepseek-v3",
                      merges=document["model"]["merges"])
    upload = read_upload(data, "deepseek-v3.gguf")
    reference = Tokenizer.from_file(str(path))
    texts = [text for text, _ in read_reference(data_dir / "testdata", "llama-bpe")]
    texts += ["价格是1234567元，今日はいい天気ですね。", "x=3.14159; print(f'{x:.2f}')", "Ünïcödé naïve — ok!!"]
    assert [text for text in texts
            if text_ids(upload.tokenizer, text) != reference.encode(text, add_special_tokens=False).ids] == []


def ranks_gguf(path: Path, ranks: dict[bytes, int], texts: list[str], pre: str) -> bytes:
    """A byte-level GGUF of a rank file, holding the merges of the tokens that occur inside ``texts``.

    Subtle: BPE on these strings can only reach tokens that are substrings of them, so the others
    (the bulk of the vocabulary) stay in the list as placeholders, without merges, and ids agree.
    """
    haystack = "\x00".join(texts).encode()
    used = {token: rank for token, rank in ranks.items() if len(token) == 1 or token in haystack}
    tokens = [f"[UNUSED{i}]" for i in range(max(ranks.values()) + 1)]
    for token, rank in used.items():
        tokens[rank] = byte_level_piece(token)
    merges = [merge for token, _ in sorted(used.items(), key=lambda item: item[1]) if len(token) > 1
              for merge in [_merge_of(used, token)] if merge]
    return write_gguf(path, model="gpt2", tokens=tokens, types=[NORMAL] * len(tokens), pre=pre, merges=merges)


REFERENCE_FILES = [("gpt-2", "r50k_base.tiktoken"), ("llama-bpe", "llama3_tokenizer.model"),
                   ("qwen2", "qwen2_qwen3.tiktoken")]


@pytest.mark.data
@pytest.mark.parametrize(("pre", "filename"), REFERENCE_FILES, ids=[f[0] for f in REFERENCE_FILES])
def test_a_byte_level_gguf_matches_llama_cpps_reference(data_dir: Path, tmp_path: Path, pre: str,
                                                        filename: str) -> None:
    """The families with llama.cpp's reference tokenizations (ggml-vocab-<pre>.gguf.inp/.out)."""
    from tiktoken.load import load_tiktoken_bpe

    cases = read_reference(data_dir / "testdata", pre)
    ranks = load_tiktoken_bpe(str(data_dir / "tokenizers" / filename))
    upload = read_upload(ranks_gguf(tmp_path / "v.gguf", ranks, [text for text, _ in cases], pre), f"{pre}.gguf")
    assert [text for text, expected in cases if text_ids(upload.tokenizer, text) != expected] == []


@pytest.mark.data
def test_a_gguf_of_qwen3_5_cuts_like_qwen3_5(data_dir: Path, tmp_path: Path) -> None:
    """'qwen35' with Qwen 3.5's own ranks: the ids of the registry's Qwen 3.5 (tiktoken, its pattern).

    The strings are in NFC already, since Qwen's tokenizer normalizes first and llama.cpp does not.
    """
    import unicodedata

    from tiktoken.load import load_tiktoken_bpe


    texts = [text for text, _ in read_reference(data_dir / "testdata", "qwen2")]
    texts += ["naïve cafe\u0301s x\u0303y", "ट्रेन को 12 बजे", "don't 1234567 \u05e9\u05c1\u05b8\u05dc\u05d5\u05b9\u05dd"]
    texts = [unicodedata.normalize("NFC", text) for text in texts]
    ranks = load_tiktoken_bpe(str(data_dir / "tokenizers" / "qwen3_6.tiktoken"))
    upload = read_upload(ranks_gguf(tmp_path / "q.gguf", ranks, texts, "qwen35"), "qwen35.gguf")
    assert "Qwen 3.5's pattern" in upload.notes[1]
    qwen = load_once("qwen3_5")
    assert [text for text in texts if text_ids(upload.tokenizer, text) != text_ids(qwen, text)] == []


def _merge_of(ranks: dict[bytes, int], token: bytes) -> str:
    """The merge that made ``token``: BPE on its bytes with only the ranks below its own."""
    limit, parts = ranks[token], [bytes([b]) for b in token]
    while len(parts) > 2:
        best = min((ranks.get(parts[i] + parts[i + 1], limit), i) for i in range(len(parts) - 1))
        if best[0] >= limit:
            return ""
        parts[best[1]:best[1] + 2] = [parts[best[1]] + parts[best[1] + 1]]
    return f"{byte_level_piece(parts[0])} {byte_level_piece(parts[1])}"


@pytest.mark.data
def test_a_gguf_of_t5_keeps_its_normalization_table(data_dir: Path, tmp_path: Path) -> None:
    """T5's Unigram pieces and its precompiled charsmap (a uint8 array) give the registry's T5 ids."""
    import gguf
    from sentencepiece import sentencepiece_model_pb2 as pb

    from tests.core.pretrained.test_uploaded import STRINGS

    proto = pb.ModelProto()
    proto.ParseFromString((data_dir / "tokenizers" / "t5_spiece.model").read_bytes())
    writer = gguf.GGUFWriter(str(tmp_path / "t5.gguf"), arch="t5")
    writer.add_tokenizer_model("t5")
    writer.add_token_list([p.piece for p in proto.pieces])
    writer.add_token_types([int(p.type) for p in proto.pieces])
    writer.add_token_scores([p.score for p in proto.pieces])
    writer.add_precompiled_charsmap(proto.normalizer_spec.precompiled_charsmap)
    writer.add_add_space_prefix(proto.normalizer_spec.add_dummy_prefix)  # as llama.cpp's T5 converter writes them
    writer.add_remove_extra_whitespaces(proto.normalizer_spec.remove_extra_whitespaces)
    writer.add_unk_token_id(proto.trainer_spec.unk_id)
    writer.add_eos_token_id(proto.trainer_spec.eos_id)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    upload = read_upload((tmp_path / "t5.gguf").read_bytes(), "t5.gguf")
    t5 = load_once("t5")
    assert [text for text in STRINGS if text_ids(upload.tokenizer, text) != text_ids(t5, text)] == []


def test_a_byte_level_vocabulary_that_lacks_bytes_marks_what_it_drops() -> None:
    """StarCoder's vocabulary has no 0xF1 and Falcon's no 0x03: llama.cpp (and the library) drop such a
    byte without a trace, so "\\U00040000" came out as three 0x80 tokens that spelled nothing. The rebuild
    is lossy and says which bytes it lacks; the tokens left over a character that lost a byte are
    unknown (ids and bytes kept: what the model reads); a character that lost every byte has none."""
    from core.pretrained.adapter import PretrainedSpec
    from core.pretrained.hf_adapter import HFTokenizer
    from core.types import TEXT
    from core.types import UNKNOWN as UNKNOWN_KIND

    lacking = {0x03, 0xF1}
    tokens = [c for b, c in enumerate(BYTE_TO_UNICODE) if b not in lacking]
    vocab = GGUFVocab(model="gpt2", tokens=[*tokens, "ab"], types=[NORMAL] * 255, merges=["a b"], pre=None)
    built = build(vocab)
    assert not built.lossless
    assert any("lacks the bytes 0x03, 0xF1" in note for note in built.notes)
    assert build(tiny_byte_level(None)).lossless  # 0xC0, 0xC1, 0xF5-0xFF aside, all bytes: lossless
    spec = PretrainedSpec("t", "t", "test", "BPE", 0, "", None, (), "")
    tok = HFTokenizer(spec, source="test", tokenizer=built.tokenizer, style="bytelevel", lossless=built.lossless)
    got = tok.encode("ab\U00040000c")
    assert [(t.bytes, t.start, t.end, t.kind) for t in got] == [
        (b"ab", 0, 2, TEXT), (b"\x80", 2, 3, UNKNOWN_KIND), (b"\x80", 2, 3, UNKNOWN_KIND),
        (b"\x80", 2, 3, UNKNOWN_KIND), (b"c", 3, 4, TEXT),
    ]
    assert [(t.bytes, t.start) for t in tok.encode("a\x03b")] == [(b"a", 0), (b"b", 2)]  # nothing over \x03
    assert tok.outline("ab\U00040000c").kinds == {TEXT: 2, UNKNOWN_KIND: 3}
    assert tok.outline("abc").kinds == {TEXT: 2}
