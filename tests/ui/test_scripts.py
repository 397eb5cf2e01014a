"""The browser scripts as the components send them: comment lines dropped, every line of code kept."""

from __future__ import annotations

import pytest

from ui.scripts import ASSETS_DIR, script

SCRIPTS = sorted(path.name for path in ASSETS_DIR.glob("*.js"))


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_script_loses_its_comment_lines_and_keeps_its_code(name: str) -> None:
    source = (ASSETS_DIR / name).read_text(encoding="utf-8").splitlines()
    sent = script(name).splitlines()
    assert sent == [line for line in source if not line.lstrip().startswith("//")]
    assert not any(line.lstrip().startswith("//") for line in sent)
    assert len(sent) < len(source)  # every script documents itself in comments
    assert "export default" in script(name)
