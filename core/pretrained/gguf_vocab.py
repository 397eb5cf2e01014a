"""The vocabulary of a GGUF file (llama.cpp), rebuilt as a tokenizer the libraries can run.

A GGUF file carries its tokenizer as metadata: ``tokenizer.ggml.model`` names the kind, then
``tokens``, ``token_type``, and ``merges`` (byte-level BPE) or ``scores`` (SentencePiece), with the
pre-tokenizer's name in ``tokenizer.ggml.pre``. ``read_vocab`` reads them with the ``gguf``
package; ``build`` turns them into what the libraries load:

- ``"gpt2"`` (byte-level BPE): a ``tokenizers`` BPE model from vocab + merges, cut first by the
  pattern ``tokenizer.ggml.pre`` names (``PRE_PATTERNS``, mapped to ``core.patterns``), then the
  byte-level alphabet; control tokens become special tokens.
- ``"llama"`` (SentencePiece BPE with scores) and ``"t5"`` (Unigram): a sentencepiece
  ``ModelProto`` holding each piece, its score and type, byte fallback when the file has byte
  pieces, and T5's precompiled normalization table.
- ``"bert"`` (WordPiece): the token list as a BERT ``vocab.txt``.

What this module does not do: decide what a file is (``core.pretrained.uploaded``) or draw it.
Subtle: llama.cpp's token types are numbered as sentencepiece's (1 normal, 2 unknown, 3 control,
4 user-defined, 5 unused, 6 byte), so they are copied as they are; 0 (undefined) reads as normal.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.patterns import (
    CL100K_PATTERN,
    GPT2_PATTERN,
    LLAMA3_PATTERN,
    O200K_PATTERN,
    QWEN_PATTERN,
    TEKKEN_PATTERN,
)

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
KINDS = ("gpt2", "llama", "t5", "bert")

# tokenizer.ggml.pre -> the pattern llama.cpp cuts with (src/llama-vocab.cpp groups the names);
# names not listed fall back to GPT-2's pattern, and the tokenizer says so in its notes.
PRE_PATTERNS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(("gpt-2", "mpt", "olmo", "jais", "trillion"), ("GPT-2", GPT2_PATTERN)),
    **dict.fromkeys(("llama-bpe", "llama3", "llama-v3", "smaug-bpe", "falcon3", "dbrx"), ("Llama 3", LLAMA3_PATTERN)),
    **dict.fromkeys(("qwen2", "deepseek-r1-qwen", "megrez"), ("Qwen", QWEN_PATTERN)),
    **dict.fromkeys(("gpt-4o", "llama4"), ("o200k_base", O200K_PATTERN)),
    **dict.fromkeys(("tekken", "pixtral"), ("Tekken", TEKKEN_PATTERN)),
    "cl100k": ("cl100k_base", CL100K_PATTERN),
}
# llama.cpp takes a whole pre-token that is in the vocabulary as one token (tiktoken's rule).
_IGNORE_MERGES = frozenset(name for name, (label, _) in PRE_PATTERNS.items() if label in ("Llama 3", "o200k_base"))


class GGUFVocabError(ValueError):
    """The GGUF file has no vocabulary this module can rebuild; the message says why, in one line."""


@dataclass(frozen=True)
class GGUFVocab:
    """The tokenizer metadata of one GGUF file, as plain Python values."""

    model: str
    tokens: list[str]
    types: list[int]
    scores: list[float] | None = None
    merges: list[str] | None = None
    pre: str | None = None
    name: str | None = None  # general.name, the model's own name
    bos_id: int | None = None
    eos_id: int | None = None
    unk_id: int | None = None
    add_bos: bool = False
    add_eos: bool = False
    add_space_prefix: bool = True
    remove_extra_whitespaces: bool = False
    charsmap: bytes = b""
    extra: dict[str, Any] = field(default_factory=dict)


def read_vocab(path: Path) -> GGUFVocab:
    """The ``tokenizer.ggml.*`` metadata of the GGUF file at ``path``; ``GGUFVocabError`` if absent."""
    from gguf import GGUFReader

    try:
        reader = GGUFReader(str(path), "r")
    except Exception as exc:  # gguf raises ValueError, struct.error, IndexError … on a damaged file
        raise GGUFVocabError(f"the gguf package could not read it ({_short(exc)})") from None

    def value(key: str, default: Any = None) -> Any:
        found = reader.fields.get(key)
        return default if found is None else found.contents()

    model = value("tokenizer.ggml.model")
    tokens = value("tokenizer.ggml.tokens")
    if model is None or not tokens:
        raise GGUFVocabError("it is a GGUF file without a tokenizer (no tokenizer.ggml.model or tokens)")
    types = value("tokenizer.ggml.token_type") or [NORMAL] * len(tokens)
    if len(types) != len(tokens):
        raise GGUFVocabError(f"it lists {len(tokens):,} tokens but {len(types):,} token types")
    scores = value("tokenizer.ggml.scores")
    charsmap = value("tokenizer.ggml.precompiled_charsmap")
    return GGUFVocab(
        model=str(model), tokens=list(tokens), types=[t or NORMAL for t in types],
        scores=list(scores) if scores is not None else None, merges=value("tokenizer.ggml.merges"),
        pre=value("tokenizer.ggml.pre"), name=value("general.name"),
        bos_id=value("tokenizer.ggml.bos_token_id"), eos_id=value("tokenizer.ggml.eos_token_id"),
        unk_id=value("tokenizer.ggml.unknown_token_id"), add_bos=bool(value("tokenizer.ggml.add_bos_token", False)),
        add_eos=bool(value("tokenizer.ggml.add_eos_token", False)),
        add_space_prefix=bool(value("tokenizer.ggml.add_space_prefix", True)),
        remove_extra_whitespaces=bool(value("tokenizer.ggml.remove_extra_whitespaces", False)),
        charsmap=bytes(charsmap) if charsmap else b"",
    )


@dataclass(frozen=True)
class Built:
    """What ``build`` made: a library object, the adapter style, and notes for the user."""

    library: str  # "tokenizers" or "sentencepiece"
    tokenizer: Any  # a tokenizers.Tokenizer, or the serialized sentencepiece ModelProto (bytes)
    style: str  # hf_adapter style ("bytelevel", "wordpiece") or "" for sentencepiece
    algorithm: str
    notes: tuple[str, ...]
    lossless: bool = False


def build(vocab: GGUFVocab) -> Built:
    """A tokenizer equivalent to the one llama.cpp builds from ``vocab``."""
    builders: dict[str, Callable[[GGUFVocab], Built]] = {
        "gpt2": _byte_level_bpe, "llama": _sentencepiece, "t5": _sentencepiece, "bert": _wordpiece,
    }
    if vocab.model not in builders:
        raise GGUFVocabError(
            f"its vocabulary type is '{vocab.model}'; this playground reads {', '.join(KINDS)}"
        )
    return builders[vocab.model](vocab)


def _byte_level_bpe(vocab: GGUFVocab) -> Built:
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, pre_tokenizers

    if not vocab.merges:
        raise GGUFVocabError("its byte-level BPE vocabulary has no merges (tokenizer.ggml.merges)")
    ids: dict[str, int] = {}
    for i, token in enumerate(vocab.tokens):
        ids.setdefault(token, i)
    merges = []
    for line in vocab.merges:
        left, sep, right = line.partition(" ")
        if not sep or left not in ids or right not in ids:
            raise GGUFVocabError(f"the merge {line[:40]!r} joins tokens that are not in its vocabulary")
        merges.append((left, right))
    label, pattern = PRE_PATTERNS.get(vocab.pre or "", ("GPT-2", GPT2_PATTERN))
    notes = [f"pre-tokenizer '{vocab.pre}': {label}'s pattern, as llama.cpp uses"]
    if (vocab.pre or "") not in PRE_PATTERNS:
        notes = [f"pre-tokenizer '{vocab.pre or 'none'}' is not one this playground knows: GPT-2's pattern "
                 "is used instead, so counts may differ from llama.cpp's"]
    model = models.BPE(vocab=ids, merges=merges, ignore_merges=(vocab.pre or "") in _IGNORE_MERGES)
    tokenizer = Tokenizer(model)
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(pattern), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tokenizer.decoder = decoders.ByteLevel()
    control = [vocab.tokens[i] for i, t in enumerate(vocab.types) if t == CONTROL]
    user = [vocab.tokens[i] for i, t in enumerate(vocab.types) if t == USER_DEFINED]
    tokenizer.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in control])
    tokenizer.add_tokens([AddedToken(t, special=False, normalized=False) for t in user])
    _post_process(tokenizer, vocab)
    return Built("tokenizers", tokenizer, "bytelevel", "byte-level BPE", tuple(notes), lossless=True)


def _post_process(tokenizer: Any, vocab: GGUFVocab) -> None:
    """BOS/EOS as the file's add_bos_token/add_eos_token ask, through a template post-processor."""
    from tokenizers import processors

    parts, specials = [], []
    for wanted, token_id in ((vocab.add_bos, vocab.bos_id), (None, None), (vocab.add_eos, vocab.eos_id)):
        if wanted is None:
            parts.append("$A")
        elif wanted and token_id is not None and 0 <= token_id < len(vocab.tokens):
            parts.append(vocab.tokens[token_id])
            specials.append((vocab.tokens[token_id], token_id))
    if specials:
        tokenizer.post_processor = processors.TemplateProcessing(single=" ".join(parts), special_tokens=specials)


def _sentencepiece(vocab: GGUFVocab) -> Built:
    from sentencepiece import sentencepiece_model_pb2 as pb

    if vocab.scores is None or len(vocab.scores) != len(vocab.tokens):
        raise GGUFVocabError("its SentencePiece vocabulary has no score for each token (tokenizer.ggml.scores)")
    if UNKNOWN not in vocab.types:
        raise GGUFVocabError("its SentencePiece vocabulary has no unknown token, which sentencepiece needs")
    proto = pb.ModelProto()
    for token, score, kind in zip(vocab.tokens, vocab.scores, vocab.types, strict=True):
        piece = proto.pieces.add()
        piece.piece, piece.score = token, float(score)
        piece.type = kind if kind in (NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE) else NORMAL
    trainer = proto.trainer_spec
    trainer.model_type = pb.TrainerSpec.BPE if vocab.model == "llama" else pb.TrainerSpec.UNIGRAM
    trainer.byte_fallback = BYTE in vocab.types
    trainer.vocab_size = len(vocab.tokens)
    trainer.unk_id = vocab.types.index(UNKNOWN)
    trainer.bos_id = vocab.bos_id if vocab.bos_id is not None else -1
    trainer.eos_id = vocab.eos_id if vocab.eos_id is not None else -1
    trainer.pad_id = -1
    normalizer = proto.normalizer_spec
    normalizer.name = "gguf" if vocab.charsmap else "identity"
    normalizer.add_dummy_prefix = vocab.add_space_prefix
    normalizer.remove_extra_whitespaces = vocab.remove_extra_whitespaces
    normalizer.escape_whitespaces = True
    if vocab.charsmap:
        normalizer.precompiled_charsmap = vocab.charsmap
    algorithm = "SentencePiece BPE" if vocab.model == "llama" else "Unigram"
    notes = ("rebuilt as a sentencepiece model from the file's pieces, scores and token types",)
    return Built("sentencepiece", proto.SerializeToString(), "", algorithm, notes)


def _wordpiece(vocab: GGUFVocab) -> Built:
    from tokenizers import BertWordPieceTokenizer, Tokenizer

    lowercase = vocab_is_uncased(vocab.tokens)
    with tempfile.TemporaryDirectory(prefix="playground-gguf-") as folder:
        path = Path(folder) / "vocab.txt"
        path.write_text("\n".join(vocab.tokens) + "\n", encoding="utf-8")
        wrapper = BertWordPieceTokenizer(str(path), lowercase=lowercase)
    notes = (("lowercases and strips accents" if lowercase else "keeps case") + ", as its vocabulary shows",)
    return Built("tokenizers", Tokenizer.from_str(wrapper.to_str()), "wordpiece", "WordPiece", notes)


def vocab_is_uncased(tokens: list[str]) -> bool:
    """True when (almost) no ordinary token has an upper-case letter (BERT-uncased): lowercase first.

    Bracketed markers ([CLS], <unk>) do not count; subtle: BERT-uncased still holds "ℝ", which
    lowercasing leaves alone, so up to 0.1% of the tokens with letters may have upper case.

    >>> vocab_is_uncased(["[CLS]", "hello", "##ing"]), vocab_is_uncased(["[CLS]", "Hello"])
    (True, False)
    """
    ordinary = [t for t in tokens if any(c.isalpha() for c in t) and not (t[:1] in "[<" and t[-1:] in "]>")]
    upper = sum(any(c.isupper() for c in t) for t in ordinary)
    return upper <= len(ordinary) // 1000


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:160] or type(exc).__name__
