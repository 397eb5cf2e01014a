"""ui.export: spans as SVG (parsed as XML), PNG (drawn by Chromium), JSON and CSV; chart images."""

from __future__ import annotations

import csv
import io
import json
import shutil
import struct
import xml.etree.ElementTree as ET

import plotly.graph_objects as go
import pytest

from core.types import ADDED, BYTE_FALLBACK, SPECIAL, Token
from ui import export

SVG_NS = "{http://www.w3.org/2000/svg}"
TEXT = "Hi <b>x</b> 🙂"
TOKENS = [
    Token(1, b"<s>", 0, 0, ADDED),
    Token(10, b"Hi", 0, 2),
    Token(11, b" <b>", 2, 6),
    Token(12, b"x", 6, 7),
    Token(13, b"</b>", 7, 11, SPECIAL),
    Token(14, b" ", 11, 12),
    Token(15, b"\xf0\x9f", 12, 13, BYTE_FALLBACK),
    Token(16, b"\x99\x82", 12, 13, BYTE_FALLBACK),
]


def test_palette_is_the_pages() -> None:
    colors = export.palette()
    assert len(colors) == 16 and colors[0] == "#ffd3d3"


def test_svg_is_standalone_xml_with_one_box_and_tooltip_per_pill() -> None:
    svg = export.spans_svg(TEXT, TOKENS, title="Demo <title>")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg" and int(root.get("width")) > 0
    groups = root.findall(f"{SVG_NS}g")
    assert len(groups) == 7  # the two byte tokens of the emoji are one box
    tips = [g.find(f"{SVG_NS}title").text for g in groups]
    assert tips[0].startswith("id 1\n") and "kind added" in tips[0]
    assert "id 15\nbytes F0 9F" in tips[-1] and "id 16\nbytes 99 82" in tips[-1]
    texts = ["".join(t.itertext()) for g in groups for t in g.findall(f"{SVG_NS}text")]
    assert "·<b>" in texts and "🙂" in texts and "×2" in texts  # the markup is text, escaped in the file
    assert "<b>" not in svg.replace("&lt;b&gt;", "")
    assert "Demo &lt;title&gt;" in svg
    special = groups[4].find(f"{SVG_NS}rect")
    assert special.get("fill") == "#3c3f58"


def test_svg_wraps_long_text_and_caps_huge_token_lists() -> None:
    words = " ".join(["word"] * 400)
    tokens = [Token(k, b"word", 5 * k, 5 * k + 4) for k in range(400)]
    root = ET.fromstring(export.spans_svg(words, tokens))
    ys = {float(r.get("y")) for r in root.iter(f"{SVG_NS}rect") if r.get("y")}
    assert len(ys) > 5  # several lines
    assert all(float(r.get("x")) + float(r.get("width")) <= export.WIDTH_PX for r in root.iter(f"{SVG_NS}rect") if r.get("x"))
    many = [Token(i % 50, b"a", i, i + 1) for i in range(export.MAX_TOKENS + 10)]
    assert f"showing {export.MAX_TOKENS:,} of {export.MAX_TOKENS + 10:,} tokens" in export.spans_svg("a" * len(many), many)


def test_invisible_characters_are_named() -> None:
    svg = export.spans_svg("a\u200db", [Token(1, b"a", 0, 1), Token(2, b"\xe2\x80\x8d", 1, 2), Token(3, b"b", 2, 3)])
    assert ">ZWJ<" in svg


def test_json_and_csv_carry_every_token() -> None:
    document = json.loads(export.tokens_json(TEXT, TOKENS, tokenizer="demo"))
    assert document["tokenizer"] == "demo" and len(document["tokens"]) == len(TOKENS)
    assert document["tokens"][6] == {
        "id": 15, "bytes": "f09f", "start": 12, "end": 13, "piece": "\\xF0\\x9F", "kind": "byte", "text": "🙂"}
    rows = list(csv.DictReader(io.StringIO(export.tokens_csv(TEXT, TOKENS, piece=lambda i: f"p{i}"))))
    assert [r["id"] for r in rows] == [str(t.id) for t in TOKENS] and rows[2]["text"] == " <b>"
    assert rows[1]["piece"] == "p10"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.skipif(export.chromium() is None, reason="Chromium is not installed (apt-get install chromium)")
def test_png_is_the_svg_drawn_at_twice_its_size() -> None:
    svg = export.spans_svg(TEXT, TOKENS)
    root = ET.fromstring(svg)
    assert png_size(export.svg_to_png(svg)) == (2 * int(root.get("width")), 2 * int(root.get("height")))


def test_png_without_chromium_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("PLAYGROUND_CHROMIUM", raising=False)
    with pytest.raises(ValueError, match="needs Chromium"):
        export.svg_to_png(export.spans_svg(TEXT, TOKENS))


@pytest.mark.skipif(export.chromium() is None, reason="Chromium is not installed (kaleido drives it)")
def test_chart_images() -> None:
    figure = go.Figure(go.Bar(x=["a", "b"], y=[1, 2]))
    assert png_size(export.figure_image(figure, "png", width=400, height=300)) == (800, 600)
    assert export.figure_image(figure, "svg", width=400, height=300).lstrip().startswith(b"<svg")
    with pytest.raises(ValueError):
        export.figure_image(figure, "gif")


def test_a_chart_image_is_tried_again_when_kaleidos_page_was_not_ready(monkeypatch) -> None:
    figure = go.Figure(go.Bar(x=["a", "b"], y=[1, 2]))
    calls = []

    def flaky(**options: object) -> bytes:
        calls.append(options)
        if len(calls) == 1:  # what kaleido raised on a loaded machine
            raise RuntimeError("{'className': 'ReferenceError', 'description': 'ReferenceError: kaleido_scopes is not defined'}")
        return b"<svg/>"

    monkeypatch.setattr(figure, "to_image", flaky)
    assert export.figure_image(figure, "svg") == b"<svg/>" and len(calls) == 2
    calls.clear()

    def broken(**options: object) -> bytes:
        calls.append(options)
        raise RuntimeError("no browser")

    monkeypatch.setattr(figure, "to_image", broken)
    with pytest.raises(ValueError, match="no browser"):
        export.figure_image(figure, "png")
    assert len(calls) == 1  # any other failure is said at once


HOSTILE = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3+cmd|' /C calc'!A0", "@SUM(A1)", "\tx", "\rx"]


def test_csv_cells_that_read_as_formulas_are_text() -> None:
    import pandas as pd

    text = "".join(HOSTILE)
    tokens, at = [], 0
    for i, part in enumerate(HOSTILE):
        tokens.append(Token(i, part.encode(), at, at + len(part)))
        at += len(part)
    rows = list(csv.DictReader(io.StringIO(export.tokens_csv(text, tokens, piece=lambda i: HOSTILE[i]), newline="")))
    assert [r["text"] for r in rows] == ["'" + h for h in HOSTILE]
    assert [r["piece"] for r in rows] == ["'" + h for h in HOSTILE]
    assert [r["id"] for r in rows] == [str(i) for i in range(len(HOSTILE))]

    frame = pd.DataFrame({"=name": HOSTILE, "count": [-3, -2, -1, 0, 1, 2], "ratio": [-0.5] * 6,
                          "plain": ["a", "b", None, "d", "e", "f"]})
    read = list(csv.reader(io.StringIO(export.frame_csv(frame), newline="")))
    assert read[0] == ["'=name", "count", "ratio", "plain"]
    assert [r[0] for r in read[1:]] == ["'" + h for h in HOSTILE]
    assert [r[1] for r in read[1:]] == ["-3", "-2", "-1", "0", "1", "2"]  # negative numbers stay numbers
    assert {r[2] for r in read[1:]} == {"-0.5"} and read[3][3] == ""
    assert list(frame.columns)[0] == "=name"  # the caller's frame is left alone


def test_every_csv_the_app_writes_goes_through_the_helper() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sources = [root / "app.py", *root.glob("pages/*.py"), *root.glob("ui/**/*.py"), *root.glob("playground/*.py")]
    writers = [str(p.relative_to(root)) for p in sources if ".to_csv(" in p.read_text(encoding="utf-8")
               or "csv.writer" in p.read_text(encoding="utf-8") or "csv.DictWriter" in p.read_text(encoding="utf-8")]
    assert writers == ["ui/export.py"]


def test_svg_with_characters_xml_forbids_still_parses() -> None:
    controls = "".join(chr(c) for c in range(32)) + "\ud800 \udfff \ufffe\uffff\x7f\x85"
    text = f"a{controls}b"
    tokens = [Token(0, b"a", 0, 1), *(Token(i + 1, b"?", i + 1, i + 2) for i in range(len(controls))),
              Token(99, b"b", len(text) - 1, len(text))]
    svg = export.spans_svg(text, tokens, piece=lambda i: "\x00\x1b\ud800", title="title \x0c\x00")
    root = ET.fromstring(svg.encode("utf-8"))
    shown = "".join(root.itertext())
    assert "␀" in shown and "␛" in shown and "␌" in shown and "\ufffd" in shown
    assert "\x00" not in shown and "\ufffe" not in shown
    for show_whitespace in (True, False):
        ET.fromstring(export.spans_svg(text, tokens, show_whitespace=show_whitespace).encode("utf-8"))
