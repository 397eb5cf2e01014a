"""ui.bpe.render: the BPE page's HTML and tables, tested as strings and frames."""

from __future__ import annotations

import functools
import html

import pytest

from core import bpe
from core.types import Token
from ui.bpe import render
from ui.spans import token_color

CORPUS = (
    "the lower tower was lower than the low tower; the lowest tower was the newest. "
    "<b>bold</b> & \"quoted\" text, 12345 numbers, ünïcödé and 🙂 emoji. " * 8
)


@functools.cache
def model(mode: str = "byte", merges: int = 120) -> bpe.BPEResult:
    return bpe.train(CORPUS, num_merges=merges, mode=mode)


def byte_piece(i: int) -> bytes:
    return bytes([i])


def step(**changes: object) -> bpe.MergeStep:
    values = {"rank": 0, "left": 97, "right": 98, "new_id": 256, "piece": b"ab", "count": 5, "n_tied": 1,
              "top": ((97, 98, 5), (98, 99, 3)), "tokens_after": 10}
    values.update(changes)
    return bpe.MergeStep(**values)


# -- chips and the merge line ---------------------------------------------------------------------


def test_chip_escapes_and_shows_whitespace_in_the_span_palette() -> None:
    out = render.chip(300, b' <a href="x">\n')
    assert "<a " not in out and "&lt;a·href=&quot;x&quot;&gt;" in out
    assert "·" in out and "↵" in out
    assert f"tp-c{token_color(300)}" in out


def test_chip_of_a_broken_utf8_byte_shows_hex_not_a_replacement_character() -> None:
    out = render.chip(195, b"\xc3")
    assert "\ufffd" not in out and "\\xC3" in out


def test_merge_line_shows_the_three_pieces_the_count_and_the_step() -> None:
    s = step(left=32, right=116, piece=b" t", count=1234)
    out = render.merge_line_html(render.step_parts(s, byte_piece), k=1, n=300, note="count 1,234")
    assert "step 1 of 300" in out and "count 1,234" in out
    assert out.count("bpe-chip") == 3 and out.index("+") < out.index("→")
    assert "·t" in out  # the new token, its leading space visible


def test_merge_line_marks_a_tie_and_escapes_the_note() -> None:
    out = render.merge_line_html(render.step_parts(step(n_tied=4), byte_piece), k=3, n=9, note="<rank>", n_tied=4)
    assert "tie of 4" in out and "&lt;rank&gt;" in out


def test_merge_line_before_any_merge_says_so() -> None:
    out = render.merge_line_html(None, k=0, n=10, unit="characters")
    assert "step 0 of 10" in out and "single characters" in out and "bpe-chip" not in out


# -- the leaderboard ---------------------------------------------------------------------------------


def test_leaderboard_lists_the_top_pairs_winner_first() -> None:
    s = step(top=((97, 98, 5), (98, 99, 3), (99, 100, 2)))
    out = render.leaderboard_html(s, piece=byte_piece)
    assert out.count("<tr") == 4  # header and three pairs
    assert out.index(">a</span>") < out.index(">c</span>")
    assert 'class="bpe-first"' in out and "bpe-tiemark" not in out


def test_leaderboard_marks_every_pair_with_the_top_count_as_tied() -> None:
    s = step(count=5, n_tied=3, top=((97, 98, 5), (98, 99, 5), (99, 100, 5), (100, 101, 4)))
    out = render.leaderboard_html(s, piece=byte_piece)
    assert out.count("bpe-tiemark") == 3


def test_tie_note_names_the_rule_and_the_winner() -> None:
    s = step(n_tied=3, top=((97, 98, 5), (98, 99, 5), (99, 100, 5)))
    note = render.tie_note(s, rule=bpe.TIE_BREAKS["largest_pair"], piece=byte_piece)
    assert note == "3 pairs tied at the top count (5); the rule 'ties go to the largest pair, by its two ids' picked a + b."


def test_tie_note_without_a_tie_gives_the_margin() -> None:
    assert render.tie_note(step(), rule="r", piece=byte_piece) == "a + b won outright: 5 against 3 for the runner-up."
    assert "only pair" in render.tie_note(step(top=((97, 98, 5),)), rule="r", piece=byte_piece)


def test_the_real_trace_has_ties_and_the_leaderboard_shows_them() -> None:
    tied = next(s for s in model().trace if s.n_tied > 1)
    out = render.leaderboard_html(tied, piece=model().tokenizer.piece)
    assert out.count("bpe-tiemark") == min(tied.n_tied, len(tied.top))


# -- the merges table ------------------------------------------------------------------------------------


def test_merges_frame_has_one_row_per_merge_counting_from_one() -> None:
    result = model()
    frame = render.merges_frame(result.trace, piece=result.tokenizer.piece, base=256)
    assert len(frame) == len(result.trace)
    first = frame.iloc[0]
    assert first["merge"] == 1 and first["id"] == 256
    assert first["count"] == result.trace[0].count
    assert list(frame["corpus tokens"]) == [s.tokens_after for s in result.trace]
    assert list(frame["vocabulary size"]) == list(range(257, 257 + len(result.trace)))


def test_filter_matches_shown_and_raw_forms_and_numbers() -> None:
    result = model()
    frame = render.merges_frame(result.trace, piece=result.tokenizer.piece, base=256)
    assert render.filter_merges(frame, "") is frame
    dotted = render.filter_merges(frame, "·t")
    spaced = render.filter_merges(frame, " t")
    assert len(dotted) > 0 and list(dotted.index) == list(spaced.index)
    assert list(render.filter_merges(frame, "3")["merge"]).count(3) == 1  # the number matches merge 3 …
    assert 258 in set(render.filter_merges(frame, "258")["id"])  # … and id 258
    assert render.filter_merges(frame, "zzzz-not-there").empty


def test_filter_is_not_a_regex() -> None:
    result = model()
    frame = render.merges_frame(result.trace, piece=result.tokenizer.piece, base=256)
    assert render.filter_merges(frame, "(").shape[1] == frame.shape[1]  # no re.error


# -- merge trees -------------------------------------------------------------------------------------------


def test_merge_tree_goes_back_to_bytes() -> None:
    result = model()
    tok = result.tokenizer
    token_id = render.longest_token(result.trace)
    out = render.merge_tree_html(token_id, trace=result.trace, base=256, piece=tok.piece)
    n_bytes = len(tok.vocab[token_id])
    assert out.count("base symbol") == n_bytes  # every leaf is a byte
    assert out.count("bpe-chip") == 2 * n_bytes - 1  # a binary tree with n leaves
    assert out.startswith('<ul class="bpe-tree">')


def test_merge_tree_of_a_base_symbol_is_one_leaf() -> None:
    out = render.merge_tree_html(97, trace=model().trace, base=256, piece=byte_piece)
    assert out.count("bpe-chip") == 1 and "base symbol" in out


def test_merge_tree_in_char_mode_ends_in_characters() -> None:
    result = model("char", 60)
    tok = result.tokenizer
    token_id = render.longest_token(result.trace)
    out = render.merge_tree_html(token_id, trace=result.trace, base=tok.base_size, piece=tok.piece)
    assert "&lt;/w&gt;" in out or "base symbol" in out
    assert "</w>" not in out.replace("</ul>", "").replace("</li>", "").replace("</span>", "")


def test_longest_token_of_an_empty_trace_is_none() -> None:
    assert render.longest_token(()) is None


# -- highlights ------------------------------------------------------------------------------


def test_highlight_indices_pick_the_new_token_only() -> None:
    result = model()
    tok = result.tokenizer
    text = "the lower tower"
    k = next(k for k in range(1, len(result.trace) + 1) if tok.changed_spans(text, k))
    tokens = tok.segment(text, k)
    lit = render.highlight_indices(tokens, tok.changed_spans(text, k), result.trace[k - 1].new_id)
    assert lit and all(tokens[i].id == result.trace[k - 1].new_id for i in lit)
    assert render.highlight_indices(tokens, [], 5) == set()


def test_highlight_ignores_other_ids_over_the_same_span() -> None:
    tokens = [Token(1, b"\xf0\x9f", 0, 1), Token(2, b"\x99\x82", 0, 1)]
    assert render.highlight_indices(tokens, [(0, 1)], 2) == {1}


# -- the chunk strip under a replay ---------------------------------------------------------------------------


def test_chunks_html_escapes_alternates_and_covers_the_text() -> None:
    text = 'Hi <script>alert("x")</script>\n'
    spans = [(0, 3), (3, 11), (11, len(text))]
    out = render.chunks_html(text, spans, show_whitespace=False)
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert out.count("bpe-chunk0") == 2 and out.count("bpe-chunk1") == 1
    inner = [part.split(">", 1)[1] for part in out.split('<span class="bpe-chunk ')[1:]]
    assert html.unescape("".join(p.rsplit("</span>", 1)[0] for p in inner)) == text


def test_chunks_html_shows_whitespace_marks_when_asked() -> None:
    out = render.chunks_html(" a\tb\n", [(0, 2), (2, 3), (3, 5)], show_whitespace=True)
    assert "·" in out and "→" in out and "↵" in out
    assert 'title="pre-token 1: ·a (2 bytes)"' in out


@pytest.mark.parametrize("text", ["", "x"])
def test_chunks_html_of_tiny_texts(text: str) -> None:
    spans = [(0, len(text))] if text else []
    assert render.chunks_html(text, spans).count('class="bpe-chunk ') == len(spans)
