"""core.tax.parallel_corpus: the shipped parallel sample is sound, UDHR and PUD align by segment, presets, offline."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
import regex

from core.fetch import sources
from core.fetch.sources import SourceUnavailable
from core.tax import parallel_corpus
from core.tax.parallel_corpus import SCRIPT_NAMES, load_parallel, parallel_from_texts, preset

SAMPLE = json.loads(parallel_corpus.SAMPLE_PATH.read_text(encoding="utf-8"))
ROWS = SAMPLE["languages"]
# ISO 15924 code -> the Unicode scripts (``regex`` property names) its letters belong to.
UNICODE_SCRIPTS = {
    "Latn": ("Latin",), "Cyrl": ("Cyrillic",), "Grek": ("Greek",), "Armn": ("Armenian",), "Geor": ("Georgian",),
    "Hebr": ("Hebrew",), "Arab": ("Arabic",), "Deva": ("Devanagari",), "Beng": ("Bengali",),
    "Guru": ("Gurmukhi",), "Gujr": ("Gujarati",), "Taml": ("Tamil",), "Telu": ("Telugu",), "Knda": ("Kannada",),
    "Mlym": ("Malayalam",), "Thai": ("Thai",), "Mymr": ("Myanmar",), "Ethi": ("Ethiopic",), "Hans": ("Han",),
    "Hant": ("Han",), "Jpan": ("Han", "Hiragana", "Katakana"), "Hang": ("Hangul",),
}
RTL_SCRIPTS = {"Arab", "Hebr", "Syrc", "Thaa", "Adlm"}
BCP47 = re.compile(r"^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2})?$")


@pytest.fixture()
def no_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No data folder, an empty cache, no network."""
    monkeypatch.delenv("PLAYGROUND_DATA_DIR", raising=False)
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    yield
    sources.forget_failures()


def letters_in_script(text: str, script: str) -> float:
    """The share of the letters of ``text`` (Common and Inherited ones aside) in ``script``."""
    names = UNICODE_SCRIPTS[script]
    letters = [c for c in text if unicodedata.category(c).startswith("L")]
    counted = [c for c in letters if not regex.match(r"[\p{sc=Common}\p{sc=Inherited}]", c)]
    inside = [c for c in counted if any(regex.match(rf"\p{{Script_Extensions={n}}}", c) for n in names)]
    return len(inside) / len(counted)


def test_the_sample_has_30_languages_and_12_scripts_with_honest_provenance() -> None:
    assert len(ROWS) >= 30
    assert len({row["script"] for row in ROWS}) >= 12
    assert len({row["lang"] for row in ROWS}) == len(ROWS)
    for row in ROWS:
        assert BCP47.match(row["lang"]), row["lang"]
        assert row["name"] and row["provenance"]
        assert row["direction"] == ("rtl" if row["script"] in RTL_SCRIPTS else "ltr"), row["lang"]
    english = [row for row in ROWS if row["lang"] == "en"]
    assert "original" in english[0]["provenance"]
    others = [row for row in ROWS if row["lang"] != "en"]
    assert all("machine translation" in r["provenance"] and "not reviewed" in r["provenance"] for r in others)


@pytest.mark.parametrize("row", ROWS, ids=[row["lang"] for row in ROWS])
def test_every_translation_is_utf8_text_in_its_declared_script(row: dict) -> None:
    assert row["script"] in SCRIPT_NAMES and row["script"] in UNICODE_SCRIPTS
    sentences = row["sentences"]
    assert len(sentences) == 6 and all(s.strip() == s and s for s in sentences)
    text = " ".join(sentences)
    assert text.encode("utf-8").decode("utf-8") == text
    assert unicodedata.is_normalized("NFC", text)
    assert "\t" not in text and "\n" not in text
    assert letters_in_script(text, row["script"]) >= 0.95


def test_a_latin_text_fails_the_script_check_of_another_script() -> None:
    assert letters_in_script("Hello, world", "Cyrl") == 0.0
    assert letters_in_script("Hello мир", "Cyrl") == 3 / 8


def test_the_sample_loads_as_a_corpus_of_six_aligned_sentences() -> None:
    corpus = load_parallel("sample")
    assert corpus.segment_ids == ("1", "2", "3", "4", "5", "6") and corpus.unit == "sentence"
    assert corpus.codes() == tuple(row["lang"] for row in ROWS)
    assert corpus.shared(["en", "my"]) == corpus.segment_ids
    assert corpus.text("en", ["2"]) == ROWS[0]["sentences"][1]
    assert corpus.language("he").direction == "rtl" and corpus.language("ja").script_name.startswith("Japanese")
    assert len(corpus.fingerprint) == 64


def test_shared_segments_and_unknown_languages() -> None:
    corpus = parallel_from_texts({"a": "x", "b": "", "c": "z"})
    assert corpus.shared(["a", "c"]) == ("1",) and corpus.shared(["a", "b"]) == ()
    assert corpus.text("b") == ""
    with pytest.raises(ValueError, match="has no language 'zz'"):
        corpus.language("zz")
    with pytest.raises(ValueError, match="no parallel corpus called"):
        load_parallel("bible")


def test_presets_of_the_sample() -> None:
    corpus = load_parallel("sample")
    assert preset(corpus, "all") == corpus.codes()
    major = preset(corpus, "major languages")
    assert major[:3] == ("en", "zh-Hans", "hi") and set(major) <= set(corpus.codes())
    one = preset(corpus, "one per script")
    scripts = [corpus.language(code).script for code in one]
    assert len(scripts) == len(set(scripts)) == len({lang.script for lang in corpus.languages})
    assert one[0] == "en" and "ru" in one  # preferred: a major language of each script
    with pytest.raises(ValueError, match="no preset"):
        preset(corpus, "favourites")


@pytest.mark.data
def test_udhr_aligns_articles_and_compares_only_what_both_have(data_dir: Path) -> None:
    corpus = load_parallel("udhr")
    assert len(corpus.languages) == 527 and corpus.segment_ids == parallel_corpus.UDHR_ARTICLES
    english = corpus.segments["eng"]
    assert set(english) == set(parallel_corpus.UDHR_ARTICLES)
    assert english["1"].startswith("All human beings are born free and equal in dignity and rights.")
    gaps = {code: texts for code, texts in corpus.segments.items() if len(texts) < 30}
    assert gaps, "the data folder's UDHR has translations without some articles"
    code, texts = next(iter(gaps.items()))
    assert corpus.shared([code, "eng"]) == tuple(i for i in parallel_corpus.UDHR_ARTICLES if i in texts)
    assert corpus.language("hin").script == "Deva" and corpus.language("arb").direction == "rtl"
    assert len(preset(corpus, "one per script")) == len({lang.script for lang in corpus.languages})
    assert preset(corpus, "one per script")[0] == "eng"


@pytest.mark.data
def test_pud_has_1000_sentences_in_21_languages(data_dir: Path) -> None:
    corpus = load_parallel("pud")
    assert len(corpus.languages) == 21 and len(corpus.segment_ids) == 1000
    assert all(len(texts) == 1000 for texts in corpus.segments.values())
    first = corpus.segment_ids[0]
    assert corpus.segments["en"][first].startswith("“While much of the digital transition")
    assert corpus.segments["zh"][first].startswith('"')  # a leading quote survives: no CSV quoting
    assert corpus.language("zh").script == "Hant" and "CC BY-SA" in corpus.notice


@pytest.mark.parametrize("key", ["udhr", "pud"])
def test_data_folder_corpora_say_what_to_do_when_missing(no_data: None, key: str) -> None:
    with pytest.raises(SourceUnavailable) as caught:
        load_parallel(key)
    assert "data folder" in caught.value.reason and "built-in sample works" in caught.value.reason


def test_the_sample_loads_with_no_data_folder(no_data: None) -> None:
    assert len(load_parallel("sample").languages) == len(ROWS)


def test_the_catalog_names_each_corpus_licence_and_source() -> None:
    entries = parallel_corpus.parallel_catalog()
    assert [e.key for e in entries] == ["sample", "udhr", "pud"]
    for entry in entries:
        assert entry.title and entry.licence and entry.source
    assert entries[0].builtin and not entries[1].builtin
    assert "UDHR" in entries[1].notice and "CC BY-SA" in entries[2].notice
