"""ui.beyond.figures: the page's charts as plotly objects."""

from __future__ import annotations

import numpy as np
import pytest

from core import corpora
from core.beyond import superbpe
from ui.beyond import figures, frames


def test_entropy_figure_marks_patch_starts_and_the_global_threshold() -> None:
    text = "aé b"
    h = np.array([6.0, 1.0, 1.5, 0.5, 4.0])  # 5 bytes: a, é (2), space, b
    fig = figures.entropy_figure(text, h, np.array([0, 4]), threshold=3.0, rule="global")
    line, marks = fig.data
    assert list(line.y) == h.tolist() and list(marks.x) == [0, 4] and list(marks.y) == [6.0, 4.0]
    assert fig.layout.shapes[0].y0 == 3.0  # the threshold line
    assert "2 patches" in fig.layout.title.text and "above 3.00 bits" in fig.layout.title.text
    # a short text is labelled with its characters, once per character, whitespace made visible
    assert list(fig.layout.xaxis.tickvals) == [0, 1, 3, 4]
    assert list(fig.layout.xaxis.ticktext) == ["a", "é", "·", "b"]
    assert line.customdata[2] == "é · byte A9"


def test_entropy_figure_relative_rule_has_no_threshold_line_and_long_texts_are_cut() -> None:
    n = figures.MAX_PLOT_BYTES + 500
    text = "x" * n
    h = np.linspace(0, 8, n)
    fig = figures.entropy_figure(text, h, np.array([0, 10, n - 1]), threshold=1.0, rule="relative")
    assert len(fig.layout.shapes) == 0
    assert len(fig.data[0].x) == figures.MAX_PLOT_BYTES and list(fig.data[1].x) == [0, 10]
    assert f"first {figures.MAX_PLOT_BYTES:,} of {n:,} bytes" in fig.layout.title.text
    assert "rises by more than 1.00" in fig.layout.title.text


def test_costs_figure_says_the_first_tokenizers_numbers() -> None:
    frame = frames.bytes_cost_frame(400, {"A": (100, 50_000), "B": (50, 100_000)})
    fig = figures.costs_figure(frame)
    attention, output = fig.data
    assert list(attention.x) == ["A", "B"] and list(attention.y) == [16.0, 64.0]
    assert output.y[0] == pytest.approx(400 * 259 / (100 * 50_000))
    assert "4.0× as long as under A: 16× the attention" in fig.layout.title.text
    assert fig.layout.yaxis.type == "log"
    assert "Pick a tokenizer" in figures.costs_figure(frames.bytes_cost_frame(10, {})).layout.title.text


def test_languages_figure_per_100_bytes_sorted_by_patches() -> None:
    frame = frames.languages_frame(["English", "Thai"], [100, 400], [30, 40], {"gpt2": [25, 200]})
    fig = figures.languages_figure(frame, ["gpt2"])
    patches, gpt2 = fig.data
    assert list(patches.x) == ["Thai", "English"]  # 10 vs 30 patches per 100 bytes
    assert list(patches.y) == [10.0, 30.0] and list(gpt2.y) == [50.0, 25.0]
    assert list(gpt2.customdata) == [200, 25]
    assert patches.marker.color == figures.PATCH_COLOR and gpt2.marker.color == figures.tokenizer_color(0)


def test_superword_curve_branches_at_the_transition() -> None:
    corpus = corpora.load_corpus("sample_essay_en")
    plain = superbpe.bpe.train(corpus, vocab_size=600)
    result = superbpe.train(corpus, vocab_size=600, transition=450, stage1=plain)
    fig = figures.superword_curve_figure(superbpe.plain_prefix(plain, result.vocab_size), result)
    curve, sup, mark = fig.data
    assert curve.x[0] == 256 and sup.x[0] == result.transition == mark.x[0]
    assert sup.y[-1] < curve.y[-1]
    assert "superwords:" in fig.layout.title.text and "%" in fig.layout.title.text
    assert fig.layout.xaxis.range[1] == result.vocab_size
