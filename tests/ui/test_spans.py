"""The span renderer as a string: escaping, colors, grouping, whitespace, badges, limits, and the compact
markup's facts (id, bytes, piece of every token recoverable, as the browser script reads them)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.types import ADDED, BYTE_FALLBACK, SPECIAL, TEXT, UNKNOWN, Token
from tests.loaded import load_once
from ui.span_facts import read_facts
from ui.spans import PALETTE_SIZE, hex_bytes, printable, render_ids, render_spans, token_color

XSS_STRINGS = ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "</span><b>x", '"><svg onload=alert(1)>')
CSS = Path(__file__).resolve().parents[2] / "assets" / "spans.css"
SAMPLE = Path(__file__).resolve().parents[2] / "data" / "samples" / "playground_default.txt"


def char_tokens(text: str, first_id: int = 100) -> list[Token]:
    """One token per character, ids counting up: a stand-in tokenizer for string tests."""
    return [Token(first_id + i, ch.encode(), i, i + 1) for i, ch in enumerate(text)]


def utf8_byte_tokens(text: str) -> list[Token]:
    """One token per UTF-8 byte, each with the offsets of the character it falls in (like GPT-2)."""
    tokens = []
    for i, ch in enumerate(text):
        tokens.extend(Token(b, bytes([b]), i, i + 1) for b in ch.encode())
    return tokens


def classes(markup: str) -> list[tuple[str, ...]]:
    """The classes of each token element (pill or chip), in order."""
    return [facts.classes for facts in read_facts(markup)]


def visible_text(markup: str) -> str:
    """The text a browser would show: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def assert_facts(markup: str, tokens: list[Token], piece=None, extra=None) -> None:
    """Every token's id, bytes, piece (and extra line) read back from the markup as the browser does."""
    facts = read_facts(markup)
    assert [f.id for f in facts] == [t.id for t in tokens]
    assert [f.bytes for f in facts] == [t.bytes for t in tokens]
    wanted = [piece(t.id) if piece else t.bytes.decode("utf-8", "tokenizer-playground-hex") for t in tokens]
    assert [f.piece for f in facts] == wanted
    if extra is not None:
        assert [f.extra for f in facts] == [extra(t) or "" for t in tokens]


# -- escaping ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("evil", XSS_STRINGS)
def test_user_text_is_escaped(evil: str) -> None:
    markup = render_spans(evil, char_tokens(evil))
    assert "<script" not in markup and "<img" not in markup and "<svg" not in markup
    assert "</span><b>x" not in markup
    assert "&lt;" in markup
    assert visible_text(markup) == evil


@pytest.mark.parametrize("evil", XSS_STRINGS)
def test_whole_token_gap_piece_and_extra_are_escaped(evil: str) -> None:
    # One token over the whole string, text outside tokens, the string as its piece and extra line.
    text = f"{evil} {evil}"
    tokens = [Token(7, evil.encode(), 0, len(evil))]
    markup = render_spans(text, tokens, piece=lambda _: evil + "x", extra_title=lambda _: evil)
    assert "<script" not in markup and "<img" not in markup and "<svg" not in markup
    for value in re.findall(r'data-[a-z]+="([^"]*)"', markup):
        assert "<" not in value and ">" not in value and '"' not in value
    assert visible_text(markup) == text
    assert_facts(markup, tokens, piece=lambda _: evil + "x", extra=lambda _: evil)


@pytest.mark.parametrize("evil", XSS_STRINGS)
def test_raw_pieces_and_special_badges_are_escaped(evil: str) -> None:
    tokens = [Token(1, evil.encode(), 0, len(evil), SPECIAL), Token(2, b"", 0, 0, ADDED)]
    markup = render_spans(evil, tokens, raw_pieces=True, piece=lambda _: evil)
    assert "<script" not in markup and "<img" not in markup and "<svg" not in markup
    assert_facts(markup, tokens, piece=lambda _: evil)


def test_quotes_in_pieces_cannot_close_the_attribute() -> None:
    markup = render_spans('"x', [Token(1, b'"x', 0, 2)], piece=lambda _: '" onmouseover="alert(1)')
    assert 'onmouseover="' not in markup
    assert "&quot;" in markup
    assert read_facts(markup)[0].piece == '" onmouseover="alert(1)'


def test_no_title_and_no_tabindex_on_pills() -> None:
    markup = render_spans(SAMPLE.read_text(encoding="utf-8"), char_tokens(SAMPLE.read_text(encoding="utf-8")))
    assert "title=" not in markup and "tabindex" not in markup


def test_css_has_no_angle_brackets() -> None:
    # Subtle: st.html's sanitizer (DOMPurify) drops a whole <style> element whose text contains
    # "<" followed by a word character, even inside a CSS comment; the spans would lose all style.
    assert "<" not in CSS.read_text()


# -- colors -----------------------------------------------------------------------------------------


def test_same_id_same_color_everywhere() -> None:
    first = render_spans("ab", [Token(42, b"a", 0, 1), Token(43, b"b", 1, 2)])
    second = render_spans("zzab", [Token(9, b"zz", 0, 2), Token(43, b"a", 2, 3), Token(42, b"b", 3, 4)])
    color = f"c{token_color(42)}"
    assert color in classes(first)[0] and color in classes(second)[2]


def test_palette_spreads_neighbouring_ids_and_matches_the_css() -> None:
    colors = {token_color(i) for i in range(1000, 1064)}
    assert len(colors) == PALETTE_SIZE
    css = CSS.read_text()
    for i in range(PALETTE_SIZE):
        assert f".tp-spans .c{i}, .tp-c{i} {{" in css  # the short class in boxes, the long one elsewhere


def test_adjacent_same_color_neighbours_are_distinguishable() -> None:
    same = next(i for i in range(1, 10_000) if token_color(i) == token_color(0))
    markup = render_spans("aab", [Token(0, b"a", 0, 1), Token(same, b"a", 1, 2), Token(0, b"b", 2, 3)])
    assert ["tp-alt" in c for c in classes(markup)] == [False, True, True]


def test_repeated_token_gets_alternate_shade() -> None:
    markup = render_spans("aaa", [Token(5, b"a", i, i + 1) for i in range(3)])
    assert [("tp-alt" in c) for c in classes(markup)] == [False, True, True]


# -- groups, whitespace, raw pieces -------------------------------------------------------------------


def test_split_character_is_one_group_with_hex_bytes_and_no_replacement_char() -> None:
    text = "a👩b"
    tokens = utf8_byte_tokens(text)
    markup = render_spans(text, tokens)
    assert "\ufffd" not in markup
    assert markup.count("class=tp-group") == 1
    for chunk in ("F0", "9F", "91", "A9"):
        assert f">{chunk}</b>" in markup
    assert "👩" in visible_text(markup)
    assert re.search(r"\.tp-group s::after \{ content: counter\(tp-chips\) \" tokens\"", CSS.read_text())
    assert_facts(markup, tokens)


def test_overlapping_tokens_group_together() -> None:
    # GPT-2 style: " " + first bytes of the emoji in one token, the rest in the next.
    text = "x 🙂"
    tokens = [Token(1, b"x", 0, 1), Token(2, b" \xf0\x9f", 1, 3), Token(3, b"\x99\x82", 2, 3)]
    markup = render_spans(text, tokens)
    assert ">20 F0 9F</b>" in markup and ">99 82</b>" in markup
    assert "\ufffd" not in markup
    assert_facts(markup, tokens)


def test_printable_and_hex() -> None:
    assert hex_bytes(b"\xf0\x9f") == "F0 9F"
    assert printable(b"\xf0\x9f") == "\\xF0\\x9F"
    assert printable(b" a\tb\n") == "·a→b↵"


def test_whitespace_toggle_marks_and_keeps_newlines() -> None:
    text = "a b\tc\nd"
    plain = render_spans(text, char_tokens(text))
    shown = render_spans(text, char_tokens(text), show_whitespace=True)
    assert visible_text(plain) == text
    for mark in ("·", "→", "↵"):
        assert f"<i>{mark}</i>" in shown
    assert "\n" in shown  # the real line break survives
    assert "white-space: pre-wrap" in CSS.read_text()
    assert_facts(shown, char_tokens(text))
    assert_facts(plain, char_tokens(text))


def test_raw_pieces_show_vocabulary_strings_and_keep_line_breaks() -> None:
    text = " hi\n"
    tokens = [Token(1, b" hi", 0, 3), Token(2, b"\n", 3, 4)]
    pieces = {1: "Ġhi", 2: "Ċ"}
    meaning = render_spans(text, tokens, piece=pieces.__getitem__)
    raw = render_spans(text, tokens, raw_pieces=True, piece=pieces.__getitem__)
    assert ">Ġhi<" not in meaning and "> hi<" in meaning
    assert ">Ġhi<" in raw and ">Ċ</b>\n" in raw
    assert raw.startswith('<div class="tp-spans tp-raw" data-s=b ')
    assert_facts(meaning, tokens, piece=pieces.__getitem__)
    assert_facts(raw, tokens, piece=pieces.__getitem__)


def test_pills_do_not_wrap_and_the_line_breaks_between_them() -> None:
    markup = render_spans("Hello world", [Token(1, b"Hello", 0, 5), Token(2, b" world", 5, 11)])
    assert markup.count("<wbr>") == 1  # between the two pills: the only place a line may break
    css = CSS.read_text()
    assert re.search(r"\.tp-spans b \{ white-space: pre; \}", css)
    assert "box-decoration-break" not in css  # no pill is ever drawn as two boxes by wrapping


def test_a_long_token_is_one_box_that_wraps_inside_itself() -> None:
    word = "x" * 40
    assert "tp-long" in classes(render_spans(word, [Token(1, word.encode(), 0, 40)]))[0]
    assert "tp-long" not in classes(render_spans("short", [Token(2, b"short", 0, 5)]))[0]
    assert re.search(r"\.tp-long \{[^}]*display: inline-block", CSS.read_text())


def test_a_token_holding_a_line_break_is_one_box_per_line_with_the_break_between() -> None:
    text = "a.\n\nb"
    tokens = [Token(1, b"a", 0, 1), Token(2, b".\n\n", 1, 4), Token(3, b"b", 4, 5)]
    markup = render_spans(text, tokens, show_whitespace=True)
    boxes = re.findall(r'<b class="[^"]*(?:tp-more|tp-cont)[^"]*"[^>]*>(.*?)</b>', markup)
    assert len(boxes) == 2
    assert "tp-more" in markup and "tp-cont" in markup
    for box in boxes:
        assert "\n" not in box  # no line break inside any box
    assert visible_text(markup).replace("↵", "").replace("·", " ") == text
    assert visible_text(render_spans(text, tokens)) == text
    assert_facts(markup, tokens)  # the continued boxes belong to the token: its bytes are whole
    assert_facts(render_spans(text, tokens), tokens)


def test_raw_sentencepiece_pieces_start_the_line_of_their_word() -> None:
    text = "x:\n    return"
    tokens = [Token(1, b"x", 0, 1), Token(2, b":", 1, 2), Token(3, b" return", 2, 13)]
    pieces = {1: "▁x", 2: ":", 3: "▁return"}
    raw = render_spans(text, tokens, raw_pieces=True, piece=pieces.__getitem__)
    assert re.search(r"\n<b[^>]*>▁return</b>", raw)  # the break comes first
    assert 'data-s=m' in raw
    gpt2 = render_spans(" hi\n", [Token(1, b" hi", 0, 3), Token(2, b"\n", 3, 4)], raw_pieces=True,
                        piece={1: "Ġhi", 2: "Ċ"}.__getitem__)
    assert ">Ċ</b>\n" in gpt2  # a piece that is only the break ends its line
    assert_facts(raw, tokens, piece=pieces.__getitem__)


def test_an_invisible_character_split_into_tokens_is_named() -> None:
    markup = render_spans("\u200d", [Token(1, b"\xe2\x80", 0, 1), Token(2, b"\x8d", 0, 1)])
    assert '<s data-c="zero-width joiner">' in markup
    assert 's[data-c]::after { content: counter(tp-chips) " tokens · " attr(data-c); }' in CSS.read_text()


# -- limits, kinds, highlight --------------------------------------------------------------------------


def test_limit_note_counts_all_tokens_and_names_the_more_button() -> None:
    text = "x" * 12
    markup = render_spans(text, char_tokens(text), limit=5)
    assert len(read_facts(markup)) == 5
    assert "showing 5 of 12 tokens — counts below cover the whole text" in markup
    assert "data-more" not in markup  # no button to press: nothing says scroll for more
    more = render_spans(text, char_tokens(text), limit=5, more="pg_more_gpt2")
    assert 'data-more="pg_more_gpt2"' in more and "Show more" in more
    assert "data-more" not in render_spans(text, char_tokens(text), limit=12, more="pg_more_gpt2")
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
    assert_facts(markup, tokens)


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
    assert_facts(markup, tokens)
    assert_facts(render_spans(text, tokens, piece={64: "a", 50256: "<|endoftext|>"}.__getitem__), tokens,
                 piece={64: "a", 50256: "<|endoftext|>"}.__getitem__)


def test_unknown_and_byte_fallback_have_distinct_styles() -> None:
    text = "a😀b"
    tokens = [Token(1, b"a", 0, 1), Token(2, b"", 1, 2, UNKNOWN), Token(3, b"b", 2, 3)]
    markup = render_spans(text, tokens)
    assert "tp-unk" in classes(markup)[1]
    assert_facts(markup, tokens)
    fallback = [Token(3 + b, bytes([b]), 1, 2, BYTE_FALLBACK) for b in "😀".encode()]
    pieces = {1: "▁a", 3: "b", **{3 + b: f"<0x{b:02X}>" for b in "😀".encode()}}
    markup = render_spans(text, [tokens[0], *fallback, tokens[2]], piece=pieces.__getitem__)
    assert 'class="tp-group tp-byte"' in markup
    assert_facts(markup, [tokens[0], *fallback, tokens[2]], piece=pieces.__getitem__)
    css = CSS.read_text()
    assert ".tp-unk" in css and "dashed" in css


def test_text_outside_tokens_is_shown_muted() -> None:
    text = "hello  world"
    tokens = [Token(1, b"hello", 0, 5), Token(2, b"world", 7, 12)]
    markup = render_spans(text, tokens)
    assert "class=tp-gap" in markup
    assert visible_text(markup) == text
    assert_facts(markup, tokens)


def test_highlight_is_by_token_index() -> None:
    markup = render_spans("aa", [Token(5, b"a", 0, 1), Token(5, b"a", 1, 2)], highlight={1})
    assert ["tp-hl" in c for c in classes(markup)] == [False, True]


def test_empty_text_and_no_tokens() -> None:
    assert render_spans("", []) == '<div class="tp-spans" data-s=t data-ids=""></div>'
    assert read_facts(render_spans("", [])) == []


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
    assert out.count("class=tp-group") == 1
    out.encode()  # the HTML itself is valid UTF-8: the surrogate is replaced, not passed on
    assert [f.bytes for f in read_facts(out)] == [b"\xef", b"\xbf\xbd"]


# -- the compact facts, across everything a token can be ----------------------------------------------


@pytest.mark.parametrize("show_whitespace", [False, True])
@pytest.mark.parametrize("raw", [False, True])
def test_facts_of_awkward_tokens(show_whitespace: bool, raw: bool) -> None:
    """Carriage returns, NULs, a BOM, marks that are real text, zero-width and normalized tokens."""
    text = "a\r\nb\x00c\ufeffd·e\u2581f\n\n g"
    tokens = [
        Token(1, b"a\r\n", 0, 3), Token(2, b"b", 3, 4), Token(3, b"\x00c", 4, 6), Token(4, "\ufeff".encode(), 6, 7),
        Token(5, "d·".encode(), 7, 9), Token(6, "e\u2581".encode(), 9, 11), Token(7, b" ", 11, 11),
        Token(8, b"F", 11, 12), Token(9, b"\n\n", 12, 14), Token(10, b" g", 14, 16),
    ]
    pieces = {1: "a\r\n", 2: "b", 3: "\x00c", 4: "\ufeff", 5: "d·", 6: "e\u2581", 7: "▁", 8: "f", 9: "ĊĊ", 10: "Ġg"}
    markup = render_spans(text, tokens, show_whitespace=show_whitespace, raw_pieces=raw, piece=pieces.__getitem__)
    assert_facts(markup, tokens, piece=pieces.__getitem__)
    assert_facts(render_spans(text, tokens, show_whitespace=show_whitespace, raw_pieces=raw), tokens)


_TEXT = st.text(alphabet=st.sampled_from(list("ab é\n\t\r\u00a0·▁Ġ<>&\"'😀你\u200d\x00")), max_size=14)


@settings(max_examples=150, deadline=None)
@given(text=_TEXT, data=st.data())
def test_facts_survive_any_tokenization(text: str, data: st.DataObject) -> None:
    """Random cuts, random bytes (right or not for the text), kinds and pieces: all read back exactly."""
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=6)) | {0, len(text)})
    tokens = []
    for i, (start, end) in enumerate(zip(cuts, cuts[1:], strict=False)):
        kind = data.draw(st.sampled_from([TEXT, TEXT, TEXT, SPECIAL, UNKNOWN, BYTE_FALLBACK]))
        own = data.draw(st.one_of(st.just(text[start:end].encode("utf-8", "surrogatepass")), st.binary(max_size=4)))
        tokens.append(Token(i, own, start, end, kind))
        if data.draw(st.booleans()):  # a byte token sharing the same characters (a group)
            tokens.append(Token(100 + i, data.draw(st.binary(min_size=1, max_size=3)), start, max(end, start + 1)))
    if data.draw(st.booleans()):
        tokens.insert(0, Token(999, b"<s>", 0, 0, ADDED))
    tokens = [t for t in tokens if t.end <= len(text)]
    piece_text = data.draw(st.dictionaries(st.integers(0, 999), _TEXT))
    piece = data.draw(st.sampled_from([None, lambda i: piece_text.get(i, f"p{i}")]))
    options = {"show_whitespace": data.draw(st.booleans()), "raw_pieces": data.draw(st.booleans())}
    markup = render_spans(text, tokens, piece=piece, extra_title=lambda t: f"x{t.id}" if t.id % 2 else "", **options)
    assert_facts(markup, tokens, piece=piece, extra=lambda t: f"x{t.id}" if t.id % 2 else "")


def test_real_tokenizers_on_the_default_sample_are_compact_and_exact(data_dir: Path) -> None:
    """The issue's budget: at most 35 bytes of markup per token on the default sample, facts exact."""
    from core import pretrained

    text = SAMPLE.read_text(encoding="utf-8")
    sizes = tokens_total = 0
    for key in pretrained.DEFAULT_KEYS:
        tokenizer = load_once(key)
        tokens = tokenizer.encode(text)
        markup = render_spans(text, tokens, piece=tokenizer.piece)
        assert_facts(markup, tokens, piece=tokenizer.piece)
        for options in ({"show_whitespace": True}, {"raw_pieces": True}):
            assert_facts(render_spans(text, tokens, piece=tokenizer.piece, **options), tokens, piece=tokenizer.piece)
        sizes += len(markup.encode())
        tokens_total += len(tokens)
        assert len(markup.encode()) / len(tokens) <= 36, key
    assert sizes / tokens_total <= 35


def test_the_first_tokens_of_a_longer_encoding_say_how_many_there_are_in_all() -> None:
    """Given only the first tokens (a long text's head), the note and "Show more" count them all."""
    text = "abcdefghij"
    head = char_tokens(text)[:4]
    body = render_spans(text, head, limit=3, total=10, more="pg_more_x")
    assert len(read_facts(body)) == 3 and "showing 3 of 10 tokens" in body and 'data-more="pg_more_x"' in body
    whole = render_spans(text, head, limit=4, total=4)
    assert "tp-limit" not in whole and "data-more" not in whole
    with pytest.raises(ValueError, match="total"):
        render_spans(text, head, total=3)


def test_a_zwj_sequence_is_held_on_one_line_with_short_joiner_names() -> None:
    """Issue 21, item 7: a family emoji (man ZWJ woman ZWJ girl) under a byte-level BPE: one no-wrap
    run, no break opportunity inside it, and each joiner's group named in a few letters."""
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    text = f"a {family} b"
    data = text.encode()
    tokens, at = [Token(1, b"a", 0, 1)], 1
    for i, ch in enumerate(text[1:], start=1):
        size = len(ch.encode())
        if size == 1:
            tokens.append(Token(at + 100, ch.encode(), i, i + 1))
        else:  # split every multi-byte character into two tokens, as GPT-2 does
            tokens += [Token(at + 200, ch.encode()[:2], i, i + 1), Token(at + 300, ch.encode()[2:], i, i + 1)]
        at += 1
    assert b"".join(t.bytes for t in tokens) == data
    markup = render_spans(text, tokens)
    run = re.search(r"<span class=tp-nobr>(.*?)</span>(?=<wbr>)", markup)
    assert run is not None and "<wbr>" not in run.group(1)
    assert run.group(1).count('class="tp-group tp-zwj"') == 2
    assert ".tp-zwj s[data-c]::after" in CSS.read_text()
