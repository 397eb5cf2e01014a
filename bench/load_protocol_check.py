"""Does the protocol client see what a browser sees? Three sessions each way on one replica, compared.

For each session the same actions: open the Playground with four tokenizers in its link, then set a
2 KB text twice. The browser is Debian's chromium (Playwright); its websocket frames are read with
the same protobuf classes. Per action, both sides report the script runs that finished and the span
boxes' text (whitespace dropped: the browser lays it out); they must match.
"""

from __future__ import annotations

import re
import time
import urllib.parse

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.browser_common import BOXES_JS, IDLE_JS, chromium
from bench.streamlit_protocol import FINISHED, Session, box_text

SESSIONS = 3
_SPACE = re.compile(r"\s+")


def _norm(boxes: list[str]) -> list[str]:
    return [_SPACE.sub("", b) for b in boxes]


def protocol_side(url: str, query: dict[str, str], texts: list[str], labels: list[str]) -> list[tuple[int, list[str]]]:
    session = Session(url)
    try:
        seen = []
        run = session.rerun(query=query)
        seen.append((1, _norm(run.boxes)))
        for text in texts:
            run = session.set_text_and_tokenizers(text, labels)
            seen.append((1, _norm(run.boxes)))
        return seen
    finally:
        session.close()


def browser_side(browser, url: str, query: dict[str, str], texts: list[str]) -> list[tuple[int, list[str]]]:
    finished: list[int] = []
    boxes: list[str] = []

    def on_frame(payload) -> None:
        if isinstance(payload, str):
            return
        msg = ForwardMsg()
        msg.ParseFromString(payload)
        if msg.WhichOneof("type") == "script_finished" and msg.script_finished in FINISHED:
            finished.append(1)
        elif msg.WhichOneof("type") == "delta" and msg.delta.new_element.WhichOneof("type") == "html":
            body = msg.delta.new_element.html.body
            if 'class="tp-spans' in body and "tp-legend" not in body:
                boxes.append(box_text(body))

    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(180_000)
    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    seen = []
    try:
        page.goto(f"{url}/?{urllib.parse.urlencode(query)}")
        page.wait_for_function(f"() => {BOXES_JS}.length === 4 && {IDLE_JS}")
        seen.append((len(finished), _norm(boxes[-4:])))
        for text in texts:
            finished.clear()
            marker = text.split()[0]
            page.locator(".tp-live-box").fill(text)  # the live box sends it as typed, no Ctrl+Enter
            page.wait_for_function(f"() => {BOXES_JS}.length === 4 && {BOXES_JS}.every(b => b.textContent.includes({marker!r})) && {IDLE_JS}")
            time.sleep(0.5)  # a late run would show here
            seen.append((len(finished), _norm(boxes[-4:])))
    finally:
        context.close()
    return seen


def validate() -> int:
    from bench.load_protocol import TOKENIZERS, labels, sample_text
    from deploy.room import serve_room

    query = {"page": "playground", "tokenizers": ",".join(TOKENIZERS)}
    failures = 0
    with serve_room(1) as room, chromium() as browser:
        for n in range(SESSIONS):
            texts = [sample_text(f"v{n}a"), sample_text(f"v{n}b")]
            ours = protocol_side(room.url, query, texts, labels())
            theirs = browser_side(browser, room.url, query, texts)
            for step, ((runs_p, boxes_p), (runs_b, boxes_b)) in enumerate(zip(ours, theirs, strict=True)):
                same = boxes_p == boxes_b
                failures += not same
                print(f"session {n} action {step}: runs protocol {runs_p} / chromium {runs_b}; "
                      f"{len(boxes_p)} / {len(boxes_b)} span boxes, {'same text' if same else 'DIFFERENT text'}",
                      flush=True)
    print("validation:", "the same boxes on every action" if not failures else f"{failures} actions differ")
    return 1 if failures else 0
