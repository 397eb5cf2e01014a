"""The vocabulary of a GGUF file (llama.cpp), rebuilt as a tokenizer the libraries can run.

A GGUF file carries its tokenizer as metadata: ``tokenizer.ggml.model`` names the kind, then
``tokens``, ``token_type``, and ``merges`` (byte-level BPE) or ``scores`` (SentencePiece), with the
pre-tokenizer's name in ``tokenizer.ggml.pre``. ``read_vocab`` reads them with the bounds-checked
reader of ``core.pretrained.gguf_metadata`` (never the ``gguf`` package, whose reader loops for
ever on a huge array count); ``build`` turns them into what the libraries load:

- ``"gpt2"`` (byte-level BPE): a ``tokenizers`` BPE model from vocab + merges, cut first by the
  patterns ``tokenizer.ggml.pre`` names (``core.pretrained.gguf_pre``), then the byte-level
  alphabet; control tokens become special tokens.
- ``"llama"`` (SentencePiece BPE with scores) and ``"t5"`` (Unigram): a sentencepiece
  ``ModelProto`` holding each piece, its score and type, byte fallback when the file has byte
  pieces, and T5's precompiled normalization table.
- ``"bert"`` (WordPiece): llama.cpp stores ``▁word`` for a word start and a bare continuation
  (``##ing`` becomes ``ing``); they are turned back into a BERT ``vocab.txt``.

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

import numpy as np

from core.pretrained.adapter import BYTE_TO_UNICODE
from core.pretrained.gguf_metadata import GGUFFormatError, Progress, read_metadata
from core.pretrained.gguf_pre import MISSING, NOT_BYTE_LEVEL, PRE_TOKENIZERS, PreTokenizer
from core.text.patterns import GPT2_PATTERN

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
KINDS = ("gpt2", "llama", "t5", "bert")
WORD_START = "\u2581"  # llama.cpp's "phantom space" before a BERT word start
MAX_ADDED = 65_536  # control and user-defined tokens of a byte-level vocabulary, at most
# llama.cpp's default unknown-token id per vocabulary kind (llama_vocab::impl::load) when the file names none.
DEFAULT_UNK = {"llama": 0, "t5": 2, "bert": 100}


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


def _wanted(key: str) -> bool:
    return key.startswith("tokenizer.ggml.") or key == "general.name"


def read_vocab(source: bytes | Path, *, progress: Progress | None = None) -> GGUFVocab:
    """The ``tokenizer.ggml.*`` metadata of a GGUF file (its bytes or its path); ``GGUFVocabError`` if absent.

    ``progress(fraction, message)`` follows the reading (a 150,000-token vocabulary takes well under
    a second). Every key is checked for the type llama.cpp expects.
    """
    data = source.read_bytes() if isinstance(source, Path) else source
    try:
        meta = read_metadata(data, wanted=_wanted, progress=progress)
    except GGUFFormatError as exc:
        raise GGUFVocabError(f"it is not a readable GGUF file: {exc}") from None
    model, tokens = meta.get("tokenizer.ggml.model"), meta.get("tokenizer.ggml.tokens")
    if model is None or tokens is None:
        raise GGUFVocabError("it is a GGUF file without a tokenizer (no tokenizer.ggml.model or tokens)")
    _check(isinstance(model, str), "tokenizer.ggml.model", "a string")
    _check(isinstance(tokens, list) and len(tokens) > 0, "tokenizer.ggml.tokens", "a non-empty array of strings")
    types = _numbers(meta, "token_type", len(tokens), integer=True)
    scores = _numbers(meta, "scores", len(tokens), integer=False)
    charsmap = meta.get("tokenizer.ggml.precompiled_charsmap")
    _check(charsmap is None or _is_array(charsmap, "iu", 1), "tokenizer.ggml.precompiled_charsmap",
           "an array of bytes")
    return GGUFVocab(
        model=model, tokens=tokens, types=[t or NORMAL for t in types] if types is not None else [NORMAL] * len(tokens),
        scores=scores, merges=_strings(meta, "merges"), pre=_text(meta, "pre"), name=_text(meta, "name", "general."),
        bos_id=_id(meta, "bos_token_id"), eos_id=_id(meta, "eos_token_id"), unk_id=_id(meta, "unknown_token_id"),
        add_bos=_flag(meta, "add_bos_token", False), add_eos=_flag(meta, "add_eos_token", False),
        add_space_prefix=_flag(meta, "add_space_prefix", True),
        remove_extra_whitespaces=_flag(meta, "remove_extra_whitespaces", False),
        charsmap=charsmap.tobytes() if charsmap is not None else b"",
    )


def _check(ok: bool, key: str, expected: str) -> None:
    if not ok:
        raise GGUFVocabError(f"its {key} is not {expected}, as llama.cpp expects")


def _is_array(value: Any, kinds: str, itemsize: int | None = None) -> bool:
    return (isinstance(value, np.ndarray) and value.dtype.kind in kinds
            and (itemsize is None or value.dtype.itemsize == itemsize))


def _numbers(meta: dict[str, Any], name: str, count: int, *, integer: bool) -> list | None:
    key = f"tokenizer.ggml.{name}"
    value = meta.get(key)
    if value is None:
        return None
    _check(_is_array(value, "iu" if integer else "iuf"), key, "an array of " + ("integers" if integer else "numbers"))
    if len(value) != count:
        raise GGUFVocabError(f"it lists {count:,} tokens but {len(value):,} entries in {key}")
    return value.tolist()


def _strings(meta: dict[str, Any], name: str) -> list[str] | None:
    key = f"tokenizer.ggml.{name}"
    value = meta.get(key)
    _check(value is None or isinstance(value, list), key, "an array of strings")
    return value


def _text(meta: dict[str, Any], name: str, prefix: str = "tokenizer.ggml.") -> str | None:
    value = meta.get(prefix + name)
    _check(value is None or isinstance(value, str), prefix + name, "a string")
    return value


def _id(meta: dict[str, Any], name: str) -> int | None:
    value = meta.get(f"tokenizer.ggml.{name}")
    _check(value is None or (isinstance(value, int) and not isinstance(value, bool)), f"tokenizer.ggml.{name}",
           "an integer")
    return value


def _flag(meta: dict[str, Any], name: str, default: bool) -> bool:
    value = meta.get(f"tokenizer.ggml.{name}", default)
    _check(isinstance(value, bool), f"tokenizer.ggml.{name}", "a boolean")
    return value


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
            f"its vocabulary type is {vocab.model[:40]!r}; this playground reads {', '.join(KINDS)}"
        )
    return builders[vocab.model](vocab)


def _byte_level_bpe(vocab: GGUFVocab) -> Built:
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, pre_tokenizers

    if not vocab.merges:
        raise GGUFVocabError("its byte-level BPE vocabulary has no merges (tokenizer.ggml.merges)")
    control = [vocab.tokens[i] for i, t in enumerate(vocab.types) if t == CONTROL]
    user = [vocab.tokens[i] for i, t in enumerate(vocab.types) if t == USER_DEFINED]
    if len(control) + len(user) > MAX_ADDED:  # each costs about a kilobyte and 20 µs in tokenizers' matcher
        raise GGUFVocabError(f"it marks {len(control) + len(user):,} tokens as control or user-defined; up to "
                             f"{MAX_ADDED:,} are read (real vocabularies mark a few thousand)")
    ids: dict[str, int] = {}
    for i, token in enumerate(vocab.tokens):
        ids.setdefault(token, i)
    merges = []
    for line in vocab.merges:
        left, sep, right = line.partition(" ")
        if not sep or left not in ids or right not in ids:
            raise GGUFVocabError(f"the merge {line[:40]!r} joins tokens that are not in its vocabulary")
        merges.append((left, right))
    pre = _pre_tokenizer(vocab.pre)
    model = models.BPE(vocab=ids, merges=merges, ignore_merges=pre.ignore_merges)
    tokenizer = Tokenizer(model)
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        *(pre_tokenizers.Split(Regex(pattern), behavior="isolated") for pattern in pre.patterns),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in control])
    tokenizer.add_tokens([AddedToken(t, special=False, normalized=False) for t in user])
    _post_process(tokenizer, vocab)
    notes = [_pre_note(vocab.pre, pre)]
    # bytes 0xC0, 0xC1 and 0xF5-0xFF never occur in UTF-8; any other byte the vocabulary lacks is dropped
    absent = [b for b in range(256) if b not in _NEVER_IN_UTF8 and BYTE_TO_UNICODE[b] not in ids]
    if absent:
        notes.append(f"its vocabulary lacks the byte{'s' if len(absent) > 1 else ''} "
                     f"{', '.join(f'0x{b:02X}' for b in absent)}: llama.cpp drops {'them' if len(absent) > 1 else 'it'} "
                     "from the text, and so does this rebuild (the characters they belong to are marked unknown)")
    return Built("tokenizers", tokenizer, "bytelevel", "byte-level BPE", tuple(notes), lossless=not absent)


_NEVER_IN_UTF8 = frozenset((0xC0, 0xC1, *range(0xF5, 0x100)))


_UNKNOWN_PRE = PreTokenizer("GPT-2", (GPT2_PATTERN,))


def _pre_tokenizer(name: str | None) -> PreTokenizer:
    """What llama.cpp cuts with for ``name``; GPT-2's pattern for a name llama.cpp does not define."""
    if name in NOT_BYTE_LEVEL:
        raise GGUFVocabError(f"its pre-tokenizer '{name}' works on raw UTF-8 with \u2581 for spaces, not "
                             "byte-level BPE, which this playground does not rebuild")
    return MISSING if not name else PRE_TOKENIZERS.get(name, _UNKNOWN_PRE)


def _pre_note(name: str | None, pre: PreTokenizer) -> str:
    if not name:
        return "no pre-tokenizer named (tokenizer.ggml.pre): llama.cpp's default patterns, as llama.cpp uses"
    if name not in PRE_TOKENIZERS:
        return (f"pre-tokenizer {name[:40]!r} is not one llama.cpp defines: GPT-2's pattern is used instead, so counts "
                "may differ from llama.cpp's")
    steps = f" ({len(pre.patterns)} patterns in turn)" if len(pre.patterns) > 1 else ""
    return f"pre-tokenizer '{name}': {pre.label}'s pattern{steps}, as llama.cpp uses"


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
    unk = _unknown_id(vocab)
    proto = pb.ModelProto()
    for i, (token, score, kind) in enumerate(zip(vocab.tokens, vocab.scores, vocab.types, strict=True)):
        piece = proto.pieces.add()
        piece.piece, piece.score = token, float(score)
        piece.type = kind if kind in (NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE) else NORMAL
        if kind == UNKNOWN or i == unk:  # sentencepiece allows one unknown piece; the others act as llama.cpp's
            piece.type = UNKNOWN if i == unk else CONTROL
    trainer = proto.trainer_spec
    trainer.model_type = pb.TrainerSpec.BPE if vocab.model == "llama" else pb.TrainerSpec.UNIGRAM
    trainer.byte_fallback = BYTE in vocab.types
    trainer.vocab_size = len(vocab.tokens)
    trainer.unk_id = unk
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
    notes = ["rebuilt as a sentencepiece model from the file's pieces, scores and token types"]
    others = sum(kind == UNKNOWN for kind in vocab.types) - (vocab.types[unk] == UNKNOWN)
    if others:
        notes.append(f"the unknown token is {vocab.tokens[unk]!r} (id {unk}); {others:,} other pieces typed unknown "
                     "are kept as special tokens, as llama.cpp treats them")
    return Built("sentencepiece", proto.SerializeToString(), "", algorithm, tuple(notes))


def _unknown_id(vocab: GGUFVocab) -> int:
    """The unknown piece: tokenizer.ggml.unknown_token_id, else llama.cpp's default id, else the first typed so.

    Subtle: a file may type several pieces UNKNOWN (Phi-3's [PAD32000] …), which sentencepiece refuses.
    """
    size = len(vocab.tokens)
    if vocab.unk_id is not None and 0 <= vocab.unk_id < size:
        return vocab.unk_id
    default = DEFAULT_UNK.get(vocab.model, -1)
    if 0 <= default < size and vocab.types[default] == UNKNOWN:
        return default
    if UNKNOWN in vocab.types:
        return vocab.types.index(UNKNOWN)
    raise GGUFVocabError("its SentencePiece vocabulary has no unknown token, which sentencepiece needs")


def _wordpiece(vocab: GGUFVocab) -> Built:
    from tokenizers import BertWordPieceTokenizer, Tokenizer

    tokens, phantom = bert_tokens(vocab.tokens)
    lowercase = vocab_is_uncased(tokens)
    with tempfile.TemporaryDirectory(prefix="playground-gguf-") as folder:
        path = Path(folder) / "vocab.txt"
        path.write_text("\n".join(tokens) + "\n", encoding="utf-8")
        wrapper = BertWordPieceTokenizer(str(path), lowercase=lowercase)
    notes = [("lowercases and strips accents" if lowercase else "keeps case") + ", as its vocabulary shows"]
    if phantom:
        notes.append("llama.cpp's '\u2581word' word starts and bare continuations read back as BERT's 'word' and '##…'")
    return Built("tokenizers", Tokenizer.from_str(wrapper.to_str()), "wordpiece", "WordPiece", tuple(notes))


def bert_tokens(tokens: list[str]) -> tuple[list[str], bool]:
    """BERT's vocab.txt spelling of a GGUF BERT vocabulary, and whether it had to be converted.

    llama.cpp's converter writes a word start as ``▁word`` and a continuation ``##ing`` as ``ing``,
    keeping bracketed markers (``[CLS]``) as they are; this undoes it. A vocabulary without any ``▁``
    token is already spelled as vocab.txt and is kept.

    >>> bert_tokens(["[CLS]", "\u2581hello", "ing", "\u2581,"])
    (['[CLS]', 'hello', '##ing', ','], True)
    """
    if not any(token.startswith(WORD_START) for token in tokens):
        return tokens, False
    return [token[1:] if token.startswith(WORD_START) else token if token.startswith("[") and token.endswith("]")
            else "##" + token for token in tokens], True


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
