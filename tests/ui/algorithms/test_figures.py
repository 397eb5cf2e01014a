"""ui.algorithms.figures: the Unigram lattice as a figure object: a box per piece, the best path on top."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from core import corpora, unigram
from ui.algorithms import figures


@pytest.fixture(scope="module")
def tok() -> unigram.UnigramTokenizer:
    return unigram.train(corpora.load_corpus("sample_essay_en"), vocab_size=500).tokenizer


def boxes(fig: go.Figure) -> list:
    return [shape for shape in fig.layout.shapes if shape.type == "rect"]


def test_one_box_per_piece_that_fits_and_the_path_on_top(tok: unigram.UnigramTokenizer) -> None:
    lattice = tok.lattice("understanding")
    fig = figures.lattice_figure(lattice)
    assert len(boxes(fig)) == len(lattice.edges) > len(lattice.symbols)
    path, others = fig.data
    assert path.name == "Viterbi path" and len(path.x) == len(lattice.best)
    assert len(others.x) == len(lattice.edges) - len(lattice.best)
    assert set(path.y) == {0} and min(others.y) < 0
    on_path = [b for b in boxes(fig) if b.fillcolor == figures.PATH_COLOR]
    assert len(on_path) == len(lattice.best)
    # the path's boxes tile the word end to end
    spans = sorted((round(b.x0), round(b.x1)) for b in on_path)
    assert spans[0][0] == 0 and spans[-1][1] == len(lattice.symbols)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))


def test_labels_show_each_piece_and_its_log_probability(tok: unigram.UnigramTokenizer) -> None:
    lattice = tok.lattice("understanding")
    fig = figures.lattice_figure(lattice)
    labels = [*fig.data[0].text, *fig.data[1].text]
    for edge in lattice.edges:
        assert f"{edge.piece}<br>{edge.log_prob:.2f}".replace("-", "−") in labels
    best = " + ".join(lattice.edges[i].piece for i in lattice.best)
    assert best in fig.layout.title.text and f"{len(lattice.edges):,} pieces that fit" in fig.layout.title.text
    assert list(fig.layout.xaxis.ticktext) == list(lattice.symbols)


def test_boxes_on_one_lane_never_overlap(tok: unigram.UnigramTokenizer) -> None:
    for word in ("understanding", "tokenizers", "letters", "a"):
        lattice = tok.lattice(word)
        lanes = figures.lanes(lattice)
        assert all(lanes[i] == 0 for i in lattice.best)
        assert all(lane > 0 for i, lane in enumerate(lanes) if i not in set(lattice.best))
        for lane in set(lanes):
            spans = sorted((e.start, e.end) for e, on in zip(lattice.edges, lanes, strict=True) if on == lane)
            assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))
        assert len(figures.lattice_figure(lattice).layout.shapes) >= len(lattice.edges)


def test_an_unknown_character_is_a_red_dashed_box_and_user_text_stays_text(tok: unigram.UnigramTokenizer) -> None:
    fig = figures.lattice_figure(tok.lattice("a<b>🙂"))
    unknown = [b for b in boxes(fig) if b.fillcolor == figures.UNK_FILL]
    assert len(unknown) >= 2 and all(b.line.dash == "dash" for b in unknown)  # "<" ">" and 🙂 are not in the essay
    assert "&lt;b&gt;" in fig.layout.title.text and "<b>" not in fig.layout.title.text


def test_the_frame_holds_every_piece_once(tok: unigram.UnigramTokenizer) -> None:
    lattice = tok.lattice("letters")
    frame = figures.lattice_frame(lattice)
    assert len(frame) == len(lattice.edges) and frame["on best path"].sum() == len(lattice.best)
    assert list(frame.columns) == ["start", "end", "piece", "log-probability", "on best path"]
