"""Derived files: what is computed once from a pinned file, kept in the cache folder for later processes.

A derived file is named by what it was made from (the source's sha256 and the format's version), and
starts with a magic line and the sha256 of its own payload, so a truncated or altered copy is noticed
and made again from the source; the source stays the canonical file. Nothing here is required: a
caller whose ``read_derived`` finds nothing computes from the source, and a cache folder that cannot be
written only means computing again next time (``write_derived`` says so, never raises).
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from core.fetch.sources import cache_dir

MAGIC = b"tokenizer-playground derived v1\n"
_NAME = re.compile(r"[A-Za-z0-9._-]{1,200}")
T = TypeVar("T")


def derived_path(kind: str, name: str) -> Path:
    """Where the derived file ``name`` of ``kind`` lives: ``<cache>/derived/<kind>/<name>``."""
    if not (_NAME.fullmatch(kind) and _NAME.fullmatch(name)) or ".." in (kind, name):
        raise ValueError(f"a derived file's kind and name are letters, digits, '.', '_' or '-': {kind!r}, {name!r}")
    return cache_dir() / "derived" / kind / name


def read_derived(path: Path) -> bytes | None:
    """The payload of the derived file at ``path``, or ``None`` if it is absent, unreadable or damaged."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(MAGIC) + 32
    if len(data) < head or not data.startswith(MAGIC):
        return None
    payload = data[head:]
    return payload if hashlib.sha256(payload).digest() == data[len(MAGIC):head] else None


def write_derived(path: Path, payload: bytes) -> bool:
    """Write ``payload`` to ``path`` whole (readers see no file or all of it); ``False`` if it cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", delete=False) as tmp:
            try:
                tmp.write(MAGIC + hashlib.sha256(payload).digest() + payload)
            except BaseException:
                tmp.close()
                os.unlink(tmp.name)
                raise
        os.chmod(tmp.name, 0o644)
        os.replace(tmp.name, path)
    except OSError:
        return False
    return True


def made_once(
    kind: str, parts: tuple[str, ...], make: Callable[[], T], *, dump: Callable[[T], bytes],
    load: Callable[[bytes], T | None], suffix: str = "",
) -> T:
    """The value kept on disk under ``kind`` for ``parts`` (everything it depends on, versions included),
    or ``make()`` now, kept for the next process. ``load`` returns ``None`` for a payload it cannot read
    (made again); a cache folder that cannot be written only means making it again next time. The file
    is named by a hash of ``parts`` (and ``suffix``)."""
    name = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest() + suffix
    path = derived_path(kind, name)
    payload = read_derived(path)
    if payload is not None:
        value = load(payload)
        if value is not None:
            return value
    value = make()
    write_derived(path, dump(value))
    return value
