"""What a file gives away, checked against known values; identification; the pipeline's stages."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from core.pretrained import TokenizerUnavailable, anatomy, pipeline
from core.pretrained.uploaded import TIKTOKEN_PATTERNS, read_upload
from core.text.patterns import CL100K_PATTERN
from tests.loaded import load_once

_LOADED: dict[str, object] = {}


def get(key: str):
    if key not in _LOADED:
        try:
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("PLAYGROUND_OFFLINE", "1")
                _LOADED[key] = load_once(key)
        except TokenizerUnavailable as exc:
            pytest.skip(exc.reason)
    return _LOADED[key]


def test_cl100k_base_facts() -> None:
    facts = anatomy.facts(get("cl100k_base"))
    assert facts.library == "tiktoken" and facts.algorithm == "byte-level BPE"
    assert facts.vocab_size == 100277 and facts.merges_total == 100000  # 100,256 ranks minus the 256 bytes
    assert dict(facts.special_tokens) == {
        "<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259, "<|fim_suffix|>": 100260,
        "<|endofprompt|>": 100276,
    }
    assert facts.added_tokens == () and facts.patterns == (CL100K_PATTERN,)
    assert facts.normalizer.startswith("none") and facts.post_processor.startswith("none")
    assert facts.first_merges[:4] == (("Ġ", "Ġ"), ("ĠĠ", "ĠĠ"), ("i", "n"), ("Ġ", "t"))  # ranks 256-259
    assert facts.longest[0] == ("Ġ" * 128, 128)
    assert dict(facts.scripts)["Latin"] > 80_000 and sum(n for _, n in facts.scripts) == 100256


def test_llama2_facts() -> None:
    facts = anatomy.facts(get("llama2"))
    assert facts.library == "sentencepiece" and facts.model_type.startswith("SentencePiece BPE")
    assert facts.vocab_size == 32000 and facts.merges_total is None
    assert dict(facts.special_tokens) == {"<unk>": 0, "<s>": 1, "</s>": 2}
    assert facts.byte_fallback.startswith("yes")
    assert "▁ put in front" in facts.normalizer and facts.normalizer.startswith("identity")
    assert facts.post_processor == "adds <s> at the start"
    assert facts.highest_scored[0] == ("▁t", -1.0)  # the first merge BPE learned scores highest
    assert dict(facts.scripts)["Cyrillic"] > 2000


def test_bert_uncased_facts() -> None:
    facts = anatomy.facts(get("bert_uncased"))
    assert facts.library == "tokenizers" and facts.model_type == "tokenizers WordPiece"
    assert facts.vocab_size == 30522
    assert dict(facts.special_tokens) == {"[PAD]": 0, "[UNK]": 100, "[CLS]": 101, "[SEP]": 102, "[MASK]": 103}
    assert "lowercase=True" in facts.normalizer and facts.normalizer.startswith("BertNormalizer")
    assert facts.pre_tokenizer == "BertPreTokenizer"
    assert facts.post_processor == "BertProcessing: [CLS] $A [SEP]"
    assert facts.byte_fallback == "no: a character not in the vocabulary becomes [UNK]"
    assert facts.merges_total is None and facts.highest_scored == ()
    assert facts.longest[0] == ("telecommunications", 18)


def test_hf_components_and_regexes_are_described() -> None:
    facts = anatomy.facts(get("deepseek_v4"))  # skips when its file is not cached here
    assert len(facts.patterns) == 3 and facts.patterns[0] == r"\p{N}{1,3}"
    assert facts.pre_tokenizer.count("Split(regex") == 3 and facts.pre_tokenizer.endswith("use_regex=False)")
    assert ("<think>", 128821) in facts.added_tokens


def test_script_classes() -> None:
    assert anatomy.script_shares([b"the", " мир".encode(), "字".encode(), b"\xe5", b"42", b"  ", b"!?"]) == (
        ("Cyrillic", 1), ("Digits", 1), ("Han", 1), ("Latin", 1), ("Partial UTF-8 (byte pieces)", 1),
        ("Punctuation and symbols", 1), ("Whitespace", 1),
    )


# -- identification ----------------------------------------------------------------------------------


@pytest.mark.data
def test_an_upload_of_a_registry_file_is_recognised_by_its_hash(data_dir: Path) -> None:
    data = (data_dir / "tokenizers" / "cl100k_base.tiktoken").read_bytes()
    upload = read_upload(data, "mine.tiktoken", pattern=TIKTOKEN_PATTERNS["cl100k_base"])
    from core.pretrained import registry

    candidates = {k: (s.name, s.files[0].sha256, None) for k, s in registry().items()}
    match = anatomy.identify(anatomy.vocab_map(upload.tokenizer), upload.sha256, candidates)
    assert match is not None and match.relation == "same file"
    assert match.key in ("cl100k_base",) and "byte for byte" in match.sentence


@pytest.mark.data
def test_cl100k_plus_256_added_tokens(data_dir: Path) -> None:
    data = (data_dir / "tokenizers" / "cl100k_base.tiktoken").read_bytes()
    extra = b"".join(base64.b64encode(f"<extra_{k}>".encode()) + b" %d\n" % (100256 + k) for k in range(256))
    upload = read_upload(data + extra, "extended.tiktoken", pattern=TIKTOKEN_PATTERNS["cl100k_base"])
    cl100k = get("cl100k_base")
    candidates = {"cl100k_base": (cl100k.name, "0" * 64, anatomy.vocab_map(cl100k)),
                  "gpt2": (get("gpt2").name, None, anatomy.vocab_map(get("gpt2")))}
    match = anatomy.identify(anatomy.vocab_map(upload.tokenizer), upload.sha256, candidates)
    assert (match.key, match.relation, match.extra) == ("cl100k_base", "extends", 256)
    assert match.sentence == (
        "This is cl100k_base (GPT-3.5 / GPT-4) plus 256 added tokens (its 100,256 tokens keep their ids)."
    )


def test_identify_by_overlap_and_no_match() -> None:
    theirs = {f"t{i}": i for i in range(100)}
    shuffled = {f"t{i}": 99 - i for i in range(80)} | {f"u{i}": 100 + i for i in range(20)}
    match = anatomy.identify(shuffled, "ab" * 32, {"x": ("X", None, theirs)})
    assert match.relation == "overlaps" and match.shared == 80
    assert match.sentence == "80% of its tokens are in X's vocabulary (0 with the same id)."
    assert anatomy.identify({"zz": 0}, "ab" * 32, {"x": ("X", None, theirs)}) is None


# -- the pipeline ----------------------------------------------------------------------------------------


def test_bert_uncased_pipeline_lowercases_and_strips_accents() -> None:
    result = pipeline.run(get("bert_uncased"), "Héllo")
    assert result.normalized == "hello"
    assert result.changes == ((0, 2, 0, 2),)
    assert [piece for piece, _, _ in result.pre_tokens] == ["hello"]
    assert result.pieces == ("hello",)
    assert [t.bytes for t in result.added] == [b"[CLS]", b"[SEP]"]
    assert result.decoded == "hello"
    assert result.losses == ("case folded: upper-case letters became lower case", "accents stripped: é became e")


def test_bert_pre_tokens_come_from_the_library() -> None:
    result = pipeline.run(get("bert_uncased"), "Don't stop!")
    assert result.pre_tokens == (("don", 0, 3), ("'", 3, 4), ("t", 4, 5), ("stop", 6, 10), ("!", 10, 11))
    assert result.decoded == "don ' t stop!"
    assert result.losses[-1] == "spaces added: the decoder joins pieces with a space where the text had none"


def test_llama2_pipeline_has_the_leading_space_piece() -> None:
    result = pipeline.run(get("llama2"), "Hello world")
    assert result.normalized == "▁Hello▁world"  # sentencepiece's dummy prefix, and spaces as ▁
    assert result.pre_tokens == () and "no pre-tokenizer" in result.pre_tokenizer
    assert result.pieces == ("▁Hello", "▁world")
    assert [t.bytes for t in result.added] == [b"<s>"]
    assert result.decoded == "Hello world" and result.losses == ()


def test_tiktoken_pipeline_uses_the_pattern() -> None:
    result = pipeline.run(get("cl100k_base"), "Hello world 2026")
    assert [piece for piece, _, _ in result.pre_tokens] == ["Hello", " world", " ", "202", "6"]
    assert result.normalized == "Hello world 2026" and result.changes == () and result.losses == ()


def test_losses_are_named() -> None:
    assert pipeline.losses("a  b", "a  b", "a b", ()) == (
        "whitespace collapsed or trimmed: runs of spaces, tabs or line breaks came back shorter",
    )
    t5 = pipeline.run(get("t5"), "Ａ１ 日本")
    assert any("NFKC" in loss for loss in t5.losses) and any("unknown token" in loss for loss in t5.losses)
    assert pipeline.losses("same", "same", "same", ()) == ()
