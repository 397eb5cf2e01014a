"""core.text.textio: uploads are size-checked and strictly UTF-8, and every refusal says what to do."""

from __future__ import annotations

import codecs

import pytest

from core.text.textio import decode_text_upload


def test_utf8_is_read_and_its_byte_order_mark_dropped() -> None:
    assert decode_text_upload("héllo 🙂".encode()) == "héllo 🙂"
    assert decode_text_upload(codecs.BOM_UTF8 + b"hi") == "hi"
    assert decode_text_upload(b"  \n") == "  \n"  # blank text is still text


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        ("hello wörld".encode("utf-16"), "UTF-16"),  # with its byte-order mark (Windows "Unicode")
        (codecs.BOM_UTF16_BE + "hello".encode("utf-16-be"), "UTF-16"),
        ("hello world".encode("utf-16-le"), "UTF-16"),  # no mark: a NUL in every other byte
        ("hello world".encode("utf-16-be"), "UTF-16"),
        ("hi".encode("utf-32"), "UTF-32"),
    ],
)
def test_utf16_and_utf32_are_named_not_called_binary(data: bytes, encoding: str) -> None:
    with pytest.raises(ValueError, match=rf"^notes.txt is {encoding} text, not UTF-8; save it as UTF-8"):
        decode_text_upload(data, name="notes.txt")


@pytest.mark.parametrize("data", [b"", codecs.BOM_UTF8])
def test_an_empty_file_is_refused_so_it_cannot_wipe_the_text(data: bytes) -> None:
    with pytest.raises(ValueError, match=r"^empty.txt is empty; upload a file with some text in it"):
        decode_text_upload(data, name="empty.txt")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), "looks like a binary file"),
        (b"\x89PNG\r\n\x1a\n", r"is not UTF-8 text \(invalid byte 0x89 at offset 0\)"),
        ("café".encode("latin-1"), r"is not UTF-8 text \(invalid byte 0xE9 at offset 3\)"),
        (b"a\xed\xa0\x80b", "is not UTF-8 text"),  # a surrogate spelled in UTF-8
        (b"x" * 11, "is 11 bytes; the limit is 10"),
    ],
)
def test_other_bad_files_get_a_clear_message(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        decode_text_upload(data, name="f.txt", max_bytes=10 if len(data) == 11 else 1_000)
