"""SentencePiece models (Llama 2, Mistral v1/v3, T5) with the playground's verbs.

Offsets come from sentencepiece's own code-point offsets into the original text (``offset_mapping``
from 0.2.2 on, proto pieces before), so T5's NFKC normalization does not shift them. ``▁`` is a space in ``Token.bytes``; ``<0xNN>`` pieces are
``BYTE_FALLBACK`` tokens holding that one byte; ``<unk>`` is ``UNKNOWN`` with no bytes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from core.pretrained.adapter import Outline, PretrainedTokenizer, added, split_on_specials
from core.text.textio import without_surrogates
from core.types import ADDED, BYTE_FALLBACK, SPECIAL, TEXT, UNKNOWN, Token

if TYPE_CHECKING:
    from core.pretrained.adapter import PretrainedSpec


class SentencePieceTokenizer(PretrainedTokenizer):
    """A ``SentencePieceProcessor``; ``add_bos``/``add_eos`` say what the model's users add.

    Subtle: sentencepiece puts a "dummy prefix" ``▁`` before the text, so the first piece of
    "Hello" is ``▁Hello``. That space is not in the text: the first piece's bytes leave it out (so
    🙂 under Llama 2 is a zero-width ``▁`` and four byte pieces), while ``piece()`` shows ``▁Hello``.
    Control symbols (``<s>``) in the text are plain text to sentencepiece; with ``allow_special``
    the text is cut at them here.
    """

    def __init__(
        self, spec: PretrainedSpec, *, source: str, path: Path, add_bos: bool, add_eos: bool, lossless: bool
    ) -> None:
        import sentencepiece

        sp = sentencepiece.SentencePieceProcessor(model_file=str(path))
        size = sp.get_piece_size()
        specials = {sp.id_to_piece(i): i for i in range(size) if sp.is_control(i) or sp.is_unknown(i)}
        super().__init__(spec, source=source, special_tokens=specials, lossless=lossless, vocab_size=size)
        self._sp = sp
        self._bytes: list[bytes] = []
        self._kinds: list[str] = []
        special_ids = set(specials.values())
        for i in range(size):
            piece = sp.id_to_piece(i)
            if sp.is_byte(i):
                self._bytes.append(bytes([int(piece[3:5], 16)]))
                self._kinds.append(BYTE_FALLBACK)
            elif sp.is_unknown(i):
                self._bytes.append(b"")
                self._kinds.append(UNKNOWN)
                self.unknown_ids = self.unknown_ids | {i}
            else:
                self._bytes.append(piece.replace("\u2581", " ").encode())
                self._kinds.append(SPECIAL if i in special_ids else TEXT)
        self._dummy_prefix = sp.encode("a", out_type=str)[0].startswith("\u2581")
        try:
            sp.encode("a", return_type="offset_mapping")
            self._offset_mapping = True
        except TypeError:  # sentencepiece < 0.2.2 has no return_type
            self._offset_mapping = False
        self._bos = (sp.bos_id(), sp.id_to_piece(sp.bos_id())) if add_bos else None
        self._eos = (sp.eos_id(), sp.id_to_piece(sp.eos_id())) if add_eos else None

    def _segments(self, text: str, allow_special: bool) -> list[tuple[str, int, bool]]:
        text = without_surrogates(text)
        if allow_special:
            return split_on_specials(text, self.special_tokens)
        return [(text, 0, False)] if text else []

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        tokens = [added(*self._bos, 0)] if self._bos else []
        for segment, offset, is_special in self._segments(text, allow_special):
            if is_special:
                tokens.append(Token(self.special_tokens[segment], segment.encode(), offset, offset + len(segment), SPECIAL))
            else:
                tokens.extend(self._encode_plain(segment, offset))
        if self._eos:
            tokens.append(added(*self._eos, len(text)))
        return tokens

    def _encode_plain(self, text: str, offset: int) -> list[Token]:
        ids, spans = self._ids_and_spans(text)
        kinds, data = self._kinds, self._bytes
        # subtle: when one character becomes several pieces (its byte pieces under byte fallback,
        # or what NFKC expands it to under T5: "ﬃ" is f f i), sentencepiece gives all but the last
        # piece zero width; give each the span of the piece after it, so they share the character's
        # offsets. The dummy-prefix "▁" (a space not in the text) stays zero-width.
        for k in range(len(ids) - 2, -1, -1):
            start, end = spans[k]
            if start == end and spans[k + 1][0] == start and data[ids[k]] != b" ":
                spans[k] = spans[k + 1]
        tokens = [
            Token(i, self._bytes[i], s + offset, e + offset, kinds[i]) for i, (s, e) in zip(ids, spans, strict=True)
        ]
        if tokens and self._dummy_prefix and tokens[0].kind == TEXT and tokens[0].bytes.startswith(b" "):
            first = tokens[0]
            # a lone "▁" is zero-width where it stands, even when sentencepiece spreads it over a
            # character its normalizer dropped (T5 gives "▁" the span of a leading U+001F)
            end = first.end if len(first.bytes) > 1 else first.start
            tokens[0] = Token(first.id, first.bytes[1:], first.start, end, first.kind)
        return tokens

    def _ids_and_spans(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        """Ids and code-point (begin, end) in ``text``, from whichever API this sentencepiece has."""
        if self._offset_mapping:
            mapping = self._sp.encode(text, return_type="offset_mapping")
            spans = list(mapping["offsets"])
            if not text.isascii():
                spans = self._spans_through_normalizer(text, mapping["pieces"]) or spans
            return mapping["ids"], spans
        # sentencepiece 0.2.0/0.2.1: the same code-point offsets, on proto pieces (checked with 0.2.0)
        pieces = self._sp.encode(text, out_type="immutable_proto").pieces
        return [p.id for p in pieces], [(p.begin, p.end) for p in pieces]

    def text_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        ids: list[int] = []
        for segment, _, is_special in self._segments(text, allow_special):
            ids += [self.special_tokens[segment]] if is_special else self._sp.encode(segment)
        return ids

    def outline(self, text: str, *, allow_special: bool = False) -> Outline:
        """``encode``'s ids and kinds from sentencepiece's ids alone: no offsets, no ``Token``."""
        ids = [self._bos[0]] if self._bos else []
        kinds: Counter[str] = Counter()
        for segment, _, is_special in self._segments(text, allow_special):
            if is_special:
                ids.append(self.special_tokens[segment])
                kinds[SPECIAL] += 1
            else:
                plain = self._sp.encode(segment)
                kinds.update(map(self._kinds.__getitem__, plain))
                ids += plain
        literals = [literal for _, literal in filter(None, (self._bos, self._eos))]
        if self._eos:
            ids.append(self._eos[0])
        places = ((0,) if self._bos else ()) + ((len(ids) - 1,) if self._eos else ())
        if literals:
            kinds[ADDED] = len(literals)
        return Outline(ids, dict(kinds), tuple(literals), places)

    def _spans_through_normalizer(self, text: str, pieces: Sequence[str]) -> list[tuple[int, int]] | None:
        """Code-point spans of ``pieces`` (surface strings of the normalized text), or ``None``.

        Subtle: sentencepiece ends a piece at the original position of the next normalized
        character, so a piece that stops inside what one character expanded to (T5 reads "ﬃﬃ" as
        f f iff i) ends at that character's start and leaves it out. Here a piece ends where the
        original character of its last normalized character ends. ``None`` when the pieces do not
        spell the normalized text (byte-fallback pieces are spelled <0xNN>): keep the library's spans.
        """
        normalized, origin = self._sp.Normalize(text, with_offsets=True)
        if sum(map(len, pieces)) != len(normalized) or len(origin) != len(normalized) + 1:
            return None
        # after[j]: where the original character behind normalized character j ends
        after = list(origin[1:])
        for j in range(len(normalized) - 2, -1, -1):
            if after[j] <= origin[j]:
                after[j] = after[j + 1]
        spans, position = [], 0
        for piece in pieces:
            end = position + len(piece)
            spans.append((origin[position], after[end - 1]) if piece else (origin[position], origin[position]))
            position = end
        return spans

    def decode(self, ids: Sequence[int]) -> str:
        """Decoded by sentencepiece, which drops control tokens such as the BOS it did not write."""
        return self._sp.decode(list(ids))

    def piece(self, id: int) -> str:  # noqa: A002
        return self._sp.id_to_piece(id)
