"""Does the protocol client see what a browser sees? Three sessions each way on one replica, compared.

For each session the same actions: open the Playground with four tokenizers in its link, then set a
2 KB text twice. The browser is Debian's chromium (Playwright); its websocket frames are read with
the same protobuf classes. The browser types into the live text box (``.tp-live-box``), which sends
the text itself; the protocol client sends the same widget state (``bench/streamlit_protocol.py``):
the box's fragment runs alone, then, as typing pauses, the box asks for the whole page (two runs an
action on both sides). Per action, both sides report the script runs that finished, the elements that arrived (by type) and
the span boxes' text (whitespace dropped: the browser lays it out); they must match, except for the
``TRANSIENT`` placeholders (shown, not compared).
"""

from __future__ import annotations

import re
import time
import urllib.parse
from collections import Counter

from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.browser import SETTLED_JS
from bench.browser_common import BOXES_JS, IDLE_JS, chromium
from bench.streamlit_protocol import FINISHED, Session, box_text, column_boxes

SESSIONS = 3
# placeholders a run draws while it waits (tokenizers loading): how many depends on timing, not on the client
TRANSIENT = frozenset({"empty", "progress"})
_SPACE = re.compile(r"\s+")


def _norm(boxes: list[str]) -> list[str]:
    return [_SPACE.sub("", b) for b in boxes]


Seen = tuple[int, dict[str, int], list[str]]  # runs finished, elements by type, span boxes


def protocol_side(url: str, query: dict[str, str], texts: list[str]) -> list[Seen]:
    session = Session(url)
    try:
        seen = []
        run = session.rerun(query=query)
        seen.append((1, dict(run.elements), _norm(run.boxes)))
        for text in texts:  # typed: the box's fragment runs, then the whole page follows
            typed, followed = session.type_text(text), session.follow_page()
            seen.append((2, dict(typed.elements + followed.elements), _norm(followed.boxes)))
        return seen
    finally:
        session.close()


def _settle(page, finished: list[int]) -> None:
    """Wait for the action's script_finished, then a little more (a late run would show)."""
    # subtle: Playwright waits, not time.sleep, so the frames' events are delivered (the sync API
    # hands them over only inside its own calls); the boxes can be drawn and the status idle while
    # the run still draws what follows them, so its script_finished is awaited
    deadline = time.monotonic() + 180
    while not finished and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    page.wait_for_timeout(500)


def browser_side(browser, url: str, query: dict[str, str], texts: list[str]) -> list[Seen]:
    finished: list[int] = []
    boxes: list[str] = []
    elements: Counter[str] = Counter()

    known: dict[str, Element] = {}  # elements by their message's hash, for the browser's cached ones

    def on_frame(payload) -> None:
        if isinstance(payload, str):
            return
        msg = ForwardMsg()
        msg.ParseFromString(payload)
        kind = msg.WhichOneof("type")
        if kind == "script_finished" and msg.script_finished in FINISHED:
            finished.append(1)
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            known[msg.hash] = msg.delta.new_element
            drawn(msg.delta.new_element)
        elif kind == "ref_hash" and msg.ref_hash in known:
            # the browser lists the messages it has cached (ClientState.cached_message_hashes); the
            # server sends those by hash only. The protocol client lists none and gets them whole.
            drawn(known[msg.ref_hash])

    def drawn(element: Element) -> None:
        elements[element.WhichOneof("type") or "?"] += 1
        boxes.extend(box_text(markup) for markup in column_boxes(element))

    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(180_000)
    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    seen = []
    try:
        page.goto(f"{url}/?{urllib.parse.urlencode(query)}")
        page.wait_for_function(f"() => {BOXES_JS}.length === 4 && {IDLE_JS}")
        _settle(page, finished)
        seen.append((len(finished), dict(elements), _norm(boxes[-4:])))
        for text in texts:
            finished.clear()
            elements.clear()
            marker = text.split()[0]
            page.locator(".tp-live-box").fill(text)  # the live box sends it as typed, no Ctrl+Enter
            page.wait_for_function(f"() => {BOXES_JS}.length === 4 && {BOXES_JS}.every(b => b.textContent.includes({marker!r})) && {IDLE_JS}")
            page.wait_for_function(f"() => {IDLE_JS} && {SETTLED_JS}")  # and the whole-page run that follows
            _settle(page, finished)
            seen.append((len(finished), dict(elements), _norm(boxes[-4:])))
    finally:
        context.close()
    return seen


def _lasting(kinds: dict[str, int]) -> dict[str, int]:
    return {k: n for k, n in kinds.items() if k not in TRANSIENT}


def _diff(ours: dict[str, int], theirs: dict[str, int]) -> str:
    kinds = sorted(set(ours) | set(theirs))
    return ", ".join(f"{k} {ours.get(k, 0)}/{theirs.get(k, 0)}" for k in kinds if ours.get(k, 0) != theirs.get(k, 0))


def validate() -> int:
    from bench.load_protocol import TOKENIZERS, sample_text
    from deploy.room import serve_room

    query = {"page": "playground", "tokenizers": ",".join(TOKENIZERS)}
    failures = 0
    with serve_room(1) as room, chromium() as browser:
        for n in range(SESSIONS):
            texts = [sample_text(f"v{n}a"), sample_text(f"v{n}b")]
            ours = protocol_side(room.url, query, texts)
            theirs = browser_side(browser, room.url, query, texts)
            for step, ((runs_p, kinds_p, boxes_p), (runs_b, kinds_b, boxes_b)) in enumerate(zip(ours, theirs, strict=True)):
                same = boxes_p == boxes_b
                same_kinds = _lasting(kinds_p) == _lasting(kinds_b)
                failures += not same or runs_p != runs_b or not same_kinds
                print(f"session {n} action {step}: runs protocol {runs_p} / chromium {runs_b}; "
                      f"{sum(kinds_p.values())} / {sum(kinds_b.values())} elements, "
                      f"{'same types' if same_kinds else 'DIFFERENT types'} {_diff(kinds_p, kinds_b)}; "
                      f"{len(boxes_p)} / {len(boxes_b)} span boxes, {'same text' if same else 'DIFFERENT text'}",
                      flush=True)
    print("validation:", "the same runs, elements and boxes on every action" if not failures else f"{failures} actions differ")
    return 1 if failures else 0
