"""core.text.unicode_info, core.text.char_table and core.text.odd_chars: clusters, names, bytes, counts, table rows and
the odd-character flags, on hand-checked cases."""

from __future__ import annotations

import regex
from hypothesis import given
from hypothesis import strategies as st

from core.text import char_table, odd_chars
from core.text import unicode_info as ui

FAMILY = "👨\u200d👩\u200d👧\u200d👦"


@given(st.lists(st.sampled_from(["a", "\r", "\n", "é", "e\u0301", "👍🏽", FAMILY, "🇪🇸", "\u200d", " "])).map("".join))
def test_grapheme_starts_match_regex_x(text: str) -> None:
    assert ui.grapheme_starts(text) == [m.start() for m in regex.finditer(r"\X", text)]


@given(st.text(alphabet=st.sampled_from(["a", "\r", "\n", " ", "\t"])))
def test_the_ascii_shortcut_keeps_crlf_together(text: str) -> None:
    assert ui.grapheme_starts(text) == [m.start() for m in regex.finditer(r"\X", text)]


def test_counts_of_a_family_emoji() -> None:
    counts = ui.counts(FAMILY)
    assert (counts.graphemes, counts.code_points, counts.utf8_bytes, counts.utf16_units) == (1, 7, 25, 11)


def test_composed_and_decomposed_e_differ_in_code_points_and_bytes() -> None:
    composed, decomposed = ui.counts("é"), ui.counts("e\u0301")
    assert (composed.graphemes, composed.code_points, composed.utf8_bytes) == (1, 1, 2)
    assert (decomposed.graphemes, decomposed.code_points, decomposed.utf8_bytes) == (1, 2, 3)


def test_a_lone_surrogate_is_counted_as_u_fffd_and_has_no_utf8() -> None:
    text = "a\ud800b"
    counts = ui.counts(text)
    assert counts.lone_surrogates == 1 and counts.utf8_bytes == 5 and counts.code_points == 3
    row = char_table.char_rows(text, ui.grapheme_starts(text), 1, 1)[0]
    assert row.code_points == "U+D800" and row.utf8_hex == "—" and row.names == "<surrogate-D800>"
    assert "lone surrogate" in row.flags


def test_names_of_controls_and_code_points_without_a_name() -> None:
    assert ui.char_name("\t") == "CHARACTER TABULATION"
    assert ui.char_name("\x01") == "<control-0001>"
    assert ui.char_name("\ue000") == "<private-use-E000>"
    assert ui.char_name("\ufdd0") == "<noncharacter-FDD0>"
    assert ui.char_name("\u0378") == "<reserved-0378>"  # unassigned
    assert ui.char_name("🙂") == "SLIGHTLY SMILING FACE"


def test_rows_page_through_the_text() -> None:
    text = "ab" * 500
    starts = ui.grapheme_starts(text)
    rows = char_table.char_rows(text, starts, 995, 10)
    assert [row.index for row in rows] == [995, 996, 997, 998, 999]
    assert rows[0].utf8_hex == "62" and rows[0].names == "LATIN SMALL LETTER B"


def test_a_row_shows_each_code_points_bytes() -> None:
    (row,) = char_table.char_rows("e\u0301", [0], 0, 1)
    assert row.code_points == "U+0065 U+0301"
    assert row.names == "LATIN SMALL LETTER E + COMBINING ACUTE ACCENT"
    assert row.utf8_hex == "65 | CC 81" and row.utf8_bytes == 3


def test_visible_turns_invisible_and_bidi_characters_into_labels() -> None:
    assert ui.visible("\u202eabc") == "⟨RLO⟩abc"
    assert ui.visible("\u200b") == "⟨ZWSP⟩"
    assert ui.visible("\u00a0") == "⟨NBSP⟩"
    assert ui.visible("\x1b") == "␛"
    assert ui.visible(FAMILY) == FAMILY  # an emoji sequence stays a picture
    assert ui.visible("\u0301") == "◌\u0301"


def kinds(text: str) -> dict[str, str]:
    return {f.code_point: f.kind for f in odd_chars.flagged_chars(text)}


def test_invisible_bidi_space_and_control_characters_are_flagged() -> None:
    found = kinds("zero\u200bwidth soft\u00adhyphen \u200fRTL\u00a0x\x07 \u202e")
    assert found == {
        "U+200B": "invisible", "U+00AD": "invisible", "U+200F": "bidi", "U+00A0": "space",
        "U+0007": "control", "U+202E": "bidi",
    }


def test_ordinary_text_has_no_flags() -> None:
    assert odd_chars.flagged_chars("Hello, world!\n\tCafé 日本語 🙂") == []


def test_cyrillic_a_among_latin_letters_is_confusable_but_russian_text_is_not() -> None:
    flags = odd_chars.flagged_chars("Cyrillic а against Latin a")
    assert [(f.kind, f.code_point) for f in flags] == [("confusable", "U+0430")]
    assert "looks like Latin 'a'" in flags[0].note
    assert odd_chars.flagged_chars("Привет, как дела?") == []
    assert odd_chars.confusable_chars("Привет pаypal") == frozenset({"а"})  # the mixed word only


def test_zwj_inside_an_emoji_is_information_outside_a_warning() -> None:
    inside = odd_chars.flagged_chars(FAMILY)
    assert [(f.kind, f.severity, f.count) for f in inside] == [("emoji", odd_chars.INFO, 3)]
    both = odd_chars.flagged_chars(f"a\u200db {FAMILY}")
    assert [(f.kind, f.severity, f.count, f.first) for f in both] == [
        ("invisible", odd_chars.WARN, 1, 1), ("emoji", odd_chars.INFO, 3, 5),
    ]


def test_big_text_counts_are_exact() -> None:
    text = "é👍🏽 " * 250_000
    counts = ui.counts(text)
    assert counts.graphemes == 750_000 and counts.code_points == 1_000_000
    assert counts.utf8_bytes == 250_000 * (2 + 8 + 1)


def test_regex_reports_its_unicode_version() -> None:
    version = ui.regex_unicode_version()
    assert version is not None and int(version.split(".")[0]) >= 15
