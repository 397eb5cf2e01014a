"""``core.tokens.head.leading_tokens``: a prefix's tokens, kept only as far as they are the whole encoding's."""

from __future__ import annotations

from core.tokens.head import MARGIN, leading_tokens
from core.types import ADDED, Token


class Words:
    """Splits at spaces (a space starts a word); adds a BOS and an EOS; counts how much it encodes."""

    def __init__(self) -> None:
        self.encoded: list[int] = []

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        self.encoded.append(len(text))
        tokens = [Token(1, b"<s>", 0, 0, ADDED)]
        start = 0
        for end in [*(i for i in range(1, len(text)) if text[i] == " "), len(text)]:
            if end > start:
                tokens.append(Token(hash(text[start:end]) % 1000 + 10, text[start:end].encode(), start, end))
            start = end
        return [*tokens, Token(2, b"</s>", len(text), len(text), ADDED)]


TEXT = "lorem ipsum dolor sit amet " * 2_000


def test_keeps_the_added_start_drops_the_cut_end_and_matches_the_whole() -> None:
    tok = Words()
    whole = tok.encode(TEXT)
    head = leading_tokens(tok, TEXT, ids=[t.id for t in whole], at_least=50, chars=600)
    assert head is not None and len(head) >= 50
    assert head == whole[: len(head)]
    assert head[0].kind == ADDED and all(t.kind != ADDED for t in head[1:])
    assert head[-1].end <= 600 + MARGIN and tok.encoded[1:] == [600 + MARGIN]  # one prefix was enough


def test_grows_the_prefix_until_enough_tokens_are_found() -> None:
    tok = Words()
    whole = tok.encode(TEXT)
    head = leading_tokens(tok, TEXT, ids=[t.id for t in whole], at_least=500, chars=100)
    assert head is not None and len(head) >= 500 and head == whole[: len(head)]
    assert tok.encoded[1:] == [100 * 2**k + MARGIN for k in range(len(tok.encoded) - 1)]


def test_stops_at_the_first_id_that_differs_from_the_whole_encoding() -> None:
    tok = Words()
    ids = [t.id for t in tok.encode(TEXT)]
    ids[30] = -1  # as if the whole text had made another token there
    head = leading_tokens(tok, TEXT, ids=ids, at_least=10, chars=2_000)
    assert head is not None and len(head) == 30
    # asking for more than the ids allow ends with the whole text (None: the caller encodes it)
    assert leading_tokens(tok, TEXT, ids=ids, at_least=100, chars=2_000) is None


def test_a_short_text_is_left_to_the_caller() -> None:
    tok = Words()
    text = "lorem ipsum " * 40
    assert leading_tokens(tok, text, ids=[t.id for t in tok.encode(text)], at_least=5, chars=100) is None
