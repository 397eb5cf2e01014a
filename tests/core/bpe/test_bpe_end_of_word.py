"""core.bpe character mode: both layouts of the end-of-word marker, ``l o w </w>`` and ``l o w</w>``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import bpe
from core.bpe import export as bpe_export
from core.corpora import entry, load_corpus
from core.types import TEXT, UNKNOWN


def labels(tok: bpe.BPETokenizer, tokens: list) -> list[str]:
    return [bpe.piece_label(tok.piece(t.id)) for t in tokens]


def merges(result: bpe.BPEResult) -> list[tuple[str, int]]:
    tok = result.tokenizer
    label = bpe.piece_label
    return [(f"{label(tok.piece(s.left))} + {label(tok.piece(s.right))}", s.count) for s in result.trace]


def test_the_six_spanish_lines_merge_a_and_the_word_end_first(data_dir: Path) -> None:
    """18 words end in "a" (la 6, niña 4, enseña 4, juega 2, profesora, a); "pr" occurs 16 times."""
    text = load_corpus("essay_es_six_lines")
    separate = bpe.train(text, num_merges=2, mode="char", end_of_word="separate")
    assert merges(separate) == [("a + </w>", 18), ("p + r", 16)]
    assert [s.n_tied for s in separate.trace] == [1, 1]
    glued = bpe.train(text, num_merges=1, mode="char", end_of_word="glued")
    assert merges(glued) == [("p + r", 16)]  # glued, "a</w>" is one symbol: nothing to merge it with


def test_the_six_lines_are_a_catalog_corpus_read_from_the_data_folder() -> None:
    item = entry("essay_es_six_lines")
    assert item.language == "es" and item.size_bytes == 378 and item.spec is not None
    assert item.spec.remotes == () and "data folder only" in item.source


def test_separate_layout_by_hand() -> None:
    result = bpe.train("low low low lower", num_merges=3, mode="char", end_of_word="separate")
    tok = result.tokenizer
    assert tok.alphabet == ("</w>", "e", "l", "o", "r", "w") and tok.end_of_word == "separate"
    assert result.initial_tokens == 3 * 4 + 6  # l o w </w> three times, l o w e r </w>
    assert merges(result) == [("l + o", 4), ("lo + w", 4), ("low + </w>", 3)]
    assert result.trace[0].n_tied == 2  # "o w" also occurs 4 times; "l o" was seen first
    assert tok.name == "BPE trained here (character, l o w </w>, 10 tokens)"
    tokens = tok.encode("low  lower")
    assert labels(tok, tokens) == ["low</w>", "low", "e", "r", "</w>"]
    assert [(t.bytes, t.start, t.end) for t in tokens] == [
        (b"low", 0, 3), (b"low", 5, 8), (b"e", 8, 9), (b"r", 9, 10), (b"", 10, 10),  # a bare </w>: zero-width
    ]
    assert tok.decode([t.id for t in tokens]) == "low lower"


def test_glued_layout_stays_the_default_of_train() -> None:
    tok = bpe.train("low low", num_merges=0, mode="char").tokenizer
    assert tok.end_of_word == "glued" and tok.alphabet == ("l", "o", "w</w>")


@pytest.mark.parametrize("layout", ["separate", "glued"])
def test_segment_changed_spans_and_unknown_characters(layout: str) -> None:
    result = bpe.train("banana ana", num_merges=6, mode="char", end_of_word=layout)
    tok = result.tokenizer
    text = "bañana"
    for k in range(len(result.trace) + 1):
        tokens = tok.segment(text, k)
        assert [t.start for t in tokens] == sorted(t.start for t in tokens)
        assert all(t.end == 6 for t in tokens if t.start == t.end)  # only a bare </w>, at the word's end
        for t in tokens:
            if t.kind == TEXT:
                assert text[t.start : t.end].encode() == t.bytes
    (unknown,) = [t for t in tok.encode(text) if t.kind == UNKNOWN]
    assert (unknown.start, unknown.end, unknown.bytes) == (2, 3, b"")


def test_a_merge_with_the_word_end_changes_the_last_character() -> None:
    tok = bpe.train("a a a ba", num_merges=1, mode="char", end_of_word="separate").tokenizer
    assert tok.piece(tok.merges[0][0]) + tok.piece(tok.merges[0][1]) == b"a</w>"
    assert tok.changed_spans("ba ab", 1) == [(1, 2)]
    assert [(t.bytes, t.start, t.end) for t in tok.segment("ba ab", 1)] == [
        (b"b", 0, 1), (b"a", 1, 2), (b"a", 3, 4), (b"b", 4, 5), (b"", 5, 5),
    ]
    assert tok.change_steps("ba ab") == [1]


@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.text("abcñ", min_size=1, max_size=6), min_size=1, max_size=12), k=st.integers(0, 20))
def test_separate_layout_agrees_with_a_by_hand_replay(words: list[str], k: int) -> None:
    """Replaying the learned merges on ``list(word) + ["</w>"]``, lowest rank first, gives the tokens."""
    corpus = " ".join(words)
    result = bpe.train(corpus, num_merges=k, mode="char", end_of_word="separate")
    tok = result.tokenizer
    ranks = {(tok.piece(s.left), tok.piece(s.right)): s.rank for s in result.trace}
    for word in dict.fromkeys(words):
        parts = [c.encode() for c in word] + [b"</w>"]
        while True:
            found = [(ranks.get(pair, 1 << 30), i) for i, pair in enumerate(zip(parts, parts[1:], strict=False))]
            rank, i = min(found, default=(1 << 30, 0))
            if rank == 1 << 30:
                break
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        assert [tok.piece(t.id) for t in tok.encode(word)] == parts


def test_layouts_are_checked() -> None:
    with pytest.raises(ValueError, match="end_of_word must be one of separate, glued"):
        bpe.train("low", num_merges=1, mode="char", end_of_word="apart")
    with pytest.raises(ValueError, match="does not fit the 'glued' layout"):
        bpe.BPETokenizer(merges=[], mode="char", alphabet=["</w>", "a"], end_of_word="glued")
    with pytest.raises(ValueError, match="does not fit the 'separate' layout"):
        bpe.BPETokenizer(merges=[], mode="char", alphabet=["a</w>"], end_of_word="separate")


def test_exports_keep_the_layout_or_say_why_not() -> None:
    separate = bpe.train("low low lower", num_merges=3, mode="char", end_of_word="separate")
    loaded = bpe_export.from_json(bpe_export.to_json(separate))
    assert loaded.tokenizer.end_of_word == "separate"
    assert loaded.tokenizer.encode("lower") == separate.tokenizer.encode("lower")
    with pytest.raises(ValueError, match="end_of_word='glued'"):
        bpe_export.to_hf_json(separate)
    glued = bpe.train("low low lower", num_merges=3, mode="char")
    old = bpe_export.to_json(glued).replace('"end_of_word": "glued", ', "")  # saved before the layouts
    assert bpe_export.from_json(old).tokenizer.end_of_word == "glued"
