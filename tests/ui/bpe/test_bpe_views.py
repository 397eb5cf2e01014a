"""ui.bpe.views: form checks, the training store, the settings, and the per-step cost of the scrubber."""

from __future__ import annotations

import threading
import time

import pytest

from core import bpe
from core.text.patterns import NAMED_PATTERNS
from ui import state
from ui.bpe import views as bpe_views


def form(**changes: object) -> bpe_views.TrainSettings:
    values = {"corpus": "sample_essay_en", "mode": "byte", "pattern_name": "GPT-2", "custom": "",
              "size_kind": "merges", "size": 300, "tie_break": "first_seen"}
    values.update(changes)
    return bpe_views.settings_from_form(**values)


# -- the form's checks ----------------------------------------------------------------------------------


def test_the_default_form_gives_the_default_settings() -> None:
    assert form() == bpe_views.DEFAULT_SETTINGS
    assert bpe_views.DEFAULT_SETTINGS.pattern == NAMED_PATTERNS["GPT-2"]


def test_the_page_defaults_match_the_default_settings() -> None:
    defaults = state.bpe_defaults()
    assert form(corpus=defaults[state.BPE_CORPUS], mode=defaults[state.BPE_MODE],
                pattern_name=defaults[state.BPE_PATTERN], size_kind=defaults[state.BPE_SIZE_KIND],
                size=defaults[state.BPE_SIZE], tie_break=defaults[state.BPE_TIE]) == bpe_views.DEFAULT_SETTINGS


def test_bpe_keys_carry_the_page_prefix() -> None:
    assert all(key.startswith("bpe_") for key in state.bpe_defaults())


def test_a_custom_pattern_is_used_when_picked() -> None:
    settings = form(pattern_name=bpe_views.CUSTOM, custom=r"\w+|\s+")
    assert settings.pattern == r"\w+|\s+" and settings.pattern_name == bpe_views.CUSTOM


@pytest.mark.parametrize("bad", ["(unclosed", "[a-", "a{2,1}"])
def test_a_bad_regex_is_one_friendly_sentence(bad: str) -> None:
    with pytest.raises(ValueError, match="not a valid regular expression") as caught:
        form(pattern_name=bpe_views.CUSTOM, custom=bad)
    assert "\n" not in str(caught.value) and "Traceback" not in str(caught.value)


def test_an_empty_custom_pattern_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        form(pattern_name=bpe_views.CUSTOM, custom="")


def test_char_mode_ignores_the_pattern_check() -> None:
    assert form(mode="char", pattern_name=bpe_views.CUSTOM, custom="(unclosed").mode == "char"


@pytest.mark.parametrize(
    ("size_kind", "size", "message"),
    [
        ("merges", 0, "at least 1 merge"),
        ("vocab", 256, "at least a vocabulary of 257"),
        ("merges", bpe_views.MAX_MERGES + 1, "At most 20,000 merges"),
        ("vocab", 256 + bpe_views.MAX_MERGES + 1, "At most 20,000 merges"),
    ],
)
def test_sizes_out_of_range_say_what_to_change(size_kind: str, size: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        form(size_kind=size_kind, size=size)


def test_the_largest_sizes_are_accepted() -> None:
    assert form(size=bpe_views.MAX_MERGES).size == bpe_views.MAX_MERGES
    assert form(size_kind="vocab", size=256 + bpe_views.MAX_MERGES).size == 256 + bpe_views.MAX_MERGES


def test_own_text_is_keyed_by_its_digest() -> None:
    one = form(corpus=bpe_views.PASTE, own_title="Pasted text", own_text="hello hello")
    two = form(corpus=bpe_views.PASTE, own_title="Pasted text", own_text="hello there")
    assert one.own_digest and one.own_digest != two.own_digest
    assert one != two and hash(one) != hash(two)


def test_describe_names_corpus_mode_pattern_size_and_rule() -> None:
    text = form(size_kind="vocab", size=1000, tie_break="largest_pair").describe()
    assert "Essay" in text and "byte-level BPE" in text and "GPT-2 pattern" in text
    assert "vocabulary of 1,000" in text and bpe.TIE_BREAKS["largest_pair"] in text
    assert "pattern" not in form(mode="char").describe()


def test_corpus_options_offer_the_catalog_paste_and_upload() -> None:
    options = bpe_views.corpus_options()
    assert list(options)[0] == "sample_essay_en"
    assert "tinyshakespeare" in options
    assert list(options)[-2:] == [bpe_views.PASTE, bpe_views.UPLOAD]


# -- the training store -----------------------------------------------------------------------------------


def test_the_store_trains_once_per_settings_even_when_asked_at_once() -> None:
    store = bpe_views.TrainingStore()
    calls = []

    def make() -> str:
        calls.append(1)
        time.sleep(0.05)
        return "result"

    threads = [threading.Thread(target=store.get, args=(form(), make)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and store.peek(form()) == "result"


def test_the_store_forgets_the_oldest_beyond_its_size() -> None:
    store = bpe_views.TrainingStore(max_items=2)
    for size in (10, 20, 30):
        store.get(form(size=size), lambda size=size: size)
    assert store.peek(form(size=10)) is None
    assert store.peek(form(size=20)) == 20 and store.peek(form(size=30)) == 30


# -- per-step state: what the scrubber indexes into -----------------------------------------------------------


@pytest.fixture(scope="module")
def big_model() -> bpe.BPEResult:
    """10,000 merges on a synthetic corpus with many distinct words (so that many merges exist)."""
    words = [f"w{i:05d}x{i * 7919 % 10007:05d}" for i in range(30_000)]
    return bpe.train(" ".join(words), num_merges=10_000, pattern=NAMED_PATTERNS["GPT-2"])


def test_text_changes_are_where_the_segmentation_changes(big_model: bpe.BPEResult) -> None:
    text = "w00042x00017 and w12345x99999"
    changes = bpe_views.text_changes(big_model, text)
    tok = big_model.tokenizer
    assert changes and changes == sorted(set(changes))
    for k in changes[:20]:
        assert tok.segment(text, k) != tok.segment(text, k - 1)


