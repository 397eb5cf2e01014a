"""A tokenizer file a user uploads, read into the same adapters the registry uses.

``read_upload(data, name, pattern=...)`` recognises the file by its content (its name only breaks
ties) and returns an ``Upload`` whose ``tokenizer`` behaves exactly like a registry one:

- Hugging Face ``tokenizer.json`` (and Mistral's Tekken JSON) → ``HFTokenizer`` / ``TiktokenTokenizer``;
- ``.tiktoken`` rank files (also Llama 3's ``tokenizer.model``, which is one) → ``TiktokenTokenizer``
  with the pattern the user picked (``TIKTOKEN_PATTERNS`` or a custom regex);
- SentencePiece ``.model`` → ``SentencePieceTokenizer``;
- BERT ``vocab.txt`` → ``HFTokenizer`` (WordPiece; lowercasing guessed from the vocabulary);
- GGUF → rebuilt by ``core.pretrained.gguf_vocab``.

Every failure is an ``UploadRejected`` whose message is one line naming the file and the reason.
A file whose ids, ranks or special-token counts are out of proportion to its size is refused before
anything is built (``core.pretrained.upload_limits``), and the tokenizer returned runs every text in
a worker process with a time budget (``core.pretrained.sandbox``): its file's regular expressions
cannot stall the server.
Subtle: the libraries read paths, so a few formats pass through a temporary folder, which is
removed before ``read_upload`` returns; nothing of the upload stays on disk.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.pretrained.adapter import PretrainedSpec, PretrainedTokenizer, TokenizerFailed, is_panic
from core.pretrained.sandbox import Recipe, Refused, SandboxedTokenizer
from core.pretrained.upload_limits import LimitExceeded, check_ids, check_special_count
from core.text.patterns import CL100K_PATTERN, GPT2_PATTERN, LLAMA3_PATTERN, O200K_PATTERN

MAX_TOKENIZER_BYTES = 64 * 1024 * 1024  # Gemma 3's tokenizer.json is 33 MB; a GGUF model is gigabytes
KINDS = ("tokenizer.json", ".tiktoken", "SentencePiece .model", "vocab.txt", "GGUF")
CUSTOM = "Custom regex"
# The pattern choices for a rank file, which does not carry its own pattern.
TIKTOKEN_PATTERNS: dict[str, str] = {
    "GPT-2": GPT2_PATTERN, "cl100k_base": CL100K_PATTERN, "o200k_base": O200K_PATTERN, "Llama 3": LLAMA3_PATTERN,
}
UPLOAD_PREFIX = "upload:"


class UploadRejected(ValueError):
    """The upload is not a tokenizer this playground reads; the message says why, in one line."""


@dataclass(frozen=True)
class Upload:
    """An uploaded tokenizer: its key (``upload:`` + content hash), its file, and the adapter."""

    key: str
    filename: str
    kind: str  # one of KINDS
    sha256: str
    size: int
    tokenizer: PretrainedTokenizer | SandboxedTokenizer  # sandboxed unless read with sandboxed=False
    notes: tuple[str, ...] = ()  # what was guessed or chosen while reading it ("pattern: cl100k_base")
    pattern_name: str | None = None  # the rank file's chosen pattern


def read_upload(
    data: bytes, filename: str, *, pattern: str = GPT2_PATTERN, pattern_name: str = "GPT-2",
    max_bytes: int = MAX_TOKENIZER_BYTES, sandboxed: bool = True,
    progress: Callable[[float, str], None] | None = None,
) -> Upload:
    """Recognise ``data`` and wrap it; ``UploadRejected`` with a one-line reason otherwise.

    ``pattern`` is used only for a rank file (.tiktoken), which does not carry its own. The file's
    numbers are checked against its size first (``core.pretrained.upload_limits``). With
    ``sandboxed`` (the default) the tokenizer is a ``SandboxedTokenizer``: a worker process builds
    it too and runs every text through it; ``sandboxed=False`` is what that worker itself builds.
    ``progress(fraction, message)`` follows the reading of a GGUF file.
    """
    name = filename or "the file"
    if not data:
        raise UploadRejected(f"{name} is empty.")
    if len(data) > max_bytes:
        raise UploadRejected(
            f"{name} is {len(data) / 1e6:,.1f} MB; tokenizer files up to {max_bytes / 1e6:,.0f} MB are read "
            "(for a GGUF model, upload its vocabulary-only file: llama.cpp's ggml-vocab-*.gguf)."
        )
    kind, reader = _recognise(data, name)
    if kind == "GGUF" and progress is not None:
        reader = functools.partial(_read_gguf, progress=progress)
    sha = hashlib.sha256(data).hexdigest()
    suffix = f":{hashlib.sha256(pattern.encode()).hexdigest()[:8]}" if kind == ".tiktoken" else ""
    key = f"{UPLOAD_PREFIX}{sha[:16]}{suffix}"
    recipe = Recipe(key, f"{__name__}:untrusted_build", (data, filename, pattern, pattern_name))
    try:  # subtle: building the adapter too: that is where a huge rank once raised MemoryError
        library_object, make, notes = reader(data, name, pattern)
        tokenizer = make(key, f"uploaded {name} · sha256 {sha[:8]}", library_object)
    except UploadRejected:
        raise
    except LimitExceeded as exc:
        raise UploadRejected(str(exc)) from None
    except BaseException as exc:  # the libraries raise bare Exception, RuntimeError, OSError, panics … on bad files
        if not (isinstance(exc, Exception) or is_panic(exc)):
            raise
        raise UploadRejected(f"{name} looks like a {kind} file but could not be read ({_short(exc)}).") from None
    if sandboxed:  # subtle: only once this process read it, so a hostile file never reaches a worker
        tokenizer = _sandboxed(tokenizer, recipe, _load_in_worker(recipe), name)
    if kind == ".tiktoken":
        notes = (f"pattern: {pattern_name} (a rank file does not carry its own)", *notes)
    return Upload(key, name, kind, sha, len(data), tokenizer, tuple(notes),
                  pattern_name if kind == ".tiktoken" else None)


def untrusted_build(data: bytes, filename: str, pattern: str, pattern_name: str) -> PretrainedTokenizer:
    """The adapter of an upload, as a worker process builds it (``core.pretrained.sandbox``)."""
    return read_upload(data, filename, pattern=pattern, pattern_name=pattern_name, sandboxed=False).tokenizer


def _load_in_worker(recipe: Recipe) -> TokenizerFailed | None:
    """Have a worker build the upload; what went wrong there, or None."""
    try:
        SandboxedTokenizer(None, recipe).load()
    except TokenizerFailed as exc:
        return exc
    return None


def _sandboxed(tokenizer: PretrainedTokenizer, recipe: Recipe, failure: TokenizerFailed | None, name: str):
    """``tokenizer`` with its text calls sent to the worker that built it, or the worker's refusal."""
    if isinstance(failure, Refused):  # the worker's own UploadRejected
        raise UploadRejected(str(failure))
    if failure is not None:
        raise UploadRejected(f"{name} could not be read: {failure}.")
    return SandboxedTokenizer(tokenizer, recipe)


def is_upload_key(key: str) -> bool:
    return key.startswith(UPLOAD_PREFIX)


Reader = Callable[[bytes, str, str], tuple[Any, Callable[[str, str, Any], PretrainedTokenizer], tuple[str, ...]]]


def _recognise(data: bytes, name: str) -> tuple[str, Reader]:
    """The kind of file and its reader, from the content first and the name second."""
    lower = name.lower()
    head = data[:4096].lstrip()
    if data[:4] == b"GGUF":
        return "GGUF", _read_gguf
    if lower.endswith(".gguf"):
        raise UploadRejected(f"{name} is not a GGUF file (it does not start with the GGUF magic bytes).")
    if head[:1] == b"{" or lower.endswith(".json"):  # subtle: a vocab.txt starts with "[PAD]", not JSON
        return "tokenizer.json", _read_json
    first_line = head.split(b"\n", 1)[0].strip()
    if _is_rank_line(first_line):
        return ".tiktoken", _read_ranks
    if lower.endswith(".tiktoken"):
        raise UploadRejected(f"{name} is not a rank file: its first line is not 'base64-token rank'.")
    if lower.endswith(".txt") or _looks_like_text(data):
        return "vocab.txt", _read_vocab_txt
    return "SentencePiece .model", _read_sentencepiece


def _is_rank_line(line: bytes) -> bool:
    parts = line.split()
    if len(parts) != 2 or not parts[1].isdigit():
        return False
    try:
        base64.b64decode(parts[0], validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _looks_like_text(data: bytes) -> bool:
    try:
        data[:65536].decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start > 65530  # a character cut at the end of the sample
    return b"\x00" not in data[:65536]


def _spec(key: str, name: str, algorithm: str, vocab_size: int, notes: str) -> PretrainedSpec:
    return PretrainedSpec(key, name, "uploaded", algorithm, vocab_size, "the file's own (uploaded)", None, (), notes)


def _read_json(data: bytes, name: str, pattern: str):
    try:
        document = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UploadRejected(f"{name} is not valid JSON ({_short(exc)}).") from None
    if isinstance(document, dict) and isinstance(document.get("config"), dict) and "vocab" in document:
        return _tekken(document, name)
    model = document.get("model") if isinstance(document, dict) else None
    if not (isinstance(model, dict) and ("type" in model or "vocab" in model)):
        keys = ", ".join(list(document)[:5]) if isinstance(document, dict) else f"a {type(document).__name__}"
        raise UploadRejected(
            f"{name} is JSON but not a tokenizer: a Hugging Face tokenizer.json has a 'model' with a vocabulary "
            f"(this one has: {keys or 'nothing'})."
        )
    _check_json_ids(document, name)
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_str(data.decode("utf-8"))
    style, algorithm = hf_style(document)
    lossless = style == "bytelevel" and not _normalizes(document.get("normalizer"))
    return tokenizer, _hf_maker(name, style, algorithm, lossless), ()


def _check_json_ids(document: dict, name: str) -> None:
    """The vocabulary's and the added tokens' ids, in proportion to how many tokens there are."""
    vocab = document["model"].get("vocab")
    ids = [i for i in vocab.values() if isinstance(i, int)] if isinstance(vocab, dict) else []
    added = document.get("added_tokens")
    added = added if isinstance(added, list) else []
    ids += [t["id"] for t in added if isinstance(t, dict) and isinstance(t.get("id"), int)]
    ids += _ids_in(document.get("post_processor"))  # the ids a template adds ([CLS] …) come out as they are
    check_ids(name, ids, (len(vocab) if isinstance(vocab, dict | list) else 0) + len(added))


def _ids_in(component: Any) -> list[int]:
    """Every integer in a post-processor's settings but its type ids (0 and 1: they are not token ids)."""
    if isinstance(component, dict):
        return [i for key, value in component.items() if key != "type_id" for i in _ids_in(value)]
    if isinstance(component, list):
        return [i for value in component for i in _ids_in(value)]
    return [component] if isinstance(component, int) and not isinstance(component, bool) else []


def hf_style(document: dict) -> tuple[str, str]:
    """The ``HFTokenizer`` style and the algorithm name of a tokenizer.json document."""
    model = document["model"]
    kind = model.get("type") or _model_type(model)
    text = json.dumps([document.get("pre_tokenizer"), document.get("decoder")])
    if kind == "WordPiece":
        return "wordpiece", "WordPiece"
    if '"ByteLevel"' in text:
        return "bytelevel", "byte-level BPE" if kind == "BPE" else str(kind)
    if kind == "Unigram":
        return "metaspace", "Unigram"
    if kind == "BPE":
        spm = model.get("byte_fallback") or "\u2581" in text or "\u2581" in json.dumps(document.get("normalizer"))
        return "metaspace", "SentencePiece BPE" if spm else "character BPE"
    return "metaspace", str(kind or "unknown")


def _model_type(model: dict) -> str:
    """The model type of an older tokenizer.json, which leaves it to be inferred from the fields."""
    if "merges" in model:
        return "BPE"
    if "max_input_chars_per_word" in model or "continuing_subword_prefix" in model:
        return "WordPiece"
    return "Unigram" if isinstance(model.get("vocab"), list) else "WordLevel"


def _normalizes(normalizer: Any) -> bool:
    if not normalizer:
        return False
    if normalizer.get("type") == "Sequence":
        return any(_normalizes(n) for n in normalizer.get("normalizers", []))
    return True


def _hf_maker(name: str, style: str, algorithm: str, lossless: bool):
    def make(key: str, source: str, tokenizer: Any) -> PretrainedTokenizer:
        from core.pretrained.hf_adapter import HFTokenizer

        size = tokenizer.get_vocab_size(with_added_tokens=True)
        spec = _spec(key, name, algorithm, size, f"uploaded {algorithm} tokenizer")
        return HFTokenizer(spec, source=source, tokenizer=tokenizer, style=style, lossless=lossless)

    return make


def _tekken(document: dict, name: str):
    from core.pretrained import vocab_files as vf

    try:
        config = document["config"]
        n_special = int(config["default_num_special_tokens"])
        n_ranks = int(config["default_vocab_size"]) - n_special
        ranks = {base64.b64decode(e["token_bytes"]): int(e["rank"]) for e in document["vocab"][:n_ranks]}
        pattern = str(config["pattern"])
    except (KeyError, TypeError, ValueError, binascii.Error) as exc:
        raise UploadRejected(f"{name} looks like a Tekken file but misses {_short(exc)}.") from None
    check_special_count(name, n_special)
    if n_ranks < 1:
        raise UploadRejected(f"{name}: its default_vocab_size leaves no room for tokens beside its {n_special:,} special ones.")
    check_ids(name, ranks.values(), len(ranks), what="rank")

    def make(key: str, source: str, _: Any) -> PretrainedTokenizer:
        from core.pretrained.tiktoken_adapter import TiktokenTokenizer

        # subtle: default_vocab_size only bounds the entries read; the size is what the file holds
        spec = _spec(key, name, "byte-level BPE", len(ranks) + n_special, "uploaded Tekken tokenizer")
        return TiktokenTokenizer(spec, source=source, ranks=ranks, pattern=pattern,
                                 special_tokens=vf.tekken_specials(n_special), id_offset=n_special, bos="<s>")

    return None, make, ("Mistral Tekken JSON: pattern and special ids from its config",)


def _read_ranks(data: bytes, name: str, pattern: str):
    ranks: dict[bytes, int] = {}
    for number, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            raise UploadRejected(f"{name}: line {number:,} is not 'base64-token rank'.")
        try:
            ranks[base64.b64decode(parts[0], validate=True)] = int(parts[1])
        except (binascii.Error, ValueError):
            raise UploadRejected(f"{name}: line {number:,} has a token that is not base64.") from None
    check_ids(name, ranks.values(), len(ranks), what="rank")
    if len(set(ranks.values())) != len(ranks):
        raise UploadRejected(f"{name} gives two tokens the same rank.")
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise UploadRejected(f"{name} lacks {len(missing)} of the 256 single bytes, so some texts cannot be encoded.")
    _check_pattern(pattern)

    def make(key: str, source: str, _: Any) -> PretrainedTokenizer:
        from core.pretrained.tiktoken_adapter import TiktokenTokenizer

        size = max(ranks.values()) + 1
        spec = _spec(key, name, "byte-level BPE", size, "uploaded rank file")
        return TiktokenTokenizer(spec, source=source, ranks=ranks, pattern=pattern, special_tokens={})

    return None, make, ()


def _check_pattern(pattern: str) -> None:
    import regex

    if not pattern:
        raise UploadRejected("The custom pattern is empty: type a regular expression, or pick a named one.")
    try:
        regex.compile(pattern)
    except regex.error as exc:
        raise UploadRejected(f"The custom pattern is not a valid regular expression ({exc}).") from None


def _read_sentencepiece(data: bytes, name: str, pattern: str):
    from sentencepiece import sentencepiece_model_pb2 as pb

    proto = pb.ModelProto()
    try:
        proto.ParseFromString(data)
    except Exception:  # protobuf's DecodeError
        raise UploadRejected(f"{name} is not a SentencePiece model (it does not parse as one).") from None
    if not proto.pieces:
        raise UploadRejected(f"{name} is not a SentencePiece model (it holds no pieces).")
    return data, _sentencepiece_maker(name, proto), ()


def _sentencepiece_maker(
    name: str, proto: Any, notes: str = "uploaded SentencePiece model", *, add_bos: bool = False,
    add_eos: bool = False,
):
    algorithm = {1: "Unigram", 2: "SentencePiece BPE"}.get(proto.trainer_spec.model_type, "SentencePiece")

    def make(key: str, source: str, model: bytes) -> PretrainedTokenizer:
        from core.pretrained.sentencepiece_adapter import SentencePieceTokenizer

        spec = _spec(key, name, algorithm, len(proto.pieces), notes)
        with tempfile.TemporaryDirectory(prefix="playground-upload-") as folder:
            path = Path(folder) / "tokenizer.model"
            path.write_bytes(model)
            try:
                return SentencePieceTokenizer(spec, source=source, path=path, add_bos=add_bos, add_eos=add_eos,
                                              lossless=False)
            except Exception as exc:  # sentencepiece's own check of the model
                raise UploadRejected(f"{name} is not a usable SentencePiece model ({_short(exc)}).") from None

    return make


def _read_vocab_txt(data: bytes, name: str, pattern: str):
    from core.pretrained.gguf_vocab import vocab_is_uncased

    try:
        tokens = data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise UploadRejected(f"{name} is neither a tokenizer file nor UTF-8 text.") from None
    missing = [marker for marker in ("[UNK]", "[CLS]", "[SEP]") if marker not in tokens]
    if len(missing) == 3:
        raise UploadRejected(f"{name} is text but not a BERT vocab.txt (one token a line, with [UNK] among them).")
    if missing:
        raise UploadRejected(f"{name} looks like a BERT vocab.txt but lacks {' and '.join(missing)}.")
    lowercase = vocab_is_uncased(tokens)
    with tempfile.TemporaryDirectory(prefix="playground-upload-") as folder:
        path = Path(folder) / "vocab.txt"
        path.write_bytes(data)
        from tokenizers import BertWordPieceTokenizer, Tokenizer

        tokenizer = Tokenizer.from_str(BertWordPieceTokenizer(str(path), lowercase=lowercase).to_str())
    note = "lowercases and strips accents (no upper-case token in the vocabulary)" if lowercase else "keeps case"
    return tokenizer, _hf_maker(name, "wordpiece", "WordPiece", False), (note,)


def _read_gguf(data: bytes, name: str, pattern: str, progress: Callable[[float, str], None] | None = None):
    from core.pretrained import gguf_vocab

    try:
        vocab = gguf_vocab.read_vocab(data, progress=progress)
        built = gguf_vocab.build(vocab)
    except gguf_vocab.GGUFVocabError as exc:
        raise UploadRejected(f"{name}: {exc}.") from None
    notes = (f"GGUF vocabulary '{vocab.model}'" + (f" of {vocab.name}" if vocab.name else ""), *built.notes)
    if built.library == "sentencepiece":
        from sentencepiece import sentencepiece_model_pb2 as pb

        proto = pb.ModelProto()
        proto.ParseFromString(built.tokenizer)
        maker = _sentencepiece_maker(name, proto, "uploaded GGUF vocabulary", add_bos=vocab.add_bos,
                                     add_eos=vocab.add_eos)
        return built.tokenizer, maker, notes
    return built.tokenizer, _hf_maker(name, built.style, built.algorithm, built.lossless), notes


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:160] or type(exc).__name__
