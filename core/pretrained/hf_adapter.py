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
    BYTE_TO_UNICODE,
    UNICODE_TO_BYTE,
    Outline,
    PretrainedTokenizer,
    changed_clusters,
    library_call,
    snap_to_clusters,
)
from core.text.textio import without_surrogates
from core.types import ADDED, BYTE_FALLBACK, SPECIAL, TEXT, UNKNOWN, Token

if TYPE_CHECKING:
    from tokenizers import Tokenizer

    from core.pretrained.adapter import PretrainedSpec

STYLES = ("wordpiece", "metaspace", "bytelevel")
_UNKNOWN_STRINGS = ("[UNK]", "<unk>")
_BYTE_PIECE = re.compile(r"<0x([0-9A-F]{2})>")  # a BPE model's byte_fallback piece (Llama 2, Gemma)
# characters a normalizer may delete (control and format characters; tab and line breaks aside): a
# text without any skips the offset repair of ``_off_deleted_characters`` (a Python loop over tokens)
_DELETABLE = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
)


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
        # subtle: a byte-level vocabulary may lack a byte (StarCoder has no 0xF1, Falcon no 0x03): the
        # library, like llama.cpp, drops it without a trace and the rest of its character is read alone
        vocab = tokenizer.get_vocab() if style == "bytelevel" else {}
        self._absent = bytes(b for b in range(256) if vocab and BYTE_TO_UNICODE[b] not in vocab)

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
        if normalizer is not None and _DELETABLE.search(text):
            tokens = self._off_deleted_characters(text, tokens)
        lost = self._lost_characters(text)
        if lost:
            tokens = [t._replace(kind=UNKNOWN) if t.kind == TEXT and not lost.isdisjoint(range(t.start, t.end)) else t
                      for t in _realigned(text, tokens, self._absent)]
        return tokens

    def _off_deleted_characters(self, text: str, tokens: list[Token]) -> list[Token]:
        """Tokens the library started on characters its normalizer deletes, joined to the token before.

        Subtle: after a character the normalizer expands, deleted ones shift the expansion's offsets
        (XLM-R reads "ﬃ\x1fb" as "ffib" and puts "ib" over "\x1fb", "Ǆ\x1f" as "DŽ" with "Ž" over
        the U+001F). Such a token gets the start of the token before, whose characters the normalizer
        changed, so the two are drawn as one group. Only spans that start with a character that is
        not printable are looked at, so the normalizer runs on a few pieces only.
        """
        normalize = self._tok.normalizer.normalize_str
        out: list[Token] = []
        for token in tokens:
            lead = text[token.start : token.start + 1]
            if (token.kind == TEXT and token.bytes and lead and not lead.isprintable() and out
                    and out[-1].kind == TEXT and out[-1].start < out[-1].end <= token.start
                    and normalize(lead) == ""):
                before = text[out[-1].start : out[-1].end]
                if normalize(before) != before:
                    token = token._replace(start=out[-1].start)
            out.append(token)
        return out

    def _lost_characters(self, text: str) -> frozenset[int]:
        """Where ``text`` has a character with a byte the vocabulary lacks (dropped by the library).

        The tokens left over such a character do not spell it: they are marked ``UNKNOWN`` (part of
        its text is lost), keeping the ids and bytes the model reads; a character that loses every
        byte has no token, and is drawn as text no token covers.
        """
        if not self._absent:
            return frozenset()
        data = text.encode("utf-8", "surrogatepass")
        if len(data.translate(None, self._absent)) == len(data):
            return frozenset()
        absent = set(self._absent)
        return frozenset(i for i, ch in enumerate(text) if not absent.isdisjoint(ch.encode("utf-8", "surrogatepass")))

    def _deleted_lead(self, text: str) -> int:
        """How many characters at the start of ``text`` the normalizer deletes (control characters).

        Subtle: a character deleted alone may be kept in context. XLM-R's normalizer strips
        trailing whitespace, so NEL (U+0085) alone is deleted but "\x85hello" keeps it, and NBSP
        before a combining mark becomes a space the mark follows. A lead counts only if the text
        without it normalizes to the same string (the model then reads the same, and gives the same
        ids). The whole run of such characters is tried first, then the part before its first
        whitespace character (Python calls U+001C..U+001F whitespace, and they are deleted in
        context too), the part up to the end of that whitespace, and the first character alone;
        else 0 and the whole text is encoded as it is: at most five normalizations.
        """
        normalizer = self._tok.normalizer
        if normalizer is None:
            return 0
        lead = 0
        while lead < len(text) and not text[lead].isprintable() and normalizer.normalize_str(text[lead]) == "":
            lead += 1
        before_space = next((i for i in range(lead) if text[i].isspace()), lead)
        after_spaces = next((i for i in range(before_space, lead) if not text[i].isspace()), lead)
        whole = normalizer.normalize_str(text) if lead else ""
        # "\x1f\x850": "\x85" alone is deleted but kept before "0"; only the "\x1f" before it goes
        for candidate in dict.fromkeys((lead, before_space, after_spaces, min(lead, 1))):
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
        if self._lost_characters(text):  # the kinds of the tokens over a lost byte come from encode
            kinds = Counter(t.kind for t in self.encode(text, allow_special=allow_special))
        else:
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


def _realigned(text: str, tokens: list[Token], absent: bytes) -> list[Token]:
    """``tokens`` with offsets read again from their bytes, the bytes the library dropped skipped.

    subtle: after a dropped byte the library's offsets shift by one byte within its word (Falcon's
    "\x05¸" puts the 0xC2 token over the U+0005): the tokens' bytes, in order, are the text's bytes
    without the dropped ones, and each token stands over the characters its bytes come from. Tokens
    with no bytes of the text (added, unknown) keep theirs; if the bytes do not line up, the library's
    offsets are kept.
    """
    data = text.encode("utf-8", "surrogatepass")
    char_of_byte = [k for k, ch in enumerate(text) for _ in range(len(ch.encode("utf-8", "surrogatepass")))]
    kept = [p for p, byte in enumerate(data) if byte not in absent]
    out: list[Token] = []
    cursor = 0
    for token in tokens:
        n = len(token.bytes)
        if token.kind in (ADDED, UNKNOWN) or not n:
            out.append(token)
            continue
        places = kept[cursor : cursor + n]
        if len(places) < n or bytes(data[p] for p in places) != token.bytes:
            return tokens
        out.append(token._replace(start=char_of_byte[places[0]], end=char_of_byte[places[-1]] + 1))
        cursor += n
    return out
