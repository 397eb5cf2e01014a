"""core.bpe.export files for download: the .tiktoken rank file and its zip load in tiktoken with identical ids."""

from __future__ import annotations

import io
import zipfile

import tiktoken
from tiktoken.load import load_tiktoken_bpe
from tokenizers import Tokenizer

from core import bpe
from core.bpe import export
from core.corpora import load_corpus, split_heldout


def test_tiktoken_bundle_and_tokenizer_json_give_identical_ids(tmp_path) -> None:
    train, heldout = split_heldout(load_corpus("sample_essay_en"))
    result = bpe.train(train, vocab_size=600)
    with zipfile.ZipFile(io.BytesIO(export.tiktoken_bundle(result, name="mine"))) as zf:
        assert sorted(zf.namelist()) == ["README.txt", "mine.pattern.txt", "mine.tiktoken"]
        zf.extractall(tmp_path)
    pattern = (tmp_path / "mine.pattern.txt").read_text(encoding="utf-8")
    ranks = load_tiktoken_bpe(str(tmp_path / "mine.tiktoken"))
    assert len(ranks) == 600
    encoding = tiktoken.Encoding("mine", pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
    ours = [t.id for t in result.tokenizer.encode(heldout)]
    assert encoding.encode(heldout) == ours
    assert Tokenizer.from_str(export.to_hf_json(result)).encode(heldout).ids == ours


def test_character_bpe_has_no_tiktoken_file() -> None:
    import pytest

    with pytest.raises(ValueError, match="only byte-level"):
        export.to_tiktoken_file(bpe.train("low lower lowest", num_merges=2, mode="char"))
