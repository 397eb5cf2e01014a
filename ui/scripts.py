"""The project's own browser scripts and styles in ``assets/``, read once, for components v2.

A components-v2 element carries its script in every message that draws it: on the Playground each
key redraws the live text box, the columns' links and four token boxes. ``script`` drops the
comment lines (the files keep them, as documentation) so a key does not send them again each time.
"""

from __future__ import annotations

from pathlib import Path

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"


def script(name: str) -> str:
    """``assets/<name>`` without its whole-line ``//`` comments (the scripts have no multi-line strings).

    >>> code = script("span_box.js")
    >>> any(line.lstrip().startswith("//") for line in code.splitlines()), "export default" in code
    (False, True)
    """
    text = (ASSETS_DIR / name).read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def style(name: str) -> str:
    """``assets/<name>`` as it is (a stylesheet)."""
    return (ASSETS_DIR / name).read_text(encoding="utf-8")
