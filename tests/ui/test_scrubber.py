"""ui.scrubber: the step scrubber in a tiny app (AppTest runs fragments as part of each run).

The browser's queue of presses (assets/scrubber.js) is stood in for by setting the queue widget's
state the way the script does: ``{"ops": [[seq, op], ...]}``; tests/browser checks the real thing.
"""

from __future__ import annotations

import time

from streamlit.testing.v1 import AppTest

from ui import scrubber

KEYS = scrubber.Scrubber("t_step", "t_playing", "t_tick", "t_", "t_speed")


def scrub_app() -> None:
    import streamlit as st

    from ui import scrubber

    keys = scrubber.Scrubber("t_step", "t_playing", "t_tick", "t_", "t_speed")
    defaults = {"t_step": 0, "t_playing": False, "t_tick": 0.0, "t_for": None, "t_n": 5, "t_speed": 1}
    for key, value in defaults.items():
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


def slider(at: AppTest):
    (found,) = [s for s in at.slider if s.key and s.key.startswith("t_slider")]
    return found


def press(at: AppTest, *ops: list) -> AppTest:
    """What the browser sends after presses: every op not yet acknowledged, numbered from the last ack."""
    acked = at.session_state[KEYS.acked] if KEYS.acked in at.session_state else 0  # noqa: SIM401 (no .get)
    at.session_state[KEYS.acked] = acked  # (a fresh AppTest has it after the first run)
    state = {"ops": [[acked + i + 1, list(op)] for i, op in enumerate(ops)]}
    scrubber._apply_ops_from(KEYS, at.session_state["t_n"], (2, 4), state, at.session_state)
    return at.run()


def test_opens_on_the_default_and_draws_that_step() -> None:
    at = run()
    assert slider(at).value == 2 and drawn(at) == 2


def test_next_prev_and_the_ends() -> None:
    at = run()
    at.button(key="t_next").click().run()
    assert drawn(at) == 3 and slider(at).value == 3
    for _ in range(2):
        at.button(key="t_next").click().run()
    assert drawn(at) == 5 and at.button(key="t_next").disabled
    slider(at).set_value(0).run()
    assert drawn(at) == 0 and at.button(key="t_prev").disabled


def test_jumps_go_to_the_next_and_previous_stop() -> None:
    at = run()
    slider(at).set_value(0).run()
    at.button(key="t_forth").click().run()
    assert drawn(at) == 2
    at.button(key="t_forth").click().run()
    assert drawn(at) == 4 and at.button(key="t_forth").disabled
    at.button(key="t_back").click().run()
    assert drawn(at) == 2 and at.button(key="t_back").disabled


def test_play_toggles_and_restarts_from_the_end() -> None:
    at = run()
    slider(at).set_value(5).run()
    at.button(key="t_play").click().run()
    assert at.session_state["t_playing"] and drawn(at) == 0
    assert at.button(key="t_play").label == "Pause"
    at.button(key="t_play").click().run()
    assert not at.session_state["t_playing"]


def test_play_to_next_change_stops_there() -> None:
    at = run()
    slider(at).set_value(0).run()
    at.button(key="t_tochange").click().run()
    assert at.session_state["t_playing"] and at.session_state[KEYS.until] == 2
    for _ in range(4):
        at.session_state["t_tick"] = time.monotonic() - 1.0  # a second has passed: one step is due
        at.run()
    assert drawn(at) == 2 and not at.session_state["t_playing"]


def test_a_faster_speed_moves_several_steps_per_tick() -> None:
    at = run()
    at.session_state["t_n"] = 5
    slider(at).set_value(0).run()
    at.selectbox(key="t_speed").set_value(20).run()
    at.button(key="t_play").click().run()
    at.session_state["t_tick"] = time.monotonic() - 0.25  # one tick at 20 steps a second: 5 steps
    at.run()
    assert drawn(at) == 5 and not at.session_state["t_playing"]  # and it stopped at the end


def test_every_queued_press_counts_once_in_order() -> None:
    at = run()
    press(at, ["step", -1], ["step", -1], ["step", 1], ["step", 1], ["step", 1])
    assert drawn(at) == 3
    acked = at.session_state[KEYS.acked]
    # The browser sends the same ops again, plus one more: only the new one is applied.
    state = {"ops": [[acked - 1, ["step", 1]], [acked, ["step", 1]], [acked + 1, ["end"]]]}
    scrubber._apply_ops_from(KEYS, 5, (2, 4), state, at.session_state)
    at.run()
    assert drawn(at) == 5


def test_home_end_jumps_and_junk_ops() -> None:
    at = run()
    press(at, ["end"])
    assert drawn(at) == 5
    press(at, ["home"], ["jump", 1], ["jump", 1])
    assert drawn(at) == 4
    press(at, ["nonsense"], ["step", 7], [], ["jump", "x"])
    assert drawn(at) == 4 and not at.exception


def test_a_stale_slider_value_does_not_undo_a_step() -> None:
    at = run()
    old = slider(at)
    at.button(key="t_next").click().run()
    assert drawn(at) == 3
    # The browser had not drawn the new slider yet and sends the old one's value back.
    at.session_state[old.key] = 2
    scrubber._from_slider(at.session_state, KEYS, old.key, 5)
    at.run()
    assert drawn(at) == 3


def test_a_new_marker_puts_the_step_on_the_default() -> None:
    at = run()
    slider(at).set_value(5).run()
    at.session_state["t_n"] = 3
    at.run()
    assert not at.exception
    assert drawn(at) == 2  # n changed, so reset_step put it on the default
    assert slider(at).max == 3


def test_no_steps_disables_everything() -> None:
    at = run()
    at.session_state["t_n"] = 0
    at.run()
    assert not at.exception and drawn(at) == 0
    assert at.button(key="t_play").disabled and at.button(key="t_next").disabled


def test_a_late_tick_at_one_step_a_second_draws_every_step() -> None:
    """A busy server delays a tick: play goes on from the step it showed and skips none (a speaker
    playing merges one a second reads each one); it used to leap two steps after a stall."""
    at = run()
    slider(at).set_value(0).run()
    at.button(key="t_play").click().run()
    seen = []
    for _ in range(3):
        at.session_state["t_tick"] = time.monotonic() - 1.9  # almost two ticks late
        at.run()
        seen.append(drawn(at))
    assert seen == [1, 2, 3]


def test_each_speed_takes_at_most_one_ticks_worth_of_steps() -> None:
    worth = {speed: scrubber._most_per_tick(speed, max(1.0 / speed, scrubber.MIN_TICK)) for speed in scrubber.SPEEDS}
    assert worth == {1: 1, 2: 1, 5: 2, 20: 5, 100: 25}
