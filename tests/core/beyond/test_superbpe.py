"""core.beyond.superbpe: plain BPE up to the transition, merges across spaces after it; bpe.train(start_merges=...)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import bpe, corpora
from core.beyond import superbpe
from core.bpe import model as bpe_model

CORPUS = corpora.load_corpus("sample_essay_en") + corpora.load_corpus("sample_mercado_es")


def pairs(result: bpe.BPEResult) -> list[tuple[int, int, int, int, int]]:
    return [(s.rank, s.left, s.right, s.new_id, s.count) for s in result.trace]


@pytest.fixture(scope="module")
def trained() -> superbpe.SuperBPEResult:
    return superbpe.train(CORPUS, vocab_size=850, transition=700)


def test_reproduces_plain_bpe_up_to_the_transition(trained: superbpe.SuperBPEResult) -> None:
    plain = bpe.train(CORPUS, vocab_size=850)  # the same corpus, the same vocabulary size
    assert pairs(trained.stage1) == pairs(plain)[: 700 - 256]
    assert trained.tokenizer.merges[: 700 - 256] == plain.tokenizer.merges[: 700 - 256]
    # a text with single spaces is cut as plain BPE at the transition cuts it, merge for merge
    text = "The model reads the tokens of the sentence, one by one."
    at_transition = bpe.BPETokenizer(merges=plain.tokenizer.merges[: 700 - 256])
    assert trained.tokenizer.segment(text, 700 - 256) == at_transition.encode(text)


def test_stage_two_continues_the_ranks_and_ids(trained: superbpe.SuperBPEResult) -> None:
    steps = trained.stage2.trace
    assert steps[0].rank == 700 - 256 and steps[0].new_id == 700
    assert [s.new_id for s in steps] == list(range(700, 700 + len(steps)))
    assert trained.vocab_size == 850 and trained.tokenizer.pattern == superbpe.STAGE2_PATTERN


def test_superwords_come_only_from_stage_two(trained: superbpe.SuperBPEResult) -> None:
    assert not [s for s in trained.stage1.trace if superbpe.is_superword(s.piece)]
    labels = trained.superword_labels()
    assert {", and", " with a", " is a"} <= set(labels)
    assert all(superbpe.is_superword(label.encode()) for label in labels)
    tokens = trained.tokenizer.encode("It is a token, and it is one.")
    assert {b" is a", b", and"} <= {t.bytes for t in tokens}


def test_at_the_transition_itself_there_is_no_stage_two() -> None:
    result = superbpe.train(CORPUS, vocab_size=500, transition=500)
    assert result.stage2.trace == () and result.superwords() == []
    assert result.tokenizer.merges == bpe.train(CORPUS, vocab_size=500).tokenizer.merges


def test_a_longer_plain_run_is_reused_for_stage_one(trained: superbpe.SuperBPEResult) -> None:
    plain = bpe.train(CORPUS, vocab_size=850)
    reused = superbpe.train(CORPUS, vocab_size=850, transition=700, stage1=plain)
    assert pairs(reused.stage1) == pairs(trained.stage1)
    assert reused.tokenizer.merges == trained.tokenizer.merges


def test_progress_counts_both_stages() -> None:
    calls: list[tuple[int, int]] = []
    superbpe.train(CORPUS, vocab_size=400, transition=300, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (144, 144) and {t for _, t in calls} == {144}
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_numbers_are_cut_in_groups_of_three_from_the_right() -> None:
    from core.text.pretokenize import chunks

    assert chunks("pay 1234567 now\nok", superbpe.STAGE2_PATTERN) == ["pay ", "1", "234", "567", " now", "\n", "ok"]


@pytest.mark.parametrize(
    ("vocab", "transition", "message"),
    [(900, 100, "at least 256"), (500, 700, "must be at least the transition")],
)
def test_bad_sizes_say_what_to_change(vocab: int, transition: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        superbpe.train(CORPUS, vocab_size=vocab, transition=transition)


def test_a_tiny_corpus_stops_early_and_says_so() -> None:
    result = superbpe.train("ab ab ab\n", vocab_size=400, transition=300)
    assert result.stop_reason and "stopped after" in result.stop_reason
    assert result.transition == 256 + len(result.stage1.trace)


# -- the extension point in core.bpe --------------------------------------------------------------


def test_continuing_from_start_merges_equals_training_in_one_go() -> None:
    # with ties broken by id, the pair counts after k merges decide the rest: continuing must agree
    whole = bpe.train(CORPUS, vocab_size=700, tie_break="largest_pair")
    first = bpe.train(CORPUS, vocab_size=500, tie_break="largest_pair")
    rest = bpe.train(CORPUS, vocab_size=700, tie_break="largest_pair", start_merges=first.tokenizer.merges)
    assert pairs(first) + pairs(rest) == pairs(whole)
    assert [s.tokens_after for s in rest.trace] == [s.tokens_after for s in whole.trace[244:]]
    assert rest.initial_tokens == first.trace[-1].tokens_after
    assert rest.tokenizer.merges == whole.tokenizer.merges


def test_start_merges_are_checked() -> None:
    with pytest.raises(ValueError, match="byte mode only"):
        bpe.train("low lower", num_merges=1, mode="char", start_merges=[(108, 111)])
    with pytest.raises(ValueError, match="at least 258"):
        bpe.train("abc abc", vocab_size=257, start_merges=[(97, 98), (256, 99)])
    with pytest.raises(ValueError, match="does not exist yet"):
        bpe.train("abc", num_merges=1, start_merges=[(97, 300)])


@settings(max_examples=40, deadline=None)
@given(
    corpus=st.text(alphabet="ab c\n日", min_size=5, max_size=80),
    chunks=st.lists(st.text(alphabet="ab c日d", max_size=60), min_size=1, max_size=8),
    merges=st.integers(1, 30),
)
def test_spelling_cut_where_no_token_joins_equals_merging_whole_chunks(corpus: str, chunks: list[str], merges: int) -> None:
    start = bpe.train(corpus, num_merges=merges, pattern=superbpe.STAGE1_PATTERN).tokenizer
    start = bpe.BPETokenizer(merges=start.merges, pattern=superbpe.STAGE2_PATTERN)
    whole = ["".join(map(chr, start._merge_steps(list(chunk.encode()))[0])) for chunk in chunks]
    assert bpe_model._spell(start, chunks) == whole
