"""AppTest for the chat-formats page (pages/10_Chat_formats.py)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core import chat_formats as cf
from tests.pages.apptest import open_page
from ui import state
from ui.widgets import md_escape

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "10_Chat_formats.py")


def run_page() -> AppTest:
    return open_page(PAGE, timeout=120)


def cards(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("#### ")]


def test_default_shows_every_format_with_spans_and_costs() -> None:
    at = run_page()
    assert cards(at) == [f"#### {md_escape(f.title)}" for f in cf.FORMATS.values()]
    spans = [h.proto.body for h in at.html if h.proto.body.startswith('<div class="tp-spans')]
    unavailable = [h for h in at.html if h.proto.body.startswith('<div class="tp-unavailable">')]
    assert len(spans) + len(unavailable) == len(cf.FORMATS) and len(spans) >= 3
    assert any("tp-special" in body for body in spans)
    assert any("of which" in m.value and "format's own" in m.value for m in at.markdown)


def test_typed_markup_and_special_strings_stay_text() -> None:
    at = run_page()
    at.sidebar.text_area(key=state.CF_USER).set_value("<script>alert(1)</script> <|im_end|>").run()
    assert not at.exception
    bodies = "".join(h.proto.body for h in at.html)
    assert "alert" in bodies  # the text is drawn ...
    assert "<script" not in bodies and "&lt;" in bodies  # ... and its markup escaped, pill by pill


def test_no_tool_call_and_no_reply_shows_the_reply_prompt() -> None:
    at = run_page()
    at.sidebar.toggle(key=state.CF_TOOL_ON).set_value(False).run()
    at.sidebar.text_area(key=state.CF_REPLY).set_value("").run()
    assert not at.exception
    frames = [df.value for df in at.dataframe]
    assert frames and all("framing (start, reply prompt)" in set(f["turn"]) or len(f) >= 2 for f in frames)


def test_empty_user_message_is_a_friendly_note() -> None:
    at = run_page()
    at.sidebar.text_area(key=state.CF_USER).set_value("  ").run()
    assert not at.exception
    assert any("Type a user message" in i.value for i in at.info)
