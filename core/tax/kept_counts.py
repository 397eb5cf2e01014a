"""Per-segment counts of the language tax kept on disk for what is fixed: a pinned corpus, a pinned tokenizer.

``DiskBackedCounts`` wraps a ``language_tax`` memo (``core.tax.language_tax.CountsMemo``): a count the
memo lacks is looked for in a derived file (``core.fetch.derived``, kind ``tax-counts``) before it is
counted, and a count made is written there too, so a new server process (or another replica) reads
PUD's 21,000 sentences under XLM-R in milliseconds instead of counting them for seconds. Only keys
to which ``identity`` gives a name go to disk (the UI names the catalog's corpora under registry
tokenizers by their files' sha256, never a session's upload). A file is named by the key with that
identity, ``VERSION`` and the versions of the tokenizer libraries, so another tokenizer file, a new
library or a change in how we count starts afresh.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import io
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path

import numpy as np

from core.fetch import derived

VERSION = 1  # bump when counting changes (core.tax.language_tax's counters, the adapters' text_ids)
LIBRARIES = ("tiktoken", "tokenizers", "sentencepiece", "numpy")

Key = tuple[str, ...]


@functools.cache
def libraries() -> str:
    """``"tiktoken=0.14.0,tokenizers=…"``: the versions the counts depend on (``-`` for one not installed)."""
    def version(name: str) -> str:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return "-"

    return ",".join(f"{name}={version(name)}" for name in LIBRARIES)


def file_name(key: Key, identity: str) -> str:
    """The derived file's name for memo key ``key`` whose tokenizer is ``identity``: a hash of both,
    ``VERSION`` and ``libraries()``."""
    named = "\x1f".join([str(VERSION), libraries(), *key, identity])
    return hashlib.sha256(named.encode("utf-8", "surrogatepass")).hexdigest() + ".npy"


def to_bytes(counts: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.save(out, np.ascontiguousarray(counts, dtype=np.int64), allow_pickle=False)
    return out.getvalue()


def from_bytes(payload: bytes) -> np.ndarray | None:
    """The counts in ``payload``, or ``None`` if it is not a 2-D int64 array of 2 or 4 rows."""
    try:
        counts = np.load(io.BytesIO(payload), allow_pickle=False)
    except (ValueError, OSError, EOFError):
        return None
    if counts.dtype != np.int64 or counts.ndim != 2 or counts.shape[0] not in (2, 4):
        return None
    return counts


class DiskBackedCounts(MutableMapping):
    """``inner`` (a memo), with the keys ``identity`` names also read from and written to disk.

    ``identity(key)`` is what the key's counts depend on beyond the key (the tokenizer file's sha256),
    or ``None`` for counts that must stay in memory.
    """

    def __init__(self, inner: MutableMapping[Key, np.ndarray], *, identity: Callable[[Key], str | None]) -> None:
        self._inner = inner
        self._identity = identity

    def _path(self, key: Key) -> Path | None:
        identity = self._identity(key)
        return None if identity is None else derived.derived_path("tax-counts", file_name(key, identity))

    def __getitem__(self, key: Key) -> np.ndarray:
        try:
            return self._inner[key]
        except KeyError:
            path = self._path(key)
            if path is None:
                raise
        payload = derived.read_derived(path)
        counts = from_bytes(payload) if payload is not None else None
        if counts is None:
            raise KeyError(key)
        self._inner[key] = counts
        return counts

    def __setitem__(self, key: Key, value: np.ndarray) -> None:
        self._inner[key] = value
        path = self._path(key)
        if path is not None:
            derived.write_derived(path, to_bytes(value))

    def __delitem__(self, key: Key) -> None:
        del self._inner[key]

    def __iter__(self) -> Iterator[Key]:
        return iter(self._inner)

    def __len__(self) -> int:
        return len(self._inner)

    def nbytes(self) -> int:
        """The bytes of counts held in memory (the inner memo's)."""
        return self._inner.nbytes()
