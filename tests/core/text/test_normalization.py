"""core.text.normalization: the five forms on known cases, and pieces that always add up to the result."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.text.normalization import FORMS, apply, changed_clusters, diff_pieces, form_view

KNOWN = [
    ("NFC", "e\u0301", "\u00e9"),
    ("NFD", "\u00e9", "e\u0301"),
    ("NFC", "\u00e9", "\u00e9"),
    ("NFKC", "\ufb01", "fi"),  # ligature
    ("NFKC", "\u2460", "1"),  # circled digit one
    ("NFKC", "\uff23", "C"),  # fullwidth C
    ("NFKC", "x\u00b2", "x2"),
    ("NFKD", "\u00e9", "e\u0301"),
    ("NFKD", "\ufb01", "fi"),
    ("NFC", "\u212b", "\u00c5"),  # angstrom sign becomes A with ring
    ("casefold", "Straße", "strasse"),
    ("casefold", "\ufb01", "fi"),
    ("casefold", "ΣΑΣ", "σασ"),
    ("NFC", "\u1100\u1161", "\uac00"),  # Hangul jamo compose into one syllable
]


@pytest.mark.parametrize(("form", "text", "expected"), KNOWN)
def test_known_cases(form: str, text: str, expected: str) -> None:
    assert apply(form, text) == expected


def test_an_unknown_form_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown form"):
        apply("NFX", "a")


def test_the_view_marks_exactly_what_changed() -> None:
    view = form_view("Café ﬁne ①", "NFKC")
    assert [(p.original, p.result) for p in view.pieces if p.changed] == [("ﬁ", "fi"), ("①", "1")]
    assert "".join(p.original for p in view.pieces) == "Café ﬁne ①"
    assert view.changed and view.code_points == len("Café fine 1")
    nfd = form_view("Café", "NFD")
    assert [(p.original, p.result) for p in nfd.pieces if p.changed] == [("é", "e\u0301")]
    assert nfd.utf8_bytes == 6


def test_an_unchanged_text_is_one_piece() -> None:
    view = form_view("plain ascii", "NFC")
    assert not view.changed and len(view.pieces) == 1 and view.changed_pieces == 0


TEXTS = st.text(alphabet=st.sampled_from(["a", "A", "é", "e", "\u0301", "\u0327", "ß", "ﬁ", "①", "\u1100", "\u1161", "\u11a8", "👍", "🏽", " "]))


@given(TEXTS, st.sampled_from(FORMS))
def test_pieces_add_up_to_the_text_and_its_form(text: str, form: str) -> None:
    view = form_view(text, form)
    assert "".join(p.original for p in view.pieces) == text
    assert "".join(p.result for p in view.pieces) == apply(form, text)


def test_a_long_text_draws_only_its_head_but_counts_all_of_it() -> None:
    text = "é" * 10_000
    view = form_view(text, "NFD", limit=100)
    assert view.shown_chars == 100 and view.code_points == 20_000 and view.utf8_bytes == 30_000


def test_lone_surrogates_do_not_break_the_view() -> None:
    view = form_view("a\ud800é", "NFD")
    assert "".join(p.original for p in view.pieces) == "a\ufffdé"


@given(st.text(max_size=40), st.text(max_size=40))
def test_diff_pieces_add_up_to_both_texts(a: str, b: str) -> None:
    pieces = diff_pieces(a, b)
    assert "".join(p.original for p in pieces) == a
    assert "".join(p.result for p in pieces) == b


def test_changed_clusters_lists_each_distinct_cluster_once_non_ascii_first() -> None:
    rows = changed_clusters("Ab ß ß e\u0301")
    assert [row.original for row in rows] == ["ß", "e\u0301", "A"]
    assert rows[0].count == 2 and rows[0].results["casefold"] == "ss" and rows[0].results["NFC"] == "ß"
    assert rows[1].results["NFC"] == "é"
