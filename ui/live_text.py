"""The live text box: a text input whose text reaches the server while it is typed.

Streamlit's ``st.text_area`` applies its text only on Ctrl+Enter or when it loses focus. This box
is a components-v2 element (``assets/live_text.js``) that keeps its own textarea in the browser and
sends the text as it changes: at once when the page is idle, else as soon as the run in flight has
drawn the page (``finished`` marks the end of a run), the newest text only. A paste goes at once.
A text the server has not acknowledged within 3 s is sent again (a message sent while the page was
disconnected is lost, and on reconnecting Streamlit does not rerun the page); where the box is in an
``st.fragment``, a whole-page run is asked for first (a server that has not run the page, another
replica after a failover, does not know the fragment), then the text goes again.
Above ``PAUSE_CHARS`` characters it sends only when typing pauses, and says so in one line.

Who owns the text: the page's plain session key (``key``) holds it; the browser's box is a view of
it. The rule for which side wins:

- A text the browser sent is applied to ``key`` unless it is older than one the server already
  applied (its ``seq`` is smaller: a stale message) or was typed over a text the server has since
  replaced (its ``version`` is older): then the server's text stands and is shown.
- Anything else that writes ``key`` (an upload, a link, a sample or "open in the Playground"
  button, another page) is a server-set text: it bumps the version, and the browser replaces its
  text with it (caret at the end). The browser never sees its own text come back as a replacement,
  so what is typed while a run is in flight is never overwritten.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from functools import partial
from typing import Any

import streamlit as st

from core.text.textio import without_surrogates
from ui import state as keys
from ui.scripts import script, style

# Above this many characters the box sends its text when typing pauses, not at each key: the
# issue's floor. Measured so far (server CPU per run, AppTest, 4 tokenizers): ~0.09 s for a new
# 1 KB text, the same as Ctrl+Enter cost before; the browser figures (bench/browser.py) were taken
# on a 2-core machine at load 12-20 and cannot yet tell where live updates start to lag, so the
# threshold stays at the floor until an unloaded run says otherwise.
PAUSE_CHARS = 20_000
PAUSE_MS = 600  # no key for this long counts as a pause
PAUSE_NOTE = "Long text: the tokens follow when typing pauses."

PRESENTATION_MAX_HEIGHT = "4.8em"  # as assets/presentation.css does for Streamlit's text areas
WIDGET_SUFFIX = "_live"  # the component's widget key: key + suffix
_META_SUFFIX = "_live_meta"  # plain session key: {"version", "seen", "seq"}
_TYPED_SUFFIX = "_live_typed"  # plain session key: True when this run's text came from the box
SETTLE_MS = 350  # no key for this long after the columns followed: the box asks for a whole-page run

_box = st.components.v2.component(
    "tp_live_text", js=script("live_text.js"),
    css=style("live_text.css"), isolate_styles=False,
)
_done = st.components.v2.component(
    "tp_live_done", js=script("live_done.js"), isolate_styles=False
)
_whole = st.components.v2.component(
    "tp_live_whole", js=script("live_whole.js"), isolate_styles=False
)


def _meta(state: MutableMapping[str, Any], key: str) -> dict[str, Any]:
    return state.setdefault(key + _META_SUFFIX, {"version": 1, "seen": None, "seq": 0})


def sync_server_text(state: MutableMapping[str, Any], key: str) -> dict[str, Any]:
    """Bump the version when ``state[key]`` holds a text the browser did not send (the server set it)."""
    meta = _meta(state, key)
    text = state.get(key, "")
    if meta["seen"] is None:
        meta["seen"] = text
    elif text != meta["seen"]:
        meta["version"] += 1
        meta["seen"] = text
    return meta


def apply_browser_text(state: MutableMapping[str, Any], key: str, value: Any) -> bool:
    """Apply ``value`` ({seq, text, version}) from the browser to ``state[key]``; False when stale."""
    if not isinstance(value, dict) or not isinstance(value.get("text"), str):
        return False
    meta = sync_server_text(state, key)
    seq, version = value.get("seq"), value.get("version")
    if not isinstance(seq, int) or not isinstance(version, int):
        return False
    if seq <= meta["seq"]:
        return False  # older than a message already applied
    meta["seq"] = seq  # seen, even if refused below: the run's done mark acknowledges it
    if version < meta["version"]:
        return False  # typed over a text the server has since replaced: the browser is told
    text = without_surrogates(value["text"])
    meta["seen"] = text
    state[key] = text
    return True


def _on_change(key: str) -> None:
    browser = st.session_state.get(key + WIDGET_SUFFIX)
    # subtle: not "value": Streamlit unwraps a state that is only {"value": {...}} and calls the
    # callbacks of the keys inside it instead
    apply_browser_text(st.session_state, key, browser.get("typed") if browser else None)
    st.session_state[key + _TYPED_SUFFIX] = True


def typed(key: str) -> bool:
    """Whether this run was started by the box sending a text (read once: the mark is cleared)."""
    return bool(st.session_state.pop(key + _TYPED_SUFFIX, False))


def live_text(
    label: str, *, key: str, height: int = 170, placeholder: str = "", help: str | None = None
) -> str:
    """Draw the live box over ``st.session_state[key]`` (a plain key) and return its text."""
    meta = sync_server_text(st.session_state, key)
    text = st.session_state.get(key, "")
    data = {
        "name": key, "text": text, "version": meta["version"], "ack": meta["seq"], "label": label,
        "height": height, "placeholder": placeholder, "pauseChars": PAUSE_CHARS, "pauseMs": PAUSE_MS,
        "pauseNote": PAUSE_NOTE, "settleMs": SETTLE_MS,
        # presentation mode: a short box, so the tokens under it are on the first screen
        "maxHeight": PRESENTATION_MAX_HEIGHT if st.session_state.get(keys.PRESENTATION) else "",
    }
    _box(
        key=key + WIDGET_SUFFIX, data=data, default={"typed": None},
        on_typed_change=partial(_on_change, key), height="content",
    )
    if help:
        st.caption(help)
    return text


def finished(key: str) -> None:
    """Mark that this run has drawn what follows the text: the next typed text goes at once.

    Call it after what must follow each key (the counts and ids of the Playground follow in a
    whole-page run, ``whole_page_drawn``) and before an ``st.stop``; without it the box waits up to
    1.5 s for the run in flight. An element that is drawn last anyway can carry ``done_mark`` in its
    data instead and call ``window.__tpLive.onDone`` itself (the Playground's typed-key cards).
    """
    _done(key=key + "_live_done", data=done_mark(key))


def done_mark(key: str) -> dict[str, Any]:
    """What the done mark of this run says: the box's name and the seq of the text it applied."""
    return {"name": key, "seq": _meta(st.session_state, key)["seq"]}


def whole_page_drawn(key: str) -> None:
    """Mark that this whole-page run drew everything that depends on the text (the counts, the ids).

    For a page whose box and what follows each key are an ``st.fragment`` (the Playground): a key
    reruns only the fragment, and when typing pauses (``SETTLE_MS`` after the last text's run is
    done, nothing newer typed) the box asks this element for one whole-page run, so the parts
    outside the fragment and the link follow the text too. Call it outside the fragment, last.
    """
    _whole(
        key=key + "_live_whole", data={"name": key, "seq": _meta(st.session_state, key)["seq"]},
        on_whole_change=_no_op,
    )


def _no_op() -> None:
    """The whole-page request needs no work of its own: its rerun is the point."""
