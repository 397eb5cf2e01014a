"""ui.words.figures: each chart's traces, titles and CSV frame, tested as objects; user words escaped."""

from __future__ import annotations

import numpy as np
import pytest

from core.corpora import load_corpus, split_heldout
from core.measures import compression, wordstats
from core.measures.units import unit_rows
from core.measures.vocab_cost import PRESETS
from ui.figures import ALGORITHM_COLORS
from ui.words import figures as fig

TEXT = "the <b>bold</b> cat & the dog; the cat sat on the mat. " * 30 + "<script>x</script> once"


@pytest.fixture(scope="module")
def stats() -> wordstats.WordStats:
    return wordstats.word_stats(TEXT, "whitespace")


@pytest.fixture(scope="module")
def sweep() -> compression.BPESweep:
    train, heldout = split_heldout(load_corpus("sample_essay_en"))
    return compression.bpe_sweep(train, heldout, max_vocab=600)


def test_zipf_figure_has_the_words_the_fit_and_the_shaded_window(stats: wordstats.WordStats) -> None:
    fit = wordstats.zipf_fit(stats, 1, 5)
    figure = fig.zipf_figure(stats, fit, (1, 5))
    words, line = figure.data
    assert words.mode == "markers" and list(words.x) == list(range(1, stats.types + 1))
    assert list(words.y) == stats.frequencies.tolist()
    assert "<b>" not in "".join(words.customdata) and "&lt;b&gt;bold&lt;/b&gt;" in words.customdata
    assert "<script>" not in "".join(words.customdata)
    assert line.line.dash == "dash" and list(line.x) == [1, 5]
    assert line.y[0] == pytest.approx(fit.constant)
    assert figure.layout.xaxis.type == "log" and figure.layout.yaxis.type == "log"
    (band,) = figure.layout.shapes
    assert (band.x0, band.x1) == (1, 5)
    assert f"{-fit.exponent:.2f}" in figure.layout.title.subtitle.text


def test_zipf_figure_without_a_fit_draws_the_words_only(stats: wordstats.WordStats) -> None:
    figure = fig.zipf_figure(stats, None, (100, 1_000))
    assert len(figure.data) == 1 and "no fit" in figure.layout.title.subtitle.text


def test_zipf_frame_lists_every_word(stats: wordstats.WordStats) -> None:
    frame = fig.zipf_frame(stats)
    assert list(frame.columns) == ["rank", "word", "frequency"]
    assert len(frame) == stats.types and frame["frequency"].is_monotonic_decreasing


def test_heaps_figure_marks_the_fitted_points() -> None:
    stats = wordstats.word_stats(load_corpus("sample_essay_en"))
    fit = wordstats.heaps_fit(stats)
    figure = fig.heaps_figure(stats, fit)
    curve, points, line = figure.data
    assert curve.mode == "lines" and points.mode == "markers" and line.line.dash == "dash"
    assert list(points.x) == fit.x.tolist() and f"the {len(fit.x)} points fitted" == points.name
    assert f"n^{fit.exponent:.2f}" in figure.layout.title.subtitle.text
    frame = fig.heaps_frame(stats, fit)
    assert frame["used in fit"].sum() == len(fit.x)
    assert frame["distinct words"].is_monotonic_increasing


def test_oov_figure_shows_the_floor() -> None:
    curve = wordstats.oov_curve(["a", "a", "b", "c"], ["a", "b", "z", "y"])
    figure = fig.oov_figure(curve)
    (line,) = figure.data
    assert list(line.x) == [1, 2, 3] and list(line.y) == [75.0, 50.0, 50.0]
    (floor,) = figure.layout.shapes
    assert floor.y0 == 50.0 and floor.line.dash == "dot"
    assert "50.0%" in figure.layout.title.text and figure.layout.xaxis.type == "log"
    assert list(fig.oov_frame(curve).columns) == ["word vocabulary size", "held-out OOV rate"]


def test_units_figure_has_one_bar_per_unit_in_algorithm_colors() -> None:
    rows = unit_rows("a cat, a hat", rule="letters", subwords=[("<i>BPE</i>", 6, 300), ("BERT", 5, 30_522)])
    figure = fig.units_figure(rows, {"<i>BPE</i>": "byte-level BPE", "BERT": "WordPiece"})
    (bars,) = figure.data
    assert list(bars.y) == ["words", "characters", "bytes", "&lt;i&gt;BPE&lt;/i&gt;", "BERT"]
    assert list(bars.x) == pytest.approx([1.0, 9.0, 9.0, 2.25, 1.5625])
    assert bars.marker.color[3] == ALGORITHM_COLORS["byte-level BPE"]
    assert bars.marker.color[4] == ALGORITHM_COLORS["WordPiece"]
    frame = fig.units_frame(rows)
    assert frame["attention cost × shortest"].tolist() == pytest.approx([1.0, 9.0, 9.0, 2.25, 1.5625])


def test_close_tokenizer_labels_never_overlap() -> None:
    """Issue 21, item 5: cl100k_base and o200k_base (with Llama 3 between them, taking turns) overlapped."""
    rows = [(50_257, 4.1, "GPT-2"), (100_277, 4.4, "cl100k_base"), (128_256, 4.5, "Llama 3"), (200_019, 4.6, "o200k_base")]
    shifts = fig.label_shifts(rows, x_range=(100, 200_019), y_top=5.0)
    width, height = fig.LABEL_PLOT_PX
    span = np.log10(200_019) - np.log10(100)
    boxes = []
    for (size, value, label), shift in zip(rows, shifts, strict=True):
        x = (np.log10(size) - 2) / span * width
        y = (1 - value / 5.0) * height - shift
        half = len(label) * fig.LABEL_CHAR_PX / 2
        boxes.append((x - half, x + half, y - fig.LABEL_LINE_PX / 2, y + fig.LABEL_LINE_PX / 2))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]), (rows, shifts)


def test_compression_figure_lines_points_ceiling_and_notes(sweep: compression.BPESweep) -> None:
    curve = sweep.curve([256, 400, 600])
    other = compression.Curve("Unigram", np.array([300, 500]), np.array([900, 800]), sweep.heldout_bytes, 0.1)
    points = [
        compression.TokenizerPoint("GPT-2 (r50k_base)", "byte-level BPE", 50_257, 700, sweep.heldout_bytes),
        compression.TokenizerPoint("<b>T5</b>", "Unigram", 32_000, 750, sweep.heldout_bytes),
    ]
    figure = fig.compression_figure([curve, other], points, ceiling=4.2,
                                    notes=["WordPiece: not available in this build"])
    dense, markers, unigram, *diamonds = figure.data
    assert dense.mode == "lines" and dense.line.color == ALGORITHM_COLORS["byte-level BPE"]
    assert dense.x[0] == 256 and dense.x[-1] == sweep.max_vocab
    assert list(markers.x) == [256, 400, 600]
    assert list(markers.y) == pytest.approx((sweep.heldout_bytes / curve.tokens).tolist())
    assert unigram.mode == "lines+markers" and unigram.line.color == ALGORITHM_COLORS["Unigram"]
    assert [d.x[0] for d in diamonds] == [32_000, 50_257]
    # the labels are annotations at the points (log10 x): the two close ones on either side, not one on the other
    labels = [a for a in figure.layout.annotations if a.text in ("&lt;b&gt;T5&lt;/b&gt;", "GPT-2")]
    assert [a.text for a in labels] == ["&lt;b&gt;T5&lt;/b&gt;", "GPT-2"]
    assert [a.x for a in labels] == pytest.approx([np.log10(32_000), np.log10(50_257)])
    assert labels[0].yshift > 0 > labels[1].yshift
    (ceiling,) = figure.layout.shapes
    assert ceiling.y0 == 4.2 and ceiling.line.dash == "dash"
    texts = [a.text for a in figure.layout.annotations]
    assert any("WordPiece: not available in this build" in t for t in texts)
    assert figure.layout.xaxis.type == "log"
    frame = fig.compression_frame([curve, other], points, 4.2)
    assert set(frame["kind"]) == {"trained here", "real tokenizer", "ceiling: one token per pre-token"}
    assert (frame["name"] == "BPE").sum() == sweep.max_vocab - 255  # every size of the one run
    assert "real tokenizer,GPT-2 (r50k_base),50257,700," in frame.to_csv(index=False)


def test_vocab_cost_figure_stacks_embedding_and_untied_output() -> None:
    figure = fig.vocab_cost_figure(PRESETS)
    embedding, output = figure.data
    assert list(embedding.y) == [p.name for p in PRESETS]
    gpt2 = PRESETS[0]
    assert embedding.x[0] == pytest.approx(100 * 50_257 * 768 / gpt2.params)
    assert output.x[0] == 0  # tied
    assert output.x[2] == pytest.approx(embedding.x[2])  # Llama 2: untied, the same again
    assert "31% of GPT-2 small" in figure.layout.title.text
    frame = fig.vocab_cost_frame(PRESETS)
    assert frame["source"].str.contains("config.json").all()
    assert frame.loc[0, "embedding params"] == 38_597_376


def test_short_labels() -> None:
    assert fig.short_label("o200k_base (GPT-4o)") == "o200k_base"
    assert fig.short_label("Mistral 7B v0.1 / Mixtral 8x7B") == "Mistral 7B v0.1"
