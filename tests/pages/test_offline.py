"""Both pages with no data folder, no cache and no network: what ships works, the rest says why.

Runs in a fresh interpreter, because the tokenizer store is one per process and the other tests have
filled it from the data folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
from streamlit.testing.v1 import AppTest
from ui import state

root = sys.argv[1]
out = {}
at = AppTest.from_file(f"{root}/app.py", default_timeout=120)
at.run()
out["pg_exceptions"] = [str(e.value) for e in at.exception]
out["pg_columns"] = [json.loads(json.loads(e.proto.json)["head"])["name"] for e in at.get("bidi_component")
                    if e.proto.component_name == "tp_span_box"]
out["pg_unavailable"] = [h.proto.body for h in at.html if 'class="tp-unavailable"' in h.proto.body]

page = f"{root}/pages/1_BPE_step_by_step.py"
at = AppTest.from_file(page, default_timeout=120)
at.run()
out["bpe_exceptions"] = [str(e.value) for e in at.exception]
at.selectbox(key=state.BPE_CORPUS).set_value("sample_mercado_es")
at.button(key="bpe_train").click().run()
out["train_errors"] = [e.value for e in at.error]
out["train_merge"] = [h.proto.body for h in at.html if 'class="bpe-merge"' in h.proto.body]
at.segmented_control(key=state.BPE_VIEW).set_value("replay").run()
at.selectbox(key=state.BPE_REPLAY_TOKENIZER).set_value("gpt2").run()
out["replay_exceptions"] = [str(e.value) for e in at.exception]
out["replay_unavailable"] = [h.proto.body for h in at.html if 'class="tp-unavailable"' in h.proto.body]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def offline_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    data, cache = tmp_path_factory.mktemp("no_data"), tmp_path_factory.mktemp("no_cache")
    env = dict(os.environ, PLAYGROUND_DATA_DIR=str(data), PLAYGROUND_CACHE_DIR=str(cache), PLAYGROUND_OFFLINE="1")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_playground_shows_what_ships_and_greys_out_the_rest(offline_run: dict) -> None:
    assert offline_run["pg_exceptions"] == []
    assert offline_run["pg_columns"] == ["cl100k_base (GPT-3.5 / GPT-4)", "o200k_base (GPT-4o)"]
    cards = offline_run["pg_unavailable"]
    assert len(cards) == 2  # GPT-2 and Llama 3, the other two defaults
    for card, filename in zip(cards, ("r50k_base.tiktoken", "llama3_tokenizer.model"), strict=True):
        assert f"unavailable: {filename} is not available" in card and "PLAYGROUND_OFFLINE=1" in card


def test_the_bpe_page_trains_on_a_sample_and_the_replay_says_what_is_missing(offline_run: dict) -> None:
    assert offline_run["bpe_exceptions"] == [] and offline_run["replay_exceptions"] == []
    assert offline_run["train_errors"] == []
    assert "of 300" in offline_run["train_merge"][0]
    (card,) = offline_run["replay_unavailable"]
    assert "GPT-2 (r50k_base)" in card and "r50k_base.tiktoken is not available" in card
