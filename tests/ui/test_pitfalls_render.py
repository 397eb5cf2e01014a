"""ui.pitfalls.render: the place-value grid and the letters view, as strings."""

from __future__ import annotations

from core.pitfalls.place_value import DigitCell
from core.pitfalls.words import PieceLetters
from ui.pitfalls import render
from ui.spans import token_color


def cells(digits: str, owners: list[int]) -> list[DigitCell]:
    width = len(digits)
    return [DigitCell(d, width - 1 - k, owner, 100 + owner) for k, (d, owner) in enumerate(zip(digits, owners, strict=True))]


def test_grid_has_a_place_column_per_digit_and_frames_each_token() -> None:
    html = render.place_grid_html(["2026", "10"], [("cl100k", [cells("2026", [0, 0, 0, 1]), cells("10", [2, 2])])])
    assert html.count('<td class="pf-digit') == 6
    assert html.count("pf-first") == 3 and html.count("pf-last") == 3  # 202 | 6 | 10
    for place in ("10³", "10²", "10¹", "10⁰"):
        assert f"<th>{place}</th>" in html
    assert f"tp-c{token_color(100)}" in html and 'colspan="4">2026<' in html


def test_grid_and_letters_escape_names_and_text() -> None:
    grid = render.place_grid_html(["1"], [("<script>x</script>", [cells("1", [0])])])
    assert "<script>" not in grid and "&lt;script&gt;" in grid
    letters = render.letters_html([PieceLetters("<b>", " <b>", 5, 0)], "r", label="<i>")
    assert "<b>" not in letters and "<i>" not in letters and "&lt;b&gt;" in letters


def test_letters_mark_the_asked_letter_and_count_it() -> None:
    html = render.letters_html([PieceLetters("str", "str", 1, 1), PieceLetters("berry", "berry", 2, 2)], "r",
                               label="strawberry")
    assert html.count("pf-letter pf-hit") == 3 and "3 × “r” in 2 pieces" in html
    assert html.startswith('<div class="pf-letters"><span class="pf-form">strawberry</span>')
