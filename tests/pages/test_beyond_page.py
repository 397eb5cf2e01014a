"""AppTest smoke tests for "Beyond fixed tokenizers": the three views, the threshold, the forms, bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import data_dir_or_none
from tests.pages.apptest import open_page
from ui import state
from ui.span_facts import read_facts

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "8_Beyond_tokenizers.py")
TIMEOUT_S = 120  # the first run loads three tokenizers and trains the entropy model


def run_page(view: str | None = None, text: str | None = None) -> AppTest:
    at = open_page(PAGE, timeout=TIMEOUT_S)
    if view is not None:
        at.segmented_control(key=state.BT_VIEW).set_value(view).run()
    if text is not None:
        at.text_area(key=state.BT_TEXT).input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def spans(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.html if 'class="tp-spans"' in h.proto.body]


def captions(at: AppTest) -> list[str]:
    """Caption texts with Markdown escapes removed."""
    return [c.value.replace("\\", "") for c in at.caption]


def markdown_number(at: AppTest, pattern: str) -> int:
    for m in at.markdown:
        found = re.search(pattern, m.value)
        if found:
            return int(found.group(1).replace(",", ""))
    raise AssertionError(f"no markdown matches {pattern!r}")


def patches_shown(at: AppTest) -> int:
    return markdown_number(at, r"Your text in ([\d,]+) entropy patches")


def test_opens_on_patches_with_chart_spans_and_languages() -> None:
    at = run_page()
    assert at.segmented_control(key=state.BT_VIEW).value == "patches"
    assert at.text_area(key=state.BT_TEXT).value == state.BT_DEFAULT_TEXT
    (patch_spans,) = spans(at)
    n = patches_shown(at)
    assert len(read_facts(patch_spans)) == n > 1
    units = at.dataframe[0].value
    assert units.loc["entropy patches", "units"] == n
    assert units.loc["UTF-8 bytes", "units"] == len(state.BT_DEFAULT_TEXT.encode())
    languages = next(d.value for d in at.dataframe if "patches" in d.value.columns)
    assert len(languages) >= 17 and (languages["patches"] > 0).all()
    assert any("Entropy model: order-5 byte n-gram" in c for c in captions(at))


def test_raising_the_threshold_only_merges_patches() -> None:
    at = run_page()
    counts = []
    for value in (1.0, 2.5, 4.0, 6.0):
        at.slider(key=state.BT_THRESHOLD_GLOBAL).set_value(value).run()
        assert not at.exception
        counts.append(patches_shown(at))
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]


def test_the_relative_rule_and_the_match_button() -> None:
    at = run_page()
    at.segmented_control(key=state.BT_RULE).set_value("relative").run()
    assert not at.exception
    assert at.slider(key=state.BT_THRESHOLD_RELATIVE).value == 1.0
    at.slider(key=state.BT_THRESHOLD_RELATIVE).set_value(6.0).run()  # one patch: far from any tokenizer
    at.button(key="bt_match").click().run()
    assert not at.exception
    assert at.slider(key=state.BT_THRESHOLD_RELATIVE).value < 6.0
    units = at.dataframe[0].value
    patches_mean = units.loc["entropy patches", "bytes / unit"]
    first_tokenizer = units.index[2]
    assert patches_mean == pytest.approx(units.loc[first_tokenizer, "bytes / unit"], rel=0.25)


def test_training_another_entropy_model() -> None:
    at = run_page()
    at.selectbox(key=state.BT_NGRAM_CORPUS).set_value("samples")
    at.select_slider(key=state.BT_NGRAM_ORDER).set_value(3)
    at.button(key="bt_ngram_train").click().run()
    assert not at.exception
    assert any("order-3 byte n-gram" in c and "built-in essays" in c for c in captions(at))
    assert at.session_state[state.BT_NGRAM_APPLIED].order == 3


def test_bytes_view_shows_costs_and_every_byte() -> None:
    at = run_page("bytes", "héllo 🙂")
    (byte_spans,) = spans(at)
    assert [f.bytes for f in read_facts(byte_spans)] == [bytes([b]) for b in "héllo 🙂".encode()]  # a token a byte
    assert len(re.findall(r"class=\"?tp-group", byte_spans)) == 2  # é (2 bytes) and 🙂 (4 bytes) as bracketed groups
    frame = at.dataframe[0].value
    assert frame.iloc[0]["tokens"] == len("héllo 🙂".encode())
    assert (frame.iloc[1:]["bytes: attention ×"] >= 1).all()


def test_superwords_view_compares_at_equal_vocabulary() -> None:
    at = run_page("superwords")
    compression = next(d.value for d in at.dataframe if "vs plain BPE" in d.value.columns)
    plain, sup = compression["tokens"].iloc[0], compression["tokens"].iloc[1]
    assert sup < plain
    words = next(d.value for d in at.dataframe if "words" in d.value.columns)
    assert len(words) > 10 and (words["words"] >= 2).mean() > 0.9  # the rest end in a space: "about·"
    ours, plain_ours = (markdown_number(at, rf"\*\*{name}: ([\d,]+) tokens") for name in ("SuperBPE", "Plain BPE"))
    if data_dir_or_none() is not None:  # trained on a novel, not on the 3 kB built-in essay
        assert ours < plain_ours


def test_superword_form_refuses_bad_sizes_and_trains_good_ones() -> None:
    at = run_page("superwords")
    at.number_input(key=state.BT_SUPER_TRANSITION).set_value(5000)
    at.number_input(key=state.BT_SUPER_VOCAB).set_value(1000)
    at.button(key="bt_super_train").click().run()
    assert not at.exception
    assert any("transition must lie between" in e.value for e in at.error)
    at.selectbox(key=state.BT_SUPER_CORPUS).set_value("sample_essay_en")
    at.number_input(key=state.BT_SUPER_VOCAB).set_value(500)
    at.number_input(key=state.BT_SUPER_TRANSITION).set_value(400)
    at.button(key="bt_super_train").click().run()
    assert not at.exception and not at.error
    assert at.session_state[state.BT_SUPER_APPLIED] == at.session_state[state.BT_SUPER_APPLIED].__class__(
        "sample_essay_en", 500, 400)


@pytest.mark.parametrize("view", ["bytes", "patches", "superwords"])
def test_empty_text_gets_a_hint_not_a_traceback(view: str) -> None:
    at = run_page(view, "")
    assert at.info or view == "superwords"
    assert not spans(at) or view == "superwords"


@pytest.mark.parametrize("view", ["bytes", "patches", "superwords"])
def test_user_text_is_escaped_everywhere(view: str) -> None:
    at = run_page(view, "<script>alert(1)</script> & <b>bold</b>")
    bodies = [h.proto.body for h in at.html]
    assert not any("<script>" in body or "<b>bold" in body for body in bodies)
    assert any("&lt;script&gt;" in body or "&lt;" in body for body in spans(at))


def test_a_long_text_keeps_exact_counts_and_caps_the_spans() -> None:
    text = "The tokenizer reads the text and the model reads the tokens. " * 1500  # 93 kB
    at = run_page("bytes", text)
    (byte_spans,) = spans(at)
    assert f"showing 5,000 of {len(text):,} tokens" in byte_spans
    assert at.dataframe[0].value.iloc[0]["tokens"] == len(text)
    at.segmented_control(key=state.BT_VIEW).set_value("patches").run()
    assert not at.exception
    assert patches_shown(at) > 5000 and "showing 5,000 of" in spans(at)[0]


def test_choices_survive_a_view_switch() -> None:
    at = run_page()
    at.slider(key=state.BT_THRESHOLD_GLOBAL).set_value(2.0).run()
    at.segmented_control(key=state.BT_VIEW).set_value("superwords").run()
    at.segmented_control(key=state.BT_VIEW).set_value("patches").run()
    assert not at.exception
    assert at.slider(key=state.BT_THRESHOLD_GLOBAL).value == 2.0


OFFLINE_SCRIPT = r"""
import json, sys
from streamlit.testing.v1 import AppTest
from ui import state

at = AppTest.from_file(sys.argv[1], default_timeout=120)
at.run()
out = {"defaults": [at.session_state[state.BT_NGRAM_CORPUS], at.session_state[state.BT_SUPER_CORPUS]]}
for view in ("patches", "bytes", "superwords"):
    at.segmented_control(key=state.BT_VIEW).set_value(view).run()
    out[view] = {
        "exceptions": [str(e.value) for e in at.exception],
        "spans": sum('class="tp-spans"' in h.proto.body for h in at.html),
        "captions": [c.value.replace("\\", "") for c in at.caption],
    }
print(json.dumps(out))
"""


def test_works_without_the_data_folder(tmp_path: Path) -> None:
    env = dict(os.environ, PLAYGROUND_DATA_DIR=str(tmp_path / "none"), PLAYGROUND_CACHE_DIR=str(tmp_path),
               PLAYGROUND_OFFLINE="1")
    done = subprocess.run([sys.executable, "-c", OFFLINE_SCRIPT, PAGE], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["defaults"] == ["samples", "sample_essay_en"]
    for view in ("patches", "bytes", "superwords"):
        assert out[view]["exceptions"] == [] and out[view]["spans"] >= 1, view
    assert any("built-in sentence" in c for c in out["patches"]["captions"])
    assert any("GPT-2 (r50k_base) is left out" in c for c in out["bytes"]["captions"])


def test_the_parallel_text_can_be_switched(data_dir: Path) -> None:
    at = run_page()
    languages = next(d.value for d in at.dataframe if "patches" in d.value.columns)
    assert len(languages) == 21 and "Icelandic" in languages.index
    at.segmented_control(key=state.BT_PARALLEL).set_value("builtin").run()
    assert not at.exception
    languages = next(d.value for d in at.dataframe if "patches" in d.value.columns)
    assert len(languages) == 17 and "Hebrew" in languages.index
