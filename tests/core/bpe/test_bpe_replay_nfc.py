"""core.bpe.replay with NFC first (Qwen): merges run on the NFC form, offsets point into the text as given."""

from __future__ import annotations

import os
import unicodedata
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.bpe import replay as bpe_replay
from core.pretrained import TokenizerUnavailable
from core.text.patterns import QWEN_PATTERN
from core.types import ADDED
from tests.loaded import load_once

RANKS = {bytes([i]): i for i in range(256)} | {"é".encode(): 256}


def test_a_decomposed_letter_is_merged_as_its_composed_form() -> None:
    replayed = bpe_replay.replay("e\u0301!", mergeable_ranks=RANKS, pattern=QWEN_PATTERN, nfc=True)
    final = replayed.segmentation(replayed.n_steps)
    assert [(t.id, t.start, t.end) for t in final] == [(256, 0, 2), (33, 2, 3)]
    assert replayed.text == "e\u0301!" and replayed.chunk_spans == ((0, 2), (2, 3))
    assert replayed.changed_spans(1) == [(0, 2)]
    assert (replayed.events[0].start, replayed.events[0].end) == (0, 2)


def test_without_nfc_the_decomposed_letter_stays_apart() -> None:
    replayed = bpe_replay.replay("e\u0301!", mergeable_ranks=RANKS, pattern=QWEN_PATTERN)
    assert replayed.n_steps == 0


@pytest.fixture(scope="module")
def qwen():
    try:
        with mock.patch.dict(os.environ, {"PLAYGROUND_OFFLINE": "1"}):
            return load_once("qwen")
    except TokenizerUnavailable as exc:
        pytest.skip(f"qwen is not available: {exc.reason}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(st.sampled_from("ae\u0301\u0302\u0308 한\u1100\u1161\u11a8ñn\u0303 12"), max_size=24))
def test_qwen_replay_ends_where_qwen_does(qwen, text: str) -> None:
    replayed = bpe_replay.replay(text, mergeable_ranks=qwen.mergeable_ranks, pattern=qwen.pattern, nfc=qwen.nfc)
    final = replayed.segmentation(replayed.n_steps)
    own = [t for t in qwen.encode(text) if t.kind != ADDED]
    assert [(t.id, t.start, t.end) for t in final] == [(t.id, t.start, t.end) for t in own]
    assert b"".join(t.bytes for t in final) == unicodedata.normalize("NFC", text).encode()
