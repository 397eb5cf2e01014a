"""core.unigram.model and search: Viterbi, n best and sampling against brute force; offsets; unknowns."""

from __future__ import annotations

import math
import pickle
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import unigram
from core.text.patterns import GPT2_PATTERN
from core.text.textio import without_surrogates
from core.types import TEXT, UNKNOWN, Tokenizer
from core.unigram.words import METASPACE, words
from tests.core.pretrained.test_roundtrip import oracle_check
from tests.core.unigram.oracles import CORPUS, random_model, segmentations, tokenizer_for


def check_offsets(tok: unigram.UnigramTokenizer, text: str) -> None:
    """A slow oracle for ``▁`` words: every non-space character is covered once, in order; a token's
    bytes are its text, except a leading space that stands for the whitespace character before the
    word (or for nothing, at the text's first word); ``<unk>`` covers only unseen characters."""
    tokens = tok.encode(text)
    known = {p for p in tok.vocab[1:] if len(p) == 1}
    covered: list[int] = []
    position = 0
    for t in tokens:
        assert position <= t.start <= t.end <= len(text), t
        piece = text[t.start : t.end]
        if t.kind == UNKNOWN:
            assert t.bytes == b"" and piece and not any(c in known for c in piece), t
        else:
            shown = t.bytes.decode()
            if shown.startswith(" ") and (t.start == t.end or piece[:1].isspace() or piece[:1] == METASPACE):
                assert t.start == t.end or t.start == 0 or not text[t.start].strip() or text[t.start] == METASPACE
                shown, piece = shown[1:], piece[1:]
            assert shown == piece, (t, piece)
        covered.extend(i for i in range(t.start, t.end) if text[i].strip() and text[i] != METASPACE)
        position = t.end
    visible = [i for i, c in enumerate(text) if not c.isspace() and c != METASPACE]
    assert covered == visible


@pytest.mark.parametrize("seed", range(10))
def test_viterbi_and_nbest_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    words_, vocab, scores = random_model(rng)
    tok = tokenizer_for(vocab, scores)
    for word in words_:
        ranked = sorted(
            ((sum(scores[vocab[p]] for p in seg), seg) for seg in segmentations(word, vocab)), key=lambda x: -x[0]
        )
        assert [tok.piece(t.id) for t in tok.encode(word)] == ranked[0][1]
        found = tok.nbest(word, 5)
        assert [s.log_prob for s in found] == pytest.approx([score for score, _ in ranked[:5]])
        assert all(s.log_prob == pytest.approx(sum(tok.scores[t.id] for t in s.tokens)) for s in found)
        assert len({tuple(t.id for t in s.tokens) for s in found}) == len(found)
        lattice = tok.lattice(word)
        assert {(e.start, e.end, e.piece) for e in lattice.edges} == {
            (i, j, word[i:j]) for i in range(len(word)) for j in range(i + 1, len(word) + 1) if word[i:j] in vocab
        }
        assert [lattice.edges[i].piece for i in lattice.best] == ranked[0][1]
        assert lattice.log_prob == pytest.approx(ranked[0][0])


def test_nbest_of_a_text_combines_its_words() -> None:
    """▁ab is ▁ab (-1.5), ▁a b (-2) or ▁ a b (-7): for "ab ab", -3, then -3.5 twice."""
    pieces = [("▁a", -1.0), ("b", -1.0), ("▁ab", -1.5), ("▁", -3.0), ("a", -3.0)]
    found = unigram.UnigramTokenizer(pieces=pieces).nbest("ab ab", 3)
    assert [s.log_prob for s in found] == [-3.0, -3.5, -3.5]
    assert [len(s.tokens) for s in found] == [2, 3, 3]


@pytest.mark.parametrize("alpha", [0.0, 0.5, 2.0])
def test_sampled_segmentations_follow_the_model(alpha: float) -> None:
    """Chi-square test of 4,000 draws against p(seg) ** alpha, normalized; fixed seeds, so the
    statistic is the same on every run (and far under the 0.1 % critical value)."""
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    scores = [-1.0, -1.2, -0.8, -1.5, -2.0, -2.5]
    tok = tokenizer_for(vocab, scores)
    options = list(segmentations("abc", vocab))
    weights = [math.exp(alpha * sum(scores[vocab[p]] for p in seg)) for seg in options]
    probs = [w / sum(weights) for w in weights]
    draws = 4000
    seen = Counter(tuple(tok.piece(t.id) for t in tok.sample("abc", alpha=alpha, seed=k).tokens) for k in range(draws))
    assert set(seen) <= {tuple(seg) for seg in options}
    chi2 = sum((seen[tuple(seg)] - draws * p) ** 2 / (draws * p) for seg, p in zip(options, probs, strict=True))
    assert chi2 < 18.47  # chi-square critical value, 4 degrees of freedom, p = 0.001


def test_sampling_is_seeded_and_large_alpha_is_viterbi(trained: unigram.UnigramResult) -> None:
    tok = trained.tokenizer
    text = "the lazy cats sat together"
    assert tok.sample(text, alpha=0.1, seed=7) == tok.sample(text, alpha=0.1, seed=7)
    assert len({tok.sample(text, alpha=0.0, seed=k).tokens for k in range(20)}) > 1
    assert [t.id for t in tok.sample(text, alpha=200.0, seed=1).tokens] == [t.id for t in tok.encode(text)]


def test_bad_calls_on_the_tokenizer(trained: unigram.UnigramResult) -> None:
    tok = trained.tokenizer
    for call, message in [
        (lambda: tok.nbest("cat", 0), "n must be"),
        (lambda: tok.nbest("cat", 101), "n must be"),
        (lambda: tok.sample("cat", alpha=-1.0), "alpha"),
        (lambda: tok.sample("cat", alpha=math.nan), "alpha"),
        (lambda: tok.lattice("two words"), "one word"),
        (lambda: tok.lattice(""), "one word"),
        (lambda: tok.decode([tok.vocab_size]), "not in this vocabulary"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()


def test_tokenizer_protocol_and_pickle(trained: unigram.UnigramResult) -> None:
    tok = trained.tokenizer
    assert isinstance(tok, Tokenizer)
    assert (tok.family, tok.algorithm, tok.lossless, dict(tok.special_tokens)) == ("trained here", "Unigram", False, {})
    again = pickle.loads(pickle.dumps(tok))
    assert again.encode(CORPUS[:200]) == tok.encode(CORPUS[:200])


def test_unknown_characters_become_one_unk(trained: unigram.UnigramResult) -> None:
    tok = trained.tokenizer
    tokens = tok.encode("the 日本語 cat")
    unknown = [t for t in tokens if t.kind == UNKNOWN]
    assert [(t.id, t.bytes, t.start, t.end) for t in unknown] == [(0, b"", 4, 7)]
    assert tok.decode([t.id for t in tokens]) == "the ⁇ cat"
    assert tok.decode(tok.encode_ids("the cat")) == "the cat"
    assert [t.id for t in tokens] == tok.encode_ids("the 日本語 cat")


def test_offsets_of_plain_text_match_the_playground_oracle(trained: unigram.UnigramResult) -> None:
    """Single spaces, no leading space, every character seen: the tokens' bytes are the text."""
    for text in ["the cat sat on the mat.", "dogs, cats and a fox", "a"]:
        tokens = trained.tokenizer.encode(text)
        assert b"".join(t.bytes for t in tokens) == text.encode()
        oracle_check(text, tokens)


SPICE = ["the", "cat", " ", "  ", "\n", "\t", "\r\n", "日本", "🙂", "e\u0301", METASPACE, "\u3000", "\ud800", ",", "dog."]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.one_of(st.sampled_from(SPICE), st.text(max_size=4)), max_size=12))
def test_offsets_against_a_slow_oracle(trained: unigram.UnigramResult, parts: list[str]) -> None:
    text = "".join(parts)
    safe = without_surrogates(text)
    tok = trained.tokenizer
    check_offsets(tok, safe)
    assert tok.encode(text) == tok.encode(safe)  # lone surrogates read as U+FFFD
    assert tok.encode_ids(text) == [t.id for t in tok.encode(text)]


def test_leading_whitespace_and_the_dummy_prefix(trained: unigram.UnigramResult) -> None:
    tok = trained.tokenizer
    first = tok.encode("cat")[0]
    assert first.start == 0 and not first.bytes.startswith(b" ")
    spaced = tok.encode("  cat")
    assert spaced[0].start == 1 and spaced[0].bytes.startswith(b" ")
    assert words("a  b")[1].span(0, 1) == (2, 3) and words("ab")[0].span(0, 1) == (0, 0)


def test_pattern_mode_is_lossless_on_seen_characters() -> None:
    corpus = "Hello world! Hello there, world.\n" * 10
    result = unigram.train(corpus, vocab_size=40, pattern=GPT2_PATTERN)
    tok = result.tokenizer
    text = "Hello there world!\n"
    tokens = tok.encode(text)
    assert tok.decode([t.id for t in tokens]) == text and tok.encode_ids(text) == [t.id for t in tokens]
    assert all(t.kind == TEXT for t in tokens)
    oracle_check(text, tokens)
    assert all(" " not in piece[1:] for piece in tok.vocab)  # GPT-2's chunks keep spaces in front
