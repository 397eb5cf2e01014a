"""The BPE page's presets: the settings a text used, offered in one click when its corpus is picked.

Picking the six Spanish lines offers the essay's settings (character BPE worked by hand); picking Tiny
Shakespeare offers the textbook chapter's. A preset fills the training form and trains at once, so
the page shows the text's own merges.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import streamlit as st

from ui import state


@dataclass(frozen=True)
class Preset:
    """A text's settings: a button label, what it sets (form keys → values), and why, in a sentence."""

    label: str
    values: MappingProxyType
    why: str


PRESETS: dict[str, Preset] = {
    "essay_es_six_lines": Preset(
        "Use the essay's settings",
        MappingProxyType({state.BPE_MODE: "char", state.BPE_END_OF_WORD: "separate", state.BPE_TIE: "minbpe"}),
        "The essay counts characters with </w> as a symbol of its own, and its counter settles a tie the way "
        "the pair met first in the text as the merges so far left it does: its first merges, a + </w> (18) "
        "and p + r (16), come out as printed.",
    ),
    "tinyshakespeare": Preset(
        "Use the chapter's settings",
        MappingProxyType({state.BPE_MODE: "byte", state.BPE_PATTERN: "GPT-2", state.BPE_TIE: "largest_pair",
                          state.BPE_SIZE_KIND: "vocab", state.BPE_SIZE: 2_000}),
        "The textbook chapter trains byte-level BPE with GPT-2's pattern to a vocabulary of 2,000, ties going "
        "to the largest pair.",
    ),
}


def offer(corpus: str) -> None:
    """A button for ``corpus``'s preset, if it has one, with its reason; a click fills the form and trains."""
    preset = PRESETS.get(corpus)
    if preset is None:
        return
    st.button(preset.label, key="bpe_preset", icon=":material/menu_book:", on_click=_apply, args=(preset.values,),
              help=preset.why)


def _apply(values: MappingProxyType[str, Any]) -> None:
    ss = st.session_state
    for key, value in values.items():
        ss[key] = value
    ss[state.BPE_PRESET_PENDING] = True


def pending() -> bool:
    """Whether a preset was just applied (and should train now); reading it clears it."""
    ss = st.session_state
    found = bool(ss.get(state.BPE_PRESET_PENDING))
    ss[state.BPE_PRESET_PENDING] = False
    return found
