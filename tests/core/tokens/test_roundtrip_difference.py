"""core.tokens.roundtrip: where a lossy round trip first changes the text."""

from __future__ import annotations

from core.tokens.roundtrip import SHOWN_CHARS, Difference, first_difference


def test_equal_texts_have_no_difference() -> None:
    assert first_difference("", "") is None
    assert first_difference("日本語 🙂", "日本語 🙂") is None


def test_a_changed_character_is_found_alone() -> None:
    assert first_difference("El niño juega en el jardín", "El nino juega en el jardin") == Difference(5, "ñ", "n")


def test_a_dropped_and_an_added_character() -> None:
    assert first_difference("a\u200db", "ab") == Difference(1, "\u200d", "")
    assert first_difference("ab", "a b") == Difference(1, "", " ")


def test_a_text_cut_short_and_a_long_change_are_bounded() -> None:
    assert first_difference("abc", "ab") == Difference(2, "c", "")
    far = first_difference("x" + "é" * 100, "x" + "e" * 100)
    assert far is not None and far.at == 1 and len(far.lost) <= SHOWN_CHARS and len(far.got) <= SHOWN_CHARS
