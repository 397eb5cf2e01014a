"""AppTest smoke tests for "BPE step by step": train, scrub, step, retrain, bad input, replay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import data_dir_or_none
from tests.pages.apptest import open_page
from ui import state
from ui.bpe import views as bpe_views

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "1_BPE_step_by_step.py")
TIMEOUT_S = 60


def run_page() -> AppTest:
    return open_page(PAGE, timeout=TIMEOUT_S)


def html_with(at: AppTest, css_class: str) -> list[str]:
    return [h.proto.body for h in at.html if f'class="{css_class}"' in h.proto.body]


def merge_line(at: AppTest) -> str:
    (line,) = html_with(at, "bpe-merge")
    return line


def spans(at: AppTest) -> str:
    (found,) = html_with(at, "tp-spans")
    return found


def step_of(at: AppTest) -> tuple[int, int]:
    k, n = re.search(r"step ([\d,]+) of ([\d,]+)", merge_line(at)).groups()
    return int(k.replace(",", "")), int(n.replace(",", ""))


def step_slider(at: AppTest, prefix: str = "bpe_train_"):
    """The scrubber's slider (its widget key changes as the step moves: ui.scrubber._slider_key)."""
    (found,) = [s for s in at.slider if s.key and s.key.startswith(prefix + "slider")]
    return found


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def submit(at: AppTest) -> AppTest:
    return click(at, "bpe_train")


def test_default_view_trains_and_shows_a_merge_spans_race_chart_and_table() -> None:
    at = run_page()
    k, n = step_of(at)
    assert n == 300 and 0 < k <= n
    assert step_slider(at).value == k
    assert "bpe-chip bpe-big" in merge_line(at) and "count" in merge_line(at)
    assert "tp-hl" in spans(at)  # the spans the merge just made are outlined
    assert html_with(at, "bpe-board") and html_with(at, "bpe-tree")
    assert len(at.get("plotly_chart")) == 1
    assert len(at.dataframe) == 1 and len(at.dataframe[0].value) == n
    assert not at.error


def test_the_default_opens_on_the_last_merge_that_changed_the_text() -> None:
    at = run_page()
    k, _ = step_of(at)
    assert "language" in merge_line(at)  # " lang" + "uage" for the default sentence
    before = spans(at)
    step_slider(at).set_value(k - 1).run()
    assert spans(at) != before


def test_moving_the_slider_changes_the_merge_and_the_spans() -> None:
    at = run_page()
    step_slider(at).set_value(1).run()
    first_line, first_spans = merge_line(at), spans(at)
    assert step_of(at) == (1, 300) and "count" in first_line
    step_slider(at).set_value(40).run()
    assert not at.exception
    assert step_of(at) == (40, 300)
    assert merge_line(at) != first_line and spans(at) != first_spans


def test_step_zero_has_no_merge_and_the_text_is_bytes() -> None:
    at = run_page()
    step_slider(at).set_value(0).run()
    assert "before any merge" in merge_line(at)
    assert "tp-hl" not in spans(at)
    assert at.button(key="bpe_train_prev").disabled


def test_next_and_prev_buttons_step_by_one() -> None:
    at = run_page()
    step_slider(at).set_value(10).run()
    click(at, "bpe_train_next")
    assert step_slider(at).value == 11 and step_of(at)[0] == 11
    click(at, "bpe_train_prev")
    click(at, "bpe_train_prev")
    assert step_slider(at).value == 9


def test_next_is_disabled_at_the_end() -> None:
    at = run_page()
    step_slider(at).set_value(300).run()
    assert at.button(key="bpe_train_next").disabled


def test_change_buttons_jump_to_merges_that_change_the_text() -> None:
    at = run_page()
    step_slider(at).set_value(0).run()
    click(at, "bpe_train_forth")
    first = step_slider(at).value
    assert first > 0 and "tp-hl" in spans(at)
    click(at, "bpe_train_forth")
    second = step_slider(at).value
    assert second > first and "tp-hl" in spans(at)
    click(at, "bpe_train_back")
    assert step_slider(at).value == first


def test_play_starts_and_pause_stops() -> None:
    at = run_page()
    click(at, "bpe_train_play")
    assert at.session_state[state.BPE_PLAYING] is True
    assert at.button(key="bpe_train_play").label == "Pause"
    click(at, "bpe_train_play")
    assert at.session_state[state.BPE_PLAYING] is False


def test_play_at_the_end_starts_again_from_zero() -> None:
    at = run_page()
    step_slider(at).set_value(300).run()
    click(at, "bpe_train_play")
    assert step_slider(at).value == 0 and at.session_state[state.BPE_PLAYING]


def test_submitting_a_vocabulary_size_retrains() -> None:
    at = run_page()
    at.radio(key=state.BPE_SIZE_KIND).set_value("vocab")
    at.number_input(key=state.BPE_SIZE).set_value(400)
    submit(at)
    assert not at.error
    assert step_of(at)[1] == 400 - 256
    assert at.session_state[state.BPE_APPLIED].size == 400
    assert len(at.dataframe[0].value) == 144


def test_a_bad_regex_is_an_error_not_a_traceback_and_keeps_the_model() -> None:
    at = run_page()
    at.selectbox(key=state.BPE_PATTERN).set_value(bpe_views.CUSTOM).run()  # the field it needs appears
    at.text_input(key=state.BPE_CUSTOM_PATTERN).set_value("(unclosed")
    submit(at)
    assert len(at.error) == 1 and "not a valid regular expression" in at.error[0].value
    assert step_of(at)[1] == 300  # the previous model is still shown


def test_a_custom_regex_trains() -> None:
    at = run_page()
    at.selectbox(key=state.BPE_PATTERN).set_value(bpe_views.CUSTOM).run()  # the field it needs appears
    at.text_input(key=state.BPE_CUSTOM_PATTERN).set_value(r"\S+|\s+")
    at.number_input(key=state.BPE_SIZE).set_value(50)
    submit(at)
    assert not at.error and step_of(at)[1] == 50
    assert at.session_state[state.BPE_APPLIED].pattern == r"\S+|\s+"


def test_too_many_merges_is_a_clear_message() -> None:
    at = run_page()
    at.number_input(key=state.BPE_SIZE).set_value(25_000)
    submit(at)
    assert len(at.error) == 1 and "At most 20,000 merges" in at.error[0].value


def test_character_bpe_trains_and_a_too_small_vocabulary_is_refused() -> None:
    at = run_page()
    at.radio(key=state.BPE_MODE).set_value("char")
    at.number_input(key=state.BPE_SIZE).set_value(80)
    submit(at)
    assert not at.error and step_of(at)[1] == 80
    at.radio(key=state.BPE_SIZE_KIND).set_value("vocab")
    at.number_input(key=state.BPE_SIZE).set_value(20)
    submit(at)
    assert len(at.error) == 1 and "Not trained" in at.error[0].value and "alphabet" in at.error[0].value
    assert step_of(at)[1] == 80


def test_character_bpe_on_the_six_spanish_lines_merges_a_and_the_word_end_first(data_dir: Path) -> None:
    """The page's default layout for character BPE is the separate </w>; glued is one click away."""
    at = run_page()
    at.selectbox(key=state.BPE_CORPUS).set_value("essay_es_six_lines")
    at.radio(key=state.BPE_MODE).set_value("char").run()  # the end-of-word choice appears in character mode
    assert at.radio(key=state.BPE_END_OF_WORD).value == "separate"
    at.number_input(key=state.BPE_SIZE).set_value(20)
    submit(at)
    assert not at.error
    table = at.dataframe[0].value
    assert list(table["pair"][:2]) == ["a + </w>", "p + r"] and list(table["count"][:2]) == [18, 16]
    (showing,) = [c.value for c in at.sidebar.caption if c.value.startswith("Showing")]
    assert "l o w </w>" in showing.replace("\\", "")
    at.radio(key=state.BPE_END_OF_WORD).set_value("glued")
    submit(at)
    assert at.dataframe[0].value["pair"][0] == "p + r"
    assert "(378 B)" in at.selectbox(key=state.BPE_CORPUS).format_func("essay_es_six_lines")


def test_a_pasted_corpus_trains_and_an_empty_one_is_refused() -> None:
    at = run_page()
    at.selectbox(key=state.BPE_CORPUS).set_value(bpe_views.PASTE).run()  # the field it needs appears
    submit(at)
    assert len(at.error) == 1 and "empty" in at.error[0].value
    at.text_area(key=state.BPE_PASTE).set_value("low lower lowest newer newest " * 20)
    at.number_input(key=state.BPE_SIZE).set_value(30)
    submit(at)
    assert not at.error
    assert at.session_state[state.BPE_APPLIED].own_title == "Pasted text"
    assert step_of(at)[1] <= 30


def test_upload_without_a_file_says_what_to_do() -> None:
    at = run_page()
    at.selectbox(key=state.BPE_CORPUS).set_value(bpe_views.UPLOAD).run()  # the field it needs appears
    submit(at)
    assert len(at.error) == 1 and "No file uploaded" in at.error[0].value


def test_an_empty_text_shows_no_spans_and_no_error() -> None:
    at = run_page()
    at.text_area(key=state.BPE_TEXT).set_value("").run()
    assert not at.exception and not at.error
    assert any("Type a sentence" in i.value for i in at.info)
    assert step_of(at)[1] == 300


def test_a_new_text_keeps_the_step() -> None:
    at = run_page()
    step_slider(at).set_value(77).run()
    at.text_area(key=state.BPE_TEXT).set_value("<b>tokens & letters</b> 🙂").run()
    assert not at.exception
    assert step_slider(at).value == 77
    assert "<b>" not in spans(at) and "&lt;" in spans(at) and "&amp;" in spans(at)


def test_the_merges_table_filters() -> None:
    at = run_page()
    at.text_input(key=state.BPE_FILTER).set_value("the").run()
    shown = at.dataframe[0].value
    assert 0 < len(shown) < 300
    assert all("the" in row["new token"].casefold() or "the" in row["pair"].casefold().replace(" + ", "")
               for _, row in shown.iterrows())


def test_downloads_are_offered() -> None:
    at = run_page()
    labels = [button.proto.label for button in at.get("download_button")]
    assert labels == [
        "Merges (CSV)", "Model and trace (JSON)", "tokenizer.json", ".tiktoken + pattern", "Chart data (CSV)",
    ]


def test_switching_views_keeps_the_form_values() -> None:
    at = run_page()
    at.number_input(key=state.BPE_SIZE).set_value(123)
    submit(at)
    at.segmented_control(key=state.BPE_VIEW).set_value("replay").run()
    at.segmented_control(key=state.BPE_VIEW).set_value("train").run()
    assert not at.exception
    assert at.number_input(key=state.BPE_SIZE).value == 123
    assert step_of(at)[1] == 123


@pytest.mark.data
@pytest.mark.skipif(data_dir_or_none() is None, reason="PLAYGROUND_DATA_DIR is not set (cl100k_base comes from it)")
def test_replay_of_cl100k_shows_steps_spans_and_chunks() -> None:
    at = run_page()
    at.segmented_control(key=state.BPE_VIEW).set_value("replay").run()
    assert at.selectbox(key=state.BPE_REPLAY_TOKENIZER).value == "cl100k_base"
    assert not at.exception and not at.error
    k, n = step_of(at)
    assert k == n > 10  # the replay opens on the tokenizer's answer
    assert "rank" in merge_line(at)
    assert html_with(at, "bpe-chunks") and "tp-hl" in spans(at)
    assert any(c.value.startswith("✓") for c in at.caption)
    final = spans(at)
    click(at, "bpe_replay_prev")
    assert step_of(at) == (n - 1, n) and spans(at) != final
    step_slider(at, "bpe_replay_").set_value(0).run()
    assert "before any merge" in merge_line(at)


@pytest.mark.data
@pytest.mark.skipif(data_dir_or_none() is None, reason="PLAYGROUND_DATA_DIR is not set (gpt2 comes from it)")
def test_replay_under_another_tokenizer_and_text_resets_to_the_end() -> None:
    at = run_page()
    at.segmented_control(key=state.BPE_VIEW).set_value("replay").run()
    at.selectbox(key=state.BPE_REPLAY_TOKENIZER).set_value("gpt2").run()
    at.text_area(key=state.BPE_REPLAY_TEXT).set_value("Hello world, hello tokens.").run()
    assert not at.exception and not at.error
    k, n = step_of(at)
    assert k == n > 0



def test_an_uploaded_corpus_name_is_text_not_markdown() -> None:
    from ui.widgets import md_escape

    name = "**bold** [link](evil.example) :red[red].txt"
    at = run_page()
    at.selectbox(key=state.BPE_CORPUS).set_value(bpe_views.UPLOAD).run()  # the field it needs appears
    at.file_uploader(key=state.BPE_UPLOAD).set_value((name, "hello".encode("utf-16"), "text/plain"))
    submit(at)
    assert [e.value for e in at.error] == [f"{md_escape(name)} is UTF-16 text, not UTF-8; save it as UTF-8 and upload it again."]


def test_pieces_with_markdown_characters_stay_text_in_the_race_caption() -> None:
    at = run_page()
    at.selectbox(key=state.BPE_CORPUS).set_value(bpe_views.PASTE).run()  # the field it needs appears
    at.text_area(key=state.BPE_PASTE).set_value("**a** __b__ " * 20)
    at.number_input(key=state.BPE_SIZE).set_value(3)
    submit(at)
    step_slider(at).set_value(1).run()
    note = re.search(r'<p class="bpe-note">([^<]*)</p>', merge_line(at)).group(1)
    assert "won outright" in note or "tied at" in note
    assert "picked * + *." in note  # the pieces as they are: text in HTML, not Markdown emphasis


def test_a_runaway_custom_pattern_is_refused_with_a_message_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    from core.text import pretokenize

    monkeypatch.setattr(pretokenize, "MATCH_SECONDS", 0.3)  # (a|a)+$ on this corpus would run for days
    at = run_page()
    at.selectbox(key=state.BPE_CORPUS).set_value(bpe_views.PASTE).run()  # the field it needs appears
    at.text_area(key=state.BPE_PASTE).set_value("a" * 40 + "!")
    at.selectbox(key=state.BPE_PATTERN).set_value(bpe_views.CUSTOM).run()  # the field it needs appears
    at.text_input(key=state.BPE_CUSTOM_PATTERN).set_value("(a|a)+$")
    submit(at)
    assert len(at.error) == 1 and "Not trained" in at.error[0].value and "backtracks" in at.error[0].value
    assert step_of(at)[1] == 300  # the previous model is still shown


def test_a_pattern_that_runs_away_on_your_text_is_a_message_and_keeps_the_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from core.text import pretokenize

    monkeypatch.setattr(pretokenize, "MATCH_SECONDS", 0.3)
    at = run_page()
    at.selectbox(key=state.BPE_PATTERN).set_value(bpe_views.CUSTOM).run()  # the field it needs appears
    at.text_input(key=state.BPE_CUSTOM_PATTERN).set_value("(a|a)+$")  # harmless on the essay
    at.number_input(key=state.BPE_SIZE).set_value(40)
    submit(at)
    assert not at.error
    at.text_area(key=state.BPE_TEXT).set_value("a" * 40 + "!").run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.error) == 1 and "Your text cannot be cut" in at.error[0].value
    assert at.text_area(key=state.BPE_TEXT).value == "a" * 40 + "!"
    assert step_of(at)[1] == 40


@pytest.mark.parametrize(("kind", "size", "message"), [("merges", 0, "at least 1 merge"),
                                                        ("merges", -1, "at least 1 merge"),
                                                        ("vocab", 256, "at least a vocabulary of 257")])
def test_a_size_below_one_merge_is_a_message(kind: str, size: int, message: str) -> None:
    at = run_page()
    at.radio(key=state.BPE_SIZE_KIND).set_value(kind)
    at.number_input(key=state.BPE_SIZE).set_value(size)
    submit(at)
    assert len(at.error) == 1 and message in at.error[0].value
    assert step_of(at)[1] == 300


def test_the_six_spanish_lines_offer_the_essays_settings_in_one_click(data_dir: Path) -> None:
    at = run_page()
    assert not [b for b in at.button if b.key == "bpe_preset"]  # the default corpus has no preset
    at.selectbox(key=state.BPE_CORPUS).set_value("essay_es_six_lines").run()
    assert at.button(key="bpe_preset").label == "Use the essay's settings"
    click(at, "bpe_preset")
    applied = at.session_state[state.BPE_APPLIED]
    assert (applied.corpus, applied.mode, applied.end_of_word, applied.tie_break) == (
        "essay_es_six_lines", "char", "separate", "minbpe")
    table = at.dataframe[0].value
    assert list(table["pair"][:2]) == ["a + </w>", "p + r"] and list(table["count"][:2]) == [18, 16]
    (showing,) = [c.value.replace("\\", "") for c in at.sidebar.caption if c.value.startswith("Showing")]
    assert "ties go to the pair met first in the text as the merges so far left it" in showing
    written = {n: at.query_params[n] for n in at.query_params}
    flat = {k: v[0] if isinstance(v, list) else v for k, v in written.items()}
    assert (flat["mode"], flat["tie"]) == ("char", "minbpe") and flat.get("end_of_word", "separate") == "separate"


def test_tiny_shakespeare_offers_the_chapters_settings(data_dir: Path) -> None:
    at = run_page()
    at.selectbox(key=state.BPE_CORPUS).set_value("tinyshakespeare").run()
    assert at.button(key="bpe_preset").label == "Use the chapter's settings"
    at.button(key="bpe_preset").click().run(timeout=240)
    assert not at.exception
    applied = at.session_state[state.BPE_APPLIED]
    assert (applied.corpus, applied.mode, applied.pattern_name, applied.tie_break, applied.size_kind, applied.size) == (
        "tinyshakespeare", "byte", "GPT-2", "largest_pair", "vocab", 2_000)
    assert step_of(at)[1] == 2_000 - 256


def test_the_tie_rules_are_named_by_what_they_do() -> None:
    at = run_page()
    labels = at.radio(key=state.BPE_TIE).options  # as shown
    assert len(labels) == 3 and all(label.startswith("ties go to the") for label in labels)
    assert "minbpe" in at.radio(key=state.BPE_TIE).help and "subword-nmt" in at.radio(key=state.BPE_TIE).help
