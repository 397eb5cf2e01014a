"""A step scrubber: a slider over steps ``0..n`` with Prev / Next / Play and keyboard shortcuts.

``stepper(n, keys, draw)`` draws the controls and then ``draw(k)`` for the chosen step, all in one
fragment: moving the slider or pressing a button reruns only the fragment, so ``draw`` must be cheap
(index into state computed once). "Play" advances one step every ``PLAY_SECONDS`` with
``st.fragment(run_every=...)`` and stops at ``n``. Shortcuts: ← → one step, PgUp PgDn the optional
``jumps`` (steps worth stopping at), P play or pause; Streamlit ignores plain-key shortcuts while
the user types in a text box, so they never collide with typing.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st

PLAY_SECONDS = 1.0  # one step per second: slow enough to read a merge aloud


@dataclass(frozen=True)
class Scrubber:
    """The session-state keys of one scrubber (declared in ``ui.state``) and its widget-key prefix."""

    step: str
    playing: str
    tick: str
    prefix: str  # widget keys start with it


def stepper(
    n: int, keys: Scrubber, draw: Callable[[int], None], *, jumps: Sequence[int] = (), label: str
) -> None:
    """A scrubber over steps ``0..n`` and ``draw(k)`` below it, as one fragment (a step reruns only it)."""
    ss = st.session_state
    ss[keys.step] = min(max(int(ss[keys.step]), 0), n)
    if ss[keys.playing] and ss[keys.step] >= n:
        ss[keys.playing] = False
    every = PLAY_SECONDS if ss[keys.playing] else None
    st.fragment(_stepper_body, run_every=every)(n, keys, draw, tuple(jumps), label, every)


def _stepper_body(
    n: int,
    keys: Scrubber,
    draw: Callable[[int], None],
    jumps: tuple[int, ...],
    label: str,
    every: float | None,
) -> None:
    ss = st.session_state
    if ss[keys.playing] and ss[keys.step] >= n:  # played to the end
        ss[keys.playing] = False
    if (PLAY_SECONDS if ss[keys.playing] else None) != every:
        st.rerun()  # play or pause changed: only a full run can set or drop the fragment's timer
    if ss[keys.playing]:
        now = time.monotonic()
        if now - ss[keys.tick] >= PLAY_SECONDS * 0.7:  # a click between two ticks does not step twice
            ss[keys.step], ss[keys.tick] = ss[keys.step] + 1, now
    k = ss[keys.step]
    row = st.container(horizontal=True, vertical_alignment="bottom", wrap=False)
    row.button("Prev", icon=":material/chevron_left:", key=keys.prefix + "prev", on_click=_move,
               args=(keys, n, -1), disabled=k <= 0, shortcut="Left", help="One step back")
    row.slider(label, min_value=0, max_value=max(n, 1), key=keys.step, disabled=n == 0)
    row.button("Next", icon=":material/chevron_right:", icon_position="right", key=keys.prefix + "next",
               on_click=_move, args=(keys, n, 1), disabled=k >= n, shortcut="Right", help="One step forward")
    playing = ss[keys.playing]
    row.button("Pause" if playing else "Play", icon=":material/pause:" if playing else ":material/play_arrow:",
               key=keys.prefix + "play", on_click=_play, args=(keys, n), shortcut="P",
               type="primary" if playing else "secondary", disabled=n == 0,
               help=f"One step every {PLAY_SECONDS:g} s, to the end")
    if jumps:
        hints = st.container(horizontal=True, vertical_alignment="center", gap="small", wrap=False)
        hints.button("previous change", icon=":material/first_page:", key=keys.prefix + "back",
                     on_click=_jump, args=(keys, jumps, -1), disabled=k <= jumps[0], shortcut="PageUp",
                     type="tertiary")
        hints.button("next change", icon=":material/last_page:", icon_position="right",
                     key=keys.prefix + "forth", on_click=_jump, args=(keys, jumps, 1), disabled=k >= jumps[-1],
                     shortcut="PageDown", type="tertiary")
        hints.caption(f"{len(jumps):,} of the {n:,} merges change your text")
    else:
        st.caption("← → one step · P play")
    draw(k)


def _play(keys: Scrubber, n: int) -> None:
    ss = st.session_state
    ss[keys.playing] = not ss[keys.playing]
    ss[keys.tick] = time.monotonic()
    if ss[keys.playing] and ss[keys.step] >= n:  # play from the end starts again
        ss[keys.step] = 0


def _move(keys: Scrubber, n: int, delta: int) -> None:
    st.session_state[keys.step] = min(max(int(st.session_state[keys.step]) + delta, 0), n)


def _jump(keys: Scrubber, jumps: tuple[int, ...], direction: int) -> None:
    k = int(st.session_state[keys.step])
    if direction > 0:
        at = bisect.bisect_right(jumps, k)
        target = jumps[at] if at < len(jumps) else k
    else:
        at = bisect.bisect_left(jumps, k)
        target = jumps[at - 1] if at > 0 else k
    st.session_state[keys.step] = target


def reset_step(keys: Scrubber, marker_key: str, marker: object, default: int) -> None:
    """Put the scrubber on ``default`` when ``marker`` (the model, the text …) differs from last time."""
    ss = st.session_state
    if ss[marker_key] != marker:
        ss[marker_key] = marker
        ss[keys.step] = default
        ss[keys.playing] = False
