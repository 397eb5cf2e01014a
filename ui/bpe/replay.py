"""The replay view of the BPE page: a real tokenizer's merges applied to the user's text, in rank order.

Only byte-level BPE has a merge order to replay (a rank per piece; the lowest-ranked adjacent pair
merges first, inside each pre-token chunk). ``core.bpe.replay.replay`` does the work once per (tokenizer,
text), cached here; a scrubber step only indexes into it. The pre-token chunks are drawn under the
spans, because merges never cross them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from core.bpe import replay as core_replay
from core.types import ADDED
from ui import cache, scrubber, state, widgets
from ui.bpe import render
from ui.bpe import views as bpe_views
from ui.spans import render_spans

REPLAY_MAX_CHARS = 10_000  # a scrubber over more steps than this is no longer a demo; replay itself is O(n log n)
BYTE_LEVEL = "byte-level BPE"


@dataclass(frozen=True)
class ReplayData:
    """One text replayed under one tokenizer, and whether the last step matches its own encoding."""

    replay: core_replay.Replay
    own_ids: tuple[int, ...]  # what the tokenizer's encode returns (added tokens left out)

    @property
    def matches(self) -> bool:
        return tuple(t.id for t in self.replay.segmentation(self.replay.n_steps)) == self.own_ids


@st.cache_resource(show_spinner=False, max_entries=24)
def replay_data(key: str, text: str) -> ReplayData:
    """``core_replay.replay`` of ``text`` under the (already loaded) registry tokenizer ``key``."""
    tokenizer = cache.tokenizer_store().get(key)
    replay = core_replay.replay(
        text, mergeable_ranks=tokenizer.mergeable_ranks, pattern=tokenizer.pattern,
        nfc=getattr(tokenizer, "nfc", False),
    )
    own = tuple(t.id for t in tokenizer.encode(text) if t.kind != ADDED)
    return ReplayData(replay, own)


def replayable_keys() -> tuple[list[str], list[str]]:
    """Registry keys of the tokenizers that can be replayed, and the names of the others, with why not."""
    from core.pretrained.registry import registry, replayable_keys  # light: the adapters load lazily

    specs = registry()
    keys = list(replayable_keys())
    others = [
        f"{spec.name} ({spec.algorithm}" + (", no rank table exposed)" if spec.algorithm == BYTE_LEVEL else ")")
        for key, spec in specs.items()
        if key not in keys
    ]
    return keys, others


def replay_view(*, show_whitespace: bool) -> None:
    """Pick a tokenizer and a text, then scrub through the merges it applies to the text."""
    names = cache.registry_names()
    keys, others = replayable_keys()
    store = cache.tokenizer_store()

    def label(key: str) -> str:
        known = store.peek(key)
        return names.get(key, key) + (" (unavailable)" if isinstance(known, cache.Unavailable) else "")

    pick_col, text_col = st.columns([1, 2], gap="large")
    with pick_col:
        key = st.selectbox("Tokenizer", keys, format_func=label, **state.kept(state.BPE_REPLAY_TOKENIZER))
        with st.expander("Why only these?"):
            st.caption("Only byte-level BPE loaded from a ranked list of merges can be replayed. Not "
                       "replayable: " + widgets.md_escape(", ".join(others)) + ".")
    text = text_col.text_area("Text", **state.kept(state.BPE_REPLAY_TEXT), height=110,
                              help=f"Up to {REPLAY_MAX_CHARS:,} characters are replayed. Ctrl+Enter applies it.")
    if len(text) > REPLAY_MAX_CHARS:
        text_col.caption(f"Replaying the first {REPLAY_MAX_CHARS:,} of the text's {len(text):,} characters: "
                         "a scrubber over more merges is no longer a demo.")
        text = text[:REPLAY_MAX_CHARS]
    tokenizer = cache.get_tokenizer(key, names.get(key))
    if isinstance(tokenizer, cache.Unavailable):
        widgets.unavailable_card(tokenizer, retry_key=f"bpe_retry_{key}")
        return
    if getattr(tokenizer, "mergeable_ranks", None) is None or not getattr(tokenizer, "pattern", None):
        st.info(f"{names.get(key, key)} has no rank list and pattern to replay; pick another tokenizer.")
        return
    if not text:
        st.info("Type a text above to watch the tokenizer build its tokens from bytes.")
        return
    try:
        data = replay_data(key, text)
    except ValueError as exc:
        st.error(f"This text cannot be replayed under {names.get(key, key)}: {exc}")
        return
    n = data.replay.n_steps
    scrubber.reset_step(bpe_views.REPLAY_SCRUBBER, state.BPE_REPLAY_FOR, (key, text), n)
    nfc = " (after NFC, as it reads text)" if getattr(tokenizer, "nfc", False) else ""
    if data.matches:
        st.caption(f"✓ The last step is exactly what {names.get(key, key)} returns for this text{nfc}.")
    else:  # a safety net: the replay follows the tokenizer's own ranks, pattern and normalization
        st.warning(
            f"The last step differs from what {names.get(key, key)} returns ({len(data.own_ids):,} tokens)."
        )
    scrubber.stepper(n, bpe_views.REPLAY_SCRUBBER, replay_step_view(data, text, tokenizer, show_whitespace),
                      label="Merges applied to your text, lowest rank first")


def replay_step_view(
    data: ReplayData, text: str, tokenizer: object, show_whitespace: bool
) -> Callable[[int], None]:
    """``draw(k)``: the merge of step ``k`` with its rank, the spans, and the pre-token chunks under them."""
    replay = data.replay
    n, at_start = replay.n_steps, len(replay.segmentation(0))

    def draw(k: int) -> None:
        tokens = replay.segmentation(k)
        event = replay.events[k - 1] if k else None
        parts, lit = None, set()
        if event is not None:
            start, end = replay.chunk_spans[event.chunk]
            before = [t for t in replay.segmentation(k - 1) if start <= t.start < end]
            left, right = before[event.position], before[event.position + 1]
            parts = ((left.id, left.bytes), (right.id, right.bytes), (event.rank, left.bytes + right.bytes))
            lit = render.highlight_indices(tokens, replay.changed_spans(k), event.rank)
        note = f"rank {event.rank:,}" if event else ""
        spans = render_spans(text, tokens, show_whitespace=show_whitespace, piece=tokenizer.piece, highlight=lit)
        chunks = render.chunks_html(text, replay.chunk_spans, show_whitespace=show_whitespace)
        st.html(render.step_view_html(  # one element: a step is drawn whole
            render.merge_line_html(parts, k=k, n=n, note=note),
            spans_head=f"**Your text after {k:,} of {n:,} merges: {len(tokens):,} tokens** (from {at_start:,} bytes)",
            spans=spans + chunks,
            note=f"Under the tokens: the {len(replay.chunk_spans):,} pre-token chunks the tokenizer's pattern "
                 "cuts. Merges happen inside a chunk, never across two.",
        ))

    return draw
