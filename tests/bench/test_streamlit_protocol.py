"""The protocol client's reading of a run, on ForwardMsgs built here (no server)."""

from __future__ import annotations

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.streamlit_protocol import ProtocolError, Session, box_text, text_state


class FakeSocket:
    def __init__(self, messages: list[ForwardMsg]) -> None:
        self.frames = [m.SerializeToString() for m in messages]

    def settimeout(self, timeout: float) -> None:
        pass

    def recv(self) -> bytes:
        return self.frames.pop(0)


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
    return client


def test_a_run_collects_boxes_widgets_and_skips_the_legend() -> None:
    box = '<div data-s="t" class="tp-spans"><b class=c1>Hola</b><b class=c2> &lt;x&gt;</b></div>'
    legend = '<div class="tp-legend"><div class="tp-spans"><b>x</b></div></div>'
    client = session([
        element("text_area", id="$$ID-abc-pg_text"),
        element("multiselect", id="$$ID-def-pg_tokenizers", options=["GPT-2 (r50k_base)", "cl100k_base"]),
        element("html", body=legend), element("html", body=box),
        finished(ForwardMsg.FINISHED_EARLY_FOR_RERUN), element("html", body=box), finished(),
    ])
    run = client._read_run()
    assert run.boxes == ["Hola <x>", "Hola <x>"] and run.elements["html"] == 3
    assert client.widget_ids == {"pg_text": "$$ID-abc-pg_text", "pg_tokenizers": "$$ID-def-pg_tokenizers"}
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


def test_the_text_widget_value_and_box_text() -> None:
    assert text_state("$$ID-1-pg_text", "héllo").string_value == "héllo"
    assert box_text("<b class=c1>a&amp;b</b><i>·</i>") == "a&b·"
