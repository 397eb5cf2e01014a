"""ui.scrubber: the step scrubber in a tiny app (AppTest runs fragments as part of each run)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def scrub_app() -> None:
    import streamlit as st

    from ui import scrubber

    keys = scrubber.Scrubber("t_step", "t_playing", "t_tick", "t_")
    for key, value in {"t_step": 0, "t_playing": False, "t_tick": 0.0, "t_for": None, "t_n": 5}.items():
        st.session_state.setdefault(key, value)
    n = st.session_state["t_n"]
    scrubber.reset_step(keys, "t_for", n, 2)
    scrubber.stepper(n, keys, lambda k: st.markdown(f"drawn {k}"), jumps=(2, 4) if n >= 4 else (), label="Step")


def run() -> AppTest:
    at = AppTest.from_function(scrub_app, default_timeout=30)
    at.run()
    assert not at.exception
    return at


def drawn(at: AppTest) -> int:
    return int(next(m.value for m in at.markdown if m.value.startswith("drawn ")).split()[1])


def test_opens_on_the_default_and_draws_that_step() -> None:
    at = run()
    assert at.slider(key="t_step").value == 2 and drawn(at) == 2


def test_next_prev_and_the_ends() -> None:
    at = run()
    at.button(key="t_next").click().run()
    assert drawn(at) == 3
    for _ in range(2):
        at.button(key="t_next").click().run()
    assert drawn(at) == 5 and at.button(key="t_next").disabled
    at.slider(key="t_step").set_value(0).run()
    assert drawn(at) == 0 and at.button(key="t_prev").disabled


def test_jumps_go_to_the_next_and_previous_stop() -> None:
    at = run()
    at.slider(key="t_step").set_value(0).run()
    at.button(key="t_forth").click().run()
    assert drawn(at) == 2
    at.button(key="t_forth").click().run()
    assert drawn(at) == 4 and at.button(key="t_forth").disabled
    at.button(key="t_back").click().run()
    assert drawn(at) == 2 and at.button(key="t_back").disabled


def test_play_toggles_and_restarts_from_the_end() -> None:
    at = run()
    at.slider(key="t_step").set_value(5).run()
    at.button(key="t_play").click().run()
    assert at.session_state["t_playing"] and drawn(at) == 0
    assert at.button(key="t_play").label == "Pause"
    at.button(key="t_play").click().run()
    assert not at.session_state["t_playing"]


def test_a_new_marker_puts_the_step_on_the_default() -> None:
    at = run()
    at.slider(key="t_step").set_value(5).run()
    at.session_state["t_n"] = 3
    at.run()
    assert not at.exception
    assert drawn(at) == 2  # n changed, so reset_step put it on the default
    assert at.slider(key="t_step").max == 3


def test_no_steps_disables_everything() -> None:
    at = run()
    at.session_state["t_n"] = 0
    at.run()
    assert not at.exception and drawn(at) == 0
    assert at.button(key="t_play").disabled and at.button(key="t_next").disabled
