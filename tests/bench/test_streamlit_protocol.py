"""The protocol client's reading of a run, on ForwardMsgs built here (no server)."""

from __future__ import annotations

import json

import pytest
import websocket
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.streamlit_protocol import Dropped, ProtocolError, Session, box_text, text_state


class FakeSocket:
    def __init__(self, messages: list[ForwardMsg]) -> None:
        self.frames = [m.SerializeToString() for m in messages]

    def settimeout(self, timeout: float) -> None:
        pass

    def recv_data(self) -> tuple[int, bytes]:
        frame = self.frames.pop(0)
        return frame if isinstance(frame, tuple) else (websocket.ABNF.OPCODE_BINARY, frame)


def element(kind: str, **fields: object) -> ForwardMsg:
    msg = ForwardMsg()
    getattr(msg.delta.new_element, kind).CopyFrom(
        type(getattr(msg.delta.new_element, kind))(**fields))
    return msg


def finished(status: int = ForwardMsg.FINISHED_SUCCESSFULLY) -> ForwardMsg:
    msg = ForwardMsg()
    msg.script_finished = status
    return msg


def session(messages: list[ForwardMsg]) -> Session:
    client = Session.__new__(Session)  # no server: only the reading is tested
    client.ws, client.timeout, client.widget_ids, client.options = FakeSocket(messages), 5.0, {}, {}
    client.text_data, client.text_seq = {}, 0
    return client


def live_box(element_id: str, name: str, **data: object) -> ForwardMsg:
    """A components-v2 element as ui/live_text.py draws it (``component`` is its registered name)."""
    component = data.pop("component", "tp_live_text")
    return element("bidi_component", id=element_id, component_name=component, json=json.dumps({"name": name, **data}))


def span_box(markup: str) -> ForwardMsg:
    """A column's token box as ui/span_box.py sends it."""
    return element("bidi_component", id="$$ID-0-pg_card_x_spans", component_name="tp_span_box",
                   json=json.dumps({"html": markup}))


def test_a_run_collects_boxes_widgets_and_skips_the_legend() -> None:
    box = '<div data-s="t" class="tp-spans"><b class=c1>Hola</b><b class=c2> &lt;x&gt;</b></div>'
    legend = '<div class="tp-legend"><div class="tp-spans"><b>x</b></div></div>'
    client = session([
        live_box("$$ID-abc-pg_text_live", "pg_text", text="x", version=2, ack=5, label="Text"),
        live_box("$$ID-fed-pg_text_live_done", "pg_text", seq=5, component="tp_live_done"),  # not the box
        element("multiselect", id="$$ID-def-pg_tokenizers", options=["GPT-2 (r50k_base)", "cl100k_base"]),
        element("html", body=legend), element("html", body=box),  # the legend, a box that is not a column
        span_box(box), finished(ForwardMsg.FINISHED_EARLY_FOR_RERUN), span_box(box), finished(),
    ])
    run = client._read_run()
    assert run.boxes == ["Hola <x>", "Hola <x>"] and run.elements["html"] == 2
    assert run.elements["bidi_component"] == 4
    assert client.widget_ids == {"pg_text": "$$ID-abc-pg_text_live", "pg_tokenizers": "$$ID-def-pg_tokenizers"}
    assert (client.text_data["version"], client.text_data["ack"]) == (2, 5)
    assert client.options["pg_tokenizers"][0] == "GPT-2 (r50k_base)"


def test_an_exception_on_the_page_is_an_error() -> None:
    client = session([element("exception", message="KeyError: 'x'"), finished()])
    with pytest.raises(ProtocolError, match="KeyError"):
        client._read_run()


def test_a_compile_error_is_an_error() -> None:
    with pytest.raises(ProtocolError, match="status"):
        session([finished(ForwardMsg.FINISHED_WITH_COMPILE_ERROR)])._read_run()


def test_setting_needs_the_widgets_first() -> None:
    with pytest.raises(ProtocolError, match="not drawn"):
        session([]).set_text_and_tokenizers("x", ["cl100k_base"])


def test_the_text_state_is_what_the_browser_sends() -> None:
    # setStateValue("typed", {seq, text, version}) -> JSON.stringify of the element's whole state
    state, seq = text_state("$$ID-1-pg_text_live", {"name": "pg_text", "version": 3, "ack": 0}, 0, "héllo \"x\"")
    assert (state.id, state.WhichOneof("value"), seq) == ("$$ID-1-pg_text_live", "json_value", 1)
    assert state.json_value == '{"typed":{"seq":1,"text":"héllo \\"x\\"","version":3}}'


def test_the_seq_rises_above_our_last_and_the_servers_ack() -> None:
    data = {"name": "pg_text", "version": 1, "ack": 7}
    first, seq = text_state("id", data, 0, "a")
    second, seq2 = text_state("id", data, seq, "b")
    assert (seq, seq2) == (8, 9)
    assert json.loads(second.json_value)["typed"] == {"seq": 9, "text": "b", "version": 1}


def test_setting_sends_the_box_state_and_counts_seq() -> None:
    sent: list[bytes] = []
    client = session([live_box("$$ID-a-pg_text_live", "pg_text", version=4, ack=2),
                      element("multiselect", id="$$ID-b-pg_tokenizers", options=["cl100k_base"]), finished(),
                      finished(), finished()])
    client.ws.send_binary = sent.append
    client._read_run()
    client.set_text_and_tokenizers("one", ["cl100k_base"])
    client.set_text_and_tokenizers("two", ["cl100k_base"])
    states = [BackMsg.FromString(m).rerun_script.widget_states.widgets for m in sent]
    typed = [json.loads(s[0].json_value)["typed"] for s in states]
    assert typed == [{"seq": 3, "text": "one", "version": 4}, {"seq": 4, "text": "two", "version": 4}]
    assert list(states[0][1].string_array_value.data) == ["cl100k_base"]


def test_typing_reruns_the_box_fragment_and_following_asks_for_the_whole_page() -> None:
    # as chromium sends them (read from its websocket): the typed text with the fragment's id, then
    # the live_whole element's trigger, an internal key around its id, with no fragment
    sent: list[bytes] = []
    box = live_box("$$ID-a-pg_text_live", "pg_text", version=1, ack=0)
    box.delta.fragment_id = "frag1"
    picker = element("multiselect", id="$$ID-b-pg_tokenizers", options=["cl100k_base", "qwen"], default=[1])
    whole = live_box("$$ID-c-pg_text_live_whole", "pg_text", seq=0, component="tp_live_whole")
    client = session([box, picker, whole, finished(), finished(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY), finished()])
    client.ws.send_binary = sent.append
    client._read_run()
    client.type_text("typed")
    client.follow_page()
    typed, followed = (BackMsg.FromString(m).rerun_script for m in sent)
    assert (typed.fragment_id, followed.fragment_id) == ("frag1", "")
    assert json.loads(typed.widget_states.widgets[0].json_value)["typed"] == {"seq": 1, "text": "typed", "version": 1}
    assert list(typed.widget_states.widgets[1].string_array_value.data) == ["qwen"]  # as the picker was drawn
    trigger = followed.widget_states.widgets[-1]
    assert trigger.id == "$$STREAMLIT_INTERNAL_KEY_$$ID-c-pg_text_live_whole__events"
    assert json.loads(trigger.json_trigger_value) == [{"event": "whole", "value": 1}]
    assert followed.widget_states.widgets[0] == typed.widget_states.widgets[0]  # the same text, not sent again as new


def test_box_text() -> None:
    assert box_text("<b class=c1>a&amp;b</b><i>·</i>") == "a&b·"


def test_a_label_the_picker_does_not_offer_is_an_error() -> None:
    client = session([live_box("$$ID-a-pg_text_live", "pg_text", version=1, ack=0),
                      element("multiselect", id="$$ID-b-pg_tokenizers", options=["cl100k_base · OpenAI"]), finished()])
    client._read_run()
    with pytest.raises(ProtocolError, match="offers no 'cl100k_base'"):
        client.set_text_and_tokenizers("x", ["cl100k_base"])


def test_a_closed_socket_says_so() -> None:
    client = session([])
    client.ws.frames = [(websocket.ABNF.OPCODE_CLOSE, (1011).to_bytes(2, "big") + b"overloaded")]
    with pytest.raises(ProtocolError, match="closed the websocket .code 1011, 'overloaded'"):
        client._read_run()


def test_a_lost_connection_is_told_from_a_failed_run() -> None:
    """A replica that dies mid-run closes or resets the socket: ``Dropped`` (a browser reconnects),
    still a ``ProtocolError`` for whoever does not recover; a failed run stays a plain one."""
    close = (websocket.ABNF.OPCODE_CLOSE, (1006).to_bytes(2, "big") + b"gone")
    client = session([element("html", body="<p>x</p>")])
    client.ws.frames.append(close)
    with pytest.raises(Dropped, match="closed the websocket"):
        client._read_run()

    class Reset(FakeSocket):
        def recv_data(self) -> tuple[int, bytes]:
            raise ConnectionResetError("connection reset by peer")

    client = session([])
    client.ws = Reset([])
    with pytest.raises(Dropped, match="lost"):
        client._read_run()
    with pytest.raises(ProtocolError) as failed:
        session([finished(ForwardMsg.FINISHED_WITH_COMPILE_ERROR)])._read_run()
    assert not isinstance(failed.value, Dropped)
