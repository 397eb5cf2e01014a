"""core.bpe tie rules: "minbpe" reproduces minbpe's training exactly, and the words for each rule are true.

minbpe (karpathy/minbpe, ``RegexTokenizer.train``) recounts the pairs of every chunk in corpus
order on each merge and takes ``max(stats, key=stats.get)``: a dict keeps first-insertion order and
``max`` keeps the first of equal counts, so a tie goes to the top pair that occurs first in the text
as it stands. ``minbpe_merges`` below is that loop, written out plainly, as the oracle.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import bpe
from core.bpe.pair_counts import MAX_FIRST, pair_counts
from core.corpora import load_corpus
from core.text.patterns import GPT2_PATTERN, NAMED_PATTERNS
from core.text.pretokenize import chunks

WIKI = "aaabdaaabac"


def minbpe_merges(text: str, num_merges: int, pattern: str) -> list[tuple[int, int]]:
    """minbpe's training loop: recount everything, merge the first top pair, num_merges times."""
    ids = [list(chunk.encode()) for chunk in chunks(text, pattern)]
    merges = []
    for i in range(num_merges):
        stats: dict[tuple[int, int], int] = {}
        for chunk in ids:
            for pair in zip(chunk, chunk[1:], strict=False):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            break
        pair = max(stats, key=stats.get)
        merges.append(pair)
        new = 256 + i
        merged = []
        for chunk in ids:
            out, j = [], 0
            while j < len(chunk):
                if j < len(chunk) - 1 and (chunk[j], chunk[j + 1]) == pair:
                    out.append(new)
                    j += 2
                else:
                    out.append(chunk[j])
                    j += 1
            merged.append(out)
        ids = merged
    return merges


def ours(text: str, num_merges: int, pattern: str, tie_break: str = "minbpe") -> list[tuple[int, int]]:
    result = bpe.train(text, num_merges=num_merges, pattern=pattern, tie_break=tie_break)
    return [(s.left, s.right) for s in result.trace]


def test_the_three_rules_settle_a_crafted_tie_three_ways() -> None:
    # ab, bc and xy all occur twice. first_seen: ab, then xy (the new pair "(ab)c" is numbered after
    # every pair of the starting corpus). largest_pair: xy = (120, 121), then bc. minbpe: ab, then
    # "(ab)c", which now occurs before xy in the text.
    corpus = "abc abc xy xy"
    pieces = {
        rule: [s.piece for s in bpe.train(corpus, num_merges=3, pattern=r"\w+", tie_break=rule).trace]
        for rule in bpe.TIE_BREAKS
    }
    assert pieces == {
        "first_seen": [b"ab", b"xy", b"abc"],
        "largest_pair": [b"xy", b"bc", b"abc"],
        "minbpe": [b"ab", b"abc", b"xy"],
    }
    assert ours(corpus, 3, r"\w+") == minbpe_merges(corpus, 3, r"\w+")


def test_largest_pair_is_not_what_minbpe_does() -> None:
    """The old wording said so; this corpus tells them apart."""
    assert ours("abc abc xy xy", 3, r"\w+", "largest_pair") != minbpe_merges("abc abc xy xy", 3, r"\w+")
    assert "minbpe" not in bpe.TIE_MATCHES["largest_pair"]
    assert "minbpe" in bpe.TIE_MATCHES["minbpe"]


def test_the_rules_are_named_by_what_they_do_and_the_help_names_the_library() -> None:
    assert set(bpe.TIE_MATCHES) == set(bpe.TIE_BREAKS)
    for key, label in bpe.TIE_BREAKS.items():
        assert label.startswith("ties go to the ") and "minbpe" not in label and "subword" not in label, key
    assert bpe.TIE_BREAKS["minbpe"] == "ties go to the pair met first in the text as the merges so far left it"
    assert "subword-nmt" in bpe.TIE_MATCHES["largest_pair"] and "Hugging Face" in bpe.TIE_MATCHES["first_seen"]


def test_wikipedia_example_as_minbpe_trains_it() -> None:
    assert ours(WIKI, 3, GPT2_PATTERN) == minbpe_merges(WIKI, 3, GPT2_PATTERN) == [(97, 97), (256, 97), (257, 98)]


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from("aab bc\n.é"), max_size=60),
    num_merges=st.integers(0, 25),
    pattern=st.sampled_from([GPT2_PATTERN, r"\w+|\W", r".+"]),
)
def test_minbpe_rule_reproduces_minbpe_on_random_corpora(text: str, num_merges: int, pattern: str) -> None:
    if not text:
        return
    expected = minbpe_merges(text, num_merges, pattern)
    assert ours(text, num_merges, pattern)[: len(expected)] == expected


@pytest.mark.parametrize("pattern_name", ["GPT-2", "cl100k_base"])
def test_minbpe_rule_reproduces_minbpe_on_an_essay(pattern_name: str) -> None:
    text = load_corpus("sample_essay_en")[:6000]
    pattern = NAMED_PATTERNS[pattern_name]
    assert ours(text, 120, pattern) == minbpe_merges(text, 120, pattern)


def test_minbpe_rule_in_char_mode_takes_the_first_top_pair_too() -> None:
    result = bpe.train("ab ab cd cd", num_merges=2, mode="char", tie_break="minbpe")
    assert [bpe.piece_label(s.piece) for s in result.trace] == ["ab</w>", "cd</w>"]


def test_minbpe_rule_says_when_a_corpus_is_too_big_for_it() -> None:
    with pytest.raises(ValueError, match="minbpe"):
        pair_counts(["a" * (MAX_FIRST + 1)], [1], tie_break="minbpe")
    # training cuts so long a pre-token into MAX_TRAINING_WORD-character words first (issue 19, item 6)
    assert len(bpe.train("a" * (MAX_FIRST + 1), num_merges=1, pattern=r".+", tie_break="minbpe").trace) == 1
