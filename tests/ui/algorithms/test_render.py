"""ui.algorithms.render: the grid, WordPiece's match steps and segmentation lists, tested as HTML strings."""

from __future__ import annotations

import html
import re

import pytest

from core import bpe, corpora, unigram, wordpiece
from core.measures.vocab_grid import Cell, train_models
from ui.algorithms import render

ESSAY = corpora.load_corpus("sample_essay_en")
NASTY = '<script>alert("x")</script> & 🙂'


@pytest.fixture(scope="module")
def wp() -> wordpiece.WordPieceTokenizer:
    return wordpiece.train(ESSAY, vocab_size=500).tokenizer


def test_cell_view_counts_tokens_and_unknown_ones_and_escapes_the_text(wp: wordpiece.WordPieceTokenizer) -> None:
    view = render.cell_view(Cell("wordpiece", 500, wp, "74 base", ""), NASTY, show_whitespace=False)
    tokens = wp.encode(NASTY)
    assert view.tokens == len(tokens) and view.unknown == sum(t.kind == "unknown" for t in tokens) >= 1
    assert "<script" not in view.spans and "&lt;" in view.spans and "&amp;" in view.spans


def test_cell_view_without_a_tokenizer_has_only_its_note() -> None:
    view = render.cell_view(Cell("bpe", 100, None, note="needs more than 256"), "hi", show_whitespace=True)
    assert view.spans == "" and view.tokens is None and view.note == "needs more than 256"


def test_cell_view_caps_the_drawing_not_the_count() -> None:
    tok = bpe.train(ESSAY, vocab_size=300).tokenizer
    text = ESSAY * 3
    view = render.cell_view(Cell("bpe", 300, tok), text, show_whitespace=False, limit=50)
    assert view.tokens == len(tok.encode(text)) > 50
    assert "showing 50 of" in view.spans


def test_grid_has_a_header_per_size_a_head_per_row_and_a_cell_each() -> None:
    models = {alg: train_models(alg, ESSAY, sizes=[100, 300, 1000]) for alg in ("bpe", "wordpiece", "unigram")}
    sizes = [100, 300, 1000]
    rows = [render.Row(alg.upper(), "kind <b>", "#123456", [render.cell_view(models[alg].cell(s), NASTY,
                                                                             show_whitespace=True) for s in sizes])
            for alg in models]
    out = render.grid_html(sizes, rows)
    assert out.count('class="al-head"') == 3 and out.count('class="al-rowhead"') == 3
    assert len(re.findall(r'class="al-cell[ "]', out)) == 9
    assert out.count('class="tp-spans"') == 8  # byte-level BPE cannot have 100: its cell is a note
    assert 'data-algorithm="bpe" data-size="100"' in out and "256 bytes come first" in out
    assert "--al-cols: 3" in out and "kind &lt;b&gt;" in out and "<script" not in out
    assert re.search(r'al-unk"> · \d+ unknown', out)


def test_a_unknown_free_cell_shows_no_unknown_count() -> None:
    tok = bpe.train(ESSAY, vocab_size=300).tokenizer
    out = render.grid_html([300], [render.Row("BPE", "", "#000", [render.cell_view(Cell("bpe", 300, tok), "hi 🙂",
                                                                                   show_whitespace=False)])])
    assert "unknown" not in out and "chars/token" in out


def test_match_steps_show_misses_hits_and_pieces() -> None:
    tok = wordpiece.WordPieceTokenizer(pieces=["[UNK]", "u", "un", "##a", "##able"])
    out = render.match_steps_html(tok.match_steps("unable"))
    assert out.count('class="al-hit"') == 2 and ">unable<" in out and ">##able<" in out
    assert out.count('class="al-step"') == 2  # from character 1 and from character 3
    assert 'class="al-piece">un<' in out and "[UNK]" not in out


def test_match_steps_count_the_misses_beyond_the_limit() -> None:
    tok = wordpiece.WordPieceTokenizer(pieces=["[UNK]", "a", "##b"])
    out = render.match_steps_html(tok.match_steps("abbbbbbbbb"), max_misses=4)
    first = out.split('class="al-step"')[1]
    assert first.count('class="al-miss"') == 4 and "… 5 more not found …" in first


def test_the_unk_case_names_the_whole_word_and_why() -> None:
    tok = wordpiece.WordPieceTokenizer(pieces=["[UNK]", "a", "##b"])
    out = render.match_steps_html(tok.match_steps("ab<x>b"))
    assert "nothing matches" in out and "tp-unk" in out
    assert "whole word “ab&lt;x&gt;b”" in out and "&#x27;##&lt;&#x27; is not in the vocabulary" in out
    assert "<x>" not in out
    long = render.match_steps_html(wordpiece.WordPieceTokenizer(pieces=["[UNK]", "a"], max_chars_per_word=3)
                                   .match_steps("aaaa"))
    assert "No look-up at all" in long and "max_chars_per_word" in long


def test_segmentation_rows_escape_labels_and_notes() -> None:
    tok = unigram.train("hug hugs pug pugs bun", vocab_size=14).tokenizer
    seg = tok.nbest("hugs", 2)
    rows = [(f"<{i}>", render.render_spans("hugs", s.tokens), f"log p {s.log_prob:.2f} <i>") for i, s in enumerate(seg)]
    out = render.segmentation_rows_html(rows)
    assert out.count('class="al-seg"') == 2 and "&lt;0&gt;" in out and "<i>" not in out
    assert html.escape("<i>") in out
