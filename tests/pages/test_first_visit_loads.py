"""What a first visit loads (issue 21, item 9): the Playground only the tokenizers of its columns, and
neither pandas nor numpy (their imports were about half a second of a fresh server's first visit)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from core.pretrained import DEFAULT_KEYS
from tests.pages.apptest import open_page
from ui import cache

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_a_playground_visit_loads_only_the_tokenizers_of_its_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[str] = []
    store = cache.TokenizerStore(lambda key, progress: loaded.append(key) or cache.load_from_registry(key, progress))
    monkeypatch.setattr(cache, "tokenizer_store", lambda: store)  # a fresh process's: nothing loaded yet
    open_page(APP, timeout=120)
    assert sorted(loaded) == sorted(DEFAULT_KEYS)


def test_a_first_playground_visit_imports_neither_pandas_nor_numpy() -> None:
    """In a fresh process, as a fresh server's first visit: the counts table is Markdown (st.table converts
    through pandas), and a short text's offsets are counted without numpy."""
    code = (
        "import sys; from streamlit.testing.v1 import AppTest; "
        f"at = AppTest.from_file({APP!r}, default_timeout=120); at.run(); "
        "assert not at.exception, [e.value for e in at.exception]; "
        "assert any(m.value.startswith('| | ') for m in at.markdown), 'no counts table'; "
        "print(sorted(m for m in ('pandas', 'numpy', 'pyarrow') if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         cwd=Path(APP).parent)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().splitlines()[-1] == "[]"


TAX = str(Path(__file__).resolve().parents[2] / "pages" / "4_Language_tax.py")


def test_a_language_tax_visit_whose_counts_are_kept_loads_only_the_charts_tokenizer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its counts kept (on disk for a new server), the table is made without loading the other five
    tokenizers (XLM-R's 9.6 MB file was most of a fresh server's first visit), and it is the same table."""
    from ui.tax import views

    views.tax_tables().clear()  # this process's earlier tests may have made other tables
    views.derived_values().clear()
    open_page(TAX, timeout=180)  # counts made, or read from disk, and kept
    before = [views.tax_tables().peek(key) for key in views.tax_tables().keys()]  # noqa: SIM118 (a SizedCache)
    views.tax_tables().clear()
    views.derived_values().clear()
    loaded: list[str] = []
    store = cache.TokenizerStore(lambda key, progress: loaded.append(key) or cache.load_from_registry(key, progress))
    monkeypatch.setattr(cache, "tokenizer_store", lambda: store)  # a new process's: nothing loaded yet
    open_page(TAX, timeout=180)
    assert loaded == ["cl100k_base"]  # the chart's, for the spans below it
    after = [views.tax_tables().peek(key) for key in views.tax_tables().keys()]  # noqa: SIM118 (a SizedCache)
    assert len(after) == len(before) == 1
    pd.testing.assert_frame_equal(after[0], before[0])  # names and lossless flags included


BEYOND = str(Path(__file__).resolve().parents[2] / "pages" / "8_Beyond_tokenizers.py")


def test_beyond_reads_its_default_entropy_model_and_measures_from_disk_in_a_new_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """The first visit's model (trained on PUD's 2.7 MB, or the built-in samples without the data folder),
    its held-out bits and the languages' entropies are kept on disk: a new process trains and measures nothing."""
    from core.beyond import byte_ngram
    from ui.beyond import models

    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path))

    def new_process() -> None:
        models.ngram_store.clear()
        models.language_entropies.clear()
        models.text_entropy.clear()

    def shown(at) -> tuple[list[str], list[str]]:
        captions = [c.value for c in at.caption if c.value.startswith("Entropy model\\: ")]
        return captions, [c.proto.spec for c in at.get("plotly_chart")]

    new_process()
    first = shown(open_page(BEYOND, timeout=180))
    assert len(first[0]) == 1 and len(first[1]) == 2  # the model's line; the entropy and languages charts
    new_process()
    monkeypatch.setattr(byte_ngram, "train", lambda *a, **k: pytest.fail("trained again"))
    monkeypatch.setattr(byte_ngram.ByteNgramModel, "surprisal", lambda *a, **k: pytest.fail("measured again"))
    entropy = byte_ngram.ByteNgramModel.entropy
    measured: list[int] = []
    monkeypatch.setattr(byte_ngram.ByteNgramModel, "entropy", lambda self, data: measured.append(len(data)) or entropy(self, data))
    assert shown(open_page(BEYOND, timeout=180)) == first
    assert len(measured) == 1  # the text in the box only, not the 17 or 21 languages


def test_a_tab_that_needs_more_than_the_counts_loads_the_deferred_tokenizers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Sources tab reads each tokenizer's licence: the tokenizers left unloaded for the table are
    loaded then (``ui.tax.views.Deferred``), and every one of them is named with its licence."""
    from tests.pages.apptest import rerun
    from ui import state
    from ui.widgets import md_escape

    open_page(TAX, timeout=180)  # counts kept
    loaded: list[str] = []
    store = cache.TokenizerStore(lambda key, progress: loaded.append(key) or cache.load_from_registry(key, progress))
    monkeypatch.setattr(cache, "tokenizer_store", lambda: store)
    at = open_page(TAX, timeout=180)
    assert loaded == ["cl100k_base"]
    at.session_state[state.LT_TAB] = "Sources and licences"
    rerun(at)
    assert sorted(loaded) == sorted(state.LT_DEFAULT_TOKENIZERS)
    sources = next(t for t in at.tabs if t.label == "Sources and licences").markdown[0].value
    for key in state.LT_DEFAULT_TOKENIZERS:
        tokenizer = store.peek(key)
        assert md_escape(f"{tokenizer.name}: {tokenizer.license}") in sources, key
