"""The span renderer as a string: escaping, colors, grouping, whitespace, badges, limits."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from core.types import ADDED, BYTE_FALLBACK, SPECIAL, UNKNOWN, Token
from ui.spans import PALETTE_SIZE, hex_bytes, printable, render_ids, render_spans, token_color

XSS_STRINGS = ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "</span><b>x")
CSS = Path(__file__).resolve().parents[2] / "assets" / "spans.css"


def char_tokens(text: str, first_id: int = 100) -> list[Token]:
    """One token per character, ids counting up: a stand-in tokenizer for string tests."""
    return [Token(first_id + i, ch.encode(), i, i + 1) for i, ch in enumerate(text)]


def utf8_byte_tokens(text: str) -> list[Token]:
    """One token per UTF-8 byte, each with the offsets of the character it falls in (like GPT-2)."""
    tokens = []
    for i, ch in enumerate(text):
        tokens.extend(Token(b, bytes([b]), i, i + 1) for b in ch.encode())
    return tokens


def pills(markup: str) -> list[str]:
    return re.findall(r'<span class="(tp-t [^"]*)"', markup)


def visible_text(markup: str) -> str:
    """The text a browser would show: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


@pytest.mark.parametrize("evil", XSS_STRINGS)
def test_user_text_is_escaped(evil: str) -> None:
    markup = render_spans(evil, char_tokens(evil))
    for tag in ("<script", "<img", "<b>", "</span><b>"):
        assert tag not in markup.replace('<span class="', "")
    assert "&lt;" in markup
    assert visible_text(markup) == evil


@pytest.mark.parametrize("evil", XSS_STRINGS)
def test_whole_token_and_gap_and_titles_are_escaped(evil: str) -> None:
    # One token over the whole string, text outside tokens, and the string in the piece tooltip.
    text = f"{evil} {evil}"
    tokens = [Token(7, evil.encode(), 0, len(evil))]
    markup = render_spans(text, tokens, piece=lambda _: evil, extra_title=lambda _: evil)
    assert "<script" not in markup and "<img" not in markup and "<b>" not in markup
    for title in re.findall(r'title="([^"]*)"', markup):
        assert "<" not in title and ">" not in title
    assert visible_text(markup) == text


@pytest.mark.parametrize("evil", XSS_STRINGS)
def test_raw_pieces_and_special_badges_are_escaped(evil: str) -> None:
    tokens = [Token(1, evil.encode(), 0, len(evil), SPECIAL), Token(2, b"", 0, 0, ADDED)]
    markup = render_spans(evil, tokens, raw_pieces=True, piece=lambda _: evil)
    assert "<script" not in markup and "<img" not in markup and "<b>" not in markup


def test_quotes_in_titles_cannot_close_the_attribute() -> None:
    markup = render_spans('"x', [Token(1, b'"x', 0, 2)], piece=lambda _: '" onmouseover="alert(1)')
    assert 'onmouseover="' not in markup
    assert "&quot;" in markup


def test_css_has_no_angle_brackets() -> None:
    # Subtle: st.html's sanitizer (DOMPurify) drops a whole <style> element whose text contains
    # "<" followed by a word character, even inside a CSS comment; the spans would lose all style.
    assert "<" not in CSS.read_text()


def test_same_id_same_color_everywhere() -> None:
    first = render_spans("ab", [Token(42, b"a", 0, 1), Token(43, b"b", 1, 2)])
    second = render_spans("zzab", [Token(9, b"zz", 0, 2), Token(43, b"a", 2, 3), Token(42, b"b", 3, 4)])
    color = f"tp-c{token_color(42)}"
    assert color in first and color in second
    assert token_color(42) == token_color(42)


def test_palette_spreads_neighbouring_ids_and_matches_the_css() -> None:
    colors = {token_color(i) for i in range(1000, 1064)}
    assert len(colors) == PALETTE_SIZE
    css = CSS.read_text()
    for i in range(PALETTE_SIZE):
        assert f".tp-c{i} " in css


def test_adjacent_same_color_neighbours_are_distinguishable() -> None:
    same = next(i for i in range(1, 10_000) if token_color(i) == token_color(0))
    markup = render_spans("aab", [Token(0, b"a", 0, 1), Token(same, b"a", 1, 2), Token(0, b"b", 2, 3)])
    classes = pills(markup)
    assert "tp-alt" not in classes[0]
    assert "tp-alt" in classes[1]
    assert "tp-alt" in classes[2]  # again the same color as its left neighbour


def test_repeated_token_gets_alternate_shade() -> None:
    markup = render_spans("aaa", [Token(5, b"a", i, i + 1) for i in range(3)])
    assert [("tp-alt" in c) for c in pills(markup)] == [False, True, True]


def test_split_character_is_one_group_with_hex_bytes_and_no_replacement_char() -> None:
    text = "a👩b"
    markup = render_spans(text, utf8_byte_tokens(text))
    assert "\ufffd" not in markup
    assert markup.count('class="tp-group') == 1
    assert "4 tokens" in markup
    for chunk in ("F0", "9F", "91", "A9"):
        assert f">{chunk}</span>" in markup
    assert "👩" in visible_text(markup)
    assert len(pills(markup)) == 2  # "a" and "b" stay single pills


def test_overlapping_tokens_group_together() -> None:
    # GPT-2 style: " " + first bytes of the emoji in one token, the rest in the next.
    text = "x 🙂"
    tokens = [Token(1, b"x", 0, 1), Token(2, b" \xf0\x9f", 1, 3), Token(3, b"\x99\x82", 2, 3)]
    markup = render_spans(text, tokens)
    assert "2 tokens" in markup
    assert "20 F0 9F" in markup and "99 82" in markup
    assert "\ufffd" not in markup


def test_printable_and_hex() -> None:
    assert hex_bytes(b"\xf0\x9f") == "F0 9F"
    assert printable(b"\xf0\x9f") == "\\xF0\\x9F"
    assert printable(b" a\tb\n") == "·a→b↵"


def test_tooltip_has_id_hex_bytes_length_piece_and_extra() -> None:
    markup = render_spans(
        " world", [Token(995, b" world", 0, 6)], piece=lambda _: "Ġworld", extra_title=lambda _: "merge rank 12"
    )
    title = html.unescape(re.search(r'title="([^"]*)"', markup).group(1))
    assert "id 995" in title
    assert "20 77 6F 72 6C 64" in title
    assert "6 B" in title
    assert "Ġworld" in title
    assert "merge rank 12" in title


def test_whitespace_toggle_marks_and_keeps_newlines() -> None:
    text = "a b\tc\nd"
    plain = render_spans(text, char_tokens(text))
    shown = render_spans(text, char_tokens(text), show_whitespace=True)
    assert visible_text(plain) == text
    for mark in ("·", "→", "↵"):
        assert f'<span class="tp-ws">{mark}</span>' in shown
    assert "\n" in shown  # the real line break survives
    assert "white-space: pre-wrap" in CSS.read_text()


def test_raw_pieces_show_vocabulary_strings_and_keep_line_breaks() -> None:
    text = " hi\n"
    tokens = [Token(1, b" hi", 0, 3), Token(2, b"\n", 3, 4)]
    pieces = {1: "Ġhi", 2: "Ċ"}
    meaning = render_spans(text, tokens, piece=pieces.__getitem__)
    raw = render_spans(text, tokens, raw_pieces=True, piece=pieces.__getitem__)
    assert ">Ġhi<" not in meaning and "> hi<" in meaning
    assert ">Ġhi<" in raw and ">Ċ</span>\n" in raw


def test_limit_note_counts_all_tokens() -> None:
    text = "x" * 12
    markup = render_spans(text, char_tokens(text), limit=5)
    assert len(pills(markup)) == 5
    assert "showing 5 of 12 tokens — counts below cover the whole text" in markup
    big = render_spans("y" * 6000, char_tokens("y" * 6000))
    assert "showing 5,000 of 6,000 tokens" in big


def test_no_limit_note_when_everything_fits() -> None:
    assert "tp-limit" not in render_spans("abc", char_tokens("abc"))


def test_added_tokens_are_zero_width_badges_in_place() -> None:
    text = "hi"
    tokens = [Token(101, b"[CLS]", 0, 0, ADDED), Token(7, b"hi", 0, 2), Token(102, b"[SEP]", 2, 2, ADDED)]
    markup = render_spans(text, tokens)
    assert markup.index("[CLS]") < markup.index(">hi<") < markup.index("[SEP]")
    assert markup.count("tp-added") == 2
    assert visible_text(markup) == "[CLS]hi[SEP]"


def test_a_zero_width_token_without_bytes_shows_its_piece() -> None:
    """Character BPE's bare </w>: no text under it, so the badge says which piece it is (escaped)."""
    tokens = [Token(5, b"lo", 0, 2), Token(6, b"w", 2, 3), Token(1, b"", 3, 3)]
    markup = render_spans("low", tokens, piece={5: "lo", 6: "w", 1: "</w>"}.__getitem__)
    assert visible_text(markup) == "low</w>" and "&lt;/w&gt;" in markup and "tp-zw" in markup
    assert "∅" in render_spans("low", [Token(1, b"", 3, 3)])  # without pieces: the empty-set mark


def test_special_token_from_text_is_a_badge() -> None:
    text = "a<|endoftext|>"
    tokens = [Token(64, b"a", 0, 1), Token(50256, b"<|endoftext|>", 1, 14, SPECIAL)]
    markup = render_spans(text, tokens)
    assert "tp-special" in markup
    assert "&lt;|endoftext|&gt;" in markup


def test_unknown_and_byte_fallback_have_distinct_styles() -> None:
    text = "a😀b"
    tokens = [Token(1, b"a", 0, 1), Token(2, b"", 1, 2, UNKNOWN), Token(3, b"b", 2, 3)]
    assert "tp-unk" in render_spans(text, tokens)
    fallback = [Token(3 + b, bytes([b]), 1, 2, BYTE_FALLBACK) for b in "😀".encode()]
    markup = render_spans(text, [tokens[0], *fallback, tokens[2]])
    assert 'class="tp-group tp-byte"' in markup
    css = CSS.read_text()
    assert ".tp-unk" in css and "dashed" in css


def test_text_outside_tokens_is_shown_muted() -> None:
    text = "hello  world"
    tokens = [Token(1, b"hello", 0, 5), Token(2, b"world", 7, 12)]
    markup = render_spans(text, tokens)
    assert 'class="tp-gap"' in markup
    assert visible_text(markup) == text


def test_highlight_is_by_token_index() -> None:
    markup = render_spans("aa", [Token(5, b"a", 0, 1), Token(5, b"a", 1, 2)], highlight={1})
    assert ["tp-hl" in c for c in pills(markup)] == [False, True]


def test_empty_text_and_no_tokens() -> None:
    assert render_spans("", []) == '<div class="tp-spans"></div>'


def test_render_ids_is_a_list_literal() -> None:
    assert render_ids(char_tokens("ab", 5)) == "[5, 6]"
    assert render_ids([]) == "[]"


def test_negative_limit_is_an_error() -> None:
    with pytest.raises(ValueError, match="limit"):
        render_spans("a", char_tokens("a"), limit=-1)


def test_spans_module_does_not_import_streamlit() -> None:
    import subprocess
    import sys

    code = "import sys, ui.spans; print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_legend_shows_every_style() -> None:
    from ui.spans import render_legend

    legend = render_legend()
    for style in ("tp-alt", "tp-group", "tp-byte", "tp-unk", "tp-special", "tp-added", "tp-gap"):
        assert style in legend
    assert "&lt;|endoftext|&gt;" in legend and "<|endoftext|>" not in legend


@pytest.mark.parametrize("text", ["\ud800", "a\udfff", "\ud83d\ude42"])
def test_a_lone_surrogate_inside_a_group_is_drawn_not_raised(text: str) -> None:
    """Tokenizers read a lone surrogate as U+FFFD (3 bytes); a group over it must not try to encode it."""
    tokens = [Token(1, b"\xef", len(text) - 1, len(text)), Token(2, b"\xbf\xbd", len(text) - 1, len(text))]
    out = render_spans(text, tokens)
    assert out.count('class="tp-group') == 1 and "2 tokens" in out
    out.encode()  # the HTML itself is valid UTF-8: the surrogate is replaced, not passed on


def test_pills_do_not_wrap_and_the_line_breaks_between_them() -> None:
    markup = render_spans("Hello world", [Token(1, b"Hello", 0, 5), Token(2, b" world", 5, 11)])
    assert markup.count("<wbr>") == 2  # after each pill: the only places a line may break
    css = CSS.read_text()
    assert re.search(r"\.tp-t \{ white-space: pre; \}", css)
    assert "box-decoration-break" not in css  # no pill is ever drawn as two boxes by wrapping


def test_a_long_token_is_one_box_that_wraps_inside_itself() -> None:
    word = "x" * 40
    markup = render_spans(word, [Token(1, word.encode(), 0, 40)])
    assert "tp-long" in pills(markup)[0]
    assert "tp-long" not in pills(render_spans("short", [Token(2, b"short", 0, 5)]))[0]
    assert re.search(r"\.tp-long \{[^}]*display: inline-block", CSS.read_text())


def test_a_token_holding_a_line_break_is_one_box_per_line_with_the_break_between() -> None:
    text = "a.\n\nb"
    tokens = [Token(1, b"a", 0, 1), Token(2, b".\n\n", 1, 4), Token(3, b"b", 4, 5)]
    markup = render_spans(text, tokens, show_whitespace=True)
    boxes = [c for c in pills(markup) if "tp-c" in c and ("tp-more" in c or "tp-cont" in c)]
    assert len(boxes) == 2 and "tp-more" in boxes[0] and "tp-cont" in boxes[1]
    for box in re.findall(r"<span class=\"tp-t [^\"]*\"[^>]*>(.*?)</span>(?=\n|<wbr>)", markup):
        assert "\n" not in box  # no line break inside any box
    assert visible_text(markup).replace("↵", "").replace("·", " ") == text
    assert visible_text(render_spans(text, tokens)) == text


def test_raw_sentencepiece_pieces_start_the_line_of_their_word() -> None:
    text = "x:\n    return"
    tokens = [Token(1, b"x", 0, 1), Token(2, b":", 1, 2), Token(3, b" return", 2, 13)]
    pieces = {1: "▁x", 2: ":", 3: "▁return"}
    raw = render_spans(text, tokens, raw_pieces=True, piece=pieces.__getitem__)
    assert re.search(r"\n<span class=\"tp-t [^\"]*\"[^>]*>▁return</span>", raw)  # the break comes first
    gpt2 = render_spans(" hi\n", [Token(1, b" hi", 0, 3), Token(2, b"\n", 3, 4)], raw_pieces=True,
                        piece={1: "Ġhi", 2: "Ċ"}.__getitem__)
    assert ">Ċ</span>\n" in gpt2  # a piece that is only the break ends its line


def test_every_pill_carries_its_facts_as_data_attributes() -> None:
    markup = render_spans("a<b", [Token(7, b"a<b", 0, 3)], piece=lambda _: "a<b", extra_title=lambda _: "merge 3")
    assert 'data-id="7"' in markup and 'data-b="61 3C 62"' in markup
    assert 'data-p="a&lt;b"' in markup and 'data-x="merge 3"' in markup
    group = render_spans("🙂", [Token(9468, b"\xf0\x9f", 0, 1), Token(247, b"\x99\x82", 0, 1)])
    assert 'data-id="9468"' in group and 'data-b="99 82"' in group


def test_an_invisible_character_split_into_tokens_is_named() -> None:
    markup = render_spans("\u200d", [Token(1, b"\xe2\x80", 0, 1), Token(2, b"\x8d", 0, 1)])
    assert "2 tokens · zero-width joiner" in markup
