"""Our text-token ids against llama.cpp's reference tokenizations (data/testdata, MIT).

Each ``ggml-vocab-<name>.gguf.inp`` holds 46 strings, each followed by ``\\n__ggml_vocab_test__\\n``;
the ``.out`` holds one line of ids per string, without BOS/[CLS]/[SEP]. The strings go in as they
are: the SentencePiece reference includes the dummy-prefix ``▁``, as our encode does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.pretrained import TokenizerUnavailable
from core.types import ADDED
from tests.loaded import load_once

SEPARATOR = "\n__ggml_vocab_test__\n"
REFERENCES = {"gpt-2": "gpt2", "llama-bpe": "llama3", "llama-spm": "llama2", "bert-bge": "bert_uncased", "qwen2": "qwen"}


def read_reference(folder: Path, name: str) -> list[tuple[str, list[int]]]:
    inputs = (folder / f"ggml-vocab-{name}.gguf.inp").read_text(encoding="utf-8")
    outputs = (folder / f"ggml-vocab-{name}.gguf.out").read_text(encoding="utf-8")
    if not inputs.endswith(SEPARATOR) or not outputs.endswith("\n"):
        raise ValueError(f"unexpected layout of the ggml-vocab-{name} files")
    strings = inputs[: -len(SEPARATOR)].split(SEPARATOR)
    ids = [[int(i) for i in line.split()] for line in outputs[:-1].split("\n")]
    if len(strings) != len(ids):
        raise ValueError(f"ggml-vocab-{name}: {len(strings)} strings but {len(ids)} lines of ids")
    return list(zip(strings, ids, strict=True))


@pytest.mark.data
@pytest.mark.parametrize(("name", "key"), REFERENCES.items())
def test_text_token_ids_match_the_reference(
    data_dir: Path, name: str, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = read_reference(data_dir / "testdata", name)
    assert len(cases) == 46
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")  # tests never download
    try:
        tok = load_once(key)
    except TokenizerUnavailable as exc:
        pytest.skip(exc.reason)
    mismatches = [
        (text, expected, got)
        for text, expected in cases
        if expected != (got := [t.id for t in tok.encode(text) if t.kind != ADDED])
    ]
    assert mismatches == []
    assert all(tok.count(text) == len(expected) for text, expected in cases)
