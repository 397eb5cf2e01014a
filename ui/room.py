"""The link to this view for a room: a large QR code of it, at the address the audience can reach.

The browser's own address is often ``http://localhost:8501``, which no phone in the room can open.
``PLAYGROUND_PUBLIC_URL`` (say ``http://192.168.1.20:8080``, where ``make serve`` listens, or
``https://talk.example.org/playground``) replaces the scheme, host and port of that address and
goes before its path; the query string (the view's state, ``ui.links``) is kept as it is.
Without it, the code points at the browser's address and the dialog says why that may not reach
anyone.

>>> public_link("http://localhost:8501/Pitfalls?page=pitfalls", "https://talk.example.org/tp/")
'https://talk.example.org/tp/Pitfalls?page=pitfalls'
"""

from __future__ import annotations

import io
import os
import urllib.parse

import segno
import streamlit as st

from ui.copy_block import copy_block

PUBLIC_URL_ENV = "PLAYGROUND_PUBLIC_URL"
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0", "")
QR_PX = 560  # drawn size on screen: a phone reads it from the back of a room on a projector


def public_base() -> str:
    """The public base URL from ``PLAYGROUND_PUBLIC_URL``, or "" when it is unset or not http(s)."""
    base = os.environ.get(PUBLIC_URL_ENV, "").strip()
    parts = urllib.parse.urlsplit(base)
    return base if parts.scheme in ("http", "https") and parts.netloc else ""


def public_link(link: str, base: str) -> str:
    """``link`` (the browser's address of this view) moved onto ``base``; ``link`` itself without a base."""
    if not base:
        return link
    page = urllib.parse.urlsplit(link)
    root = urllib.parse.urlsplit(base)
    path = root.path.rstrip("/") + "/" + page.path.lstrip("/")
    return urllib.parse.urlunsplit((root.scheme, root.netloc, path, page.query, ""))


def is_local(link: str) -> bool:
    """Whether ``link`` names this machine only (``localhost``, a loopback address)."""
    host = urllib.parse.urlsplit(link).hostname or ""
    return host in LOCAL_HOSTS or host.startswith("127.")


def qr_png(link: str) -> bytes:
    """``link`` as a QR code, a PNG about ``QR_PX`` wide (black on white, with its quiet zone).

    Error correction "M" (15 %): a long link still fits a version a phone reads from afar. A PNG,
    because ``st.html`` strips inline SVG; segno writes PNG itself, without Pillow.
    """
    code = segno.make(link, error="m", micro=False)
    size = code.symbol_size(scale=1)[0]
    out = io.BytesIO()
    code.save(out, kind="png", scale=max(1, QR_PX // size), dark="#000", light="#fff")
    return out.getvalue()


def share_button(link: str) -> None:
    """The sidebar's "Show QR code" button (presentation mode): a dialog with the code and the link."""
    if st.button("Show QR code", icon=":material/qr_code_2:", width="stretch", key="room_qr",
                 help="The link to this view as a large QR code, for the audience's phones."):
        _qr_dialog(link)


@st.dialog("Open this view on your phone", width="large")
def _qr_dialog(link: str) -> None:
    base = public_base()
    shared = public_link(link, base)
    if not shared:
        st.warning("Open the app in a browser to get its address.")
        return
    st.image(qr_png(shared), width=QR_PX, caption="Scan to open this view")
    copy_block(shared, key="room_link_text", label="Copy link")
    if not base and is_local(shared):
        st.warning(
            f"{PUBLIC_URL_ENV} is not set, so this code points at this browser's own address, which the "
            "audience cannot reach: set it to the address the room can open (e.g. http://192.168.1.20:8080) "
            "and restart the server.", icon=":material/wifi_off:",
        )
    elif not base:
        st.caption(f"{PUBLIC_URL_ENV} is not set: this is the address this browser uses.")
