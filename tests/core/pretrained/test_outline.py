"""``outline`` (the library's ids alone) says what ``encode`` says, and ``leading_tokens`` of a long text
are exactly the first tokens of its whole encoding, for every registry tokenizer there is here."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.pretrained import registry
from core.pretrained.adapter import outline_of
from core.tokens.head import leading_tokens
from core.types import ADDED, SPECIAL
from tests.core.pretrained.test_roundtrip import SPICE, texts, tokenizer

KEYS = list(registry())
# more special-token strings than SPICE has, as each family spells them, and the byte pieces
SPECIALS = ["</s>", "<unk>", "<mask>", "[SEP]", "[UNK]", "<|im_start|>", "<|begin_of_text|>", "<0x41>", "▁▁"]


def loaded(key: str):
    tok = tokenizer(key)
    if tok is None:
        pytest.skip(f"{key} is not available here: its file is in neither PLAYGROUND_DATA_DIR nor the cache, and could not be fetched")
    return tok


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(st.one_of(texts, st.sampled_from(SPECIALS)), max_size=4).map("".join), allow=st.booleans())
def test_outline_is_the_encoding_without_its_tokens(key: str, text: str, allow: bool) -> None:
    tok = loaded(key)
    tokens = tok.encode(text, allow_special=allow)
    outline = tok.outline(text, allow_special=allow)
    assert outline == outline_of(tokens)
    assert outline.text_ids() == [t.id for t in tokens if t.kind != ADDED] == tok.text_ids(text, allow_special=allow)


@pytest.mark.parametrize("key", KEYS)
def test_outline_counts_special_and_added_tokens(key: str) -> None:
    tok = loaded(key)
    special = next(iter(s for s in tok.special_tokens if s not in ("<unk>", "[UNK]")), None)
    if special is None:
        pytest.skip(f"{key} has no special token to read")
    text = f"one{special}two"
    read = tok.outline(text, allow_special=True)
    assert read == outline_of(tok.encode(text, allow_special=True))
    assert read.kinds.get(SPECIAL, 0) >= 1
    assert len(read.added) == read.kinds.get(ADDED, 0) == len(read.added_at)


def long_text(rng: random.Random) -> str:
    """A few thousand characters of the pieces that break naive views, words and lines among them."""
    pieces = [*SPICE, *SPECIALS, "Hello world. ", "the ", "2026 ", "\n", "漢字かな交じり文", "ﬃ", "Ⅻ", "\u1100\u1161"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(400, 1_500)))


@pytest.mark.parametrize("key", KEYS)
def test_leading_tokens_are_the_first_tokens_of_the_whole_encoding(key: str) -> None:
    tok = loaded(key)
    rng = random.Random(key)
    checked = 0
    for _ in range(25):
        text, allow = long_text(rng), rng.random() < 0.5
        whole = tok.encode(text, allow_special=allow)
        ids = [t.id for t in whole]
        head = leading_tokens(tok, text, ids=ids, at_least=rng.randint(1, 200), chars=rng.randint(1, 500),
                              allow_special=allow)
        if head is not None:
            assert head == whole[: len(head)]
            checked += 1
    assert checked >= 15  # most texts are long enough to take the prefix path at all
