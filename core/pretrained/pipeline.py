"""The pipeline of one text through one tokenizer, stage by stage, read from the library itself.

``run(tokenizer, text)`` returns a frozen ``Pipeline``: the normalized text (and where it differs
from the input), the pre-tokens with their offsets, the model's tokens, what the post-processor
adds, the decoded text, and why the round trip loses information when it does.

Where each stage comes from:

- ``tokenizers`` files: ``normalizer.normalize_str`` and ``pre_tokenizer.pre_tokenize_str`` of the
  library's own objects; tokens and added tokens from its encoding (through the adapter).
- sentencepiece: ``SentencePieceProcessor.normalize`` (with its ▁ and dummy prefix); it has no
  pre-tokenizer, which the stage says.
- tiktoken: NFC where the tokenizer applies it; the pre-tokens are the tokenizer's own pattern run
  by the ``regex`` package (tiktoken runs the same pattern in Rust and does not expose the chunks).
- anything else with a ``pattern`` (BPE trained here): the same, through ``core.text.pretokenize``.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from core.pretrained.anatomy import library_of
from core.types import ADDED, UNKNOWN, Token

_WHITESPACE = re.compile(r"\s+")
MAX_PIPELINE_CHARS = 20_000  # the view is for reading; longer texts are cut, with a note


@dataclass(frozen=True)
class Pipeline:
    """Each stage's output for one text; offsets of ``pre_tokens`` are into ``normalized``."""

    text: str
    normalized: str
    normalizer: str  # what the stage did, one line
    changes: tuple[tuple[int, int, int, int], ...]  # (text start, end, normalized start, end) that differ
    pre_tokens: tuple[tuple[str, int, int], ...]  # (piece, start, end) in ``normalized``; () if none
    pre_tokenizer: str
    tokens: tuple[Token, ...]  # the model's tokens, offsets into ``text``
    pieces: tuple[str, ...]  # each token's vocabulary string
    added: tuple[Token, ...]  # what the post-processor put around them
    encoded: tuple[Token, ...]  # all of them in the order encode returns them
    decoded: str
    losses: tuple[str, ...]  # why decode(encode(text)) != text; () when it round-trips
    truncated: bool = False


def run(tokenizer: Any, text: str) -> Pipeline:
    """Every stage of ``text`` through ``tokenizer`` (a registry, uploaded or trained tokenizer).

    An uploaded tokenizer's stages run in its worker process (``core.pretrained.sandbox``): its
    normalizer and pre-tokenizer hold the file's regular expressions.
    """
    if hasattr(type(tokenizer), "run_pipeline"):  # a core.pretrained.sandbox.SandboxedTokenizer
        return tokenizer.run_pipeline(text)
    truncated = len(text) > MAX_PIPELINE_CHARS
    if truncated:
        text = text[:MAX_PIPELINE_CHARS]
    library, obj = library_of(tokenizer)
    if library == "tokenizers":
        normalized, normalizer, pre_tokens, pre_note = _hf_front(obj, text)
    elif library == "sentencepiece":
        normalized = obj.normalize(text)
        normalizer = "sentencepiece's normalizer: " + ("changed the text" if normalized != text else "no change")
        pre_tokens, pre_note = (), "SentencePiece has no pre-tokenizer: it reads the normalized text whole, spaces as ▁"
    else:
        nfc = getattr(tokenizer, "nfc", False)
        normalized = unicodedata.normalize("NFC", text) if nfc else text
        normalizer = "NFC" if nfc else "none: the text goes in as it is"
        pre_tokens, pre_note = _pattern_front(getattr(tokenizer, "pattern", None) or "", normalized)
    everything = tokenizer.encode(text)
    tokens = tuple(t for t in everything if t.kind != ADDED)
    added = tuple(t for t in everything if t.kind == ADDED)
    decoded = tokenizer.decode([t.id for t in tokens])  # the text's own tokens: ADDED ones are not text
    return Pipeline(
        text=text, normalized=normalized, normalizer=normalizer, changes=changed_ranges(text, normalized),
        pre_tokens=tuple(pre_tokens), pre_tokenizer=pre_note, tokens=tokens,
        pieces=tuple(tokenizer.piece(t.id) for t in tokens), added=added, encoded=tuple(everything), decoded=decoded,
        losses=losses(text, normalized, decoded, tokens), truncated=truncated,
    )


def _hf_front(library: Any, text: str):
    normalizer = library.normalizer
    if normalizer is None:
        normalized, note = text, "none: the text goes in as it is"
    else:
        normalized = normalizer.normalize_str(text)
        note = f"{type(normalizer).__name__} (the library's normalizer)"
    pre = library.pre_tokenizer
    if pre is None:
        return normalized, note, [(normalized, 0, len(normalized))] if normalized else [], "none: the model reads it whole"
    pieces = [(piece, start, end) for piece, (start, end) in pre.pre_tokenize_str(normalized)]
    return normalized, note, pieces, f"{type(pre).__name__} (the library's pre-tokenizer)"


def _pattern_front(pattern: str, normalized: str):
    if not pattern:
        return [(normalized, 0, len(normalized))] if normalized else [], "none: the model reads the text whole"
    from core.text import pretokenize

    try:
        spans = pretokenize.split(normalized, pattern)
    except ValueError as exc:  # a trained tokenizer's custom pattern that ran out of time
        return [], f"the pattern could not cut this text ({exc})"
    return [(normalized[s:e], s, e) for s, e in spans], "the tokenizer's regular expression (merges never cross a chunk)"


def changed_ranges(before: str, after: str) -> tuple[tuple[int, int, int, int], ...]:
    """Character ranges where ``after`` differs from ``before``: (start, end) in each.

    >>> changed_ranges("Héllo", "hello")
    ((0, 2, 0, 2),)
    """
    if before == after:
        return ()
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return tuple((i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal")


def losses(text: str, normalized: str, decoded: str, tokens: tuple[Token, ...]) -> tuple[str, ...]:
    """Why ``decoded`` is not ``text``, each reason checked on this text; () when they are equal.

    >>> losses("Héllo", "hello", "hello", ())
    ('case folded: upper-case letters became lower case', 'accents stripped: é became e')
    """
    if decoded == text:
        return ()
    found = []
    if text != text.lower() and decoded == decoded.lower() and decoded != text:
        found.append("case folded: upper-case letters became lower case")
    stripped = _strip_accents(text)
    if stripped != text and (decoded == stripped or decoded == stripped.lower() or _strip_accents(decoded) == decoded):
        example = next((c for c in text if _strip_accents(c) != c and c not in decoded), None)
        if example:
            found.append(f"accents stripped: {example} became {_strip_accents(example)}")
    compat = unicodedata.normalize("NFKC", text)
    if compat != text and unicodedata.normalize("NFC", text) != compat and _nfkc_applied(text, normalized):
        found.append("compatibility forms folded (NFKC): e.g. ﬁ → fi, full-width Ａ → A")
    elif unicodedata.normalize("NFC", text) != text and normalized == unicodedata.normalize("NFC", text):
        found.append("combining accents composed (NFC): the same text, other code points")
    unknown = [t for t in tokens if t.kind == UNKNOWN]
    if unknown:
        lost = "".join(dict.fromkeys(text[t.start : t.end] for t in unknown))[:20]
        found.append(f"{len(unknown):,} unknown token{'s' if len(unknown) != 1 else ''}: {lost!r} lost")
    spaces_in, spaces_out = _WHITESPACE.findall(text), _WHITESPACE.findall(decoded)
    if len(spaces_out) > len(spaces_in):
        found.append("spaces added: the decoder joins pieces with a space where the text had none")
    elif spaces_in != spaces_out:
        found.append("whitespace collapsed or trimmed: runs of spaces, tabs or line breaks came back shorter")
    if "\u2581" in text and "\u2581" not in decoded:
        found.append("▁ (U+2581) in the text is read as a space")
    if not found:
        found.append("the decoder does not give the text back exactly (see the decoded text)")
    return tuple(found)


def _strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def _nfkc_applied(text: str, normalized: str) -> bool:
    """True when some character that NFKC changes is changed the same way in ``normalized``."""
    for char in text:
        folded = unicodedata.normalize("NFKC", char)
        if folded != char and unicodedata.normalize("NFC", char) != folded and char not in normalized:
            return True
    return False
