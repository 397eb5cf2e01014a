"""A Streamlit client without a browser: the Playground over its websocket, in Streamlit's own protobuf.

``Session`` opens ``/_stcore/stream`` (the subprotocol ``streamlit``, as the browser's client does),
sends ``BackMsg.rerun_script`` with a ``ClientState`` (query string, widget states) and reads
``ForwardMsg``s until the run's ``script_finished``. It remembers the ids the server gave the widgets
(the text box, the ``MultiSelect``) so a later rerun can set them, and collects what each run drew:
the columns' span boxes (``tp_span_box`` components, ``ui/span_box.py``), the elements by type, any exception.

How the text is sent lives in ``TEXT_WIDGET`` and ``text_state``. The Playground's text box is a
components-v2 element (``ui/live_text.py``): a ``BidiComponent`` named ``tp_live_text`` whose
``json`` data carries ``name``, ``version`` (texts the server set) and ``ack`` (the largest seq it
saw). Its browser code calls ``setStateValue("typed", {seq, text, version})``; Streamlit's frontend
(1.67, ``BidiComponent`` bundle) merges that into the element's whole state and sends it as
``WidgetState(id=element id, json_value=JSON.stringify(state))``. So does ``text_state``, with a seq
above both its last one and the server's ``ack``, and the ``version`` of the data last drawn.

Used by ``bench/load_protocol.py`` (Locust users); plain blocking calls on ``websocket-client``, which
gevent (under Locust) makes cooperative (``websockets.sync`` reads in a thread of its own, and under
gevent that crashed libev after a few minutes at 50 users).
"""

from __future__ import annotations

import html
import json
import re
import time
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import websocket  # websocket-client: plain blocking sockets, which gevent makes cooperative
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

SPAN_BOX = "tp_span_box"  # the columns' token boxes (ui/span_box.py)
LIVE_CARDS = "tp_live_cards"  # a typed key's cards, patched in place (ui/playground_live.py)
TEXT_WIDGET = ("bidi_component", "tp_live_text", "typed")  # (element type, component name, state key)
TOKENIZERS_WIDGET = ("multiselect", "pg_tokenizers")
TEXT_KEY = "pg_text"  # the text box's ``data.name`` (its plain session key)
WHOLE_WIDGET = "tp_live_whole"  # asks for the whole-page run once typing pauses (assets/live_whole.js)
# a components-v2 trigger's widget id: this prefix + the element's id + "__events"
TRIGGER_PREFIX = "$$STREAMLIT_INTERNAL_KEY_"
FINISHED = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
_TAG = re.compile(r"<[^>]*>")


class ProtocolError(RuntimeError):
    """The server answered in a way a browser would show as an error (or not at all)."""


class Dropped(ProtocolError):
    """The connection went away mid-action (a replica died): a browser reconnects and carries on."""


@dataclass
class Run:
    """What one script run sent: its span boxes' text, element counts, whether it finished cleanly."""

    boxes: list[str] = field(default_factory=list)  # the visible text of each span box, in order
    elements: Counter[str] = field(default_factory=Counter)
    exceptions: list[str] = field(default_factory=list)
    status: int | None = None
    messages: int = 0
    received_bytes: int = 0


def text_state(widget_id: str, data: dict[str, Any], last_seq: int, text: str) -> tuple[WidgetState, int]:
    """The text box's state as the browser sends it after typing ``text``, and the seq it used.

    ``data`` is the element's data as last drawn: its ``ack`` lifts the seq (a new tab continues the
    server's count), its ``version`` is the server-set text this one replaces.
    """
    seq = max(last_seq, int(data.get("ack", 0))) + 1
    typed = {"seq": seq, "text": text, "version": int(data.get("version", 0))}
    # as JSON.stringify: no spaces, keys in the order the browser's object has them, no escaping
    state = json.dumps({TEXT_WIDGET[2]: typed}, separators=(",", ":"), ensure_ascii=False)
    return WidgetState(id=widget_id, json_value=state), seq


def column_boxes(element: Element) -> list[str]:
    """The markup of the Playground columns' token boxes an element draws: one for a column's box
    (``ui.span_box``: a components-v2 element whose data is ``{"html": ...}``), one per column for a
    typed key's cards (``tp_live_cards``, ``ui/playground_live.py``: ``{"cards": JSON text}``), none else."""
    if element.WhichOneof("type") != "bidi_component":
        return []
    name = element.bidi_component.component_name
    if name == SPAN_BOX:
        return [json.loads(element.bidi_component.json or "{}").get("html", "")]
    if name == LIVE_CARDS:
        return [card["html"] for card in json.loads(json.loads(element.bidi_component.json or "{}").get("cards", "[]"))]
    return []


def box_text(body: str) -> str:
    """A span box's text as a reader sees it (tags dropped, entities read)."""
    return html.unescape(_TAG.sub("", body))


class Session:
    """One simulated browser tab on ``base_url`` (``http://host:port``), with its cookies (for HAProxy)."""

    def __init__(self, base_url: str, *, timeout: float = 120.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.widget_ids: dict[str, str] = {}
        self.options: dict[str, list[str]] = {}
        self.text_data: dict[str, Any] = {}  # the text box's data as last drawn
        self.text_seq = 0  # the last seq this tab sent
        self.fragment_id = ""  # the st.fragment the text box is in (the Playground's live area)
        self.typed: WidgetState | None = None  # the text box's state as last sent
        self.labels: list[str] = []  # the tokenizers picked (the picker's labels), as last drawn or sent
        self.cookie = self._page_cookie()
        ws_url = "ws" + self.base_url[4:] + "/_stcore/stream"
        # as a browser: no pings of its own; a run's wait is bounded by ``timeout``
        self.ws = websocket.create_connection(ws_url, subprotocols=["streamlit"], origin=self.base_url,
                                              cookie=self.cookie or None, timeout=timeout)

    def _page_cookie(self) -> str:
        """GET the page as a browser does first: HAProxy's affinity cookie comes with it."""
        with urllib.request.urlopen(self.base_url + "/", timeout=self.timeout) as response:
            response.read()
            cookies = response.headers.get_all("Set-Cookie") or []
        return "; ".join(c.split(";", 1)[0] for c in cookies)

    def close(self) -> None:
        self.ws.close()

    def rerun(self, *, query: dict[str, str] | None = None, widgets: list[WidgetState] = (),
              fragment_id: str = "") -> Run:
        """Ask for a script run (of ``fragment_id`` alone, if given) and read until it finishes; raises
        ``ProtocolError`` on a failed run."""
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = urllib.parse.urlencode(query or {})
        state.page_script_hash = ""
        state.fragment_id = fragment_id
        state.widget_states.widgets.extend(widgets)
        try:
            self.ws.send_binary(msg.SerializeToString())
        except (websocket.WebSocketConnectionClosedException, OSError) as exc:
            raise Dropped(f"the websocket was lost while sending ({exc})") from exc
        return self._read_run()

    def _read_run(self) -> Run:
        run = Run()
        deadline = time.monotonic() + self.timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProtocolError(f"no script_finished within {self.timeout:.0f} s")
            self.ws.settimeout(remaining)
            try:
                opcode, data = self.ws.recv_data()
            except websocket.WebSocketTimeoutException:
                continue
            except (websocket.WebSocketConnectionClosedException, OSError) as exc:
                raise Dropped(f"the websocket was lost ({exc})") from exc
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                code = int.from_bytes(data[:2], "big") if len(data) >= 2 else None
                raise Dropped(f"the server closed the websocket (code {code}, {data[2:].decode(errors='replace')!r})")
            if opcode != websocket.ABNF.OPCODE_BINARY:
                raise ProtocolError("a text frame where protobuf was expected")
            run.messages += 1
            run.received_bytes += len(data)
            fwd = ForwardMsg()
            fwd.ParseFromString(data)
            kind = fwd.WhichOneof("type")
            if kind == "delta":
                self._element(fwd, run)
            elif kind == "script_finished":
                run.status = fwd.script_finished
                if fwd.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # another rerun follows (a widget callback asked for one)
                if fwd.script_finished not in FINISHED:
                    raise ProtocolError(f"the script run ended with status {fwd.script_finished}")
                if run.exceptions:
                    raise ProtocolError(f"the page showed an exception: {run.exceptions[0][:200]}")
                return run

    def _element(self, fwd: ForwardMsg, run: Run) -> None:
        if fwd.delta.WhichOneof("type") != "new_element":
            return
        element = fwd.delta.new_element
        kind = element.WhichOneof("type") or "?"
        run.elements[kind] += 1
        if kind == "exception":
            run.exceptions.append(element.exception.message)
        elif kind == "alert" and element.alert.format == element.alert.ERROR:
            run.exceptions.append(element.alert.body)
        elif boxes := column_boxes(element):
            run.boxes.extend(box_text(markup) for markup in boxes)
        elif kind == TEXT_WIDGET[0] and element.bidi_component.component_name == TEXT_WIDGET[1]:
            data = json.loads(element.bidi_component.json or "{}")
            if data.get("name") == TEXT_KEY:
                self.widget_ids[TEXT_KEY] = element.bidi_component.id
                self.text_data = data
                self.fragment_id = fwd.delta.fragment_id
        elif kind == "bidi_component" and element.bidi_component.component_name == WHOLE_WIDGET:
            self.widget_ids[WHOLE_WIDGET] = element.bidi_component.id
        elif kind == TOKENIZERS_WIDGET[0] and TOKENIZERS_WIDGET[1] in element.multiselect.id:
            self.widget_ids[TOKENIZERS_WIDGET[1]] = element.multiselect.id
            self.options[TOKENIZERS_WIDGET[1]] = list(element.multiselect.options)
            picker = element.multiselect
            self.labels = list(picker.raw_values) if picker.set_value else [picker.options[i] for i in picker.default]

    def set_text_and_tokenizers(self, text: str, labels: list[str]) -> Run:
        """One interaction: a new text and these tokenizers (by their labels in the picker)."""
        if not {TEXT_KEY, TOKENIZERS_WIDGET[1]} <= set(self.widget_ids):
            raise ProtocolError("the page has not drawn its text box and tokenizer picker yet")
        unknown = set(labels) - set(self.options[TOKENIZERS_WIDGET[1]])
        if unknown:
            raise ProtocolError(f"the picker offers no {sorted(unknown)[0]!r} (its labels have changed?)")
        self.typed, self.text_seq = text_state(self.widget_ids[TEXT_KEY], self.text_data, self.text_seq, text)
        self.labels = labels
        return self.rerun(query={"page": "playground"}, widgets=self._widgets())

    def _widgets(self, *extra: WidgetState) -> list[WidgetState]:
        picked = WidgetState(id=self.widget_ids[TOKENIZERS_WIDGET[1]], string_array_value={"data": self.labels})
        return [self.typed, picked, *extra]

    def type_text(self, text: str) -> Run:
        """A text typed into the live box, as the browser sends it: a run of the box's fragment alone
        (the box, and the columns' cards patched through one element: no span box is sent).
        ``follow_page`` then does what the box does once typing pauses."""
        if not {TEXT_KEY, TOKENIZERS_WIDGET[1]} <= set(self.widget_ids):
            raise ProtocolError("the page has not drawn its text box and tokenizer picker yet")
        self.typed, self.text_seq = text_state(self.widget_ids[TEXT_KEY], self.text_data, self.text_seq, text)
        return self.rerun(query={"page": "playground"}, widgets=self._widgets(), fragment_id=self.fragment_id)

    def follow_page(self) -> Run:
        """The whole-page run the live box asks for when typing pauses (``assets/live_whole.js``'s
        trigger), which draws what lies outside the fragment (counts, ids, the link) for the last text."""
        if WHOLE_WIDGET not in self.widget_ids:
            raise ProtocolError("the page has not drawn its whole-page mark yet")
        events = json.dumps([{"event": "whole", "value": self.text_seq}], separators=(",", ":"))
        trigger = WidgetState(id=f"{TRIGGER_PREFIX}{self.widget_ids[WHOLE_WIDGET]}__events", json_trigger_value=events)
        return self.rerun(query={"page": "playground"}, widgets=self._widgets(trigger))
