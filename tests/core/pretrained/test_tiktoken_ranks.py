"""core.pretrained.vocab_files.read_tiktoken_ranks: a ``.tiktoken`` file (base64 token, space, rank per line) read back."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from core.pretrained import vocab_files as vf

RANKS = {b"a": 0, b"b": 1, b" ": 2, b"ab": 3, b"\xff\xfe": 4, "é".encode(): 5, b"\n": 7}


def test_ranks_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "small.tiktoken"
    path.write_bytes(b"".join(base64.b64encode(t) + b" %d\n" % r for t, r in RANKS.items()))
    assert vf.read_tiktoken_ranks(path) == RANKS


def test_blank_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "blank.tiktoken"
    path.write_bytes(b"\n".join(base64.b64encode(t) + b" %d" % r for t, r in RANKS.items()) + b"\n\n")
    assert vf.read_tiktoken_ranks(path) == RANKS


@pytest.mark.parametrize("content", [b"YQ== 0\nYg==\n", b"YQ== 0\nYg== 1 2\n", b"YQ== 0 1\n \n", b"YQ== x\n",
                                     b"YQ== 0 1\nYg==\n", b"YQ== 0 1\nYg== 2 YQ==\n"])
def test_a_line_without_exactly_a_token_and_a_rank_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.tiktoken"
    path.write_bytes(content)
    with pytest.raises(ValueError):
        vf.read_tiktoken_ranks(path)
