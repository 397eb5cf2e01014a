"""Byte-level BPE through tiktoken: GPT-2, p50k, cl100k, o200k, Llama 3, Qwen and Mistral's Tekken.

One adapter for all of them; what differs is data (ranks, pattern, special tokens, an id offset,
a BOS, NFC). Offsets come from cumulative byte lengths, so a 1 MB text needs no per-character
Python loop. What this module does not do: find or verify the files (``core.fetch.sources``).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from core.pretrained.adapter import Outline, PretrainedTokenizer, added, byte_chunk_spans, byte_level_piece
from core.text.textio import without_surrogates
from core.types import ADDED, SPECIAL, TEXT, Token

if TYPE_CHECKING:
    from core.pretrained.adapter import PretrainedSpec


class TiktokenTokenizer(PretrainedTokenizer):
    """A tiktoken ``Encoding`` with the playground's verbs.

    ``id_offset`` shifts every vocabulary id (Tekken puts 1,000 special ids first); special tokens
    then get internal ids after the ranks and are translated back. ``bos`` names a special token
    inserted at the start as an ``ADDED`` token. With ``nfc`` the text is NFC-normalized first
    (Qwen) and offsets are mapped back to the original text.
    """

    def __init__(
        self, spec: PretrainedSpec, *, source: str, ranks: dict[bytes, int], pattern: str,
        special_tokens: Mapping[str, int], id_offset: int = 0, bos: str | None = None, nfc: bool = False,
    ) -> None:
        import tiktoken

        super().__init__(spec, source=source, special_tokens=special_tokens, lossless=not nfc)
        self.pattern = pattern
        n_ranks = max(ranks.values(), default=-1) + 1  # p50k has a gap: <|endoftext|> sits among the ranks
        if id_offset:
            internal = {s: n_ranks + k for k, s in enumerate(special_tokens)}
            self._to_public = [i + id_offset for i in range(n_ranks)] + list(special_tokens.values())
            self._to_internal = {public: i for i, public in enumerate(self._to_public)}
            self.mergeable_ranks = {b: r + id_offset for b, r in ranks.items()}
        else:
            internal = dict(special_tokens)
            self._to_public = None
            self._to_internal = None
            self.mergeable_ranks = ranks
        self._enc = tiktoken.Encoding(spec.key, pat_str=pattern, mergeable_ranks=ranks, special_tokens=internal)
        size = max([n_ranks - 1, *internal.values()]) + 1
        self._bytes: list[bytes] = [b""] * size
        for data, rank in ranks.items():
            self._bytes[rank] = data
        self._special_internal = frozenset(internal.values())
        for i in self._special_internal:  # tiktoken's own name for an id that has two (o200k_harmony's 200018)
            self._bytes[i] = self._enc.decode_single_token_bytes(i)
        self._aliases = _aliases(internal)
        self._kinds = [TEXT] * size  # a loop over 200k ids was a few hundredths of a second of every load
        for i in self._special_internal:
            self._kinds[i] = SPECIAL
        self._bos = (special_tokens[bos], bos) if bos else None
        self._nfc = nfc

    @property
    def nfc(self) -> bool:
        """Whether the text is NFC-normalized before encoding (Qwen): the replay does the same."""
        return self._nfc

    def _public(self, ids: list[int]) -> list[int]:
        table = self._to_public
        return ids if table is None else list(map(table.__getitem__, ids))

    def _internal(self, ids: Sequence[int]) -> list[int]:
        table = self._to_internal
        return list(ids) if table is None else [table[i] for i in ids]

    def _ids(self, text: str, allow_special: bool) -> list[int]:
        if allow_special:
            return self._enc.encode(text, allowed_special="all", disallowed_special=())
        return self._enc.encode_ordinary(text)

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        """Tokens of ``text`` (a special-token string is plain text unless ``allow_special``).

        Under cl100k_base, "Hello" is ``[Token(id=9906, bytes=b'Hello', start=0, end=5, kind='text')]``.
        """
        text = without_surrogates(text)
        normalized, alignment = nfc_with_alignment(text) if self._nfc else (text, None)
        internal = self._ids(normalized, allow_special)
        pieces = list(map(self._bytes.__getitem__, internal))
        if self._aliases and not self._aliases.keys().isdisjoint(internal):
            pieces = _matched_pieces(normalized.encode(), internal, pieces, self._aliases)
        starts, ends = byte_chunk_spans(normalized, list(map(len, pieces)))
        if alignment is not None and internal:
            import numpy as np

            starts = np.asarray(alignment[0])[np.asarray(starts)].tolist()
            ends = np.asarray(alignment[1])[np.asarray(ends) - 1].tolist()
        kinds = map(self._kinds.__getitem__, internal)
        tokens = [added(*self._bos, 0)] if self._bos else []
        # map() over the constructor: a 1 MB text is ~250k tokens, and a listcomp frame per token shows
        tokens += map(Token, self._public(internal), pieces, starts, ends, kinds)
        return tokens

    def text_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        return self._public(self._ids(self._model_text(text), allow_special))

    def outline(self, text: str, *, allow_special: bool = False) -> Outline:
        """``encode``'s ids and kinds from tiktoken's ids alone: no bytes, no offsets, no ``Token``."""
        internal = self._ids(self._model_text(text), allow_special)
        special = sum(map(self._special_internal.__contains__, internal))
        kinds = {ADDED: 1} if self._bos else {}
        kinds.update((kind, n) for kind, n in ((TEXT, len(internal) - special), (SPECIAL, special)) if n)
        ids = self._public(internal)
        if self._bos:
            return Outline([self._bos[0], *ids], kinds, (self._bos[1],), (0,))
        return Outline(ids, kinds, ())

    def _model_text(self, text: str) -> str:
        """``text`` as the model reads it: lone surrogates as U+FFFD, then NFC where the tokenizer applies it."""
        text = without_surrogates(text)
        return unicodedata.normalize("NFC", text) if self._nfc else text

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids``, special ones as their literal text, as tiktoken decodes them.

        Subtle: nothing is dropped, not even a leading BOS: a text that itself starts with
        "<|begin_of_text|>" (read as the special token) must come back whole. Leave out the
        ``ADDED`` tokens ``encode`` inserted, as the ``Tokenizer`` protocol says.
        """
        return self._enc.decode(self._internal(list(ids)))

    def piece(self, id: int) -> str:  # noqa: A002
        internal = self._internal([id])[0]
        data = self._bytes[internal]
        return data.decode() if internal in self._special_internal else byte_level_piece(data)


def _aliases(specials: Mapping[str, int]) -> dict[int, tuple[bytes, ...]]:
    """Ids that more than one special-token string stands for, with those strings, longest first."""
    names: dict[int, list[bytes]] = {}
    for literal, i in specials.items():
        names.setdefault(i, []).append(literal.encode())
    return {i: tuple(sorted(found, key=len, reverse=True)) for i, found in names.items() if len(found) > 1}


def _matched_pieces(
    data: bytes, ids: Sequence[int], pieces: list[bytes], aliases: Mapping[int, tuple[bytes, ...]]
) -> list[bytes]:
    """``pieces`` with each aliased special token's bytes replaced by the string the text holds there.

    Subtle: o200k_harmony reads both "<|endofprompt|>" and "<|reserved_200018|>" as id 200018;
    the token must cover what was typed, or every offset after it is off (or out of range).
    """
    out, at = list(pieces), 0
    for k, i in enumerate(ids):
        names = aliases.get(i)
        if names is not None:
            out[k] = next((name for name in names if data.startswith(name, at)), out[k])
        at += len(out[k])
    return out


def nfc_with_alignment(text: str) -> tuple[str, tuple[list[int], list[int]] | None]:
    """NFC of ``text`` and, when it differs, each normalized character's (start, end) in ``text``.

    Subtle: composition never crosses an ASCII character (a starter that composes with nothing
    before it), so only the non-ASCII runs, each with the ASCII character before it, are
    normalized; within a run that changes, grapheme clusters are aligned one by one, and a
    cluster that changes maps all its normalized characters to its whole original span. Should
    those rules ever fail, every character maps to the whole text rather than lie.

    >>> nfc_with_alignment("e\\u0301!")
    ('é!', ([0, 2], [2, 3]))
    """
    if unicodedata.is_normalized("NFC", text):
        return text, None
    runs, clusters = _nfc_patterns()
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    done = 0  # text[:done] is already in parts
    for run in runs.finditer(text):
        if unicodedata.is_normalized("NFC", run.group()):
            continue
        parts.append(text[done : run.start()])
        starts.extend(range(done, run.start()))
        ends.extend(range(done + 1, run.start() + 1))
        for cluster in clusters.finditer(text, run.start(), run.end()):
            original, begin, end = cluster.group(), cluster.start(), cluster.end()
            normalized = unicodedata.normalize("NFC", original)
            if normalized == original:
                starts.extend(range(begin, end))
                ends.extend(range(begin + 1, end + 1))
            else:
                starts.extend([begin] * len(normalized))
                ends.extend([end] * len(normalized))
            parts.append(normalized)
        done = run.end()
    parts.append(text[done:])
    starts.extend(range(done, len(text)))
    ends.extend(range(done + 1, len(text) + 1))
    joined, whole = "".join(parts), unicodedata.normalize("NFC", text)
    if joined != whole:
        return whole, ([0] * len(whole), [len(text)] * len(whole))
    return joined, (starts, ends)


@functools.cache
def _nfc_patterns():
    """Non-ASCII runs with the ASCII character before them, and grapheme clusters."""
    import regex

    return regex.compile(r"[\x00-\x7f]?[^\x00-\x7f]+"), regex.compile(r"\X")
