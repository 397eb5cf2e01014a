"""AppTest: the replay view lists only what it can replay and says when it cuts a long text."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.pretrained.registry import registry, replayable_keys
from tests.conftest import data_dir_or_none
from ui import state
from ui.bpe import replay as bpe_replay

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "1_BPE_step_by_step.py")


def replay_page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.segmented_control(key=state.BPE_VIEW).set_value("replay").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_only_replayable_tokenizers_are_offered() -> None:
    at = replay_page()
    offered = at.selectbox(key=state.BPE_REPLAY_TOKENIZER).options
    names = {spec.name for spec in registry().values()}
    assert "Claude (legacy, before Claude 3)" not in offered and names & set(offered)
    assert len(offered) == len(replayable_keys()) and "claude_legacy" not in replayable_keys()
    assert {"gpt2", "cl100k_base", "o200k_base", "llama3", "qwen", "mistral_nemo"} <= set(replayable_keys())


@pytest.mark.data
@pytest.mark.skipif(data_dir_or_none() is None, reason="PLAYGROUND_DATA_DIR is not set (cl100k_base comes from it)")
def test_a_text_over_the_limit_is_cut_with_a_note() -> None:
    at = replay_page()
    at.text_area(key=state.BPE_REPLAY_TEXT).set_value("ab " * 4000).run()
    assert not at.exception and not at.error
    notes = [c.value for c in at.caption if c.value.startswith("Replaying the first")]
    assert notes == [f"Replaying the first {bpe_replay.REPLAY_MAX_CHARS:,} of the text's 12,000 characters: "
                     "a scrubber over more merges is no longer a demo."]
