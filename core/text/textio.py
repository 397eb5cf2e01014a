"""Reading user-supplied text: strict UTF-8, size-checked, with messages that say what to do.

Used for every upload (the Playground's .txt upload, corpora for training) so the rules are one;
and ``without_surrogates``, which every tokenizer (wrapped or trained here) applies to its input.
"""

from __future__ import annotations

import codecs
import re

# 5 MB of text is several hundred thousand tokens: enough for any page, small enough not to freeze it.
MAX_UPLOAD_BYTES = 5_000_000

# Byte-order marks of the other Unicode encodings, longest first (UTF-32-LE's starts with UTF-16-LE's).
_OTHER_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def decode_text_upload(data: bytes, *, name: str = "the file", max_bytes: int = MAX_UPLOAD_BYTES) -> str:
    """Decode an uploaded file as UTF-8 text, or raise ``ValueError`` with a one-line reason.

    Subtle: a UTF-8 byte-order mark is dropped (editors on Windows add one); NUL bytes mean a
    binary file even when the bytes happen to be valid UTF-8, unless they sit where UTF-16 puts
    them (text saved as "Unicode" on Windows), which gets its own message. An empty file is refused,
    so uploading one never wipes the text already there.

    >>> decode_text_upload("héllo".encode())
    'héllo'
    """
    if len(data) > max_bytes:
        raise ValueError(
            f"{name} is {len(data):,} bytes; the limit is {max_bytes:,}. Upload a smaller part of it."
        )
    encoding = _other_unicode(data)
    if encoding:
        raise ValueError(f"{name} is {encoding} text, not UTF-8; save it as UTF-8 and upload it again.")
    if b"\x00" in data:
        raise ValueError(f"{name} looks like a binary file (it contains NUL bytes); upload UTF-8 text.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{name} is not UTF-8 text (invalid byte 0x{data[exc.start]:02X} at offset {exc.start:,}); "
            "save it as UTF-8 and upload it again."
        ) from None
    text = text.removeprefix("\ufeff")
    if not text:
        raise ValueError(f"{name} is empty; upload a file with some text in it.")
    return text


def _other_unicode(data: bytes) -> str:
    """"UTF-16" or "UTF-32" when ``data`` is text in one of them (by its mark, or its NUL pattern), else ""."""
    for bom, encoding in _OTHER_BOMS:
        if data.startswith(bom):
            return encoding
    # Without a mark: mostly-ASCII UTF-16 has a NUL in every other byte, and nowhere else.
    if len(data) >= 4 and len(data) % 2 == 0:
        for nuls, others, encoding in ((data[1::2], data[0::2], "utf-16-le"), (data[0::2], data[1::2], "utf-16-be")):
            if nuls.count(0) >= len(nuls) * 3 // 4 and 0 not in others:
                try:
                    data.decode(encoding)
                except UnicodeDecodeError:
                    return ""
                return "UTF-16"
    return ""


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate (not valid Unicode, cannot be UTF-8) replaced by U+FFFD.

    One code point for one, so offsets stay valid. Python strings may hold them (a browser can send
    one); every library either crashes on them or does this replacement itself.

    >>> without_surrogates("a\\ud800b")
    'a\ufffdb'
    """
    try:
        text.encode()
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


_SURROGATE = re.compile("[\ud800-\udfff]")
