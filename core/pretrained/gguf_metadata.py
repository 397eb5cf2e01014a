"""The metadata of a GGUF file (llama.cpp), read with a bound on every number the file states.

A GGUF file (versions 2 and 3) starts with the magic ``GGUF``, a uint32 version, a uint64 tensor
count and a uint64 key/value count; then come the key/value pairs: a key (uint64 length + UTF-8
bytes), a uint32 value type, and the value. An array is a uint32 item type, a uint64 item count and
the items (never arrays: llama.cpp refuses arrays of arrays); a string is a uint64 length and its
bytes. ``read_metadata`` reads those pairs and stops:
tensors are never read, so the tensor count is not used.

Subtle: every length and count is checked against the bytes that are left *before* anything is
allocated or looped over (an item takes at least one byte, a string eight), so a
193-byte file claiming 2**40 items is refused at once, where the ``gguf`` package's reader loops
for ever. Numeric arrays become numpy arrays in one ``frombuffer``; string arrays are walked with
``struct`` (each length decides where the next string starts), about a microsecond a string.

>>> read_metadata(b"GGUF" + (3).to_bytes(4, "little") + bytes(16))
{}
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np

MAGIC = b"GGUF"
VERSIONS = (2, 3)
MAX_KEY_BYTES = 65_535  # the GGUF specification's limit on a key
ARRAY, STRING, BOOL = 9, 8, 7
# GGUF value types with a fixed size -> numpy type code (byte order added per file).
NUMERIC: dict[int, str] = {0: "u1", 1: "i1", 2: "u2", 3: "i2", 4: "u4", 5: "i4", 6: "f4", 7: "u1", 10: "u8",
                           11: "i8", 12: "f8"}
PROGRESS_EVERY = 16_384  # strings between two progress reports
# Strings in one array at most: the largest vocabularies hold about 260,000 tokens (Gemma 3), and each
# string read costs about 100 bytes of Python objects, so this bounds a reading near 100 MB per array.
MAX_STRINGS = 1_000_000
MAX_FILE_STRINGS = 2_000_000  # in all arrays together: a million tokens and a million merges
MAX_KEYS = 65_536  # key/value pairs: a llama.cpp file holds a few dozen, a model a few hundred

Progress = Callable[[float, str], None]


class GGUFFormatError(ValueError):
    """The bytes are not a well-formed GGUF header; the message says what was wrong, in one line."""


class _Cursor:
    """A position in the file's bytes, with the file's byte order, that refuses to read past the end."""

    def __init__(self, data: bytes, order: str, progress: Progress | None) -> None:
        self.data, self.pos, self.end, self.order, self.progress = data, 0, len(data), order, progress
        self.u32, self.u64 = struct.Struct(order + "I"), struct.Struct(order + "Q")
        self.strings_left = MAX_FILE_STRINGS

    def need(self, size: int, what: str) -> None:
        if size > self.end - self.pos:
            raise GGUFFormatError(
                f"{what} needs {size:,} bytes at offset {self.pos:,} but only {self.end - self.pos:,} are left "
                "(the file is cut short or the number is wrong)"
            )

    def uint(self, size: int, what: str) -> int:
        self.need(size, what)
        (value,) = (self.u32 if size == 4 else self.u64).unpack_from(self.data, self.pos)
        self.pos += size
        return value

    def count(self, min_item: int, what: str) -> int:
        """A uint64 count of items that take at least ``min_item`` bytes each, bounded by the bytes left."""
        count = self.uint(8, f"the count of {what}")
        if count * min_item > self.end - self.pos:
            raise GGUFFormatError(
                f"the file claims {count:,} {what}, but only {self.end - self.pos:,} bytes are left for them"
            )
        return count

    def string(self, what: str, *, limit: int | None = None) -> bytes:
        size = self.uint(8, f"the length of {what}")
        if limit is not None and size > limit:
            raise GGUFFormatError(f"{what} is {size:,} bytes long; the GGUF format allows {limit:,}")
        self.need(size, what)
        self.pos += size
        return self.data[self.pos - size:self.pos]

    def report(self, message: str) -> None:
        if self.progress is not None:
            self.progress(self.pos / max(self.end, 1), message)


def read_metadata(
    data: bytes, *, wanted: Callable[[str], bool] | None = None, progress: Progress | None = None,
) -> dict[str, Any]:
    """The key/value pairs of a GGUF file's header (``GGUFFormatError`` with one line if malformed).

    Values are Python scalars, ``str``, ``list[str]`` for string arrays and numpy arrays for numeric
    ones. With ``wanted``, other keys are checked and skipped but not kept (their strings are not
    decoded). ``progress(fraction, message)`` is called as the header is read.
    """
    data = bytes(data)
    if data[:4] != MAGIC:
        raise GGUFFormatError("it does not start with the GGUF magic bytes")
    if len(data) < 24:
        raise GGUFFormatError(f"it is {len(data)} bytes long, shorter than a GGUF header (24 bytes)")
    order = "<" if int.from_bytes(data[4:8], "little") & 0xFFFF else ">"  # big-endian files exist
    cursor = _Cursor(data, order, progress)
    cursor.pos = 4
    version = cursor.uint(4, "the version")
    if version not in VERSIONS:
        raise GGUFFormatError(f"it is GGUF version {version}; versions {' and '.join(map(str, VERSIONS))} are read")
    cursor.uint(8, "the tensor count")
    kv_count = cursor.count(13, "key/value pairs")  # key length 8 + type 4 + a value of at least 1 byte
    if kv_count > MAX_KEYS:
        raise GGUFFormatError(f"it claims {kv_count:,} key/value pairs; up to {MAX_KEYS:,} are read "
                              "(a llama.cpp vocabulary holds a few dozen)")
    found: dict[str, Any] = {}
    seen: set[str] = set()
    for _ in range(kv_count):
        raw_key = cursor.string("a key", limit=MAX_KEY_BYTES)
        try:
            key = raw_key.decode("utf-8")
        except UnicodeDecodeError:
            raise GGUFFormatError(f"the key at offset {cursor.pos - len(raw_key):,} is not UTF-8") from None
        shown = _shown(key)
        if key in seen:
            raise GGUFFormatError(f"the key {shown} appears twice")
        seen.add(key)
        kind = cursor.uint(4, f"the type of {shown}")
        keep = wanted is None or wanted(key)
        value = _value(cursor, kind, shown, keep)
        if keep:
            found[key] = value
        cursor.report(f"read {shown}")
    return found


def _value(cursor: _Cursor, kind: int, key: str, keep: bool) -> Any:
    if kind == STRING:
        raw = cursor.string(f"the string {key}")
        return _decode(raw, key) if keep else None
    if kind == ARRAY:
        return _array(cursor, key, keep)
    if kind not in NUMERIC:
        raise GGUFFormatError(f"{key} has value type {kind}, which GGUF does not define (0 to 12)")
    size = int(NUMERIC[kind][1:])
    cursor.need(size, f"the value of {key}")
    value = np.frombuffer(cursor.data, cursor.order + NUMERIC[kind], 1, cursor.pos)[0].item()
    cursor.pos += size
    return bool(value) if kind == BOOL else value


def _array(cursor: _Cursor, key: str, keep: bool) -> Any:
    item = cursor.uint(4, f"the item type of {key}")
    if item == STRING:
        return _strings(cursor, key, keep)
    if item == ARRAY:  # ggml's own GGUF reader refuses them too
        raise GGUFFormatError(f"{key} is an array of arrays, which llama.cpp does not read")
    if item not in NUMERIC:
        raise GGUFFormatError(f"{key} is an array of type {item}, which GGUF does not define (0 to 12)")
    size = int(NUMERIC[item][1:])
    count = cursor.count(size, f"items in {key}")
    start = cursor.pos
    cursor.pos += count * size
    if not keep:
        return None
    values = np.frombuffer(cursor.data, cursor.order + NUMERIC[item], count, start)
    return values.astype(bool) if item == BOOL else values.astype(values.dtype.newbyteorder("="))


def _strings(cursor: _Cursor, key: str, keep: bool) -> list[str] | None:
    """A string array, walked length by length.

    Subtle: the loop does not compare each length with the bytes left: a length past the end makes
    the next ``unpack_from`` fail (slicing past the end copies nothing), and the end is checked once
    after each block of strings, so a wrong length is refused before the block ends.
    """
    count = cursor.count(8, f"items in {key}")
    if count > MAX_STRINGS:
        raise GGUFFormatError(f"{key} holds {count:,} strings; up to {MAX_STRINGS:,} are read (the largest "
                              "vocabularies hold about 260,000 tokens)")
    if count > cursor.strings_left:
        raise GGUFFormatError(f"its arrays hold more than {MAX_FILE_STRINGS:,} strings together, more than "
                              "a vocabulary needs")
    cursor.strings_left -= count
    data, pos, unpack = cursor.data, cursor.pos, cursor.u64.unpack_from
    raw: list[bytes] = []
    append = raw.append
    for block in range(0, count, PROGRESS_EVERY):
        try:
            if keep:
                for _ in range(min(PROGRESS_EVERY, count - block)):
                    (size,) = unpack(data, pos)
                    pos += 8 + size
                    append(data[pos - size:pos])
            else:
                for _ in range(min(PROGRESS_EVERY, count - block)):
                    pos += 8 + unpack(data, pos)[0]
        except struct.error:
            pos = cursor.end + 1
        if pos > cursor.end:
            raise GGUFFormatError(f"a string of {key} runs past the end of the file (cut short, or a wrong length)")
        cursor.pos = pos
        cursor.report(f"{key}: {min(block + PROGRESS_EVERY, count):,} of {count:,}")
    return _decode_all(raw, key) if keep else None


def _decode_all(raw: list[bytes], key: str) -> list[str]:
    try:
        return [item.decode("utf-8") for item in raw]
    except UnicodeDecodeError:
        bad = next(i for i, item in enumerate(raw) if not _is_utf8(item))
        raise GGUFFormatError(f"item {bad:,} of {key} is not UTF-8") from None


def _shown(key: str) -> str:
    """A key as messages show it: 80 characters at most, control characters escaped (one line)."""
    return key[:80].encode("unicode_escape").decode("ascii")


def _decode(raw: bytes, key: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise GGUFFormatError(f"the string {key} is not UTF-8") from None


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
