"""core.tax.kept_counts: the language tax's counts of pinned things kept on disk for the next process."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.tax import kept_counts
from core.tax.kept_counts import DiskBackedCounts
from core.tax.language_tax import CountsMemo, language_tax
from core.tax.parallel_corpus import parallel_from_texts
from tests.core.tax.fakes import Chars

CORPUS = parallel_from_texts({"en": "The cat sat.", "de": "Die Katze saß.", "hi": "बिल्ली बैठी।"})




def _files(cache: Path) -> list[Path]:
    return sorted((cache / "derived" / "tax-counts").glob("*.npy"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_a_new_process_reads_the_counts_instead_of_counting(cache: Path) -> None:
    first, counted = Chars(), DiskBackedCounts(CountsMemo(max_bytes=10**6), identity=lambda key: "")
    table = language_tax(CORPUS, {"c": first}, base="en", memo=counted)
    assert first.calls == 3 and len(_files(cache)) == 3 + 3  # per language: its tokens and its text's counts
    second = Chars()  # a new server process: an empty memo, the same folder
    again = language_tax(CORPUS, {"c": second}, base="en",
                         memo=DiskBackedCounts(CountsMemo(max_bytes=10**6), identity=lambda key: ""))
    assert second.calls == 0
    assert again.equals(table)


def test_what_keep_refuses_never_reaches_the_disk(cache: Path) -> None:
    tokenizer = Chars()
    memo = DiskBackedCounts(CountsMemo(max_bytes=10**6), identity=lambda key: None if key[3] == "mine" else "")
    language_tax(CORPUS, {"mine": tokenizer}, base="en", memo=memo)
    assert len(_files(cache)) == 3  # the texts' own counts only
    language_tax(CORPUS, {"mine": tokenizer}, base="en",
                 memo=DiskBackedCounts(CountsMemo(max_bytes=10**6), identity=lambda key: None if key[3] == "mine" else ""))
    assert tokenizer.calls == 6


@pytest.mark.parametrize("damage", [lambda data: data[:-2], lambda data: data[:-1] + bytes([data[-1] ^ 1]), lambda data: b""])
def test_a_damaged_file_is_counted_again(cache: Path, damage) -> None:
    first = language_tax(CORPUS, {"c": Chars()}, base="en",
                         memo=DiskBackedCounts(CountsMemo(max_bytes=10**6), identity=lambda k: ""))
    for path in _files(cache):
        path.write_bytes(damage(path.read_bytes()))
    tokenizer = Chars()
    table = language_tax(CORPUS, {"c": tokenizer}, base="en",
                         memo=DiskBackedCounts(CountsMemo(max_bytes=10**6), identity=lambda k: ""))
    assert tokenizer.calls == 3 and table.equals(first)
    assert table["tokens"].tolist() == [len(CORPUS.segments[code]["1"]) for code in ("en", "de", "hi")]


def test_only_two_dimensional_int64_counts_are_read_back() -> None:
    good = np.arange(8, dtype=np.int64).reshape(2, 4)
    assert np.array_equal(kept_counts.from_bytes(kept_counts.to_bytes(good)), good)
    for wrong in (np.zeros(4, dtype=np.int64), np.zeros((3, 4), dtype=np.int64), np.zeros((2, 4), dtype=np.float64)):
        raw = __import__("io").BytesIO()
        np.save(raw, wrong)
        assert kept_counts.from_bytes(raw.getvalue()) is None
    assert kept_counts.from_bytes(b"\x93NUMPY not really") is None


def test_a_file_is_named_by_the_key_its_identity_the_format_and_the_libraries(monkeypatch: pytest.MonkeyPatch) -> None:
    key = ("pud", "f" * 64, "en", "xlmr")
    name = kept_counts.file_name(key, "xlmr@" + "1" * 64)
    assert name != kept_counts.file_name(key, "xlmr@" + "2" * 64)  # another file behind the same key
    assert name != kept_counts.file_name((*key[:3], "gpt2"), "xlmr@" + "1" * 64)
    monkeypatch.setattr(kept_counts, "VERSION", kept_counts.VERSION + 1)
    assert kept_counts.file_name(key, "xlmr@" + "1" * 64) != name
    assert "tokenizers=" in kept_counts.libraries()
