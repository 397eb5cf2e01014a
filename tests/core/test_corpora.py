"""core.corpora: the catalog, loading pinned corpora, the offline message, held-out split, uploads."""

from __future__ import annotations

import hashlib
import http.server
import shutil
import threading
from functools import partial
from pathlib import Path

import pytest

from core import corpora
from core.corpora import (
    catalog,
    corpus_from_paste,
    corpus_from_upload,
    entry,
    get_corpus,
    load_corpus,
    split_heldout,
    udhr_languages,
)
from core.fetch import sources
from core.fetch.sources import SourceUnavailable, UrlSource

PUBLIC = ["tinyshakespeare", "don_quijote_es", "don_quixote_en", "udhr:eng", "pud:en", "pud:zh"]


@pytest.fixture()
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No data folder, an empty cache, no network."""
    monkeypatch.delenv("PLAYGROUND_DATA_DIR", raising=False)
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    udhr_languages.cache_clear()
    yield
    udhr_languages.cache_clear()
    sources.forget_failures()


def test_the_catalog_lists_samples_then_public_corpora() -> None:
    entries = catalog()
    keys = [e.key for e in entries]
    assert len(keys) == len(set(keys))
    assert keys[0] == corpora.DEFAULT_KEY
    assert set(PUBLIC) <= set(keys)
    assert sum(k.startswith("pud:") for k in keys) == 21
    builtins = [e for e in entries if e.builtin]
    assert len(builtins) >= 4 and all(e.group == "Built-in samples" for e in builtins)
    for item in entries:
        assert item.title and item.licence and item.source and item.size_bytes > 0
        assert len(item.sha256) == 64
        if item.spec is not None:
            assert item.spec.sha256 == item.sha256 and item.spec.size_hint == item.size_bytes
    assert all("CC BY-SA" in e.notice for e in entries if e.key.startswith("pud:"))


def test_built_in_samples_are_described_by_their_files() -> None:
    for item in catalog():
        if item.builtin:
            data = (corpora.SAMPLES_DIR / Path(item.source).name).read_bytes()
            assert (len(data), hashlib.sha256(data).hexdigest()) == (item.size_bytes, item.sha256)
            assert data.decode("utf-8").strip()


def test_only_byte_identical_corpora_have_a_download() -> None:
    tiny = entry("tinyshakespeare").spec
    assert tiny.remotes == (UrlSource(corpora._TINY_SHAKESPEARE_URL),)
    assert all(not e.spec.remotes for e in catalog() if e.spec is not None and e.key != "tinyshakespeare")


def test_built_in_samples_load_offline(offline: None) -> None:
    for item in catalog():
        if item.builtin:
            assert len(load_corpus(item.key).encode()) == item.size_bytes


@pytest.mark.parametrize("key", ["tinyshakespeare", "don_quijote_es", "pud:en"])
def test_public_corpora_offline_say_what_to_do(offline: None, key: str) -> None:
    with pytest.raises(SourceUnavailable) as caught:
        load_corpus(key)
    reason = caught.value.reason
    assert entry(key).title in reason and "PLAYGROUND_DATA_DIR" in reason
    assert "The built-in samples work without it." in reason
    if key != "tinyshakespeare":
        assert "only from the data folder" in reason


@pytest.mark.data
def test_tiny_shakespeare_downloads_once_with_progress_then_comes_from_the_cache(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    www = tmp_path / "www"
    www.mkdir()
    shutil.copy(data_dir / "corpora" / "tinyshakespeare.txt", www / "input.txt")
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(www))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        monkeypatch.setattr(corpora, "_TINY_SHAKESPEARE_URL", f"http://127.0.0.1:{httpd.server_address[1]}/input.txt")
        monkeypatch.delenv("PLAYGROUND_DATA_DIR", raising=False)
        monkeypatch.delenv("PLAYGROUND_OFFLINE", raising=False)
        monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
        sources.forget_failures()
        reports: list[tuple[float, str]] = []
        text = load_corpus("tinyshakespeare", progress=lambda f, m: reports.append((f, m)))
        assert hashlib.sha256(text.encode()).hexdigest() == entry("tinyshakespeare").sha256
        assert reports and reports[-1][0] == 1.0
        (www / "input.txt").unlink()  # the second time, only the cache can answer
        assert load_corpus("tinyshakespeare") == text
    finally:
        httpd.shutdown()
        httpd.server_close()
        sources.forget_failures()


def test_unknown_keys_are_a_value_error() -> None:
    with pytest.raises(ValueError, match="no corpus called 'nope'"):
        entry("nope")


@pytest.mark.data
def test_every_public_entry_matches_the_data_folder(data_dir: Path) -> None:
    for item in catalog():
        if item.spec is not None:
            path = data_dir / item.spec.subdir / item.spec.filename
            data = path.read_bytes()
            assert (len(data), hashlib.sha256(data).hexdigest()) == (item.size_bytes, item.sha256), item.key


@pytest.mark.data
def test_public_corpora_load_from_the_data_folder(data_dir: Path) -> None:
    udhr_languages.cache_clear()
    assert get_corpus("tinyshakespeare").sha256 == entry("tinyshakespeare").sha256
    languages = udhr_languages()
    assert len(languages) == 527 and {"eng", "spa", "cmn_hans"} <= {lang.key for lang in languages}
    spanish = get_corpus("udhr:spa")
    assert "Declaración Universal" in spanish.text and spanish.notice
    assert get_corpus("pud:ja").size_bytes == entry("pud:ja").size_bytes


def test_heldout_is_the_last_tenth_cut_at_a_line_start() -> None:
    text = "".join(f"line {i:03d}\n" for i in range(100))
    train, heldout = split_heldout(text)
    assert train + heldout == text
    assert heldout.startswith("line 090\n") and train.endswith("\n")
    assert split_heldout("no line breaks here at all", 0.5) == ("no line break", "s here at all")
    train, heldout = split_heldout(text, fraction=0.25)
    assert heldout.startswith("line 075")
    with pytest.raises(ValueError, match="fraction must be between 0 and 1"):
        split_heldout(text, 1.0)


def test_paste_and_upload() -> None:
    assert corpus_from_paste("hola mundo").text == "hola mundo"
    with pytest.raises(ValueError, match="pasted text is empty"):
        corpus_from_paste("  \n")
    upload = corpus_from_upload("\ufeffniño".encode(), name="Notes.TXT")
    assert (upload.text, upload.title, upload.size_bytes) == ("niño", "Notes.TXT", 5)


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (b"%PDF-1.7", "paper.pdf", r"paper.pdf is a \.pdf file; upload a \.txt file"),
        (b"hello", "README", "a file without an extension"),
        (b"caf\xe9", "latin1.txt", "is not UTF-8 text"),
        (b"a\x00b", "binary.txt", "looks like a binary file"),
        (b"x" * 101, "big.txt", "the limit is 100"),
        (b" \n", "blank.txt", "blank.txt is empty"),
    ],
)
def test_bad_uploads_get_a_clear_message(data: bytes, name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        corpus_from_upload(data, name=name, max_bytes=100)
