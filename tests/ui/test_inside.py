"""ui.inside builders: escaped highlights, pre-token spans, readable pieces, the scripts chart."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from core.pretrained.anatomy import Facts
from core.types import Token
from ui import inside
from ui.span_facts import read_facts
from ui.spans import render_spans


def facts(scripts) -> Facts:
    return Facts(
        name="toy <b>", library="tiktoken", algorithm="byte-level BPE", model_type="m", vocab_size=10,
        special_tokens=(), added_tokens=(), normalizer="none", pre_tokenizer="p", patterns=(), post_processor="none",
        decoder="d", byte_fallback="b", merges_total=0, first_merges=(), last_merges=(), highest_scored=(),
        lowest_scored=(), longest=(), scripts=tuple(scripts), details={},
    )


def test_highlight_marks_changes_and_escapes_everything() -> None:
    out = inside.highlight_html("<script>x</script> é", [(0, 8), (19, 20)], show_whitespace=False)
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert out.count('<mark class="it-changed">') == 2
    assert '<mark class="it-changed">é</mark>' in out
    assert "⌫" in inside.highlight_html("ab", [(1, 1)])  # a removal is marked where it happened
    assert '<span class="tp-ws">·</span>' in inside.highlight_html("a b", [])


def test_pre_tokens_draw_through_the_span_renderer() -> None:
    spans = inside.pre_token_spans("hi you", [("hi", 0, 2), ("Ġyou", 2, 6)])
    assert spans == [Token(0, b"hi", 0, 2), Token(1, b" you", 2, 6)]
    html = render_spans("hi you", spans)
    assert [(f.id, f.bytes) for f in read_facts(html)] == [(0, b"hi"), (1, b" you")]


def test_readable_pieces() -> None:
    assert inside.readable_piece("Ġworld", "bytelevel") == " world"
    assert inside.readable_piece("âĢĶ", "bytelevel") == "—"
    assert inside.readable_piece("##ing", "wordpiece") == "ing"
    assert inside.shown_piece("▁the\n", "metaspace") == "·the↵"


def test_scripts_figure_says_its_message() -> None:
    figure = inside.scripts_figure(facts([("Latin", 90), ("Digits", 6), ("Cyrillic", 4)]))
    assert isinstance(figure, go.Figure)
    assert figure.layout.title.text == "90% of toy &lt;b&gt;'s tokens are Latin"  # a file name stays text
    bars = figure.data[0]
    assert list(bars.y) == ["Latin", "Digits", "Cyrillic"] and list(bars.x) == [90, 6, 4]
    assert bars.marker.color[1] == inside.NO_LETTER_COLOR  # digits are not a script
    assert list(inside.scripts_frame(facts([("Latin", 3), ("Han", 1)]))["share"]) == [0.75, 0.25]
    with pytest.raises(ValueError, match="no tokens"):
        inside.scripts_figure(facts([]))


def test_pairs_frame_numbers_from_the_first_rank() -> None:
    frame = inside.pairs_frame([("a", "b", "ab")], ["left", "right", "makes"], first_rank=99981)
    assert list(frame.index) == [99981] and list(frame.columns) == ["left", "right", "makes"]
