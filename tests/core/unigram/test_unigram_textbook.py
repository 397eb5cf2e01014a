"""The textbook's Unigram recipe against a brute-force reference written from the recipe's words:
the seed, one EM step (every segmentation enumerated), one pruning step, the Viterbi path, and whole
runs on small corpora (every round's size and log-likelihood)."""

from __future__ import annotations

import math
import random
import re
from collections import Counter

import numpy as np
import pytest

from core.types import TEXT, UNKNOWN
from core.unigram import textbook
from core.unigram.textbook import _em_step, _prune, _State
from core.unigram.textbook_model import TextbookUnigramTokenizer, viterbi
from core.unigram.textbook_seed import make_textbook_seed
from tests.core.unigram.oracles import segmentations

PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d+| ?[^\s\w]+|\s+(?!\S)|\s+"""
L = 10
SMALL = [
    "the cat sat on the mat, the cats sat on the mats.\n" * 2,
    "low lower lowest newer newest wider wide low low\n" * 3,
    "ab ab abc abcab ba ba\n\n  cab abc\n",
]


# -- the reference, one function per sentence of the recipe ---------------------------------------


def ref_pretokens(text: str) -> Counter[str]:
    return Counter(re.findall(PATTERN, text))


def ref_seed(text: str) -> tuple[dict[str, float], float]:
    """Substring counts (count >= 2, plus every character) and their log(count / total)."""
    counts: Counter[str] = Counter()
    for word, n in ref_pretokens(text).items():
        for i in range(len(word)):
            for j in range(i + 1, min(len(word), i + L) + 1):
                counts[word[i:j]] += n
    total = sum(counts.values())
    return {s: math.log(c / total) for s, c in counts.items() if c >= 2 or len(s) == 1}, total


def ref_em_step(logp: dict[str, float], words: Counter[str]) -> tuple[dict[str, float], float]:
    """Expected counts by enumerating every segmentation; p = max(e, 1e-9) / sum(e)."""
    expected = dict.fromkeys(logp, 0.0)
    log_likelihood = 0.0
    for word, n in words.items():
        segs = list(segmentations(word, logp))
        probs = [math.exp(sum(logp[p] for p in seg)) for seg in segs]
        z = sum(probs)
        log_likelihood += n * math.log(z)
        for seg, p in zip(segs, probs, strict=True):
            for piece in seg:
                expected[piece] += n * p / z
    total = sum(expected.values())
    return {s: math.log(max(e, 1e-9) / total) for s, e in expected.items()}, log_likelihood


def ref_prune(logp: dict[str, float], size: int, seed_order: list[str]) -> set[str]:
    chars = [s for s in logp if len(s) == 1]
    multi = sorted((s for s in logp if len(s) > 1), key=lambda s: (-logp[s], seed_order.index(s)))
    return set(chars) | set(multi[: max(size - len(chars), 0)])


def ref_viterbi(word: str, logp: dict[str, float]) -> list[str]:
    """The best segmentation; among equal ones, the one whose last split point is earliest, then
    the one before it, and so on (what the textbook's left-to-right Viterbi keeps)."""

    def key(seg: list[str]) -> tuple:
        cuts = list(np.cumsum([len(p) for p in seg])[:-1])
        return (-sum(logp[p] for p in seg), tuple(reversed(cuts)))

    return min(segmentations(word, logp), key=key)


def ref_train(text: str, target: int) -> tuple[dict[str, float], list[tuple[int, float, int]]]:
    words = ref_pretokens(text)
    n_chars = sum(n * len(w) for w, n in words.items())
    logp, _ = ref_seed(text)
    order = list(logp)
    rounds = []
    while True:
        lls = []
        for _ in range(2):
            logp, ll = ref_em_step(logp, words)
            lls.append(ll / n_chars)
        size = len(logp)
        if size <= target:
            rounds.append((size, lls[-1], size))
            return logp, rounds
        kept = ref_prune(logp, max(target, int(0.7 * size)), order)
        logp = {s: v for s, v in logp.items() if s in kept}
        rounds.append((size, lls[-1], len(logp)))


def _state(text: str) -> tuple[_State, list[str]]:
    counted = ref_pretokens(text)
    words = list(counted)
    seed = make_textbook_seed(words, np.array(list(counted.values()), dtype=float), max_len=L)
    return _State(seed.pieces, seed.scores, seed.is_char, np.arange(len(seed.pieces)), seed.lattices), words


# -- the tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", SMALL)
def test_seed_matches_the_reference(text: str) -> None:
    expected, total = ref_seed(text)
    counted = ref_pretokens(text)
    seed = make_textbook_seed(list(counted), np.array(list(counted.values()), dtype=float), max_len=L)
    assert seed.total == total
    assert seed.pieces == list(expected)  # the same pieces, in the order a left-to-right scan meets them
    assert seed.scores == pytest.approx([expected[p] for p in seed.pieces])
    assert seed.is_char.tolist() == [len(p) == 1 for p in seed.pieces]


@pytest.mark.parametrize("text", SMALL)
def test_one_em_step_matches_enumerating_every_segmentation(text: str) -> None:
    state, _ = _state(text)
    logp = dict(zip(state.pieces, state.scores.tolist(), strict=True))
    expected, ll = ref_em_step(logp, ref_pretokens(text))
    assert _em_step(state) == pytest.approx(ll)
    assert state.scores == pytest.approx([expected[p] for p in state.pieces], abs=1e-9)


def test_em_floors_an_unused_piece_at_1e_minus_9() -> None:
    state, _ = _state("aaaa aaaa b b")
    _em_step(state)
    total = math.exp(max(state.scores))  # sanity: scores are log-probabilities
    assert total <= 1.0
    logp = dict(zip(state.pieces, state.scores.tolist(), strict=True))
    ref, _ = ref_em_step(ref_seed("aaaa aaaa b b")[0], ref_pretokens("aaaa aaaa b b"))
    assert logp == pytest.approx(ref, abs=1e-9)


@pytest.mark.parametrize("text", SMALL)
def test_one_pruning_step_keeps_characters_and_the_most_probable_pieces(text: str) -> None:
    state, _ = _state(text)
    _em_step(state)
    _em_step(state)
    logp = dict(zip(state.pieces, state.scores.tolist(), strict=True))
    size = int(0.7 * len(state.pieces))
    pruned = _prune(state, size)
    assert set(pruned.pieces) == ref_prune(logp, size, state.pieces)
    assert len(pruned.pieces) == size
    assert pruned.scores == pytest.approx([logp[p] for p in pruned.pieces])


def test_pruning_ties_go_to_the_piece_met_first_in_the_seed() -> None:
    state, _ = _state("xyz xyz")
    state.scores = np.zeros(len(state.pieces))  # every piece equally probable
    chars = sum(len(p) == 1 for p in state.pieces)
    kept = _prune(state, chars + 2).pieces
    multi = [p for p in state.pieces if len(p) > 1]
    assert [p for p in kept if len(p) > 1] == multi[:2]


@pytest.mark.parametrize("seed", range(30))
def test_viterbi_matches_the_best_enumerated_segmentation(seed: int) -> None:
    rng = random.Random(seed)
    word = "".join(rng.choice("ab") for _ in range(rng.randint(1, 8)))
    pieces = sorted({word[i:j] for i in range(len(word)) for j in range(i + 1, len(word) + 1) if j - i == 1 or rng.random() < 0.5})
    logp = {p: float(rng.choice([-1, -2, -3])) for p in pieces}  # whole numbers: many exact ties
    ids = {p: i + 1 for i, p in enumerate(pieces)}
    path = viterbi(word, ids, [-99.0] + [logp[p] for p in pieces], L)
    assert [word[s:e] for s, e, _ in path] == ref_viterbi(word, logp)


@pytest.mark.parametrize("text", SMALL)
def test_whole_runs_match_the_reference_round_by_round(text: str) -> None:
    chars = len({c for w in ref_pretokens(text) for c in w})
    target = chars + 6
    logp, rounds = ref_train(text, target)
    result = textbook.train(text, vocab_size=target)
    assert [(r.pieces_before, r.pieces_kept) for r in result.trace] == [(a, c) for a, _, c in rounds]
    assert [r.log_likelihood_per_char for r in result.trace] == pytest.approx([b for _, b, _ in rounds])
    tok = result.tokenizer
    assert dict(zip(tok.vocab[1:], tok.scores[1:], strict=True)) == pytest.approx(logp)
    for word in ref_pretokens(text):
        assert [tok.piece(t.id) for t in tok.encode(word)] == ref_viterbi(word, logp)


def test_train_sizes_gives_exactly_what_each_size_alone_gives() -> None:
    text = SMALL[1] + SMALL[0]
    together = textbook.train_sizes(text, vocab_sizes=[30, 40, 60])
    for size in (30, 40, 60):
        alone = textbook.train(text, vocab_size=size)
        assert together[size].tokenizer.vocab == alone.tokenizer.vocab
        assert together[size].trace == alone.trace


def test_encode_offsets_unknown_characters_and_decode() -> None:
    tok = textbook.train(SMALL[0], vocab_size=40).tokenizer
    text = "the cat é sat"
    tokens = tok.encode(text)
    assert "".join(text[t.start : t.end] for t in tokens) == text
    assert [t.kind for t in tokens if text[t.start : t.end] == "é"] == [UNKNOWN]
    assert all(t.bytes == text[t.start : t.end].encode() for t in tokens if t.kind == TEXT)
    assert tok.decode([t.id for t in tokens]) == "the cat ⁇ sat"


def test_bad_input_says_how_to_fix_it() -> None:
    with pytest.raises(ValueError, match="at least"):
        textbook.train("abcdef", vocab_size=3)
    with pytest.raises(ValueError, match="no pre-tokens"):
        textbook.train("", vocab_size=10)
    with pytest.raises(ValueError, match="distinct"):
        TextbookUnigramTokenizer(pieces=[("a", -1.0), ("a", -2.0)])


def test_a_seed_smaller_than_the_target_stops_early() -> None:
    result = textbook.train("ab ab", vocab_size=50)
    assert result.stopped_early and "seed" in result.stop_reason
    assert len(result.trace) == 1


def test_the_pages_budget_refuses_more_distinct_text_at_once_and_the_command_line_lifts_it() -> None:
    """The pages train the textbook recipe on at most ``core.unigram.MAX_TRAINING_CHARS`` characters of
    distinct pre-tokens, as SentencePiece's (its seed and lattices take about 1 KB per such character:
    221 MB at 200,000); past that, one sentence at once, not minutes and gigabytes."""
    import time

    from core import unigram

    rng = random.Random(6)
    text = "".join(rng.choice("etaoinshrdlu") for _ in range(unigram.MAX_TRAINING_CHARS + 10_000))
    began = time.monotonic()
    with pytest.raises(ValueError, match=f"at most {unigram.MAX_TRAINING_CHARS:,}"):
        textbook.train_sizes(text, vocab_sizes=[2_000])
    assert time.monotonic() - began < 30  # refused before the seed (generous: a shared machine)
    small = "".join(rng.choice("abcdefgh ") for _ in range(3_000))
    with pytest.raises(ValueError, match="at most 1,000"):
        textbook.train(small, vocab_size=60, max_chars=1_000)
    assert textbook.train(small, vocab_size=60, max_chars=None).tokenizer.vocab_size == 61  # 60 pieces and <unk>
