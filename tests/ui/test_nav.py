"""The sidebar's page list (ui.nav.PAGES) against the README's: every page listed once, by its sidebar name."""

from __future__ import annotations

import re
from pathlib import Path

from ui import nav

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_lists_every_page_once_by_its_sidebar_name() -> None:
    """Issue 21, item 8: the README's page list left out Chat formats (later, it listed it twice)."""
    pages = README.read_text(encoding="utf-8").split("\n## Pages\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^- \*\*(.+?)\*\* \(`([^`]+)`\)", pages, flags=re.MULTILINE)
    assert listed == [(label, path) for path, label, _ in nav.PAGES]
