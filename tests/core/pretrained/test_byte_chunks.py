"""core.pretrained.adapter.byte_chunk_spans: byte chunks to code-point offsets, in Python and in numpy."""

from __future__ import annotations

import subprocess
import sys
from itertools import pairwise

import numpy  # noqa: F401 — imported before the property test, whose deadline its import would pass
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.pretrained import adapter
from core.pretrained.adapter import byte_chunk_spans


def chunked(text: str, cuts: list[int]) -> list[int]:
    """Lengths of ``text.encode()`` cut at ``cuts`` (byte positions; out-of-range ones ignored)."""
    size = len(text.encode())
    points = sorted({0, size, *(cut for cut in cuts if 0 < cut < size)})
    return [b - a for a, b in pairwise(points)]


def oracle(text: str, lengths: list[int]) -> tuple[list[int], list[int]]:
    char_of_byte = [i for i, ch in enumerate(text) for _ in ch.encode()]
    starts, ends, at = [], [], 0
    for length in lengths:
        starts.append(char_of_byte[at])
        ends.append(char_of_byte[at + length - 1] + 1)
        at += length
    return starts, ends


@given(text=st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=60),
       cuts=st.lists(st.integers(0, 240), max_size=30))
def test_python_and_numpy_give_the_characters_of_each_chunk(text: str, cuts: list[int]) -> None:
    lengths = chunked(text, cuts)
    expected = oracle(text, lengths)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(adapter, "NUMPY_FROM_BYTES", 0)  # numpy
        spans = byte_chunk_spans(text, lengths)
        assert spans == expected and all(type(i) is int for side in spans for i in side)  # no bools
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(adapter, "NUMPY_FROM_BYTES", 10**9)
        patch.delitem(sys.modules, "numpy", raising=False)  # Python, as before numpy is imported
        spans = byte_chunk_spans(text, lengths)
        assert spans == expected and all(type(i) is int for side in spans for i in side)  # no bools


def test_a_short_text_imports_no_numpy() -> None:
    """Importing numpy was about 0.1 s of a fresh server's first Playground visit (a few hundred bytes)."""
    code = ("import sys; from core.pretrained.adapter import byte_chunk_spans; "
            "assert byte_chunk_spans('a🙂 é', [1, 2, 2, 1, 2]) == ([0, 1, 1, 2, 3], [1, 2, 2, 3, 4]); "
            "print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
