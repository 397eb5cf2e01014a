"""Which language-tax counts go to disk (ui.tax.views.fixed_counts): only a catalog corpus under a registry
tokenizer, named by its file's sha256; never a session's upload (its counts would outlive the session)."""

from __future__ import annotations

import pytest

from core.pretrained import registry
from ui import cache
from ui.tax import views
from ui.tax.views import fixed_counts


def test_a_catalog_corpus_under_a_pinned_registry_tokenizer_is_named_by_its_pin() -> None:
    pin = registry()["cl100k_base"].files[0].sha256
    assert fixed_counts(("pud", "f" * 64, "en", f"cl100k_base@{pin[:16]}")) == f"cl100k_base@{pin}"
    assert fixed_counts(("udhr", "f" * 64, "eng", "")) == ""  # the texts' own counts


def test_an_unpinned_registry_file_is_named_by_the_local_file_a_load_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before it is loaded (its counts kept on disk are found without reading XLM-R's 9.6 MB file into
    ``tokenizers``), and never by a download: no local copy, no name."""
    assert registry()["xlmr"].files[0].sha256 is None  # XLM-R's file is rebuilt: its digest is "xlmr"
    store = cache.TokenizerStore(lambda key, progress: cache.Unavailable(key, key, "not here"))
    monkeypatch.setattr(cache, "tokenizer_store", lambda: store)  # nothing loaded
    monkeypatch.setattr("core.fetch.sources.obtain", lambda spec: pytest.fail("may download"))
    monkeypatch.setattr("core.fetch.sources.local_copy", lambda spec: None)
    assert fixed_counts(("pud", "f" * 64, "en", "xlmr")) is None  # no local copy: nothing to name it by

    class Found:
        sha256 = "5" * 64

    monkeypatch.setattr("core.fetch.sources.local_copy", lambda spec: Found())
    assert fixed_counts(("pud", "f" * 64, "en", "xlmr")) == "xlmr@" + "5" * 64
    assert fixed_counts(("pud", "f" * 64, "en", "xlmr@5555555555555555")) is None  # not a registry digest


def test_uploads_and_unknown_names_are_not_kept() -> None:
    pin = registry()["cl100k_base"].files[0].sha256
    assert fixed_counts(("upload:0123456789abcdef", "f" * 64, "en", f"cl100k_base@{pin[:16]}")) is None  # your corpus
    assert fixed_counts(("texts:0123456789abcdef", "f" * 64, "en", "")) is None  # your own translation
    assert fixed_counts((views.YOURS, "f" * 64, "en", "")) is None
    assert fixed_counts(("pud", "f" * 64, "en", "0" * 64)) is None  # an uploaded tokenizer's content hash
    assert fixed_counts(("pud", "f" * 64, "en", "cl100k_base@0000000000000000")) is None  # not the pinned file
    assert fixed_counts(("pud", "", "en", f"cl100k_base@{pin[:16]}")) is None
