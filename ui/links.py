"""Shareable links: a page's state in the query string, read back when someone opens the link.

``sync(keys)`` is called by a page after ``state.init``: when the URL carries parameters for this
page (``page=<name>``) that this session has not applied yet (a link just opened), their values go
into the session keys; then the
current values that differ from the defaults are written back into the URL, so the address bar is
always a link to what is on screen. ``copy_link`` draws the link with a copy button; in
presentation mode ``ui.room`` adds a large QR code of it.

Encoding, by the type of the key's default: booleans ``1``/``0``, numbers as text, lists joined by
commas, strings as they are unless long or odd, then ``~`` + base64url(zlib(UTF-8)). A link over
``URL_LIMIT`` characters leaves out its longest text, with a note. Unknown or malformed parameters
are ignored with a note, never a traceback: a link is user input.

>>> decode(encode("Hola, señor", ""), "")
'Hola, señor'
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import urllib.parse
import zlib
from collections.abc import Callable, Collection, Mapping
from typing import Any

import streamlit as st

from ui import room, state
from ui.copy_block import copy_block
from ui.widgets import md_escape

URL_LIMIT = 8_000  # characters in the query string; browsers and servers take more, chat apps often not
MAX_TEXT = 1_000_000  # characters a link's text may unpack to
TOO_LONG = f"the text is too long (a link's text holds at most {MAX_TEXT:,} characters)"
MAX_ITEMS = 1_000  # items in a link's list (every list a page keeps is far shorter)
PLAIN_MAX = 80  # strings up to this long (and plain) are sent as they are
NOTES = "_link_notes"  # what the last opened link could not apply
_SEEN = "_link_seen"  # page → the query strings this session wrote for it, oldest first
WRITTEN_KEPT = 64  # of those, the last ones kept (a stale address is a few runs old at most)
PRESENT = "present"  # the parameter for presentation mode, on every page
PAGE = "page"  # which page a link is for: parameters left over from another page are not applied
# every page's name in its links (the ``page=`` each page passes to ``sync``); any other is a bad link
PAGES = frozenset({
    "playground", "bpe", "algorithms", "words", "tax", "unicode", "pretokenization", "pitfalls", "beyond",
    "inside", "chat",
})

Check = Callable[[Any], Any]  # returns the cleaned value or raises ValueError with a reason


def param_name(key: str) -> str:
    """The parameter for a session key: the key without its page prefix (``pg_text`` → ``text``)."""
    return key.split("_", 1)[1] if "_" in key else key


def encode(value: Any, default: Any) -> str:
    """One value as a query-string parameter, by the type of ``default``."""
    if isinstance(default, bool):
        return "1" if value else "0"
    if isinstance(default, (list, tuple)):
        items = [str(v) for v in value]
        if any("," in v or v.startswith("~") or not v for v in items):
            return _pack(json.dumps(items, ensure_ascii=False))
        return ",".join(items)
    text = str(value)
    plain = len(text) <= PLAIN_MAX and text.isprintable() and not text.startswith("~")
    return text if plain else _pack(text)


def decode(raw: str, default: Any) -> Any:
    """A parameter back into a value of ``default``'s type, or ``ValueError``."""
    if isinstance(default, bool):
        if raw not in ("0", "1"):
            raise ValueError("expected 0 or 1")
        return raw == "1"
    if isinstance(default, int):
        return int(raw)
    if isinstance(default, float):
        return float(raw)
    if isinstance(default, (list, tuple)):
        items = _json_list(_unpack(raw)) if raw.startswith("~") else (raw.split(",") if raw else [])
        if len(items) > MAX_ITEMS:
            raise ValueError(f"the list has {len(items):,} items; a link holds at most {MAX_ITEMS:,}")
        if default and all(isinstance(v, int) for v in default):
            return [int(v) for v in items]
        return items
    return _unpack(raw) if raw.startswith("~") else _bounded(raw)


def _json_list(text: str) -> list[str]:
    # subtle: a packed list is JSON, and JSON nested 100,000 deep makes json.loads raise RecursionError
    # (a 163-character link did); a list of strings needs one level, so deeper nesting is refused first
    structure = _JSON_STRING.sub("", text)
    if structure.count("[") > 1 or "{" in structure:
        raise ValueError("the packed list holds nested lists or objects; a link's list holds only strings")
    try:
        items = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ValueError("the packed list is damaged") from None
    if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
        raise ValueError("the packed list is not a list of strings")
    return items


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')  # a JSON string literal, escapes and all


def _pack(text: str) -> str:
    return "~" + base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")


def _unpack(raw: str) -> str:
    """A packed text back, never inflating more than ``MAX_TEXT`` characters could take in UTF-8."""
    try:
        data = base64.b64decode(raw[1:] + "=" * (-len(raw[1:]) % 4), altchars=b"-_", validate=True)
        inflater = zlib.decompressobj()
        # subtle: the bound is on the inflated bytes, so a tiny link never expands past 4 MB; the
        # stated limit is then applied to the characters (an ASCII text may use only a quarter of it)
        out = inflater.decompress(data, MAX_TEXT * 4 + 1)
        if len(out) > MAX_TEXT * 4 or inflater.unconsumed_tail:
            raise ValueError(TOO_LONG)
        if not inflater.eof:
            raise ValueError("the packed text is cut short")
        return _bounded(out.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError) as exc:
        raise ValueError(f"the packed text is damaged ({type(exc).__name__})") from None


def _bounded(text: str) -> str:
    if len(text) > MAX_TEXT:
        raise ValueError(TOO_LONG)
    return text


def sync(
    defaults: Mapping[str, Any], checks: Mapping[str, Check | None], *, page: str,
    on_apply: Callable[[], list[str]] | None = None, keep_out: Collection[str] = (),
) -> bool:
    """Apply a newly opened link's parameters to the keys in ``checks``, then write the state back.

    ``defaults`` are the page's defaults (only values that differ from them go into the URL);
    ``checks[key]`` cleans a value or refuses it (``one_of``, ``in_range``). Returns whether a link
    was applied on this run. ``on_apply()`` runs right after a link is applied, for pages that
    derive more state from it (the BPE page's trained model), and returns notes of its own.
    ``keep_out``: keys of ``checks`` whose values are not written into the URL on this run (state
    that only this session has, such as an uploaded file's; a link then opens their defaults).
    """
    keys = {param_name(k): k for k in checks}
    if PAGE in keys or PRESENT in keys:  # the pager once called "page" broke every link of its page
        raise ValueError(f"'{PAGE}' and '{PRESENT}' are every link's own parameters: rename the key")
    query = {name: st.query_params.get(name, "") for name in st.query_params}
    # subtle: every query string this session wrote for the page, not only the last. A rerun can come
    # with an older one (a click racing the browser's update of its address, seen under load): read as
    # a newly opened link, it put back the state of a few runs ago. The page's links only ever replace
    # the address (no history entry), so an older one of ours is never a way back the user took.
    written = st.session_state.setdefault(_SEEN, {}).setdefault(page, [])
    ours = _frozen(query) in written
    applied = False
    if query and not ours and query.get(PAGE) not in PAGES | {page, None}:
        # a link all the same, though it names no page (hand-edited, cut short): say so, never silently
        st.session_state[NOTES] = [f"ignored the whole link: '{PAGE}' names no page ({query[PAGE][:40]!r})"]
    elif query and not ours and query.get(PAGE) == page:
        applied = True
        notes = _apply(query, defaults, checks, keys)
        if on_apply is not None:
            notes += on_apply()
        st.session_state[NOTES] = notes
    params, dropped = _write(defaults, {n: k for n, k in keys.items() if k not in keep_out}, page)
    mine = _frozen(params)
    if mine in written:
        written.remove(mine)  # kept once, as the newest
    written.append(mine)
    del written[:-WRITTEN_KEPT]
    with st.sidebar:
        copy_link([*st.session_state.get(NOTES, []), *dropped])
        if st.session_state.get(state.PRESENTATION):  # a speaker's view: the link for the room's phones
            room.share_button(link())
    return applied


def _frozen(params: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """A query string's parameters in one comparable, order-free form."""
    return tuple(sorted(params.items()))


def _apply(
    query: Mapping[str, str], defaults: Mapping[str, Any], checks: Mapping[str, Check | None],
    keys: Mapping[str, str],
) -> list[str]:
    """Put a link's parameters into the session keys; notes on what could not be applied."""
    notes = []
    for name, raw in query.items():
        if name in (PAGE, PRESENT):  # present= is read by ui.nav.page_setup, before the toggle is drawn
            continue
        key = keys.get(name)
        if key is None:
            notes.append(f"ignored the unknown parameter '{name}'")
            continue
        try:
            value = decode(raw, defaults[key])
            check = checks[key]
            st.session_state[key] = check(value) if check else value
        except ValueError as exc:
            notes.append(f"ignored '{name}': {exc}")
    return notes


def _write(defaults: Mapping[str, Any], keys: Mapping[str, str], page: str) -> tuple[dict[str, str], list[str]]:
    """Write the values that differ from the defaults into the URL; what was too long to fit."""
    dropped = []
    params = {PAGE: page}
    for name, key in keys.items():
        value = st.session_state.get(key, defaults[key])
        if value != defaults[key] and value is not None:
            params[name] = encode(value, defaults[key])
    if st.session_state.get(state.PRESENTATION):
        params[PRESENT] = "1"
    while len(params) > 1 and len(urllib.parse.urlencode(params)) > URL_LIMIT:
        longest = max(params, key=lambda n: len(params[n]))
        dropped.append(
            f"'{longest}' is too long for a link ({len(params[longest]):,} characters packed; the limit "
            f"is {URL_LIMIT:,}), so the link keeps everything else"
        )
        del params[longest]
    current = {name: st.query_params.get(name, "") for name in st.query_params}
    if current != params:
        st.query_params.from_dict(params)
    # subtle: the present= written here is the page's own, not a link to follow: unrecorded, the next
    # run read it as a newly opened link and undid the switch that run was for (turning the mode off
    # right after turning it on left it on)
    st.session_state[state.PRESENT_SEEN] = params.get(PRESENT)
    return params, dropped


def one_of(options: Any) -> Check:
    """A check that keeps a value (or each item of a list) only if it is among ``options``."""
    allowed = set(options)

    def check(value: Any) -> Any:
        if isinstance(value, list):
            unknown = [v for v in value if v not in allowed]
            if unknown:
                raise ValueError(f"unknown {', '.join(map(str, unknown))}")
            return value
        if value not in allowed:
            raise ValueError(f"unknown value {value!r}")
        return value

    return check


def in_range(low: float, high: float) -> Check:
    """A check that keeps a number between ``low`` and ``high``."""

    def check(value: Any) -> Any:
        if not low <= value <= high:
            raise ValueError(f"{value} is outside {low:g}–{high:g}")
        return value

    return check


def link() -> str:
    """The address of what is on screen: this page's URL with its current query string."""
    base = (getattr(st.context, "url", "") or "").split("?", 1)[0]
    query = urllib.parse.urlencode({name: st.query_params.get(name, "") for name in st.query_params})
    return f"{base}?{query}" if query else base


def copy_link(notes: list[str]) -> None:
    """The link to this view with a copy button, and ``notes`` on what a link could not hold or apply."""
    with st.popover("Copy link", icon=":material/link:", width="stretch"):
        st.caption("A link to this view: text, choices and step. Anyone who opens it sees the same.")
        copy_block(link() or "(open the app in a browser to get its address)", key="tp_copy_link", label="Copy")
    for note in notes:
        st.caption(md_escape(f"Link: {note}."))
