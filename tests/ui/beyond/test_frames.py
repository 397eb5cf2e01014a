"""ui.beyond.frames: the page's tables as DataFrames."""

from __future__ import annotations

import math

import pytest

from core import bpe
from ui.beyond import frames


def test_bytes_cost_frame_puts_bytes_first_and_divides_right() -> None:
    frame = frames.bytes_cost_frame(400, {"A": (100, 50_000), "B": (80, 200_000), "empty": (0, 10)})
    assert list(frame.index) == [frames.BYTES_ROW, "A", "B", "empty"]
    assert frame.loc[frames.BYTES_ROW].tolist() == [400, 259, 1.0, 1.0, 1.0, 1.0]
    a = frame.loc["A"]
    assert a["bytes / token"] == 4.0 and a["bytes: length ×"] == 4.0 and a["bytes: attention ×"] == 16.0
    assert a["bytes: output layer ×"] == pytest.approx(400 * 259 / (100 * 50_000))
    assert frame.loc["B", "bytes: attention ×"] == pytest.approx(25.0)
    assert math.isnan(frame.loc["empty", "bytes: attention ×"])


def test_units_frame() -> None:
    frame = frames.units_frame(100, {"patches": 20, "gpt2": 25, "none": 0})
    assert frame["units"].tolist() == [100, 20, 25, 0]
    assert frame["bytes / unit"].tolist()[:3] == [1.0, 5.0, 4.0] and math.isnan(frame["bytes / unit"].iloc[3])


def test_languages_frame() -> None:
    frame = frames.languages_frame(["English", "Thai"], [100, 300], [25, 60], {"gpt2": [22, 150], "o200k": [20, 50]})
    assert frame.index.name == "language"
    assert list(frame.columns) == ["bytes", "patches", "gpt2", "o200k"]
    assert frame.loc["Thai"].tolist() == [300, 60, 150, 50]


def test_superwords_frame_shows_spaces_and_counts_words() -> None:
    steps = [
        bpe.MergeStep(2744, 300, 301, 3000, b", and", 428, 1, (), 0),
        bpe.MergeStep(2745, 302, 303, 3001, b" in order to", 30, 2, (), 0),
        bpe.MergeStep(2746, 302, 303, 3002, b" about ", 12, 1, (), 0),
    ]
    frame = frames.superwords_frame(steps)
    assert frame.to_dict("list") == {
        "id": [3000, 3001, 3002], "token": [",·and", "·in·order·to", "·about·"], "count": [428, 30, 12],
        "words": [2, 3, 1],
    }
    assert frames.superwords_frame([]).columns.tolist() == ["id", "token", "count", "words"]


def test_compression_frame() -> None:
    frame = frames.compression_frame(heldout_bytes=1000, plain=250, super_tokens=200, at_transition=280,
                                     vocab_size=4000, transition=3000, plain_vocab=3990)
    assert list(frame.index) == ["plain BPE, 3,990 tokens", "SuperBPE, 3,000 → 4,000 tokens",
                                 "plain BPE at the transition, 3,000 tokens"]
    assert frame["bytes / token"].tolist() == [4.0, 5.0, pytest.approx(1000 / 280)]
    assert frame["vs plain BPE"].tolist() == [0.0, pytest.approx(-0.2), pytest.approx(0.12)]


def test_superword_examples_finds_the_classics_with_or_without_a_leading_space() -> None:
    labels = [", and", "of the", " in order to", " the", "and the"]
    assert frames.superword_examples(labels) == ["of the", " in order to", ", and"]
    assert frames.superword_examples([" the", "ing"]) == []
