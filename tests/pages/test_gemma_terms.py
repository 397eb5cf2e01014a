"""AppTest: Gemma's terms of use are shown in its column as "Built with Llama" is in Llama's (issue 24)."""

from __future__ import annotations

from pathlib import Path

from core.pretrained import registry
from tests.pages.apptest import cards, open_page
from ui import state

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_gemma_columns_show_googles_notice_and_the_repackaging_is_named(data_dir: Path) -> None:
    for key in ("gemma3", "gemma", "deepseek_v3"):
        assert "repackaged by the @lenml/tokenizer-" in registry()[key].notes, key
    at = open_page(APP, timeout=180)
    at.multiselect(key=state.PG_TOKENIZERS).set_value(["gemma3", "llama3"]).run()
    assert not at.exception, [e.value for e in at.exception]
    heads = [card["head"]["facts"] for card in cards(at)]  # "SentencePiece · 262,144 vocab · …" (ui.card)
    notice = registry()["gemma3"].attribution
    assert notice and "Gemma Terms of Use" in notice
    assert any(head.endswith(notice) for head in heads), heads
    assert any(head.endswith("Built with Llama") for head in heads), heads
