"""ui.tax.figures: the Language tax charts and frames, tested as objects on tables of known numbers."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from core.tax.language_tax import context_fit, language_tax
from core.tax.parallel_corpus import ParallelCorpus, ParallelLanguage, load_parallel
from core.types import ADDED, TEXT, UNKNOWN, Token
from ui.tax import figures as tf


class Scaled:
    """``factor`` tokens per character (at least one per text): a tokenizer with a known premium."""

    lossless = True

    def __init__(self, name: str, factor: float) -> None:
        self.name, self.factor = name, factor

    def count(self, text: str) -> int:
        return max(1, round(len(text) * self.factor)) if text else 0


class NoCyrillic:
    """A lossy tokenizer: a token per character, every Cyrillic one unknown."""

    name, lossless = "no-cyrillic", False

    def encode(self, text: str) -> list[Token]:
        out = [Token(1, b"<s>", 0, 0, ADDED)]
        for i, ch in enumerate(text):
            cyrillic = "\u0400" <= ch <= "\u04ff"
            out.append(Token(0 if cyrillic else 2, b"", i, i + 1, UNKNOWN if cyrillic else TEXT))
        return out


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    tokenizers = {
        "gpt2": Scaled("GPT-2 (r50k_base)", 0.5), "cl100k_base": Scaled("cl100k_base (GPT-3.5 / GPT-4)", 0.4),
        "o200k_base": Scaled("o200k_base (GPT-4o)", 0.3), "llama2": Scaled("Llama 2", 0.45),
        "llama3": Scaled("Llama 3 / 3.1 / 3.2 / 3.3", 0.35), "lossy": NoCyrillic(),
    }
    return language_tax(load_parallel("sample"), tokenizers, base="en")


def bars(fig) -> list:
    return [trace for trace in fig.data if trace.type == "bar"]


def test_short_names_ratios_and_labels() -> None:
    assert tf.short_name("qwen", "Qwen 1.5 / 2 / 2.5 / 3") == "Qwen"
    assert tf.short_name("whatever", "Some tokenizer (v2)") == "Some tokenizer"
    assert (tf.fmt_ratio(1), tf.fmt_ratio(9.999), tf.fmt_ratio(10.04), tf.fmt_ratio(math.inf)) == (
        "1.00×", "10.00×", "10.0×", "—")
    frame = pd.DataFrame({"language": ["a", "b", "c"], "name": ["Urdu", "Urdu", "Hindi"]})
    assert tf.labels(frame).to_dict() == {"a": "Urdu (a)", "b": "Urdu (b)", "c": "Hindi"}


def test_every_script_keeps_one_color() -> None:
    colors = [tf.script_color(s) for s in ("Latn", "Cyrl", "Deva", "Mymr", "Ethi", "Hans", "Jpan", "Hang")]
    assert len(set(colors)) == len(colors)
    assert tf.script_color("Cher") == tf.script_color("Cher") and tf.script_color("Zzzz").startswith("#")


def test_bars_are_sorted_colored_by_script_and_carry_language_codes(table: pd.DataFrame) -> None:
    fig = tf.premium_bars(table, "cl100k_base", focus="my")
    order = list(fig.layout.xaxis.categoryarray)
    rows = table[table["tokenizer"] == "cl100k_base"]
    premium = dict(zip(tf.labels(table)[rows["language"]], rows["premium"], strict=True))
    assert [premium[label] for label in order] == sorted(premium[label] for label in order)
    assert len(order) == len(rows) == 42
    for trace in bars(fig):
        codes = list(trace.customdata)
        scripts = set(rows.set_index("language").loc[codes, "script"])
        assert len(scripts) == 1 and trace.marker.color == tf.script_color(scripts.pop())
    focused = [t for t in bars(fig) if "my" in t.customdata][0]
    assert focused.marker.line.color[list(focused.customdata).index("my")] == "#d9480f"
    markers = {t.name: t for t in fig.data if t.type == "scatter"}
    assert set(markers) == {"UTF-8 bytes ratio", "characters ratio"}
    assert list(markers["UTF-8 bytes ratio"].x) == order


def test_the_bar_title_says_the_message(table: pd.DataFrame) -> None:
    rows = table[(table["tokenizer"] == "cl100k_base") & ~table["is_base"]]
    dearest = rows.loc[rows["premium"].idxmax()]
    title = tf.premium_bars(table, "cl100k_base").layout.title.text
    assert title == f"{dearest['name']} costs {tf.fmt_ratio(dearest['premium'])} the tokens of English under cl100k_base"


def test_lossy_bars_are_hatched_and_labelled(table: pd.DataFrame) -> None:
    fig = tf.premium_bars(table, "lossy")
    cyrillic = [t for t in bars(fig) if t.name == "Cyrillic"][0]
    shares = table[(table["tokenizer"] == "lossy")].set_index("language")["unknown_share"]
    assert set(cyrillic.marker.pattern.shape) == {"/"}
    assert list(cyrillic.text) == [f"{shares[code]:.0%} unk" for code in cyrillic.customdata]
    assert all(shares[code] > 0.5 for code in cyrillic.customdata)
    latin = [t for t in bars(fig) if t.name == "Latin"][0]
    assert set(latin.marker.pattern.shape) == {""} and set(latin.text) == {""}
    assert "with unknown tokens" in fig.layout.title.text
    assert "unknown tokens" in cyrillic.hovertext[0]


def test_the_heatmap_diverges_around_one(table: pd.DataFrame) -> None:
    fig = tf.premium_heatmap(table)
    (trace,) = fig.data
    z = np.asarray(trace.z, dtype=float)
    assert z.shape == (42, 6) and trace.zmid == 0 and trace.zmin == -trace.zmax
    assert list(trace.x) == ["GPT-2", "cl100k_base", "o200k_base", "Llama 2", "Llama 3", "no-cyrillic"]
    english = list(trace.y).index("English")
    assert np.allclose(z[english], 0.0)  # the base: 1× under every tokenizer
    russian = list(trace.y).index("Russian")
    share = table[(table["tokenizer"] == "lossy") & (table["language"] == "ru")]["unknown_share"].iloc[0]
    assert trace.text[russian][5].endswith(f" ⚠{share:.0%} unk") and "⚠" not in trace.text[russian][0]
    assert trace.text[russian][0] == tf.fmt_ratio(2 ** z[russian][0])
    means = np.nanmean(z, axis=1)
    assert list(means) == sorted(means)
    assert "taxes other languages least" in fig.layout.title.text


def test_the_heatmap_can_group_rows_by_script(table: pd.DataFrame) -> None:
    premium, _ = tf.heatmap_frame(table, order="script")
    names = table.drop_duplicates("language").set_index("name")["script"]
    scripts = [names[label] for label in premium.index]
    firsts = list(dict.fromkeys(scripts))
    assert scripts == sorted(scripts, key=firsts.index)  # each script's rows together
    assert firsts[:3] == ["Latn", "Cyrl", "Grek"]


def test_the_slope_chart_follows_each_generation(table: pd.DataFrame) -> None:
    fig = tf.generations_figure(table)
    panels = {trace.xaxis for trace in fig.data}
    assert panels == {"x", "x2"}
    openai = [t for t in fig.data if t.xaxis == "x"]
    assert {x for t in openai for x in t.x if x} == {"GPT-2", "cl100k_base", "o200k_base"}
    assert fig.layout.yaxis.type == "log" and fig.layout.yaxis2.matches == "y"
    lines = sum(list(t.x).count(None) for t in openai)
    assert lines == 41  # every language but the base, once per panel
    assert fig.layout.title.text.startswith("From GPT-2 to o200k_base, ")
    labels = [a for a in fig.layout.annotations if a.xref in ("x", "x2")]
    heights = sorted(a.y for a in labels if a.xref == "x2")
    assert all(b - a >= 0.07 - 1e-9 for a, b in zip(heights, heights[1:], strict=False))


def test_no_slope_chart_without_a_whole_generation(table: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match="no complete generation"):
        tf.generations_figure(table[table["tokenizer"].isin(["gpt2", "cl100k_base", "llama3"])])


def test_label_heights_are_spread_apart() -> None:
    assert tf._spread(np.array([2.0, 1.0, 1.0]), gap=0.5) == {0: 2.0, 1: 1.0, 2: 1.5}


def test_big_selections_chart_the_cheapest_and_dearest_and_the_base() -> None:
    languages = tuple(ParallelLanguage(f"l{i}", f"L{i}", "und", "Latn", "ltr") for i in range(100))
    segments = {f"l{i}": {"1": "x" * (i + 1)} for i in range(100)}
    corpus = ParallelCorpus("big", "Big", "text", languages, ("1",), segments, "t", "t", fingerprint="big")
    big = language_tax(corpus, {"s": Scaled("s", 1.0)}, base="l50")
    rows = tf.chart_rows(big, "s")
    assert len(rows) == 61 and "l50" in set(rows["language"])
    assert {"l0", "l29", "l70", "l99"} <= set(rows["language"]) and "l40" not in set(rows["language"])
    assert len(tf.premium_bars(big, "s").layout.xaxis.categoryarray) == 61


def test_names_stay_text_in_hover() -> None:
    languages = (ParallelLanguage("a", "<b>A</b>", "und", "Latn", "ltr"), ParallelLanguage("b", "B&C", "und", "Latn", "ltr"))
    corpus = ParallelCorpus("x", "X", "text", languages, ("1",), {"a": {"1": "ab"}, "b": {"1": "abcd"}}, "t", "t",
                            fingerprint="x")
    fig = tf.premium_bars(language_tax(corpus, {"s": Scaled("s", 1.0)}, base="a"), "s")
    hover = "".join(text for trace in bars(fig) for text in trace.hovertext)
    assert "&lt;b&gt;A&lt;/b&gt;" in hover and "B&amp;C" in hover and "<b>A</b>" not in hover
    assert "&lt;b&gt;A&lt;/b&gt;" in fig.layout.xaxis.categoryarray


def test_the_wide_table_and_the_practical_units(table: pd.DataFrame) -> None:
    wide = tf.wide_table(table)
    assert list(wide.columns[:4]) == ["language", "script", "bytes ×", "characters ×"]
    assert "GPT-2 ×" in wide.columns and "no-cyrillic unknown" in wide.columns and "GPT-2 unknown" not in wide.columns
    assert len(wide) == 42 and wide.iloc[0]["language"] == "English"
    fit = context_fit(table, context_tokens=1000, price_per_million=2.0)
    words = tf.units_frame(table, fit, "words")
    assert words.shape == (42, 6) and words.index[0] == "English"
    en = table[(table["language"] == "en") & (table["tokenizer"] == "gpt2")].iloc[0]
    assert words.loc["English", "GPT-2"] == pytest.approx(1000 * en["base_words"] / en["tokens"])
    cost = tf.units_frame(table, fit, "cost")
    assert cost.loc["English", "GPT-2"] == pytest.approx(en["tokens"] / en["base_words"] * 2.0)


def test_the_wide_table_has_each_tokenizers_median_quartiles_and_share_above_2x(table: pd.DataFrame) -> None:
    wide = tf.wide_table(table).set_index("language")
    for label in ("GPT-2 median ×", "GPT-2 Q1 ×", "GPT-2 Q3 ×", "GPT-2 segments > 2×"):
        assert label in wide.columns
    row = table[(table["language"] == "hi") & (table["tokenizer"] == "gpt2")].iloc[0]
    hindi = wide.loc[row["name"]]
    assert hindi["GPT-2 median ×"] == row["median"] and hindi["GPT-2 Q1 ×"] == row["q1"]
    assert hindi["GPT-2 Q3 ×"] == row["q3"] and hindi["GPT-2 segments > 2×"] == row["share_above_2x"]
    assert hindi["GPT-2 Q1 ×"] <= hindi["GPT-2 median ×"] <= hindi["GPT-2 Q3 ×"]


def test_every_box_of_a_big_distribution_is_labelled_and_no_median_value_runs_into_the_next() -> None:
    """Issue 21, items 2 and 5: with 42 languages plotly left out every other box's label (the tick
    angle made them touch) and the medians' values, written over 42 diamonds, ran into each other."""
    from ui.figures import for_presentation
    from ui.tax.stats_figures import distribution_figure

    def figure(count: int, presenting: bool = False):
        languages = tuple(ParallelLanguage(f"l{i}", f"Language {i}", "und", "Latn", "ltr") for i in range(count))
        segments = {f"l{i}": {"1": "x" * (i + 1), "2": "y" * (i + 2)} for i in range(count)}
        corpus = ParallelCorpus("many", "Many", "text", languages, ("1", "2"), segments, "t", "t", fingerprint=f"m{count}")
        table = language_tax(corpus, {"s": Scaled("s", 1.0)}, base="l0")
        premiums = pd.DataFrame([{"language": f"l{i}", "tokenizer": "s", "premium": float(i + k)}
                                 for i in range(count) for k in (1, 2)])
        return distribution_figure(premiums, table, "s", presenting=presenting)

    for presenting in (False, True):
        big = figure(42, presenting)
        boxes = [trace for trace in big.data if trace.type == "box"]
        assert list(big.layout.xaxis.tickvals) == list(big.layout.xaxis.ticktext) == [b.name for b in boxes]
        assert len(boxes) == 42 and big.layout.xaxis.tickangle == -90
        median = next(trace for trace in big.data if trace.type == "scatter")
        assert median.mode == "markers" and "median" in median.hovertemplate
        # one box's width of label (1,400 px, or 1,280 px beside the sidebar, over 42 boxes)
        assert big.layout.xaxis.tickfont.size == tf.bar_label_size(42, presenting=presenting) <= 12
    assert for_presentation(figure(42, True)).layout.xaxis.tickfont.size == tf.bar_label_size(42, presenting=True)
    small = figure(8)
    assert next(trace for trace in small.data if trace.type == "scatter").mode == "markers+text"
    assert small.layout.xaxis.tickangle == 0 and len(small.layout.xaxis.tickvals) == 8
