"""What each real tokenizer does to a text before cutting it, read from the tokenizer's own library.

Nothing here is a table typed by hand: the steps come from the loaded model's configuration
(``tokenizers``' normalizer JSON, sentencepiece's ``normalizer_spec``, the tiktoken adapter's NFC
switch), and ``seen_text`` runs the library's own normalizer, so "what the model sees" is what
the library does, e.g. BERT-uncased: "Café" → "cafe"; T5: "ﬁ ①" → "fi 1"; Qwen: e + ◌́ → é.

Subtle: the adapters (``core.pretrained.tiktoken_adapter``, ``.sentencepiece_adapter``,
``.hf_adapter``) keep the library object they wrap in a private attribute; ``_library``
reads it, in this one place, and the tests run it over every tokenizer of the registry so a
renamed attribute fails loudly instead of showing "no normalization".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from core.text.textio import without_surrogates

_SP_NORMALIZERS = {
    "identity": "none: the text is used as typed",
    "nfkc": "NFKC",
    "nmt_nfkc": "NFKC plus SentencePiece's NMT rules: control characters dropped, unusual spaces made plain",
    "nfkc_cf": "NFKC, then case folding",
    "nmt_nfkc_cf": "NFKC with the NMT rules, then case folding",
}


@dataclass(frozen=True)
class NormalizerInfo:
    """One tokenizer's normalization: a short name and its steps in order (empty: none)."""

    key: str
    library: str  # "tiktoken", "sentencepiece" or "tokenizers"
    name: str  # "none", "NFC", "BertNormalizer", "nmt_nfkc", …
    steps: tuple[str, ...]

    @property
    def summary(self) -> str:
        return "; ".join(self.steps) if self.steps else "none: the text is used as typed"


def describe(tokenizer: Any) -> NormalizerInfo:
    """The normalization ``tokenizer`` (a ``core.pretrained`` tokenizer) applies, from its library.

    >>> describe(type("Fake", (), {"key": "x", "_nfc": True})()).name
    'NFC'
    """
    library, obj = _library(tokenizer)
    key = getattr(tokenizer, "key", "?")
    if library == "tiktoken":
        if obj:
            return NormalizerInfo(key, library, "NFC", ("NFC: composes e + ◌́ into é before encoding",))
        return NormalizerInfo(key, library, "none", ())
    if library == "sentencepiece":
        return _describe_sentencepiece(key, obj)
    return _describe_hf(key, obj)


def seen_text(tokenizer: Any, text: str) -> str:
    """``text`` as ``tokenizer``'s normalizer leaves it: what its model is actually fed.

    For SentencePiece the ``▁`` it writes for a space is shown as a space again, and the dummy
    prefix (the ``▁`` it puts before the text) is left out, so the result lines up with ``text``.
    """
    text = without_surrogates(text)
    library, obj = _library(tokenizer)
    if library == "tiktoken":
        import unicodedata

        return unicodedata.normalize("NFC", text) if obj else text
    if library == "sentencepiece":
        spec = _sp_spec(obj)
        normalized = obj.normalize(text)
        if spec.escape_whitespaces:
            normalized = normalized.replace("\u2581", " ")
        if spec.add_dummy_prefix and normalized.startswith(" "):
            normalized = normalized[1:]
        return normalized
    normalizer = obj.normalizer
    return normalizer.normalize_str(text) if normalizer is not None else text


def _library(tokenizer: Any) -> tuple[str, Any]:
    """("tiktoken", nfc flag) | ("sentencepiece", SentencePieceProcessor) | ("tokenizers", Tokenizer)."""
    if hasattr(tokenizer, "_sp"):
        return "sentencepiece", tokenizer._sp
    if hasattr(tokenizer, "_tok"):
        return "tokenizers", tokenizer._tok
    if hasattr(tokenizer, "_nfc"):
        return "tiktoken", bool(tokenizer._nfc)
    raise ValueError(f"cannot tell which library {tokenizer!r} wraps; it is not a core.pretrained tokenizer")


def _sp_spec(processor: Any) -> Any:
    from sentencepiece import sentencepiece_model_pb2

    return sentencepiece_model_pb2.ModelProto.FromString(processor.serialized_model_proto()).normalizer_spec


def _describe_sentencepiece(key: str, processor: Any) -> NormalizerInfo:
    spec = _sp_spec(processor)
    steps = []
    if spec.name != "identity":
        steps.append(_SP_NORMALIZERS.get(spec.name, f"SentencePiece's {spec.name} rules"))
    if spec.remove_extra_whitespaces:
        steps.append("leading, trailing and repeated spaces removed")
    if spec.add_dummy_prefix:
        steps.append("a space (▁) put before the text")
    return NormalizerInfo(key, "sentencepiece", spec.name, tuple(steps))


def _describe_hf(key: str, tokenizer: Any) -> NormalizerInfo:
    normalizer = tokenizer.normalizer
    if normalizer is None:
        return NormalizerInfo(key, "tokenizers", "none", ())
    config = json.loads(normalizer.__getstate__())
    return NormalizerInfo(key, "tokenizers", config.get("type", "?"), tuple(_hf_steps(config)))


def _hf_steps(config: dict[str, Any]) -> list[str]:
    kind = config.get("type")
    if kind == "Sequence":
        return [step for part in config.get("normalizers", []) for step in _hf_steps(part)]
    if kind == "BertNormalizer":
        steps = []
        if config.get("clean_text"):
            steps.append("control characters dropped, every whitespace made a plain space")
        if config.get("handle_chinese_chars"):
            steps.append("spaces put around each CJK ideograph")
        strip = config.get("strip_accents")
        if strip or (strip is None and config.get("lowercase")):
            steps.append("accents stripped (NFD, then combining marks dropped)")
        if config.get("lowercase"):
            steps.append("lowercased")
        return steps
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        return [kind]
    if kind == "Lowercase":
        return ["lowercased"]
    if kind == "StripAccents":
        return ["combining marks dropped"]
    if kind == "Precompiled":
        return ["SentencePiece's precompiled character map (NFKC-like: ﬁ → fi, ① → 1, odd spaces made plain)"]
    if kind == "Replace":
        pattern = config.get("pattern", {})
        what = pattern.get("String") or pattern.get("Regex") or "?"
        return [f"{what!r} replaced by {config.get('content', '')!r}"]
    if kind == "Strip":
        return ["spaces stripped at the ends"]
    if kind == "Prepend":
        return [f"{config.get('prepend', '')!r} put before the text"]
    return [str(kind)]
