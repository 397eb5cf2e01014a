"""Hugging Face ``tokenizers`` models (BERT, mBERT, XLM-R, Claude legacy) with the playground's verbs.

The library already reports code-point offsets into the original text and marks what its
post-processor added ([CLS], [SEP], <s>, </s>); this adapter only names the token kinds and turns
the vocabulary strings into bytes, which depends on the model's spelling (``style``):
``"wordpiece"`` drops the ``##``, ``"metaspace"`` reads ``▁`` as a space, ``"bytelevel"`` maps
GPT-2's printable stand-ins back to bytes.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.pretrained.adapter import (
    UNICODE_TO_BYTE,
    Outline,
    PretrainedTokenizer,
    changed_clusters,
    library_call,
    snap_to_clusters,
)
from core.textio import without_surrogates
from core.types import ADDED, BYTE_FALLBACK, SPECIAL, TEXT, UNKNOWN, Token

if TYPE_CHECKING:
    from tokenizers import Tokenizer

    from core.pretrained.adapter import PretrainedSpec

STYLES = ("wordpiece", "metaspace", "bytelevel")
_UNKNOWN_STRINGS = ("[UNK]", "<unk>")
_BYTE_PIECE = re.compile(r"<0x([0-9A-F]{2})>")  # a BPE model's byte_fallback piece (Llama 2, Gemma)


class HFTokenizer(PretrainedTokenizer):
    """A ``tokenizers.Tokenizer``.

    Subtle: the library reports offsets through its normalizer's alignments, which cannot say which
    code point of a composed cluster ("a" + U+0301 read as "á", decomposed Hangul read as one
    syllable) a token came from; such tokens get the whole cluster (``changed_clusters``), as the
    Qwen path does for NFC. The library matches special-token strings in the text on its own; the
    ``encode_special_tokens`` switch turns that off, and it lives on the shared object, so it is
    set and used under a lock (Streamlit runs sessions in threads).
    """

    def __init__(
        self, spec: PretrainedSpec, *, source: str, tokenizer: Tokenizer, style: str, lossless: bool = False
    ) -> None:
        if style not in STYLES:
            raise ValueError(f"style must be one of {STYLES}, not {style!r}")
        added_tokens = tokenizer.get_added_tokens_decoder()
        specials = {t.content: i for i, t in added_tokens.items() if t.special}
        super().__init__(
            spec, source=source, special_tokens=specials, lossless=lossless,
            vocab_size=tokenizer.get_vocab_size(with_added_tokens=True),
        )
        self._tok = tokenizer
        self._style = style
        self._unknown = frozenset(specials[s] for s in _UNKNOWN_STRINGS if s in specials)
        # subtle: an added token that is not special ("<think>", DeepSeek's "<｜User｜>") is matched in
        # the text as it is written, never spelled in the model's alphabet: its bytes are its text
        self._added_text = frozenset(t.content for t in added_tokens.values() if not t.special)
        self._byte_fallback = bool(getattr(tokenizer.model, "byte_fallback", False))
        self.unknown_ids = self._unknown
        self._special_ids = frozenset(specials.values())
        self._lock = threading.Lock()

    def _encoding(self, text: str, *, allow_special: bool, add_special_tokens: bool = True):
        text = without_surrogates(text)
        with self._lock, library_call():
            self._tok.encode_special_tokens = not allow_special
            return self._tok.encode(text, add_special_tokens=add_special_tokens)

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        text = without_surrogates(text)
        lead = self._deleted_lead(text)
        if lead:
            # subtle: the library shifts every offset back by the characters its normalizer deletes
            # at the very start of a text (XLM-R: "\x08abc" puts "ab" over "\x08a"). The model never
            # sees them, so the rest is encoded alone (the same ids) and its offsets moved on.
            rest = self.encode(text[lead:], allow_special=allow_special)
            return [t if k == 0 and t.kind == ADDED else t._replace(start=t.start + lead, end=t.end + lead)
                    for k, t in enumerate(rest)]  # what was added before the text stays at 0
        encoding = self._encoding(text, allow_special=allow_special)
        tokens: list[Token] = []
        seen_text = False
        for i, string, (start, end), was_added in zip(
            encoding.ids, encoding.tokens, encoding.offsets, encoding.special_tokens_mask, strict=True
        ):
            kind = self._kind(i, string, was_added)
            if kind == ADDED:
                # the post-processors here add one token before the text ([CLS], <s>) and the rest
                # after it; with no text tokens at all (whitespace only), the rest still go last
                at = len(text) if seen_text or tokens else 0
                tokens.append(Token(i, string.encode(), at, at, ADDED))
            elif kind == UNKNOWN:
                tokens.append(Token(i, b"", start, end, UNKNOWN))
            elif kind == BYTE_FALLBACK:
                tokens.append(Token(i, bytes([int(string[3:5], 16)]), start, end, BYTE_FALLBACK))
            elif kind == SPECIAL:
                # subtle: with the switch off, XLM-R's Unigram still spells "<s>" or "<mask>" from
                # plain text, because its vocabulary holds them as pieces; what the model read is
                # the special token, so it is drawn as one. <mask> takes the space before it (lstrip).
                tokens.append(Token(i, self.piece(i).encode(), start, end, SPECIAL))
            else:
                data = self._bytes(string, text, start, end)
                if not data and self._style == "metaspace":
                    end = start  # the "▁" Metaspace put before the text: not in it, so zero-width
                tokens.append(Token(i, data, start, end, TEXT))
            seen_text = seen_text or not was_added
        normalizer = self._tok.normalizer
        if normalizer is not None and not text.isascii():
            tokens = snap_to_clusters(tokens, changed_clusters(text, normalizer.normalize_str))
        return tokens

    def _deleted_lead(self, text: str) -> int:
        """How many characters at the start of ``text`` the normalizer deletes (control characters).

        Subtle: a character deleted alone may be kept in context. XLM-R's normalizer strips
        trailing whitespace, so NEL (U+0085) alone is deleted but "\x85hello" keeps it, and NBSP
        before a combining mark becomes a space the mark follows. A lead counts only if the text
        without it normalizes to the same string (the model then reads the same, and gives the same
        ids). The whole run of such characters is tried first, then the part before its first
        whitespace character (Python calls U+001C..U+001F whitespace, and they are deleted in
        context too), else 0 and the whole text is encoded as it is: at most three normalizations.
        """
        normalizer = self._tok.normalizer
        if normalizer is None:
            return 0
        lead = 0
        while lead < len(text) and not text[lead].isprintable() and normalizer.normalize_str(text[lead]) == "":
            lead += 1
        before_space = next((i for i in range(lead) if text[i].isspace()), lead)
        whole = normalizer.normalize_str(text) if lead else ""
        for candidate in dict.fromkeys((lead, before_space)):
            if candidate and normalizer.normalize_str(text[candidate:]) == whole:
                return candidate
        return 0

    def _kind(self, i: int, string: str, was_added: int) -> str:
        """The kind of the token with id ``i`` and vocabulary string ``string`` in an encoding."""
        if was_added:
            return ADDED
        if i in self._unknown:
            return UNKNOWN
        if self._byte_fallback and _BYTE_PIECE.fullmatch(string):
            return BYTE_FALLBACK
        return SPECIAL if i in self._special_ids else TEXT

    def outline(self, text: str, *, allow_special: bool = False) -> Outline:
        """``encode``'s ids and kinds from the library's encoding alone: no bytes, no ``Token``."""
        encoding = self._encoding(text, allow_special=allow_special)
        ids, strings, mask = encoding.ids, encoding.tokens, encoding.special_tokens_mask
        kinds = Counter(map(self._kind, ids, strings, mask))
        places = tuple(k for k, was_added in enumerate(mask) if was_added)
        return Outline(ids, dict(kinds), tuple(strings[k] for k in places), places)

    def _bytes(self, string: str, text: str, start: int, end: int) -> bytes:
        if string in self._added_text:
            return string.encode()
        if self._style == "wordpiece":
            return string.removeprefix("##").encode()
        if self._style == "bytelevel":
            return bytes(UNICODE_TO_BYTE[c] for c in string)
        spelled = string.replace("\u2581", " ")
        # subtle: Metaspace prepends "▁" to the text, and again to each piece of text after a
        # special token ("<s>x" gives "▁x"); that space is not in the text. A "▁" that stands for
        # text has it in its offsets: a space, or a character the normalizer reads as one (XLM-R
        # turns a zero-width joiner into a space). The "x" appended keeps a normalizer that strips
        # trailing spaces from eating a lone one.
        if spelled.startswith(" ") and text[start : start + 1] != " ":
            normalizer = self._tok.normalizer
            read = normalizer.normalize_str(text[start:end] + "x") if normalizer is not None else ""
            if not read.startswith((" ", "\u2581")):
                spelled = spelled[1:]
        return spelled.encode()

    def text_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        return self._encoding(text, allow_special=allow_special, add_special_tokens=False).ids

    def decode(self, ids: Sequence[int]) -> str:
        """The library's decoder over the text's own ids (leave out the ``ADDED`` ones, as the protocol says).

        Subtle: special tokens are kept. A special token in these ids was read from the text (the
        switch on, or XLM-R's "<s>" piece): skipping it would drop what the user typed and call
        a lossless tokenizer (DeepSeek V4) lossy.
        """
        with library_call():
            return self._tok.decode(list(ids), skip_special_tokens=False)

    def piece(self, id: int) -> str:  # noqa: A002
        return self._tok.id_to_token(id) or ""
