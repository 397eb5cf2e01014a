"""ui.widgets: the pure helpers (Markdown escaping, the lossy note)."""

from __future__ import annotations

import pytest

from ui.widgets import lossy_note, md_escape


@pytest.mark.parametrize(
    "text",
    [
        "**bold** _it_ `code` # head",
        "[link](https://evil.example) <img src=x onerror=alert(1)>",
        ":red[colored] :smile: :material/home:",  # Streamlit's own Markdown: color, emoji, icons
        "&lt;entity&gt; mail@evil.example $x^2$ ~strike~",
    ],
)
def test_md_escape_leaves_no_markup_unescaped(text: str) -> None:
    escaped = md_escape(text)
    specials = set("\\`*_{}[]<>()#+-.!|~$:/&@")
    for i, ch in enumerate(escaped):
        if ch in specials and ch != "\\":
            assert escaped[i - 1] == "\\", (ch, escaped)
    assert escaped.replace("\\", "") == text.replace("\\", "")


def test_md_escape_stops_streamlit_directives() -> None:
    assert md_escape(":red[x]") == "\\:red\\[x\\]"
    assert md_escape(":material/home:") == "\\:material\\/home\\:"
    assert md_escape("a&amp;b") == "a\\&amp;b"


def test_lossy_note_names_the_cause() -> None:
    assert lossy_note(1).endswith("1 unknown token")
    assert "normalizes or drops" in lossy_note(0)
