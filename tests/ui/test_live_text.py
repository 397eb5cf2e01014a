"""The live text box's rules for whose text wins (ui/live_text.py), without a browser."""

from __future__ import annotations

from ui.live_text import apply_browser_text, sync_server_text

KEY = "pg_text"


def typed(seq: int, text: str, version: int = 1) -> dict:
    return {"seq": seq, "text": text, "version": version}


def test_typed_texts_apply_in_order_and_a_stale_one_is_dropped() -> None:
    state = {KEY: "start"}
    assert sync_server_text(state, KEY)["version"] == 1
    assert apply_browser_text(state, KEY, typed(1, "h"))
    assert apply_browser_text(state, KEY, typed(3, "hel"))
    assert not apply_browser_text(state, KEY, typed(2, "he"))  # arrived late: older than what is applied
    assert state[KEY] == "hel"
    assert sync_server_text(state, KEY)["version"] == 1  # the browser's own text is no replacement


def test_a_server_set_text_bumps_the_version_and_wins_over_typing_that_did_not_see_it() -> None:
    state = {KEY: "start"}
    sync_server_text(state, KEY)
    apply_browser_text(state, KEY, typed(1, "typed"))
    state[KEY] = "from an upload"  # an upload, a link or a button
    assert sync_server_text(state, KEY)["version"] == 2
    assert not apply_browser_text(state, KEY, typed(2, "typed more", version=1))
    assert state[KEY] == "from an upload"
    assert state[KEY + "_live_meta"]["seq"] == 2  # seen all the same: the run's done mark acknowledges it
    assert apply_browser_text(state, KEY, typed(3, "from an upload!", version=2))
    assert state[KEY] == "from an upload!"


def test_malformed_messages_change_nothing() -> None:
    state = {KEY: "start"}
    for value in (None, "text", {"seq": "1", "text": "x", "version": 1}, {"seq": 1, "text": 5, "version": 1}):
        assert not apply_browser_text(state, KEY, value)
    assert state[KEY] == "start"


def test_lone_surrogates_from_the_browser_become_replacement_characters() -> None:
    state = {KEY: ""}
    assert apply_browser_text(state, KEY, typed(1, "a\ud800b"))
    assert state[KEY] == "a\ufffdb"
