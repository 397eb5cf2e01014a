"""The room's link: the public base URL in place of the browser's address, and its QR code."""

from __future__ import annotations

import struct

import pytest

from ui.room import PUBLIC_URL_ENV, QR_PX, is_local, public_base, public_link, qr_png

LINK = "http://localhost:8501/Pitfalls?page=pitfalls&present=1&text=~eJzLSM3JyQcABiwCFQ"


def test_the_public_base_replaces_host_and_keeps_path_and_state() -> None:
    assert public_link(LINK, "http://192.168.1.20:8080") == (
        "http://192.168.1.20:8080/Pitfalls?page=pitfalls&present=1&text=~eJzLSM3JyQcABiwCFQ")
    assert public_link(LINK, "https://talk.example.org/tp/").startswith("https://talk.example.org/tp/Pitfalls?page=")
    assert public_link(LINK, "") == LINK


@pytest.mark.parametrize(("value", "expected"), [
    ("http://10.0.0.5:8080", "http://10.0.0.5:8080"), ("  https://x.org/a ", "https://x.org/a"),
    ("10.0.0.5:8080", ""), ("javascript:alert(1)", ""), ("", ""),
])
def test_only_an_http_base_is_taken(monkeypatch, value: str, expected: str) -> None:
    monkeypatch.setenv(PUBLIC_URL_ENV, value)
    assert public_base() == expected


def test_local_addresses_are_told_apart() -> None:
    assert is_local(LINK) and is_local("http://127.0.1.1:8501/") and is_local("http://[::1]:8501/")
    assert not is_local("http://192.168.1.20:8080/")


def test_the_qr_code_is_a_large_png_of_the_link() -> None:
    png = qr_png(LINK)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
    assert width == height and QR_PX * 0.9 <= width <= QR_PX  # large: read from the back of a room
    assert qr_png(LINK) != qr_png(LINK + "x") and qr_png(LINK) == qr_png(LINK)
