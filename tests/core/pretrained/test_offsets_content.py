"""Token offsets checked for their content, lossy tokenizers included, and the fixes that made them true.

``tests/core/pretrained/test_roundtrip.py`` checks lossless tokenizers byte for byte. Here every
tokenizer is held to the rule of ``core.types``: a token stands over the characters it came from,
and tokens that come from one character (or one grapheme cluster the tokenizer normalizes as a whole)
share its offsets. The oracle: the tokens of one group (tokens chained by shared characters, as
``ui.spans`` draws them) spell, once the tokenizer's own normalizer has read the group's text, what
that text becomes, whitespace and ``▁`` aside.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.pretrained import PretrainedTokenizer, TokenizerUnavailable, registry
from core.types import ADDED, SPECIAL, TEXT, UNKNOWN, Token
from tests.loaded import load_once

_LOADED: dict[str, PretrainedTokenizer | None] = {}

TRICKY = [
    "ﬃ", "Ⅻ", "Ǆ", "½", "a\u0301", "e\u0301\u0302x", "\u1100\u1161\u11a8", "각", "👍🏽", "👩‍💻", "🇺🇸", "ﬁ ﬂ",
    "Ａ１", "…", "①②", "㎏", "ｶﾞ", "你好", "x\u3000y", "  ", "\t", "\n\n", "<s>", "</s>", "[SEP]", "2026",
]
texts = st.lists(
    st.one_of(st.sampled_from(TRICKY), st.text(st.characters(exclude_categories=("Cs",)), max_size=4)), max_size=6
).map("".join)


def tokenizer(key: str) -> PretrainedTokenizer:
    if key not in _LOADED:
        try:  # not offline: see tests/core/pretrained/test_roundtrip.py tokenizer
            _LOADED[key] = load_once(key)
        except TokenizerUnavailable:
            _LOADED[key] = None
    if _LOADED[key] is None:
        pytest.skip(f"{key} is not available")
    return _LOADED[key]


def normalizer(tok: PretrainedTokenizer):
    """The tokenizer's own normalization of a piece of text (what its model actually reads)."""
    if hasattr(tok, "_sp"):
        return tok._sp.normalize
    if hasattr(tok, "_tok"):
        norm = tok._tok.normalizer
        return norm.normalize_str if norm is not None else (lambda s: s)
    if getattr(tok, "nfc", False):
        return lambda s: unicodedata.normalize("NFC", s)
    return lambda s: s


def groups(tokens: list[Token]) -> list[list[Token]]:
    """Text tokens chained by shared characters (zero-width ones alone), in order."""
    out: list[list[Token]] = []
    end = -1
    for token in tokens:
        if token.kind == ADDED:
            continue
        if out and token.start < end and token.start < token.end:
            out[-1].append(token)
            end = max(end, token.end)
        else:
            out.append([token])
            end = token.end
    return out


def squeeze(text: str) -> str:
    return "".join(ch for ch in text if not ch.isspace() and ch != "\u2581")


def check_content(tok: PretrainedTokenizer, text: str, tokens: list[Token]) -> None:
    norm = normalizer(tok)
    for group in groups(tokens):
        start, end = group[0].start, max(t.end for t in group)
        if any(t.kind in (UNKNOWN, SPECIAL) for t in group):
            continue  # an unknown token's text is lost; a special token is its literal
        data = b"".join(t.bytes for t in group)
        if start == end:  # zero-width: only a tokenizer's own inserted space, never text
            assert squeeze(data.decode("utf-8", "replace")) == "", (text, group)
            continue
        assert data, (text, group)  # text under a token with no bytes must be a zero-width mark
        spelled = squeeze(data.decode("utf-8", "replace"))
        if tok.key.startswith("bert") or tok.key == "mbert":
            spelled = spelled.replace("##", "")
        assert spelled == squeeze(norm(text[start:end])), (text, text[start:end], group)


KEYS = list(registry())


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("text", TRICKY, ids=range(len(TRICKY)))
def test_offsets_hold_their_content(key: str, text: str) -> None:
    tok = tokenizer(key)
    check_content(tok, text, tok.encode(text))


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_offsets_hold_their_content_on_random_text(key: str, text: str) -> None:
    tok = tokenizer(key)
    check_content(tok, text, tok.encode(text))


# -- the reproductions ---------------------------------------------------------------------------------


def spans(tokens: list[Token]) -> list[tuple[bytes, int, int]]:
    return [(t.bytes, t.start, t.end) for t in tokens if t.kind != ADDED]


@pytest.mark.parametrize(("text", "pieces"), [("ﬃ", [b"f", b"f", b"i"]), ("Ⅻ", [b"X", b"I", b"I"])])
def test_t5_characters_nfkc_expands_share_their_offsets(text: str, pieces: list[bytes]) -> None:
    tokens = [t for t in tokenizer("t5").encode(text) if t.bytes]  # the dummy-prefix ▁ aside
    assert spans(tokens) == [(piece, 0, 1) for piece in pieces]


@pytest.mark.parametrize("key", ["xlmr", "claude_legacy"])
def test_a_combining_mark_belongs_to_the_token_of_its_letter(key: str) -> None:
    tokens = [t for t in tokenizer(key).encode("a\u0301b") if t.kind != ADDED and t.bytes]
    assert (tokens[0].start, tokens[0].end) == (0, 2)
    covered = {i for t in tokens for i in range(t.start, t.end)}
    assert covered == {0, 1, 2}


def test_decomposed_hangul_is_covered_as_one_syllable() -> None:
    """Claude (legacy) composes the jamo (NFKC) into one syllable, then splits its bytes: all of it."""
    tokens = [t for t in tokenizer("claude_legacy").encode("\u1100\u1161\u11a8") if t.start < t.end]
    assert len(tokens) == 2 and {(t.start, t.end) for t in tokens} == {(0, 3)}


def test_xlmr_reads_decomposed_hangul_jamo_by_jamo() -> None:
    """XLM-R's normalizer leaves the jamo apart: each token is over its own jamo, all three covered."""
    tokens = [t for t in tokenizer("xlmr").encode("\u1100\u1161\u11a8") if t.start < t.end and t.kind != ADDED]
    assert {(t.start, t.end) for t in tokens if t.bytes or t.kind == UNKNOWN} == {(0, 1), (1, 2), (2, 3)}


def test_xlmr_has_no_phantom_space_after_a_special_token() -> None:
    tokens = tokenizer("xlmr").encode("<s>x</s>", allow_special=True)
    x = next(t for t in tokens if t.start == 3)
    assert (x.bytes, x.end) == (b"x", 4)


def test_xlmr_keeps_a_real_space_before_a_word() -> None:
    tokens = tokenizer("xlmr").encode("x <s> y", allow_special=True)
    assert (b" y", 5, 7) in spans(tokens)


def test_xlmr_inserted_space_is_zero_width() -> None:
    """The ▁ that Metaspace puts before "你好" is not in the text: zero-width, not over "你"."""
    tokens = tokenizer("xlmr").encode("你好")
    assert [(t.bytes, t.start, t.end) for t in tokens if t.kind == TEXT] == [
        (b"", 0, 0), ("你好".encode(), 0, 2)
    ]


def test_xlmr_reads_its_special_strings_even_with_the_switch_off() -> None:
    """Decided: XLM-R's vocabulary holds "<s>" and "</s>" as pieces, so its model reads them; say so."""
    tokens = tokenizer("xlmr").encode("x <s> y")
    special = [t for t in tokens if t.start == 2]
    assert [(t.id, t.kind, t.end) for t in special] == [(0, SPECIAL, 5)]


@pytest.mark.parametrize("key", ["bert_uncased", "xlmr"])
@pytest.mark.parametrize("text", ["", "  ", "\t\n"])
def test_the_closing_added_token_sits_at_the_end_of_a_text_with_no_tokens(key: str, text: str) -> None:
    added = [t for t in tokenizer(key).encode(text) if t.kind == ADDED]
    assert [t.start for t in added] == [0, len(text)]


@pytest.mark.parametrize(("key", "bos"), [("llama3", "<|begin_of_text|>"), ("mistral_nemo", "<s>")])
def test_a_text_that_starts_with_the_bos_string_round_trips(key: str, bos: str) -> None:
    tok = tokenizer(key)
    text = f"{bos}Hello"
    tokens = tok.encode(text, allow_special=True)
    assert [t.kind for t in tokens[:2]] == [ADDED, SPECIAL]
    assert tok.decode([t.id for t in tokens if t.kind != ADDED]) == text


@pytest.mark.parametrize(("text", "expected"), [
    ("\x08abc", [(b"ab", 1, 3), (b"c", 3, 4)]),
    ("\x08\x08 abc", [(b" ab", 2, 5), (b"c", 5, 6)]),
    ("\x08ﬃ", [(b"", 1, 1), (b"ffi", 1, 2)]),
    ("\x1f\x850", [(b"", 1, 1), (b"\xc2\x85", 1, 2), (b"0", 2, 3)]),
])
def test_xlmr_offsets_after_control_characters_its_normalizer_deletes_at_the_start(text, expected) -> None:
    """The library moves every offset back by the characters deleted at the start; ours stay on the text."""
    tok = tokenizer("xlmr")
    assert spans(tok.encode(text)) == expected
    assert [t.kind for t in tok.encode(text)][-1] == ADDED and tok.encode(text)[-1].start == len(text)


@pytest.mark.parametrize(("key", "lossless"), [("starcoder", False), ("refact", False), ("falcon", False),
                                              ("gpt_neox", True)])
def test_llama_cpp_vocabularies_that_lack_a_byte_are_lossy_and_mark_it(key: str, lossless: bool) -> None:
    """StarCoder and Refact lack 0xF1, Falcon 0xF2 and some control bytes, GPT-NeoX none that UTF-8 uses."""
    tok = tokenizer(key)
    assert tok.lossless is lossless
    text = "x\U00040000\U00080000y"
    tokens = [t for t in tok.encode(text) if t.kind != ADDED]
    check_content(tok, text, tokens)
    assert (not lossless) == any(t.kind == UNKNOWN for t in tokens)
    # after a dropped byte the library shifts the offsets of the rest of the word: they are read again
    check_content(tok, "\x05¸ \x03é\x04x", tok.encode("\x05¸ \x03é\x04x"))


@pytest.mark.parametrize("text", ["Ǆ\x1f", "Ǆ\x1fa", "ﬃ\x1f\x1fb"])
def test_xlmr_keeps_an_expansion_over_its_character_when_a_deleted_one_follows(text: str) -> None:
    """XLM-R reads "Ǆ\x1f" as "DŽ"; the library put "Ž" over the U+001F its normalizer deletes."""
    tok = tokenizer("xlmr")
    check_content(tok, text, tok.encode(text))
    assert not any(t.start == 1 for t in tok.encode(text) if t.kind == TEXT)  # none starts on the U+001F
