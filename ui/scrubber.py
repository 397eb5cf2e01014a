"""A step scrubber: a slider over steps ``0..n`` with Prev / Next / Play, a speed, and keyboard shortcuts.

``stepper(n, keys, draw)`` draws the controls and then ``draw(k)`` for the chosen step, all in one
fragment: moving the slider or pressing a button reruns only the fragment, so ``draw`` must be cheap
(index into state computed once) and should compute everything before it draws anything, so a step
appears whole. "Play" advances at the chosen speed (``SPEEDS``, steps per second) with
``st.fragment(run_every=...)`` and stops at ``n``, or at the next step worth stopping at ("play to
next change", with ``jumps``).

Every key press and click counts, even while a step redraws: the browser queues them
(``assets/scrubber.js`` through ``ui.client.step_keys``) and ``_apply_ops_from`` applies each once, in
order. Shortcuts (not while typing in a text box): ← → one step, Home End the ends, PgUp PgDn the
optional ``jumps``, P play or pause.
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass

import streamlit as st

from ui import client, state

SPEEDS = (1, 2, 5, 20, 100)  # steps per second; 1: slow enough to read a merge aloud
MIN_TICK = 0.25  # seconds between two play ticks at most speeds: faster ticks only redraw more often
KEYS_HINT = "← → step · Home End · PgUp PgDn change · P play"
CONTROLS_KEY = "tp_scrubber_controls_"  # + prefix: the controls' row (presentation mode hides its labels)


@dataclass(frozen=True)
class Scrubber:
    """The session-state keys of one scrubber (declared in ``ui.state``) and its widget-key prefix.

    ``speed`` is the key of the speed control (steps per second); without it play goes one step a
    second and no speed control is shown.
    """

    step: str
    playing: str
    tick: str
    prefix: str  # widget keys start with it
    speed: str | None = None

    @property
    def until(self) -> str:
        """Plain session key: where "play to next change" stops (``None``: play to the end)."""
        return self.prefix + "until"

    @property
    def queue(self) -> str:
        """Widget key of the browser's queue of presses (``ui.client.step_keys``)."""
        return client.STEP_KEYS_PREFIX + self.prefix

    @property
    def slider_version(self) -> str:
        """Plain session key: a counter in the slider's widget key, bumped when the step moves without it."""
        return self.prefix + "slider_v"

    @property
    def acked(self) -> str:
        """Plain session key: the sequence number of the last browser op applied."""
        return self.prefix + "acked"


def stepper(
    n: int, keys: Scrubber, draw: Callable[[int], None], *, jumps: Sequence[int] = (), label: str
) -> None:
    """A scrubber over steps ``0..n`` and ``draw(k)`` below it, as one fragment (a step reruns only it)."""
    ss = st.session_state
    ss.setdefault(keys.until, None)
    ss.setdefault(keys.acked, 0)
    ss.setdefault(keys.slider_version, 0)
    ss[keys.step] = min(max(int(ss[keys.step]), 0), n)
    if ss[keys.playing] and ss[keys.step] >= _stop(keys, n):
        ss[keys.playing] = False
    every = _every(keys)
    st.fragment(_stepper_body, run_every=every)(n, keys, draw, tuple(jumps), label, every)


def _speed(keys: Scrubber) -> int:
    return int(st.session_state[keys.speed]) if keys.speed else 1


def _every(keys: Scrubber) -> float | None:
    """Seconds between play ticks, or ``None`` when not playing."""
    if not st.session_state[keys.playing]:
        return None
    return max(1.0 / _speed(keys), MIN_TICK)


def _stop(keys: Scrubber, n: int) -> int:
    until = st.session_state.get(keys.until)
    return n if until is None else min(until, n)


def _stepper_body(
    n: int,
    keys: Scrubber,
    draw: Callable[[int], None],
    jumps: tuple[int, ...],
    label: str,
    every: float | None,
) -> None:
    ss = st.session_state
    if ss[keys.playing] and ss[keys.step] >= _stop(keys, n):  # played to the end, or to the change
        ss[keys.playing] = False
    if _every(keys) != every:
        st.rerun()  # play, pause or speed changed: only a full run can set or drop the fragment's timer
    if ss[keys.playing]:
        _advance(keys, n)
    k = ss[keys.step]
    playing = ss[keys.playing]
    row = st.container(horizontal=True, vertical_alignment="bottom", wrap=False, key=CONTROLS_KEY + keys.prefix)
    row.button("Prev", icon=":material/chevron_left:", key=keys.prefix + "prev", on_click=_on,
               args=(_move, keys, n, -1), disabled=k <= 0, help="One step back (←)")
    slider = _slider_key(keys, k)
    row.slider(label, min_value=0, max_value=max(n, 1), value=k, key=slider, on_change=_on,
               args=(_from_slider, keys, slider, n), disabled=n == 0)
    row.button("Next", icon=":material/chevron_right:", icon_position="right", key=keys.prefix + "next",
               on_click=_on, args=(_move, keys, n, 1), disabled=k >= n, help="One step forward (→)")
    row.button("Pause" if playing else "Play", icon=":material/pause:" if playing else ":material/play_arrow:",
               key=keys.prefix + "play", on_click=_on, args=(_play, keys, n), type="primary" if playing else "secondary",
               disabled=n == 0, help="Play or pause (P), at the speed beside it")
    if keys.speed:
        row.selectbox("Speed", SPEEDS, **state.kept(keys.speed), format_func=lambda v: f"{v} / s", width=105,
                      label_visibility="collapsed", help="Steps per second while playing")
    hints = st.container(horizontal=True, vertical_alignment="center", gap="small", wrap=True)
    if jumps:
        hints.button("previous change", icon=":material/first_page:", key=keys.prefix + "back",
                     on_click=_on, args=(_jump, keys, jumps, -1), disabled=k <= jumps[0], type="tertiary",
                     help="The last earlier step that changed your text (PgUp)")
        hints.button("next change", icon=":material/last_page:", icon_position="right",
                     key=keys.prefix + "forth", on_click=_on, args=(_jump, keys, jumps, 1), disabled=k >= jumps[-1],
                     type="tertiary", help="The next step that changes your text (PgDn)")
        hints.button("play to next change", icon=":material/resume:", key=keys.prefix + "tochange",
                     on_click=_on, args=(_play_to_change, keys, jumps), disabled=k >= jumps[-1], type="tertiary",
                     help="Play at the chosen speed and stop at the next step that changes your text")
        hints.caption(f"{len(jumps):,} of the {n:,} steps change your text")
    # the keys, for a rehearsal; presentation mode hides them (assets/presentation.css)
    hints.container(key=keys.prefix + "keys_hint").caption(KEYS_HINT)
    client.step_keys(
        key=keys.queue, data={"prefix": keys.prefix, "ack": ss[keys.acked]},
        on_change=lambda: _apply_ops_from(keys, n, jumps, st.session_state.get(keys.queue), st.session_state),
    )
    draw(k)


def _slider_key(keys: Scrubber, k: int) -> str:
    """The slider's widget key: a new one whenever the step moved by anything but the slider itself.

    Subtle: the step is plain session state, not the slider's own key. A rerun asked for while the
    browser still shows the previous step sends that old slider value back, and Streamlit would
    read it as the user moving the slider, undoing the presses being applied. A slider under a new
    key shows the new step; the old one's value, when a browser still sends it back, is ignored.
    """
    ss = st.session_state
    key = f"{keys.prefix}slider{ss[keys.slider_version]}"
    if key in ss and ss[key] != k:
        ss[keys.slider_version] += 1
        key = f"{keys.prefix}slider{ss[keys.slider_version]}"
    return key


def _on(change: Callable[..., None], *args: object) -> None:
    """A widget callback: ``change(session_state, *args)``; the changes take the state as an argument,
    so they are plain functions of a mapping (tested without a browser)."""
    change(st.session_state, *args)


def _from_slider(ss: MutableMapping, keys: Scrubber, slider: str, n: int) -> None:
    if slider != f"{keys.prefix}slider{ss[keys.slider_version]}":
        return  # an earlier slider's value, sent back by a browser that has not drawn the new one yet
    ss[keys.step] = min(max(int(ss[slider]), 0), n)


def _advance(keys: Scrubber, n: int) -> None:
    """One play tick: as many steps as the time since the last one is worth at the chosen speed, and
    never more than one tick's worth (``_most_per_tick``)."""
    ss = st.session_state
    speed, now = _speed(keys), time.monotonic()
    due = int((now - ss[keys.tick]) * speed + 0.3)  # a tick a little early still steps
    if due < 1:
        return
    due = min(due, _most_per_tick(speed, _every(keys) or 1.0))
    ss[keys.step] = min(ss[keys.step] + due, _stop(keys, n))
    ss[keys.tick] = max(ss[keys.tick] + due / speed, now - 1.0 / speed)
    if ss[keys.step] >= _stop(keys, n):
        ss[keys.playing] = False  # the next tick's run finds the timer unwanted and drops it


def _most_per_tick(speed: int, every: float) -> int:
    """The most steps one play tick may take: what a tick is worth, rounded up.

    A late tick (a busy server) slows play down rather than skip: at the speeds of one step a tick
    (1 and 2 a second) every step is drawn, so a speaker playing merges one a second never misses
    one. Faster speeds take several steps a tick by design (``MIN_TICK``) and keep that many.
    """
    return max(1, math.ceil(speed * every - 1e-9))


def _apply_ops_from(
    keys: Scrubber, n: int, jumps: tuple[int, ...], state: object, ss: MutableMapping
) -> None:
    """Apply the browser's queued presses (``state["ops"]``: ``[[seq, op], ...]``) not applied yet, in order."""
    ops = state.get("ops") if hasattr(state, "get") else None
    for entry in ops or []:
        try:
            seq, op = int(entry[0]), list(entry[1])
        except (TypeError, ValueError, IndexError):
            continue  # not from our script: ignore, never crash the page
        if seq <= ss[keys.acked]:
            continue
        ss[keys.acked] = seq
        apply_op(ss, keys, n, jumps, op)


def apply_op(ss: MutableMapping, keys: Scrubber, n: int, jumps: tuple[int, ...], op: list) -> None:
    """One press: ``["step", ±1]``, ``["home"]``, ``["end"]``, ``["jump", ±1]``, ``["play"]``, ``["tochange"]``."""
    name = op[0] if op else None
    if name == "step" and len(op) > 1 and op[1] in (-1, 1):
        _move(ss, keys, n, op[1])
    elif name == "home":
        ss[keys.step] = 0
    elif name == "end":
        ss[keys.step] = n
    elif name == "jump" and len(op) > 1 and op[1] in (-1, 1) and jumps:
        _jump(ss, keys, jumps, op[1])
    elif name == "play" and n > 0:
        _play(ss, keys, n)
    elif name == "tochange" and jumps:
        _play_to_change(ss, keys, jumps)


def _play(ss: MutableMapping, keys: Scrubber, n: int) -> None:
    ss[keys.playing] = not ss[keys.playing]
    ss[keys.tick] = time.monotonic()
    ss[keys.until] = None
    if ss[keys.playing] and ss[keys.step] >= n:  # play from the end starts again
        ss[keys.step] = 0


def _play_to_change(ss: MutableMapping, keys: Scrubber, jumps: tuple[int, ...]) -> None:
    at = bisect.bisect_right(jumps, int(ss[keys.step]))
    if at >= len(jumps):
        return
    ss[keys.until] = jumps[at]
    ss[keys.playing] = True
    ss[keys.tick] = time.monotonic()


def _move(ss: MutableMapping, keys: Scrubber, n: int, delta: int) -> None:
    ss[keys.step] = min(max(int(ss[keys.step]) + delta, 0), n)


def _jump(ss: MutableMapping, keys: Scrubber, jumps: tuple[int, ...], direction: int) -> None:
    k = int(ss[keys.step])
    if direction > 0:
        at = bisect.bisect_right(jumps, k)
        target = jumps[at] if at < len(jumps) else k
    else:
        at = bisect.bisect_left(jumps, k)
        target = jumps[at - 1] if at > 0 else k
    ss[keys.step] = target


def reset_step(keys: Scrubber, marker_key: str, marker: object, default: int) -> None:
    """Put the scrubber on ``default`` when ``marker`` (the model, the text …) differs from last time."""
    ss = st.session_state
    if ss[marker_key] != marker:
        ss[marker_key] = marker
        ss[keys.step] = default
        ss[keys.playing] = False
