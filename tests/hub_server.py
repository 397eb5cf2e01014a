"""A loopback stand-in for the Hugging Face Hub's file routes, for tests without internet.

It answers ``HEAD`` and ``GET /{org}/{name}/resolve/{revision}/{filename}`` as the Hub does for
``huggingface_hub.hf_hub_download``: ``ETag`` (the file's sha256, as the Hub gives for LFS files),
``X-Repo-Commit`` and ``Content-Length``; errors carry the ``X-Error-Code`` header the library reads
(``GatedRepo`` with 401, ``RepoNotFound``, ``RevisionNotFound``, ``EntryNotFound`` with 404). The
repositories are built from the data folder's files. ``serve_hub()`` yields the endpoint URL and the
list of requests it saw.
"""

from __future__ import annotations

import hashlib
import http.server
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DATA = Path(os.environ.get("PLAYGROUND_DATA_DIR", "")) / "tokenizers"
HUGE = object()  # a file whose HEAD says 200 MB; a GET of it fails the test
HUGE_BYTES = 200 * 1024 * 1024


def repositories() -> dict[str, dict[str, object]]:
    return {
        "acme/mbert": {"tokenizer.json": DATA / "bert-base-multilingual-cased_tokenizer.json",
                       "tokenizer_config.json": DATA / "qwen3_tokenizer_config.json"},
        "acme/t5": {"tokenizer.model": DATA / "t5_spiece.model", "README.md": b"# T5\n"},
        "acme/huge": {"tokenizer.json": HUGE},
        "acme/readme-only": {"README.md": b"# nothing to tokenize\n"},
        "acme/not-a-tokenizer": {"tokenizer.json": b'{"hello": "world"}'},
        "acme/gated": "gated",
    }


def commit_of(repo: str) -> str:
    return hashlib.sha1(repo.encode()).hexdigest()


class _Hub(http.server.BaseHTTPRequestHandler):
    repos: dict[str, object] = {}
    seen: list[tuple[str, str]] = []

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def do_HEAD(self) -> None:  # noqa: N802 (http.server's name)
        self._answer(body=False)

    def do_GET(self) -> None:  # noqa: N802
        self._answer(body=True)

    def _answer(self, *, body: bool) -> None:
        self.seen.append((self.command, self.path))
        if self.path.startswith("/redirect/"):  # a plain URL that points elsewhere on this server
            self.send_response(302)
            self.send_header("Location", self.path.removeprefix("/redirect"))
            self.send_header("Content-Length", "0")
            return self.end_headers()
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) < 5 or parts[2] != "resolve":
            return self._error(404, "RepoNotFound")
        repo, revision, filename = "/".join(parts[:2]), parts[3], "/".join(parts[4:])
        files = self.repos.get(repo)
        if files == "gated":
            return self._error(401, "GatedRepo")
        if not isinstance(files, dict):
            return self._error(404, "RepoNotFound")
        if revision not in ("main", commit_of(repo)):
            return self._error(404, "RevisionNotFound")
        if filename not in files:
            return self._error(404, "EntryNotFound")
        content = files[filename]
        if content is HUGE:
            assert not body, "a file over the size limit was downloaded"
            return self._headers(200, repo, "0" * 64, HUGE_BYTES)
        data = content.read_bytes() if isinstance(content, Path) else content
        self._headers(200, repo, hashlib.sha256(data).hexdigest(), len(data))
        if body:
            self.wfile.write(data)

    def _headers(self, status: int, repo: str, etag: str, size: int) -> None:
        self.send_response(status)
        self.send_header("ETag", f'"{etag}"')
        self.send_header("X-Repo-Commit", commit_of(repo))
        self.send_header("Content-Length", str(size))
        self.end_headers()

    def _error(self, status: int, code: str) -> None:
        self.send_response(status)
        self.send_header("X-Error-Code", code)
        self.send_header("X-Error-Message", code)
        self.send_header("Content-Length", "0")
        self.end_headers()


@contextmanager
def serve_hub() -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """A running loopback Hub: (its endpoint, the requests it received)."""
    handler = type("Hub", (_Hub,), {"repos": repositories(), "seen": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler.seen
    finally:
        server.shutdown()
        server.server_close()
