"""A tokenizer file named by its Hugging Face Hub repository (``org/name@revision``) or by a direct URL.

``parse_ref`` reads what the user typed; ``fetch`` returns the file's bytes with its revision and
sha256, and the repository's ``tokenizer_config.json`` when it has one (for its chat template). The
bytes then go through ``core.pretrained.uploaded.read_upload`` like any upload: size checks, refused
hostile numbers, the sandboxed worker. Hub files come through ``huggingface_hub.hf_hub_download``,
so ``HF_ENDPOINT``, ``HF_HUB_OFFLINE``, ``HF_HUB_CACHE`` and the user's login token (``hf auth
login``) apply and the files are cached where Hugging Face caches them; the playground never reads
or stores the token itself. Every failure is a ``HubFailed`` with one sentence saying what to do.

Subtle: the size is asked first (a HEAD request), so a file over the limit is refused before a byte
of it is downloaded; a plain URL is streamed and cut at the limit. When the Hub does not answer at
all, a file an earlier fetch cached is read from the cache, as ``huggingface_hub`` itself does.

>>> parse_ref("Qwen/Qwen3-8B@main")
HubRef(repo_id='Qwen/Qwen3-8B', revision='main', filename=None, url=None)
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import re
import socket
import urllib.parse
from dataclasses import dataclass, replace
from pathlib import Path

from core.fetch.sources import cache_dir
from core.pretrained.uploaded import MAX_TOKENIZER_BYTES, Upload, read_upload

TOKENIZER_FILES = ("tokenizer.json", "tekken.json", "tokenizer.model", "vocab.txt")  # looked for in this order
CONFIG_FILE = "tokenizer_config.json"
MAX_CONFIG_BYTES = 8 * 1024 * 1024
TIMEOUT_S = 10.0
MAX_REDIRECTS = 5
_REPO = re.compile(r"[A-Za-z0-9][\w.-]{0,95}/[A-Za-z0-9][\w.-]{0,95}")
_REVISION = re.compile(r"[\w./-]{1,200}")
_HUB_URL = re.compile(r"/(?P<repo>[^/]+/[^/]+)/(?:resolve|blob)/(?P<revision>[^/]+)/(?P<filename>.+)")


class HubFailed(ValueError):
    """The file could not be had from the Hub or the URL; the message says why and what to do."""


@dataclass(frozen=True)
class HubRef:
    """A repository (with an optional revision and file) or a plain URL."""

    repo_id: str
    revision: str | None = None
    filename: str | None = None
    url: str | None = None

    def describe(self) -> str:
        return self.url or self.repo_id + (f"@{self.revision}" if self.revision else "")


@dataclass(frozen=True)
class HubFile:
    """A fetched tokenizer file, where it came from, and the repository's tokenizer_config.json if any."""

    data: bytes
    filename: str
    origin: str  # "org/name@<commit>" or the URL
    revision: str  # the commit the Hub resolved the revision to ("" for a plain URL)
    sha256: str
    config: bytes | None = None


def parse_ref(text: str) -> HubRef:
    """``org/name``, ``org/name@revision``, a Hub file URL (``…/resolve/<rev>/<file>``) or any https URL."""
    text = text.strip()
    if text.startswith(("http://", "https://")):
        parts = urllib.parse.urlsplit(text)
        if parts.hostname in ("huggingface.co", "hf.co"):
            found = _HUB_URL.fullmatch(parts.path)
            if found:
                return HubRef(found["repo"], urllib.parse.unquote(found["revision"]),
                              urllib.parse.unquote(found["filename"]))
        return HubRef("", url=text)
    repo, at, revision = text.partition("@")
    bad_revision = bool(at) and not (_REVISION.fullmatch(revision) and ".." not in revision)
    if not _REPO.fullmatch(repo) or ".." in repo or "--" in repo or bad_revision:
        raise HubFailed(f"{text!r} is not a Hub repository id: write org/name, optionally @revision "
                        "(Qwen/Qwen3-8B@main), or paste a file's URL.")
    return HubRef(repo, revision or None)


def fetch(ref: HubRef, *, max_bytes: int) -> HubFile:
    """The tokenizer file ``ref`` names (the first of ``TOKENIZER_FILES`` the repository has)."""
    if ref.url:
        return _fetch_url(ref.url, max_bytes)
    try:
        return _from_repo(ref, max_bytes, offline=_offline())
    except _Unreachable as unreachable:  # no network: what an earlier fetch left in the cache, as the library does
        try:
            return _from_repo(ref, max_bytes, offline=True)
        except HubFailed:
            raise HubFailed(str(unreachable)) from None


def _from_repo(ref: HubRef, max_bytes: int, *, offline: bool) -> HubFile:
    """The first of the candidate files the repository has (only the local cache when ``offline``)."""
    names = (ref.filename,) if ref.filename else TOKENIZER_FILES
    for filename in names:
        try:
            path, commit = _download(ref, filename, max_bytes, offline=offline)
        except _Missing:
            continue
        data = Path(path).read_bytes()
        origin = f"{ref.repo_id}@{commit[:12]}" if commit else ref.describe()
        return HubFile(data, filename, origin, commit, hashlib.sha256(data).hexdigest(),
                       _config(ref, commit, offline=offline) if not ref.filename else None)
    if offline:
        raise HubFailed(f"{ref.describe()} is not in the Hugging Face cache and HF_HUB_OFFLINE is set: "
                        "unset it to download, or upload the file instead.")
    raise HubFailed(f"{ref.describe()} has no tokenizer file (looked for {', '.join(names)}): "
                    "name the file with its URL (…/resolve/main/<file>).")


class _Missing(Exception):
    """The repository has no such file (the next candidate is tried)."""


class _Unreachable(HubFailed):
    """The Hub did not answer at all (no network, a wrong HF_ENDPOINT): the cache is tried next."""


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "") not in ("", "0")


def _download(ref: HubRef, filename: str, max_bytes: int, *, offline: bool) -> tuple[str, str]:
    """(local path, commit) of one file, its size asked before it is downloaded.

    Subtle: the size is asked with one HEAD and no retries: ``hf_hub_download`` alone retries a refused
    connection for about 25 s before it gives up, which is long to wait for "no network".
    """
    from huggingface_hub import errors, get_hf_file_metadata, hf_hub_download, hf_hub_url

    endpoint = os.environ.get("HF_ENDPOINT") or None
    options = {"repo_id": ref.repo_id, "filename": filename, "revision": ref.revision, "endpoint": endpoint,
               "cache_dir": os.environ.get("HF_HUB_CACHE") or None}
    try:
        if offline:
            path = hf_hub_download(**options, local_files_only=True)
            return path, _snapshot_commit(path, filename)
        url = hf_hub_url(ref.repo_id, filename, revision=ref.revision, endpoint=endpoint)
        meta = get_hf_file_metadata(url, timeout=TIMEOUT_S)
        if meta.size is not None and meta.size > max_bytes:
            raise HubFailed(f"{ref.describe()}/{filename} is {meta.size / 2**20:,.1f} MB; tokenizer files "
                            f"up to {max_bytes / 2**20:,.0f} MB are read.")
        return hf_hub_download(**options, etag_timeout=TIMEOUT_S), meta.commit_hash or ""
    except (errors.RemoteEntryNotFoundError, errors.LocalEntryNotFoundError):
        raise _Missing from None
    except HubFailed:
        raise
    except errors.HfHubHTTPError as exc:  # the Hub answered: gated, missing, a server error
        raise HubFailed(_reason(exc, ref)) from None
    except Exception as exc:  # noqa: BLE001 (no answer: refused, timed out, unresolvable; each a sentence)
        raise _Unreachable(_reason(exc, ref)) from None


def _snapshot_commit(path: str, filename: str) -> str:
    """The commit of a cached file: the Hub cache keeps it at ``snapshots/<commit>/<filename>``."""
    parts = Path(path).parts
    at = len(parts) - len(Path(filename).parts) - 1
    return parts[at] if at > 0 and parts[at - 1] == "snapshots" else ""


def _reason(exc: BaseException, ref: HubRef) -> str:
    from huggingface_hub import errors

    name = ref.describe()
    if isinstance(exc, errors.GatedRepoError):
        return (f"{name} is gated: accept its terms on its Hub page, then log in with `hf auth login` "
                "(the token stays in Hugging Face's own place).")
    if isinstance(exc, errors.RepositoryNotFoundError):
        return f"{name} is not on the Hub, or it is private: check the id (org/name) or log in with `hf auth login`."
    if isinstance(exc, errors.RevisionNotFoundError):
        return f"{ref.repo_id} has no revision {ref.revision!r}: use a branch, a tag or a commit it has."
    if isinstance(exc, errors.HfHubHTTPError) and getattr(exc, "response", None) is not None:
        return f"The Hub answered {exc.response.status_code} for {name}: try again later, or upload the file."
    return (f"The Hub cannot be reached for {name} ({type(exc).__name__}): check the network "
            "(or HF_ENDPOINT), or upload the file instead.")


def _config(ref: HubRef, commit: str, *, offline: bool) -> bytes | None:
    """The repository's tokenizer_config.json at the same commit, or None (it is optional)."""
    try:
        path, _ = _download(HubRef(ref.repo_id, commit or ref.revision), CONFIG_FILE, MAX_CONFIG_BYTES, offline=offline)
        return Path(path).read_bytes()
    except (_Missing, HubFailed, OSError):
        return None


def _fetch_url(url: str, max_bytes: int) -> HubFile:
    """A plain URL, streamed and cut at ``max_bytes``, kept in the playground's cache under its URL's hash."""
    filename = Path(urllib.parse.urlsplit(url).path).name or "tokenizer"
    cached = cache_dir() / "urls" / f"{hashlib.sha256(url.encode()).hexdigest()[:16]}-{filename}"
    if cached.is_file():
        data = cached.read_bytes()
        return HubFile(data, filename, url, "", hashlib.sha256(data).hexdigest())
    data = _stream(url, max_bytes)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    return HubFile(data, filename, url, "", hashlib.sha256(data).hexdigest())


def _stream(url: str, max_bytes: int) -> bytes:
    """The URL's bytes, each redirect checked as the first address is (``_check_public``)."""
    import requests

    try:
        for _ in range(MAX_REDIRECTS + 1):
            _check_public(url)
            with requests.get(url, stream=True, timeout=TIMEOUT_S, allow_redirects=False) as response:
                if response.is_redirect:
                    url = urllib.parse.urljoin(url, response.headers["Location"])
                    continue
                response.raise_for_status()
                chunks, size = [], 0
                for chunk in response.iter_content(1 << 16):
                    size += len(chunk)
                    if size > max_bytes:
                        raise HubFailed(f"{url} is over {max_bytes / 2**20:,.0f} MB, the limit for tokenizer files.")
                    chunks.append(chunk)
                return b"".join(chunks)
    except requests.HTTPError as exc:
        raise HubFailed(f"{url} answered {exc.response.status_code}: check the address.") from None
    except requests.RequestException as exc:
        raise HubFailed(f"{url} cannot be reached ({type(exc).__name__}): check the address and the connection.") from None
    raise HubFailed(f"{url} redirects more than {MAX_REDIRECTS} times: paste the file's final address.")


def _check_public(url: str) -> None:
    """Refuse an address on this machine or its private network: the server, not the user, would fetch it.

    ``PLAYGROUND_ALLOW_LOCAL_URLS=1`` lifts this (the tests' loopback server; a playground run on one's own
    machine that should read a local file server).
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise HubFailed(f"{url} is not an http(s) address of a file.")
    if os.environ.get("PLAYGROUND_ALLOW_LOCAL_URLS", "") not in ("", "0"):
        return
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, parts.port or 443)}
    except OSError:
        raise HubFailed(f"{parts.hostname} cannot be resolved: check the address and the connection.") from None
    if any(not ipaddress.ip_address(a.split("%")[0]).is_global for a in addresses):
        raise HubFailed(f"{parts.hostname} is on this machine or a private network; only public addresses are "
                        "fetched (set PLAYGROUND_ALLOW_LOCAL_URLS=1 to allow them).")


def load(text: str) -> tuple[Upload, HubFile]:
    """What the user typed → the file fetched → read exactly as an upload (``UploadRejected`` if it is not one)."""
    hub_file = fetch(parse_ref(text), max_bytes=MAX_TOKENIZER_BYTES)
    shown = f"{hub_file.origin}/{hub_file.filename}" if hub_file.revision else hub_file.origin
    upload = read_upload(hub_file.data, shown)  # the name ends as the file's does: it breaks ties the same way
    return replace(upload, notes=(f"from {shown} · sha256 {hub_file.sha256[:8]}", *upload.notes)), hub_file
