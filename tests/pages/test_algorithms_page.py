"""AppTest smoke tests for the Algorithms page: the grid, sizes, training, the three closer looks, links."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.pages.apptest import open_page, rerun
from ui import state
from ui.algorithms import store

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "2_Algorithms.py")
TIMEOUT_S = 120


def run_page(params: dict[str, str] | None = None) -> AppTest:
    return open_page(PAGE, timeout=TIMEOUT_S, params=params)


def html_with(at: AppTest, marker: str) -> list[str]:
    return [h.proto.body for h in at.html if marker in h.proto.body]


def grid(at: AppTest) -> str:
    (found,) = html_with(at, 'class="al-grid"')
    return found


def cells(at: AppTest) -> list[str]:
    return re.findall(r'data-algorithm="(\w+)" data-size="(\d+)"', grid(at))


def segments(at: AppTest) -> list[str]:
    """The lists of segmentations (BPE-dropout, then Unigram's n best and samples), in page order."""
    return html_with(at, 'class="al-segs"')


def test_default_view_is_a_three_by_three_grid_of_spans_with_counts() -> None:
    at = run_page()
    assert at.text_area(key=state.AL_TEXT).value == state.AL_DEFAULT_TEXT
    assert at.button_group(key=state.AL_SIZES).value == [300, 500, 1000]
    assert cells(at) == [(alg, size) for alg in ("bpe", "wordpiece", "unigram") for size in ("300", "500", "1000")]
    body = grid(at)
    assert body.count('class="tp-spans"') == 9 and len(re.findall(r"al-count\">\d+ tokens</span>", body)) == 9
    assert "256 bytes + 44 merges" in body and 'al-unk">' in body  # WordPiece and Unigram lose the emoji
    assert any("Never seen in the corpus" in m.value and "🙂" in m.value for m in at.markdown)
    assert any("Essay" in c.value for c in at.sidebar.caption)


def test_the_closer_looks_show_dropout_match_steps_lattice_and_samples() -> None:
    at = run_page()
    assert at.segmented_control(key=state.AL_FOCUS).value == 500
    dropout, nbest, samples = segments(at)
    assert dropout.count('class="al-seg"') == 5 and ">p = 0<" in dropout
    (steps, unknown) = html_with(at, 'class="al-steps"')
    assert 'class="al-hit"' in steps and "tp-unk" not in steps
    assert "[UNK]</span> for the whole word" in unknown and "🙂" in unknown
    assert len(at.get("plotly_chart")) == 1
    assert nbest.count('class="al-seg"') == 5 and "log p" in nbest
    assert samples.count('class="al-seg"') == 4


def test_sizes_change_the_columns_and_a_fifth_pick_is_taken_back() -> None:
    at = run_page()
    at.button_group(key=state.AL_SIZES).set_value([300, 500, 1000, 2000])
    rerun(at)
    assert [size for alg, size in cells(at) if alg == "bpe"] == ["300", "500", "1000", "2000"]
    at.button_group(key=state.AL_SIZES).set_value([100, 300, 500, 1000, 2000])
    rerun(at)
    assert at.session_state[state.AL_SIZES] == [300, 500, 1000, 2000]
    assert len(cells(at)) == 12
    assert 'data-size="100"' not in grid(at)


def test_one_size_and_no_size_and_no_text_say_what_to_do() -> None:
    at = run_page()
    at.button_group(key=state.AL_SIZES).set_value([])
    rerun(at)
    assert any("Pick two to four" in i.value for i in at.info) and not html_with(at, 'class="al-grid"')
    at.button_group(key=state.AL_SIZES).set_value([1000])
    rerun(at)
    assert len(cells(at)) == 3 and any("One size" in c.value for c in at.caption)
    at.text_area(key=state.AL_TEXT).input("")
    rerun(at)
    assert any("Type a sentence" in i.value for i in at.info) and not html_with(at, 'class="al-grid"')


def test_sizes_a_corpus_cannot_give_are_notes_in_their_cells() -> None:
    at = run_page()
    at.button_group(key=state.AL_SIZES).set_value([100, 8000])
    rerun(at)
    body = grid(at)
    assert "the 256 bytes come first" in body and "Stopped at 1,045" in body and "at most 3,741" in body
    assert body.count('class="tp-spans"') == 5  # byte-level BPE cannot have 100


def test_train_on_a_pasted_corpus_with_character_bpe() -> None:
    at = run_page()
    at.selectbox(key=state.AL_CORPUS).set_value(store.PASTE)
    at.text_area(key=state.AL_PASTE).input("low lower lowest newer wider " * 30)
    at.radio(key=state.AL_BPE_FLAVOUR).set_value("char_separate")
    at.text_area(key=state.AL_TEXT).input("lowest newest")
    at.button(key="al_train").click()
    rerun(at)
    applied = at.session_state[state.AL_APPLIED]
    assert applied.corpus == store.PASTE and applied.bpe_flavour == "char_separate"
    assert "character, l o w &lt;/w&gt;" in grid(at)
    assert any("Pasted text" in c.value for c in at.sidebar.caption)
    # a small corpus: every size beyond what it holds is a note, and nothing raises
    assert "Stopped at" in grid(at) or "at most" in grid(at)


def test_a_refused_corpus_keeps_the_grid_and_says_why() -> None:
    at = run_page()
    at.selectbox(key=state.AL_CORPUS).set_value(store.UPLOAD)
    at.button(key="al_train").click()
    rerun(at)
    assert any("No file uploaded yet" in e.value for e in at.error)
    assert len(cells(at)) == 9 and at.session_state[state.AL_APPLIED] is None


def test_resample_and_sample_draw_new_segmentations() -> None:
    at = run_page()
    at.slider(key=state.AL_DROPOUT).set_value(0.5)
    rerun(at)
    before = segments(at)
    at.button(key="al_resample").click()
    rerun(at)
    after = segments(at)
    assert at.session_state[state.AL_DROPOUT_SEED] == 1
    assert after[0] != before[0] and after[2] == before[2]  # dropout samples moved, Unigram's did not
    at.slider(key=state.AL_ALPHA).set_value(0.0)
    rerun(at)
    first = segments(at)[2]
    at.button(key="al_sample").click()
    rerun(at)
    assert at.session_state[state.AL_SAMPLE_SEED] == 1 and segments(at)[2] != first


def test_words_that_do_not_fit_are_friendly() -> None:
    at = run_page()
    at.text_input(key=state.AL_UNI_WORD).input("two words")
    at.text_input(key=state.AL_WP_WORD).input("hello, <b>you</b>")
    rerun(at)
    assert any("Type one word" in i.value for i in at.info)
    assert not at.get("plotly_chart")
    assert any("cuts this into" in c.value for c in at.caption)
    assert all("<b>" not in body for body in html_with(at, 'class="al-steps"'))
    at.text_input(key=state.AL_UNI_WORD).input("x" * 40)
    rerun(at)
    assert any("up to 30 characters" in i.value for i in at.info)


def test_a_link_trains_what_it_names() -> None:
    at = run_page({
        "page": "algorithms", "corpus": "sample_mercado_es", "bpe_flavour": "char_glued", "sizes": "200,1000",
        "text": "el mercado de las palabras", "focus": "1000", "nbest": "3",
    })
    applied = at.session_state[state.AL_APPLIED]
    assert (applied.corpus, applied.bpe_flavour) == ("sample_mercado_es", "char_glued")
    assert [size for alg, size in cells(at) if alg == "unigram"] == ["200", "1000"]
    assert at.segmented_control(key=state.AL_FOCUS).value == 1000
    assert at.number_input(key=state.AL_NBEST).value == 3
    assert "character, l o w&lt;/w&gt;" in grid(at)


def test_a_bad_link_is_notes_not_a_traceback() -> None:
    at = run_page({"page": "algorithms", "sizes": "300,301", "alpha": "9", "corpus": "nope", "nbest": "x"})
    captions = " ".join(c.value for c in at.sidebar.caption)
    for name in ("sizes", "alpha", "corpus", "nbest"):
        assert f"'{name}'" in captions
    assert len(cells(at)) == 9


def test_the_state_round_trips_through_the_link() -> None:
    at = run_page()
    at.button_group(key=state.AL_SIZES).set_value([200, 2000])
    at.text_area(key=state.AL_TEXT).input("Linked 🙂 text")
    at.slider(key=state.AL_DROPOUT).set_value(0.3)
    rerun(at)
    written = {name: at.query_params[name] for name in at.query_params}
    flat = {k: v[0] if isinstance(v, list) else v for k, v in written.items()}
    assert flat["page"] == "algorithms" and flat["sizes"] == "200,2000"
    again = run_page(flat)
    assert again.button_group(key=state.AL_SIZES).value == [200, 2000]
    assert again.text_area(key=state.AL_TEXT).value == "Linked 🙂 text"
    assert again.slider(key=state.AL_DROPOUT).value == 0.3


def test_presentation_mode_tightens_the_page() -> None:
    at = run_page()
    at.sidebar.toggle(key="nav_presentation").set_value(True)
    rerun(at)
    assert html_with(at, "al-corner { visibility: hidden; }")
    assert "COLLAPSED" in str(at.text_area(key=state.AL_TEXT).label_visibility)


def test_every_key_is_declared_with_the_prefix() -> None:
    defaults = state.algorithms_defaults()
    assert all(key.startswith("al_") for key in defaults)
    assert state.AL_UPLOAD not in defaults  # a file uploader refuses a value set through state


def test_a_public_corpus_that_cannot_be_had_is_one_sentence(monkeypatch) -> None:
    from core.fetch.sources import SourceUnavailable

    def missing(key: str, **_: object) -> str:
        raise SourceUnavailable(f"{key} is not in the data folder: set PLAYGROUND_DATA_DIR to get it")

    at = run_page()
    monkeypatch.setattr(store.corpora, "load_corpus", missing)
    at.selectbox(key=state.AL_CORPUS).set_value("botchan_en")
    at.button(key="al_train").click()
    rerun(at)
    assert any(e.value.startswith("Not trained: botchan_en is not in the data folder") for e in at.error)
    assert len(cells(at)) == 9 and at.session_state[state.AL_APPLIED] is None


def test_each_algorithm_is_offered_as_tokenizer_json() -> None:
    """The files themselves load with identical ids: tests/core/test_hf_export.py and the BPE export tests."""
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT_S).run()
    assert not at.exception
    buttons = {b.proto.label: b for b in at.get("download_button")}
    assert {"BPE tokenizer.json", "WordPiece tokenizer.json", "Unigram tokenizer.json"} <= set(buttons)


def test_next_and_previous_step_through_the_sizes_of_the_closer_look() -> None:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT_S).run()
    sizes = list(at.session_state[state.AL_SIZES])
    start = at.session_state[state.AL_FOCUS]
    at.button(key=f"{state.AL_FOCUS}_next").click().run()
    assert at.session_state[state.AL_FOCUS] == sizes[(sizes.index(start) + 1) % len(sizes)]
    at.button(key=f"{state.AL_FOCUS}_prev").click().run()
    assert at.session_state[state.AL_FOCUS] == start
    assert not at.exception


def test_the_textbook_unigram_recipe_is_a_choice_with_its_pruning_table() -> None:
    at = run_page()
    at.radio(key=state.AL_UNIGRAM_RECIPE).set_value("textbook")
    at.button(key="al_train").click()
    rerun(at)
    applied = at.session_state[state.AL_APPLIED]
    assert applied.unigram_recipe == "textbook"
    assert "the textbook&#x27;s recipe" in grid(at) or "the textbook's recipe" in grid(at)
    assert len(cells(at)) == 9
    assert any("Unigram row: the textbook" in c.value.replace("\\", "") for c in at.sidebar.caption)
    (table,) = [d for d in at.dataframe if "log-likelihood / character" in d.value.columns]
    rounds = table.value
    assert rounds["pieces"].iloc[-1] == 500 and rounds["kept"].iloc[-1] == 500  # the focus size
    assert (rounds["pieces"].diff().dropna() < 0).all()
    assert any("Why SentencePiece's recipe compresses better" in c.value for c in at.caption)
    (viterbi,) = [body for body in segments(at) if ">Viterbi<" in body]
    assert "understanding" not in viterbi or "tp-" in viterbi
    assert len(at.get("plotly_chart")) == 0  # no lattice chart for this recipe: its table instead


def test_a_link_names_the_unigram_recipe() -> None:
    at = run_page({"page": "algorithms", "unigram_recipe": "textbook", "sizes": "300,500"})
    assert at.session_state[state.AL_APPLIED].unigram_recipe == "textbook"
    assert any("log-likelihood / character" in d.value.columns for d in at.dataframe)


def test_the_textbook_recipe_offers_no_unigram_tokenizer_json_but_keeps_the_others() -> None:
    at = run_page({"page": "algorithms", "unigram_recipe": "textbook"})
    labels = {b.proto.label for b in at.get("download_button")}
    assert {"BPE tokenizer.json", "WordPiece tokenizer.json"} <= labels and "Unigram tokenizer.json" not in labels


def test_a_stopped_training_says_so() -> None:
    at = run_page()
    assert at.session_state[state.AL_SIZES_TRAINED] == [300, 500, 1000]
    # what the Stop button's click leaves for the next run (the click itself needs a training in flight:
    # tests/browser/test_algorithms_page.py)
    at.session_state[state.TRAINING_STOPPED] = "algorithms"
    at.run()
    assert any("Training stopped before it finished" in e.value for e in at.error)
    assert state.TRAINING_STOPPED not in at.session_state
    at.run()
    assert not any("Training stopped" in e.value for e in at.error)


def test_a_corpus_with_words_too_long_says_they_were_cut() -> None:
    at = run_page()
    assert not any("cut into pieces" in c.value for c in at.sidebar.caption)
    at.selectbox(key=state.AL_CORPUS).set_value(store.PASTE)
    at.text_area(key=state.AL_PASTE).input("low lower lowest newer wider " * 30 + "ab" * 300)
    at.button(key="al_train").click()
    rerun(at)
    (trained,) = [c.value.replace("\\", "") for c in at.sidebar.caption if c.value.startswith("Trained on")]
    assert "Words longer than 256 characters (1 of them) were cut into pieces of 256 for training" in trained
