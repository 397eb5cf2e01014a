"""Reading user-supplied text: strict UTF-8, size-checked, with messages that say what to do.

Used for every upload (the Playground's .txt upload, corpora for training) so the rules are one.
"""

from __future__ import annotations

# 5 MB of text is several hundred thousand tokens: enough for any page, small enough not to freeze it.
MAX_UPLOAD_BYTES = 5_000_000


def decode_text_upload(data: bytes, *, name: str = "the file", max_bytes: int = MAX_UPLOAD_BYTES) -> str:
    """Decode an uploaded file as UTF-8 text, or raise ``ValueError`` with a one-line reason.

    Subtle: a UTF-8 byte-order mark is dropped (editors on Windows add one); NUL bytes mean a
    binary file even when the bytes happen to be valid UTF-8.

    >>> decode_text_upload("héllo".encode())
    'héllo'
    """
    if len(data) > max_bytes:
        raise ValueError(
            f"{name} is {len(data):,} bytes; the limit is {max_bytes:,}. Upload a smaller part of it."
        )
    if b"\x00" in data:
        raise ValueError(f"{name} looks like a binary file (it contains NUL bytes); upload UTF-8 text.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{name} is not UTF-8 text (invalid byte 0x{data[exc.start]:02X} at offset {exc.start:,}); "
            "save it as UTF-8 and upload it again."
        ) from None
    return text.removeprefix("\ufeff")
