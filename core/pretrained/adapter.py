"""What every wrapped pretrained tokenizer shares: its base class and the offset helpers.

The adapters themselves live one per library (``core.pretrained.tiktoken_adapter``,
``core.pretrained.sentencepiece_adapter``, ``core.pretrained.hf_adapter``); each turns the library's output into
``core.types.Token`` with code-point offsets into the *original* text. Also here, once: GPT-2's
byte-level alphabet (``byte_level_piece``), which ``core.bpe.export`` uses too. This module imports
no tokenizer library, so importing it is cheap.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from core.types import ADDED, Token

if TYPE_CHECKING:
    from core.fetch.sources import FileSpec

# byte_chunk_spans: from this many UTF-8 bytes on, numpy even when not imported yet (a megabyte: about
# 5 ms against 0.3 s in Python)
NUMPY_FROM_BYTES = 16 * 1024


@dataclass(frozen=True)
class PretrainedSpec:
    """What a pretrained tokenizer is, before anything is loaded."""

    key: str
    name: str
    family: str
    algorithm: str  # one of core.types.ALGORITHMS
    vocab_size: int
    license: str
    attribution: str | None  # shown next to the tokenizer where the licence asks for it
    files: tuple[FileSpec, ...]
    notes: str  # one line on what is special about it


# subtle: a file that makes a Rust library panic is answered with a sentence (library_call). With
# RUST_BACKTRACE=1 in the server's environment, the first such panic also symbolised a backtrace into the
# log: 1.2-1.6 s and 51 MB for a 319-byte upload. Rust reads the variable at its first panic, so this
# holds for the whole process (the sandbox's workers are started with it too).
os.environ["RUST_BACKTRACE"] = "0"


class TokenizerUnavailable(Exception):
    """The tokenizer's file (or library) is missing; ``reason`` says how to get it."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(f"{key}: {reason}")
        self.key = key
        self.reason = reason


class TokenizerFailed(ValueError):
    """A tokenizer (an uploaded one, run in a worker) could not handle a text; the message is one sentence."""


def is_panic(exc: BaseException) -> bool:
    """Whether ``exc`` is a Rust library's panic (``pyo3_runtime.PanicException``, a ``BaseException``).

    Subtle: pyo3 creates that class at run time, so it cannot be imported to be caught by name.
    """
    return type(exc).__name__ == "PanicException"


@contextmanager
def library_call() -> Iterator[None]:
    """Turn a Rust library's panic inside the block into ``TokenizerFailed`` with a sentence.

    Subtle: a panic is a ``BaseException``; uncaught, it passed every ``except Exception`` and the
    Playground's column silently kept the previous text's tokens.
    """
    try:
        yield
    except BaseException as exc:
        if is_panic(exc):
            raise TokenizerFailed(describe_failure(exc)) from None
        raise


def describe_failure(exc: BaseException) -> str:
    """One sentence (lower case, as messages are) for what a tokenizer library raised on a text.

    >>> describe_failure(MemoryError())
    'the tokenizer ran out of memory on this text'
    """
    if isinstance(exc, MemoryError):
        return "the tokenizer ran out of memory on this text"
    detail = " ".join(str(exc).split())[:160] or type(exc).__name__
    if is_panic(exc):
        return f"the tokenizer library failed on this text ({detail}); its file is probably malformed"
    return f"the tokenizer failed on this text ({type(exc).__name__}: {detail})"


class Outline(NamedTuple):
    """A text's encoding without its ``Token`` objects: what counting a long text needs.

    ``ids`` are the ids of every token ``encode`` returns, in its order (``ADDED`` ones included);
    ``kinds`` says how many tokens there are of each kind (kinds with none are left out); ``added``
    are the literal texts of the ``ADDED`` tokens and ``added_at`` their places in ``ids``.
    """

    ids: list[int]
    kinds: dict[str, int]
    added: tuple[str, ...] = ()
    added_at: tuple[int, ...] = ()

    def text_ids(self) -> list[int]:
        """The ids without the ``ADDED`` ones: what ``decode`` is given for the round trip."""
        ids = list(self.ids)
        for place in reversed(self.added_at):
            del ids[place]
        return ids


def outline_of(tokens: Iterable[Token]) -> Outline:
    """The ``Outline`` of tokens in hand (what ``PretrainedTokenizer.outline`` must equal).

    >>> outline_of([Token(1, b"<s>", 0, 0, ADDED), Token(7, b"hi", 0, 2)])
    Outline(ids=[1, 7], kinds={'added': 1, 'text': 1}, added=('<s>',), added_at=(0,))
    """
    tokens = list(tokens)
    places = tuple(k for k, t in enumerate(tokens) if t.kind == ADDED)
    literals = tuple(tokens[k].bytes.decode("utf-8", "replace") for k in places)
    return Outline([t.id for t in tokens], dict(Counter(t.kind for t in tokens)), literals, places)


class PretrainedTokenizer:
    """A pretrained tokenizer behind the playground's ``Tokenizer`` protocol.

    Subtle: ``text_ids`` and ``count`` cover the tokens of the text only (no BOS/[CLS]/</s> the
    tokenizer adds on its own), so they match the non-``ADDED`` tokens ``encode`` returns; they are
    the library's own ids call, with no ``Token`` built, for callers that only count
    (``core.tax.language_tax``). ``unknown_ids`` are the ids that stand for lost text ([UNK], <unk>).
    """

    pattern: str | None = None  # pre-tokenization regex, byte-level BPE only
    mergeable_ranks: Mapping[bytes, int] | None = None  # byte-level BPE only
    unknown_ids: frozenset[int] = frozenset()  # empty: this tokenizer never loses text to an unknown token

    def __init__(
        self, spec: PretrainedSpec, *, source: str, special_tokens: Mapping[str, int], lossless: bool,
        vocab_size: int | None = None,
    ) -> None:
        self.key = spec.key
        self.name = spec.name
        self.family = spec.family
        self.algorithm = spec.algorithm
        self.vocab_size = vocab_size if vocab_size is not None else spec.vocab_size
        self.license = spec.license
        self.attribution = spec.attribution
        self.notes = spec.notes
        self.source = source
        self.special_tokens: Mapping[str, int] = MappingProxyType(dict(special_tokens))
        self.lossless = lossless

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key!r} from {self.source}>"

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        raise NotImplementedError

    def decode(self, ids: Sequence[int]) -> str:
        raise NotImplementedError

    def piece(self, id: int) -> str:  # noqa: A002 (the protocol's name)
        raise NotImplementedError

    def text_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        raise NotImplementedError

    def count(self, text: str, *, allow_special: bool = False) -> int:
        return len(self.text_ids(text, allow_special=allow_special))

    def outline(self, text: str, *, allow_special: bool = False) -> Outline:
        """``outline_of(self.encode(text))``; the adapters make it from the library's ids alone."""
        return outline_of(self.encode(text, allow_special=allow_special))


def added(id: int, literal: str, at: int) -> Token:  # noqa: A002
    """A token the tokenizer inserted on its own: zero-width at ``at``, bytes are its literal text."""
    return Token(id, literal.encode(), at, at, ADDED)


def byte_chunk_spans(text: str, lengths: Sequence[int]) -> tuple[list[int], list[int]]:
    """Code-point (start, end) of consecutive byte chunks of ``text.encode()``.

    A chunk holding part of a character gets that whole character: start is the index of the
    character containing its first byte, end is one past the character containing its last byte.
    Chunks must be non-empty and add up to the UTF-8 length of ``text``.

    Subtle: numpy only once imported or for a long text (``NUMPY_FROM_BYTES``): importing it was about
    0.1 s of a fresh server's first Playground visit, whose sample text is a few hundred bytes.

    >>> byte_chunk_spans("a🙂", [1, 2, 2])
    ([0, 1, 1], [1, 2, 2])
    """
    ends = list(accumulate(lengths))
    if text.isascii():
        return [0, *ends[:-1]], ends
    data = text.encode()
    if len(data) < NUMPY_FROM_BYTES and "numpy" not in sys.modules:
        # characters begun in the first i bytes: a byte begins a character unless it is 10xxxxxx
        begun = list(accumulate(((byte & 0xC0) != 0x80 for byte in data), initial=0))
        return ([begun[end - length + 1] - 1 for end, length in zip(ends, lengths, strict=True)],
                [begun[end] for end in ends])
    import numpy as np

    array = np.frombuffer(data, dtype=np.uint8)
    # subtle: a byte starts a character unless it is a continuation byte 10xxxxxx
    char_of_byte = np.cumsum((array & 0xC0) != 0x80) - 1
    byte_ends = np.asarray(ends, dtype=np.int64)
    byte_starts = byte_ends - np.asarray(lengths, dtype=np.int64)
    return char_of_byte[byte_starts].tolist(), (char_of_byte[byte_ends - 1] + 1).tolist()


def changed_clusters(text: str, normalize: Callable[[str], str]) -> list[tuple[int, int]]:
    """Spans of the grapheme clusters of two or more code points that ``normalize`` changes, in order.

    A normalizer that composes "a" + U+0301 into "á" (NFC, NFKC, XLM-R's) or drops the accent
    (BERT) leaves the library unable to say which of the two code points a token came from; the
    cluster is the smallest span that is true. Subtle: clusters never cross an ASCII character
    (except "\\r\\n", which no normalizer here changes), so only non-ASCII runs, each with the
    character before it, are looked at, and a run the normalizer leaves alone is skipped whole.

    >>> changed_clusters("ca\\u0301fe", lambda s: __import__("unicodedata").normalize("NFC", s))
    [(1, 3)]
    """
    if text.isascii():
        return []
    import regex

    found: list[tuple[int, int]] = []
    changes: dict[str, bool] = {}  # real text repeats its words and clusters: normalize each once

    def changed(piece: str) -> bool:
        known = changes.get(piece)
        if known is None:
            known = changes[piece] = normalize(piece) != piece
        return known

    for run in regex.finditer(r"[\x00-\x7f]?[^\x00-\x7f]+", text):
        if not changed(run.group()):
            continue
        for cluster in regex.finditer(r"\X", text, pos=run.start(), endpos=run.end()):
            if cluster.end() - cluster.start() > 1 and changed(cluster.group()):
                found.append(cluster.span())
    return found


def snap_to_clusters(tokens: list[Token], clusters: Sequence[tuple[int, int]]) -> list[Token]:
    """``tokens`` with each span widened to whole ``clusters`` (sorted, disjoint); zero-width ones kept.

    >>> snap_to_clusters([Token(1, b"\\xc3\\xa1", 0, 1), Token(2, b"b", 2, 3)], [(0, 2)])
    [Token(id=1, bytes=b'\\xc3\\xa1', start=0, end=2, kind='text'), Token(id=2, bytes=b'b', start=2, end=3, kind='text')]
    """
    if not clusters:
        return tokens
    from bisect import bisect_right

    firsts = [start for start, _ in clusters]

    def around(position: int) -> tuple[int, int] | None:
        k = bisect_right(firsts, position) - 1
        return clusters[k] if k >= 0 and position < clusters[k][1] else None

    out = []
    for token in tokens:
        if token.start < token.end:
            first, last = around(token.start), around(token.end - 1)
            start = first[0] if first else token.start
            end = last[1] if last else token.end
            if (start, end) != (token.start, token.end):
                token = token._replace(start=start, end=end)
        out.append(token)
    return out


def split_on_specials(text: str, specials: Mapping[str, int]) -> list[tuple[str, int, bool]]:
    """``(segment, start, is_special)`` pieces of ``text``, cut at every special-token string.

    For libraries without a switch of their own (sentencepiece): longest strings win.

    >>> split_on_specials("a<s>b", {"<s>": 1})
    [('a', 0, False), ('<s>', 1, True), ('b', 4, False)]
    """
    import regex

    if not specials or not text:
        return [(text, 0, False)] if text else []
    alternation = "|".join(regex.escape(s) for s in sorted(specials, key=len, reverse=True))
    parts: list[tuple[str, int, bool]] = []
    position = 0
    for match in regex.finditer(alternation, text):
        if match.start() > position:
            parts.append((text[position : match.start()], position, False))
        parts.append((match.group(), match.start(), True))
        position = match.end()
    if position < len(text):
        parts.append((text[position:], position, False))
    return parts


def _byte_level_alphabet() -> list[str]:
    """GPT-2's printable stand-in for each byte: printable Latin-1 bytes stand for themselves,
    the other 68 bytes are given the characters from U+0100 on, in byte order ("Ġ" is the space)."""
    printable = set(range(ord("!"), ord("~") + 1)) | set(range(0xA1, 0xAD)) | set(range(0xAE, 0x100))
    alphabet, extra = [], 0
    for byte in range(256):
        if byte in printable:
            alphabet.append(chr(byte))
        else:
            alphabet.append(chr(0x100 + extra))
            extra += 1
    return alphabet


BYTE_TO_UNICODE: tuple[str, ...] = tuple(_byte_level_alphabet())
UNICODE_TO_BYTE: Mapping[str, int] = MappingProxyType({c: b for b, c in enumerate(BYTE_TO_UNICODE)})


def byte_level_piece(data: bytes) -> str:
    """The vocabulary spelling of a byte-level BPE token: ``b" world"`` -> ``"Ġworld"``."""
    return "".join(BYTE_TO_UNICODE[b] for b in data)
