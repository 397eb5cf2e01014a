"""core.beyond.patches: the two BLT rules, monotone in the threshold, and patches as Tokens that cover the text."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.beyond import byte_ngram, patches

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40)


def entropies_for(text: str, data: st.DataObject) -> np.ndarray:
    n = len(text.encode())
    values = data.draw(st.lists(st.floats(0, 8), min_size=n, max_size=n))
    return np.asarray(values)


def test_global_rule_starts_a_patch_where_entropy_is_above_the_threshold() -> None:
    h = np.array([0.1, 5.0, 0.2, 0.3, 3.1, 3.0])
    assert patches.patch_starts(h, 3.0).tolist() == [0, 1, 4]  # 3.0 itself is not above


def test_relative_rule_starts_a_patch_where_entropy_jumps() -> None:
    h = np.array([6.0, 1.0, 2.5, 2.0, 7.0, 7.5])
    # rises: -5.0, +1.5, -0.5, +5.0, +0.5
    assert patches.patch_starts(h, 1.0, rule="relative").tolist() == [0, 2, 4]
    assert patches.patch_starts(h, 2.0, rule="relative").tolist() == [0, 4]


@settings(max_examples=80, deadline=None)
@given(text=texts, data=st.data(), rule=st.sampled_from(list(patches.RULES)), whole=st.booleans(),
       low=st.floats(-8, 8), high=st.floats(-8, 8))
def test_patches_change_monotonically_with_the_threshold(
    text: str, data: st.DataObject, rule: str, whole: bool, low: float, high: float
) -> None:
    low, high = min(low, high), max(low, high)
    h = entropies_for(text, data)
    at_low = set(patches.cut(text, h, low, rule=rule, whole_chars=whole).tolist())
    at_high = set(patches.cut(text, h, high, rule=rule, whole_chars=whole).tolist())
    assert at_high <= at_low  # a higher threshold only removes patch starts: patches merge, never split
    assert 0 in at_high


@settings(max_examples=80, deadline=None)
@given(text=texts, data=st.data(), threshold=st.floats(0, 8), whole=st.booleans())
def test_patch_tokens_cover_the_text_in_order(text: str, data: st.DataObject, threshold: float, whole: bool) -> None:
    h = entropies_for(text, data)
    starts = patches.cut(text, h, threshold, whole_chars=whole)
    tokens = patches.patch_tokens(text, starts)
    assert b"".join(t.bytes for t in tokens) == text.encode()
    assert [t.id for t in tokens] == list(range(len(tokens)))
    assert tokens[0].start == 0 and tokens[-1].end == len(text)
    for token in tokens:
        assert 0 <= token.start < token.end <= len(text)
        assert token.bytes.decode("utf-8", "ignore") in text[token.start : token.end]
    if whole:  # every patch is whole characters
        assert "".join(t.bytes.decode() for t in tokens) == text
        assert all(a.end == b.start for a, b in zip(tokens, tokens[1:], strict=False))
    stats = patches.stats(starts, len(text.encode()))
    assert stats.patches == len(tokens) and stats.longest == max(len(t.bytes) for t in tokens)


def test_a_cut_inside_a_character_shares_the_character_or_snaps_back() -> None:
    text = "a日b"  # 日 is E6 97 A5: bytes 1, 2, 3
    h = np.array([0.0, 0.0, 9.0, 0.0, 0.0])  # the spike is at the second byte of 日
    split = patches.patch_tokens(text, patches.cut(text, h, 5.0))
    assert [(t.bytes, t.start, t.end) for t in split] == [(b"a\xe6", 0, 2), (b"\x97\xa5b", 1, 3)]
    whole = patches.patch_tokens(text, patches.cut(text, h, 5.0, whole_chars=True))
    assert [(t.bytes, t.start, t.end) for t in whole] == [(b"a", 0, 1), ("日b".encode(), 1, 3)]


def test_bad_input_says_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="rule must be one of"):
        patches.patch_starts(np.zeros(3), 1.0, rule="median")
    with pytest.raises(ValueError, match="2 values for a text of 3 bytes"):
        patches.cut("abc", np.zeros(2), 1.0)
    with pytest.raises(ValueError, match="start at byte 0"):
        patches.patch_tokens("abc", [1])
    assert patches.patch_tokens("", []) == []
    assert patches.patch_starts(np.zeros(0), 1.0).tolist() == []


@pytest.mark.parametrize("rule", list(patches.RULES))
@pytest.mark.parametrize("mean", [1.5, 3.0, 6.0])
def test_threshold_for_mean_gives_about_that_mean(rule: str, mean: float) -> None:
    h = np.random.default_rng(1).uniform(0, 8, 3000)
    starts = patches.patch_starts(h, patches.threshold_for_mean(h, mean, rule=rule), rule=rule)
    assert patches.stats(starts, len(h)).mean_bytes == pytest.approx(mean, rel=0.01)


def test_a_predictable_ending_stays_in_one_patch_and_a_rare_name_breaks_up() -> None:
    corpus = "The tokenizer reads the sentence and the tokenizer cuts the sentence. " * 40
    model = byte_ngram.train(corpus, order=5)
    text = "the sentence of Zbigniew"
    h = model.entropy(text.encode())
    tokens = patches.patch_tokens(text, patches.cut(text, h, 2.0))
    pieces = [t.bytes.decode() for t in tokens]
    assert any("entence" in piece for piece in pieces)  # the ending of a known word is one patch
    assert sum(1 for t in tokens if t.start >= text.index("Zbigniew")) >= 4  # the unknown name: many
