"""What a tokenizer file gives away: its algorithm, vocabulary, special tokens and pipeline settings.

``facts(tokenizer)`` reads a wrapped tokenizer (registry or uploaded) through the library behind it
(tiktoken ranks, the sentencepiece ``ModelProto``, the ``tokenizers`` JSON) and returns a frozen
``Facts``: model type, vocabulary size, special and added tokens, normalizer, pre-tokenizer and its
regex, post-processor, decoder, byte fallback, the first and last merges (or the highest and lowest
scored pieces), the longest tokens and the share of the vocabulary per script. ``vocab_map`` and
``identify`` say which registry tokenizer a file is, or extends.

Subtle: the adapters keep their library object private (``_enc``, ``_sp``, ``_tok``); this module is
the one place outside them that reads it, through ``library_of``.
"""

from __future__ import annotations

import functools
import heapq
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from core.pretrained.adapter import UNICODE_TO_BYTE, byte_level_piece

SHOWN = 20  # merges / pieces shown at each end
LONGEST = 20
# Scripts named in the chart; any other script is "Other scripts".
SCRIPTS = (
    "Latin", "Cyrillic", "Greek", "Armenian", "Georgian", "Hebrew", "Arabic", "Devanagari", "Bengali", "Tamil",
    "Telugu", "Thai", "Ethiopic", "Han", "Hiragana", "Katakana", "Hangul",
)
NO_LETTER = ("Digits", "Punctuation and symbols", "Whitespace", "Partial UTF-8 (byte pieces)")


@dataclass(frozen=True)
class Facts:
    """Everything ``facts`` found; text fields are plain sentences, ready to show."""

    name: str
    library: str  # "tiktoken", "sentencepiece", "tokenizers"
    algorithm: str
    model_type: str
    vocab_size: int
    special_tokens: tuple[tuple[str, int], ...]
    added_tokens: tuple[tuple[str, int], ...]  # matched in the text as written, not special
    normalizer: str
    pre_tokenizer: str
    patterns: tuple[str, ...]  # the pre-tokenizer's regular expressions
    post_processor: str
    decoder: str
    byte_fallback: str
    merges_total: int | None
    first_merges: tuple[tuple[str, str], ...]  # (left, right) as vocabulary strings
    last_merges: tuple[tuple[str, str], ...]
    highest_scored: tuple[tuple[str, float], ...]
    lowest_scored: tuple[tuple[str, float], ...]
    longest: tuple[tuple[str, int], ...]  # (piece, bytes)
    scripts: tuple[tuple[str, int], ...]  # (script, tokens), largest first
    details: Mapping[str, str]  # raw settings (JSON) for an expander


def library_of(tokenizer: Any) -> tuple[str, Any]:
    """("tiktoken" | "sentencepiece" | "tokenizers" | "", the library object) behind an adapter."""
    for attribute, library in (("_enc", "tiktoken"), ("_sp", "sentencepiece"), ("_tok", "tokenizers")):
        if hasattr(tokenizer, attribute):
            return library, getattr(tokenizer, attribute)
    return "", None


def facts(tokenizer: Any) -> Facts:
    """The facts of a wrapped tokenizer; ``ValueError`` for one with no library behind it."""
    library, obj = library_of(tokenizer)
    readers = {"tiktoken": _tiktoken_facts, "sentencepiece": _sentencepiece_facts, "tokenizers": _hf_facts}
    if library not in readers:
        raise ValueError(f"{getattr(tokenizer, 'name', tokenizer)!r} is not a wrapped library tokenizer")
    return readers[library](tokenizer, obj)


def _special_and_added(tokenizer: Any, added: Mapping[str, int] | None = None):
    specials = tuple(sorted(((s, i) for s, i in tokenizer.special_tokens.items()), key=lambda p: p[1]))
    return specials, tuple(sorted((added or {}).items(), key=lambda p: p[1]))


def _tiktoken_facts(tokenizer: Any, encoding: Any) -> Facts:
    ranks: Mapping[bytes, int] = tokenizer.mergeable_ranks
    by_rank = sorted((rank, data) for data, rank in ranks.items() if len(data) > 1)
    offset = min(ranks.values(), default=0)  # Tekken's ids start after its special ids
    plain = {data: rank - offset for data, rank in ranks.items()}
    first = tuple(_split_rank(plain, data) for _, data in by_rank[:SHOWN])
    last = tuple(_split_rank(plain, data) for _, data in by_rank[-SHOWN:])
    specials, _ = _special_and_added(tokenizer)
    bos = getattr(tokenizer, "_bos", None)
    nfc = getattr(tokenizer, "_nfc", False)
    return Facts(
        name=tokenizer.name, library="tiktoken", algorithm=tokenizer.algorithm,
        model_type="byte-level BPE: merge ranks (a .tiktoken rank file)", vocab_size=tokenizer.vocab_size,
        special_tokens=specials, added_tokens=(),
        normalizer="NFC (composed accents) before encoding" if nfc else "none: the text is encoded as it is",
        pre_tokenizer="a regular expression cuts the text into chunks; merges never cross a chunk",
        patterns=(tokenizer.pattern,) if tokenizer.pattern else (),
        post_processor=f"adds {bos[1]} at the start" if bos else "none: nothing is added",
        decoder="the tokens' bytes joined, then read as UTF-8",
        byte_fallback="not needed: each of the 256 bytes is a token, so nothing is unknown",
        merges_total=len(by_rank), first_merges=first, last_merges=last, highest_scored=(), lowest_scored=(),
        longest=_longest((byte_level_piece(d), len(d)) for d in ranks),
        scripts=script_shares(ranks.keys()), details={"pattern": tokenizer.pattern or ""},
    )


def _split_rank(ranks: Mapping[bytes, int], token: bytes) -> tuple[str, str]:
    """The two tokens whose merge made ``token``: BPE on its bytes with only the ranks below its own.

    Subtle: the lowest-ranked pair (leftmost on a tie) is merged first, as BPE does, but found with a
    heap over a linked list of parts, so a token of n bytes costs O(n log n) look-ups, not O(n²):
    a rank file with a token of 8,000 "a"s took 26 s the quadratic way.

    >>> _split_rank({b"a": 0, b"b": 1, b"ab": 2, b"abb": 3}, b"abb")
    ('ab', 'b')
    """
    limit, size = ranks[token], len(token)
    parts: list[bytes] = [bytes([b]) for b in token]
    after, before = list(range(1, size + 1)), list(range(-1, size - 1))  # neighbours; size: none
    heap = [(rank, i) for i in range(size - 1) if (rank := ranks.get(parts[i] + parts[i + 1], limit)) < limit]
    heapq.heapify(heap)
    left = size
    while heap and left > 2:
        rank, i = heapq.heappop(heap)
        j = after[i]
        if not parts[i] or j >= size or ranks.get(parts[i] + parts[j], limit) != rank:
            continue  # stale: one side was merged into something else since
        parts[i], parts[j] = parts[i] + parts[j], b""
        after[i] = after[j]
        if after[j] < size:
            before[after[j]] = i
        left -= 1
        for first in (before[i], i):
            second = after[first] if first >= 0 else size
            if first >= 0 and second < size and (new := ranks.get(parts[first] + parts[second], limit)) < limit:
                heapq.heappush(heap, (new, first))
    if left != 2:  # not a merge result (a rank file with gaps): show it whole
        return byte_level_piece(token), ""
    first, second = (part for part in parts if part)
    return byte_level_piece(first), byte_level_piece(second)


def _sentencepiece_facts(tokenizer: Any, processor: Any) -> Facts:
    from sentencepiece import sentencepiece_model_pb2 as pb

    proto = pb.ModelProto()
    proto.ParseFromString(processor.serialized_model_proto())
    trainer, normalizer = proto.trainer_spec, proto.normalizer_spec
    model_type = pb.TrainerSpec.ModelType.Name(trainer.model_type)
    normal = [(p.piece, p.score) for p in proto.pieces if p.type == pb.ModelProto.SentencePiece.NORMAL]
    ordered = sorted(normal, key=lambda item: -item[1])
    user = {p.piece: i for i, p in enumerate(proto.pieces) if p.type == pb.ModelProto.SentencePiece.USER_DEFINED}
    specials, added = _special_and_added(tokenizer, user)
    rules = [normalizer.name or "identity"]
    if normalizer.add_dummy_prefix:
        rules.append("a ▁ put in front of the text")
    if normalizer.remove_extra_whitespaces:
        rules.append("runs of spaces collapsed, ends trimmed")
    cut = [what for what, on in (("at whitespace", trainer.split_by_whitespace), ("digits apart", trainer.split_digits),
                                 ("at script changes", trainer.split_by_unicode_script)) if on]
    bos, eos = getattr(tokenizer, "_bos", None), getattr(tokenizer, "_eos", None)
    added_now = [f"{bos[1]} at the start" for _ in [0] if bos] + [f"{eos[1]} at the end" for _ in [0] if eos]
    pieces = [(p.piece.replace("\u2581", " ").encode(), p.type) for p in proto.pieces]
    return Facts(
        name=tokenizer.name, library="sentencepiece", algorithm=tokenizer.algorithm,
        model_type=f"SentencePiece {model_type}" + (" (merges ordered by score)" if model_type == "BPE" else ""),
        vocab_size=tokenizer.vocab_size, special_tokens=specials, added_tokens=added,
        normalizer="; ".join(rules) + ("; spaces become ▁" if normalizer.escape_whitespaces else ""),
        pre_tokenizer="none as such: SentencePiece reads the whole text, spaces as ▁"
        + (f"; pieces are cut {', '.join(cut)}" if cut else ""),
        patterns=(), post_processor="adds " + " and ".join(added_now) if added_now else "none: nothing is added",
        decoder="pieces joined, ▁ read as a space" + ("; <0xNN> pieces as bytes" if trainer.byte_fallback else ""),
        byte_fallback=("yes: a character not in the vocabulary is spelled as <0xNN> byte pieces"
                       if trainer.byte_fallback else "no: a character not in the vocabulary becomes <unk>"),
        merges_total=None, first_merges=(), last_merges=(), highest_scored=tuple(ordered[:SHOWN]),
        lowest_scored=tuple(ordered[-SHOWN:]),
        longest=_longest((piece, len(piece.replace("\u2581", " ").encode())) for piece, _ in normal),
        scripts=script_shares(data for data, kind in pieces if kind in (1, 4)),
        details={"trainer_spec": _proto_text(trainer, skip=("pretokenization_delimiter",)),
                 "normalizer_spec": _proto_text(normalizer, skip=("precompiled_charsmap",))},
    )


def _proto_text(message: Any, *, skip: tuple[str, ...]) -> str:
    from google.protobuf import text_format

    copy = type(message)()
    copy.CopyFrom(message)
    for name in skip:
        copy.ClearField(name)
    return text_format.MessageToString(copy)


def _hf_facts(tokenizer: Any, library: Any) -> Facts:
    document = json.loads(library.to_str())
    model = document.get("model") or {}
    kind = model.get("type") or "BPE"
    decoder_map = library.get_added_tokens_decoder()
    added = {t.content: i for i, t in decoder_map.items() if not t.special}
    specials, added_pairs = _special_and_added(tokenizer, added)
    merges = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in model.get("merges") or ()]
    scored = sorted(((p, s) for p, s in model.get("vocab") or () if p not in tokenizer.special_tokens),
                    key=lambda item: -item[1]) if kind == "Unigram" else []
    vocab = library.get_vocab(with_added_tokens=False)
    style = getattr(tokenizer, "_style", "metaspace")
    return Facts(
        name=tokenizer.name, library="tokenizers", algorithm=tokenizer.algorithm,
        model_type=f"tokenizers {kind}" + (" with byte fallback" if model.get("byte_fallback") else ""),
        vocab_size=tokenizer.vocab_size, special_tokens=specials, added_tokens=added_pairs,
        normalizer=describe_component(document.get("normalizer")),
        pre_tokenizer=describe_component(document.get("pre_tokenizer")),
        patterns=tuple(regexes(document.get("pre_tokenizer"))),
        post_processor=describe_component(document.get("post_processor")),
        decoder=describe_component(document.get("decoder")),
        byte_fallback=_hf_byte_fallback(model, style),
        merges_total=len(merges) if kind == "BPE" else None,
        first_merges=tuple(merges[:SHOWN]), last_merges=tuple(merges[-SHOWN:]),
        highest_scored=tuple(scored[:SHOWN]), lowest_scored=tuple(scored[-SHOWN:]),
        longest=_longest((piece, len(hf_bytes(piece, style))) for piece in vocab),
        scripts=script_shares(hf_bytes(piece, style) for piece in vocab),
        details={part: json.dumps(document.get(part), indent=1, ensure_ascii=False)
                 for part in ("normalizer", "pre_tokenizer", "post_processor", "decoder")},
    )


def _hf_byte_fallback(model: Mapping[str, Any], style: str) -> str:
    if style == "bytelevel":
        return "not needed: byte-level, each of the 256 bytes has a token"
    if model.get("byte_fallback"):
        return "yes: a character not in the vocabulary is spelled as <0xNN> byte pieces"
    return f"no: a character not in the vocabulary becomes {model.get('unk_token') or 'an unknown token'}"


def hf_bytes(piece: str, style: str) -> bytes:
    """The bytes a vocabulary string of a ``tokenizers`` model stands for, in the adapter's style."""
    if style == "bytelevel":
        if all(c in UNICODE_TO_BYTE for c in piece):
            return bytes(UNICODE_TO_BYTE[c] for c in piece)
        return piece.encode()
    if style == "wordpiece":
        return piece.removeprefix("##").encode()
    return piece.replace("\u2581", " ").encode()


def describe_component(component: Any) -> str:
    """One line for a normalizer / pre-tokenizer / post-processor / decoder of a tokenizer.json.

    >>> describe_component({"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "Lowercase"}]})
    'NFD → Lowercase'
    >>> describe_component(None)
    'none'
    """
    if not component:
        return "none"
    kind = component.get("type", "?")
    for key in ("normalizers", "pretokenizers", "processors", "decoders"):
        if kind == "Sequence" and key in component:
            parts = [describe_component(c) for c in component[key]]
            return " → ".join(parts) if parts else "none"
    settings = []
    for key, value in component.items():
        if key in ("type", "pattern") or isinstance(value, dict | list):
            continue
        shown = str(value)
        settings.append(f"{key}={shown if len(shown) <= 40 else f'… ({len(shown):,} characters)'}")
    if kind == "TemplateProcessing":
        parts = [("$" if "Sequence" in p else "") + next(iter(p.values())).get("id", "?") for p in component.get("single", [])]
        return f"TemplateProcessing: {' '.join(parts)}"
    if kind in ("BertProcessing", "RobertaProcessing"):
        return f"{kind}: {component.get('cls', ['?'])[0]} $A {component.get('sep', ['?'])[0]}"
    if "pattern" in component:
        pattern = component["pattern"]
        settings.insert(0, "regex" if "Regex" in pattern else f"string {pattern.get('String')!r}")
    return f"{kind}({', '.join(settings)})" if settings else kind


def regexes(component: Any) -> Iterable[str]:
    """Every ``{"Regex": ...}`` inside a component, in order."""
    if isinstance(component, dict):
        if "Regex" in component and isinstance(component["Regex"], str):
            yield component["Regex"]
        for value in component.values():
            yield from regexes(value)
    elif isinstance(component, list):
        for value in component:
            yield from regexes(value)


def _longest(pieces: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(pieces, key=lambda item: (-item[1], item[0]))[:LONGEST])


@functools.cache
def _script_pattern():
    import regex

    return regex.compile("|".join(f"(?P<{name}>\\p{{Script={name}}})" for name in SCRIPTS))


@functools.lru_cache(maxsize=65536)
def script_of_char(char: str) -> str:
    """The script a letter belongs to, one of ``SCRIPTS`` or "Other scripts".

    >>> script_of_char("ж"), script_of_char("字"), script_of_char("ᚠ")
    ('Cyrillic', 'Han', 'Other scripts')
    """
    match = _script_pattern().match(char)
    return match.lastgroup if match else "Other scripts"


def script_of(data: bytes) -> str:
    """The script of a token's first letter; tokens without letters get a ``NO_LETTER`` class.

    >>> script_of(" мир".encode()), script_of(b" 42"), script_of(b"\\xe4\\xb8")
    ('Cyrillic', 'Digits', 'Partial UTF-8 (byte pieces)')
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return NO_LETTER[3]
    for char in text:
        if char.isalpha():
            return script_of_char(char)
    if any(char.isdigit() for char in text):
        return NO_LETTER[0]
    if text.strip():
        return NO_LETTER[1]
    return NO_LETTER[2]


def script_shares(tokens: Iterable[bytes]) -> tuple[tuple[str, int], ...]:
    """Tokens per script, largest first (ties by name), for the chart.

    >>> script_shares([b"a", b"b", "ж".encode(), b"1"])
    (('Latin', 2), ('Cyrillic', 1), ('Digits', 1))
    """
    counts = Counter(script_of(data) for data in tokens)
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


# -- identification against the registry ---------------------------------------------------------


def vocab_map(tokenizer: Any) -> dict[bytes | str, int]:
    """The text tokens of a tokenizer, keyed so files of one family compare: bytes for byte-level
    BPE, the vocabulary string for the others (``▁the``, ``##ing``); specials left out."""
    library, obj = library_of(tokenizer)
    specials = set(tokenizer.special_tokens.values())
    if library == "tiktoken":
        return {data: i for data, i in tokenizer.mergeable_ranks.items() if i not in specials}
    if library == "sentencepiece":
        return {obj.id_to_piece(i): i for i in range(obj.get_piece_size())
                if not (obj.is_control(i) or obj.is_unknown(i))}
    if library == "tokenizers":
        style = getattr(tokenizer, "_style", "metaspace")
        vocab = obj.get_vocab(with_added_tokens=False)
        if style == "bytelevel":
            return {hf_bytes(piece, style): i for piece, i in vocab.items() if i not in specials}
        return {piece: i for piece, i in vocab.items() if i not in specials}
    return {}


@dataclass(frozen=True)
class Match:
    """How an uploaded tokenizer relates to one registry tokenizer."""

    key: str
    name: str
    relation: str  # "same file", "same vocabulary", "extends", "overlaps"
    shared: int  # tokens with the same id in both
    extra: int  # tokens the upload has beyond the registry's
    sentence: str


def identify(
    upload: Mapping[bytes | str, int], sha256: str, candidates: Mapping[str, tuple[str, str | None, Any]],
) -> Match | None:
    """The registry tokenizer an upload is, extends, or shares most of its vocabulary with.

    ``candidates`` maps registry keys to (name, pinned sha256, vocab_map or None when unknown).
    Same file by hash first; else same ids for every registry token ("extends", "same vocabulary");
    else the largest overlap of tokens, when it covers at least half the upload.
    """
    for key, (name, pin, _) in candidates.items():
        if pin and pin == sha256:
            return Match(key, name, "same file", len(upload), 0, f"This is the registry's {name} file, byte for byte.")
    best: Match | None = None
    for key, (name, _, theirs) in candidates.items():
        if not theirs or not upload:
            continue
        same_ids = sum(1 for token, i in theirs.items() if upload.get(token) == i)
        if same_ids == len(theirs):
            extra = len(upload) - len(theirs)
            if extra == 0:
                return Match(key, name, "same vocabulary", same_ids, 0,
                             f"This is {name}: the same {same_ids:,} tokens with the same ids.")
            return Match(key, name, "extends", same_ids, extra,
                         f"This is {name} plus {extra:,} added tokens (its {same_ids:,} tokens keep their ids).")
        shared = len(upload.keys() & theirs.keys())
        if shared * 2 >= len(upload) and (best is None or shared > best.shared):
            share = shared / len(upload)
            best = Match(key, name, "overlaps", shared, len(upload) - shared,
                         f"{share:.0%} of its tokens are in {name}'s vocabulary ({same_ids:,} with the same id).")
    return best
