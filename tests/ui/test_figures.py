"""ui.figures: the tokens-vs-vocabulary chart as a figure object, its data frame, the shared colors."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from core.types import ALGORITHMS
from ui import figures


def curve(n_merges: int, start: int = 10_000) -> list[int]:
    """A made-up corpus size after each of ``n_merges`` merges, shrinking like a real one."""
    return [start - 3 * k + k * k // (2 * n_merges + 1) for k in range(n_merges + 1)]


def test_the_curve_and_the_marker_are_two_traces() -> None:
    tokens = curve(300)
    fig = figures.tokens_vs_vocab_figure(base=256, tokens=tokens, k=120)
    assert isinstance(fig, go.Figure)
    line, marker = fig.data
    assert line.mode == "lines" and marker.mode == "markers"
    assert list(line.x) == [256 + i for i in range(301)]  # short curves are drawn whole
    assert list(line.y) == tokens
    assert marker.x == (256 + 120,) and marker.y == (tokens[120],)


@pytest.mark.parametrize("k", [0, 1, 7_777, 20_000])
def test_the_marker_sits_on_the_exact_value_even_when_the_curve_is_sampled(k: int) -> None:
    tokens = curve(20_000, start=1_000_000)
    fig = figures.tokens_vs_vocab_figure(base=256, tokens=tokens, k=k)
    line, marker = fig.data
    assert len(line.x) <= figures.MAX_POINTS + 1
    assert line.x[0] == 256 and line.x[-1] == 256 + 20_000  # the ends are always kept
    assert marker.x == (256 + k,) and marker.y == (tokens[k],)
    assert marker.customdata == (k,)


def test_log_x_only_when_the_vocabulary_spans_a_decade() -> None:
    short = figures.tokens_vs_vocab_figure(base=256, tokens=curve(300), k=0)
    long = figures.tokens_vs_vocab_figure(base=256, tokens=curve(10_000), k=0)
    assert short.layout.xaxis.type == "linear"
    assert long.layout.xaxis.type == "log"
    assert "log" in long.layout.xaxis.title.text and "log" not in short.layout.xaxis.title.text


def test_the_title_says_the_message_with_both_ends() -> None:
    fig = figures.tokens_vs_vocab_figure(base=256, tokens=[1_115_394, 700_000, 412_345], k=2)
    assert fig.layout.title.text == "Each merge shortens the corpus: 1.1 M → 412 k tokens"
    assert fig.layout.yaxis.title.text == "tokens in the training corpus"
    assert fig.layout.xaxis.title.text.startswith("vocabulary size")


def test_colors_come_from_the_algorithm_table() -> None:
    byte = figures.tokens_vs_vocab_figure(base=256, tokens=curve(10), k=3)
    char = figures.tokens_vs_vocab_figure(base=40, tokens=curve(10), k=3, algorithm="character BPE")
    assert byte.data[0].line.color == figures.ALGORITHM_COLORS["byte-level BPE"]
    assert char.data[0].line.color == figures.ALGORITHM_COLORS["character BPE"]
    assert byte.data[1].marker.color == figures.MARKER_COLOR


def test_every_algorithm_has_its_own_color() -> None:
    assert set(figures.ALGORITHM_COLORS) == set(ALGORITHMS)
    assert len(set(figures.ALGORITHM_COLORS.values())) == len(figures.ALGORITHM_COLORS)


def test_hover_shows_exact_values() -> None:
    fig = figures.tokens_vs_vocab_figure(base=256, tokens=curve(10), k=3)
    for trace in fig.data:
        assert "%{x:,}" in trace.hovertemplate and "%{y:,}" in trace.hovertemplate


@pytest.mark.parametrize("k", [-1, 11])
def test_k_out_of_range_is_refused(k: int) -> None:
    with pytest.raises(ValueError, match="k must be between 0 and 10"):
        figures.tokens_vs_vocab_figure(base=256, tokens=curve(10), k=k)


def test_an_empty_curve_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        figures.tokens_vs_vocab_figure(base=256, tokens=[], k=0)


def test_zero_merges_is_a_single_point() -> None:
    fig = figures.tokens_vs_vocab_figure(base=256, tokens=[500], k=0)
    assert list(fig.data[0].x) == [256] and fig.data[1].y == (500,)


def test_the_frame_holds_every_step_for_the_csv() -> None:
    frame = figures.tokens_vs_vocab_frame(base=256, tokens=[10, 8, 7])
    assert list(frame.columns) == ["merges", "vocabulary size", "tokens in corpus"]
    assert frame.to_dict("list") == {"merges": [0, 1, 2], "vocabulary size": [256, 257, 258], "tokens in corpus": [10, 8, 7]}


@pytest.mark.parametrize(("n", "most"), [(0, 5), (1, 5), (5, 5), (6, 5), (20_001, 1_200)])
def test_sample_indices_are_sorted_unique_and_keep_both_ends(n: int, most: int) -> None:
    picked = figures.sample_indices(n, most)
    assert picked == sorted(set(picked))
    assert len(picked) <= most + 1
    if n:
        assert picked[0] == 0 and picked[-1] == n - 1


@pytest.mark.parametrize(
    ("n", "text"), [(0, "0"), (950, "950"), (3_691, "3.7 k"), (412_345, "412 k"), (1_115_394, "1.1 M")]
)
def test_compact_counts(n: int, text: str) -> None:
    assert figures.compact(n) == text


def test_figure_frame_reads_every_trace_for_csv() -> None:
    from ui.figures import figure_frame

    fig = go.Figure([go.Scatter(x=[1, 2], y=[3, 4], name="line", text=["a", "b"]), go.Bar(x=["p"], y=[5]),
                     go.Heatmap(z=[[1, 2]], x=["c1", "c2"], y=["r1"], name="heat")])
    frame = figure_frame(fig)
    assert frame[frame.trace == "line"][["x", "y", "text"]].values.tolist() == [[1, 3, "a"], [2, 4, "b"]]
    assert frame[frame.trace == "trace 2"][["x", "y"]].values.tolist() == [["p", 5]]
    assert frame[frame.trace == "heat"][["x", "y", "value"]].values.tolist() == [["c1", "r1", 1], ["c2", "r1", 2]]


def test_presentation_type_is_large_and_dark_legends_included() -> None:
    figure = go.Figure(layout={"height": 400, "legend": {"font": {"size": 12}}})
    figures.for_presentation(figure)
    assert figure.layout.font.size == figures.PRESENTATION_FONT["size"]
    assert figure.layout.xaxis.tickfont.size >= 20 and figure.layout.yaxis.tickfont.size >= 20
    assert figure.layout.legend.font.size == figures.PRESENTATION_LEGEND_SIZE  # the chart's own 12 px grows
    assert figure.layout.height == 480


def test_presentation_keeps_a_legend_already_larger() -> None:
    figure = go.Figure(layout={"legend": {"font": {"size": 26}}})
    assert figures.for_presentation(figure).layout.legend.font.size == 26


def test_presentation_wraps_a_long_title_and_keeps_its_subtitle_room() -> None:
    title = "Each merge shortens the corpus: 3,700 tokens become 1,400 tokens here"
    figure = go.Figure(layout={"title": {"text": title, "subtitle": {"text": "a subtitle"}}, "margin": {"t": 80}})
    figures.for_presentation(figure)
    lines = figure.layout.title.text.split("<br>")
    assert " ".join(lines) == title and all(len(line) <= figures.PRESENTATION_TITLE_CHARS for line in lines)
    # anchored on the plot's top edge, the margin grows with it; what the figure planned under it is kept
    assert (figure.layout.title.yref, figure.layout.title.yanchor, figure.layout.title.automargin) == ("paper", "bottom", True)
    assert figure.layout.title.pad.b >= figures.PRESENTATION_SUBTITLE_ROOM


def test_presentation_puts_a_title_above_an_axis_drawn_over_the_plot() -> None:
    figure = go.Figure(
        go.Heatmap(z=[[1, 2]], x=["cl100k_base", "o200k_base"], y=["English"]),
        layout={"title": {"text": "XLM-R taxes other languages least (median 1.20×), GPT-2 most"},
                "xaxis": {"side": "top"}},
    )
    figures.for_presentation(figure)
    title = figure.layout.title
    assert (title.yref, title.yanchor, title.y) == ("container", "top", 1)
    lines = len(title.text.split("<br>"))
    # the top margin holds the title's lines and the 45° labels of "cl100k_base" under them
    assert figure.layout.xaxis.tickangle == -45
    assert figure.layout.margin.t >= title.pad.t + 31 * lines + 0.55 * 20 * len("cl100k_base") * 0.7
    assert figure.data[0].textfont.size == 16


def test_presentation_moves_a_legend_under_the_axis_title() -> None:
    figure = go.Figure(
        [go.Scatter(x=[1, 2], y=[1, 2], name="words"), go.Scatter(x=[1, 2], y=[2, 1], name="fit over ranks 10-1,000")],
        layout={"height": 400, "legend": {"orientation": "h", "y": -0.2}, "xaxis": {"title": {"text": "rank"}}},
    )
    figures.for_presentation(figure)
    legend = figure.layout.legend
    assert (legend.yref, legend.y, legend.yanchor) == ("container", 0, "bottom")
    # the bottom margin holds the ticks and the axis title, then the legend's row(s)
    assert figure.layout.margin.b >= figures.PRESENTATION_AXIS_ROOM + 18
    assert figure.layout.height > 480
