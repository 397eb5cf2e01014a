"""The Playground's ids view switch (in the link) and "Decode ids", under AppTest."""

from __future__ import annotations

import json
from pathlib import Path

from tests.pages.apptest import copy_blocks, open_page, rerun
from tests.pages.live import live_box
from ui import state
from ui.decode_view import IDS_KEY, TOKENIZER_KEY
from ui.widgets import md_escape

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT_S = 120


def links_data(at) -> dict:
    element = next(e for e in at.get("bidi_component") if e.proto.component_name.endswith("tp_span_links"))
    return json.loads(element.proto.json)


def test_the_ids_view_switch_reaches_the_pills_and_the_link() -> None:
    at = open_page(APP, timeout=TIMEOUT_S)
    assert links_data(at) == {"disagree": False, "view": "text"}
    at.session_state[state.PG_VIEW] = "Both"
    at.session_state[state.PG_DISAGREE] = True
    rerun(at)
    assert links_data(at) == {"disagree": True, "view": "both"}
    assert at.query_params["view"] in ("Both", ["Both"]) and at.query_params["disagree"] in ("1", "true", ["1"], ["true"])
    again = open_page(APP, timeout=TIMEOUT_S, params={"page": "playground", "view": "Ids"})
    assert links_data(again)["view"] == "ids"
    bad = open_page(APP, timeout=TIMEOUT_S, params={"page": "playground", "view": "Pictures"})
    assert links_data(bad)["view"] == "text"
    assert any("'view'" in c.value for c in bad.sidebar.caption)


def decode(ids: str, key: str = "gpt2"):
    at = open_page(APP, timeout=TIMEOUT_S)
    at.text_area(key=IDS_KEY).input(ids)
    at.selectbox(key=TOKENIZER_KEY).set_value(key)
    return rerun(at)


def test_decode_ids_shows_the_text_and_its_spans() -> None:
    at = decode("[15496, 11, 995, 0]")
    assert [text for text in copy_blocks(at) if text == "Hello, world!"] == ["Hello, world!"]
    assert any("tp-spans" in h.proto.body and "data-ids=byg,b,rn,0" in h.proto.body for h in at.html)


def test_an_id_outside_the_vocabulary_is_named() -> None:
    at = decode("15496 50257")
    assert [e.value for e in at.error] == [
        md_escape("Id 50,257 is not in GPT-2 (r50k_base)'s vocabulary (its ids run from 0 to 50,256).")
    ]


def test_ids_that_cut_a_character_show_byte_groups_never_a_replacement_character() -> None:
    at = decode("41840")  # the first of the two tokens of 👩 under GPT-2
    assert any("not valid UTF-8 on their own" in w.value for w in at.warning)
    assert [text for text in copy_blocks(at) if text.startswith("41840")] == ["41840: F0 9F 91"]
    assert not any("\ufffd" in text for text in copy_blocks(at))


def test_bad_ids_are_one_sentence() -> None:
    at = decode("1, two, 3")
    assert [e.value for e in at.error] == [md_escape(
        "'two' is not a token id: ids are whole numbers (0 or more), separated by commas or spaces, or a JSON list."
    )]
    assert live_box(at, state.PG_TEXT).value == state.playground_sample()
