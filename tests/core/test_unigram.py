"""core.unigram: hand-checked corpora, brute-force oracles for every search, the trace, offsets, errors."""

from __future__ import annotations

import math
import pickle
import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import unigram
from core.patterns import GPT2_PATTERN
from core.textio import without_surrogates
from core.types import TEXT, UNKNOWN, Tokenizer
from core.unigram.lattice import Lattices, digamma
from core.unigram.seed import make_seed
from core.unigram.words import METASPACE, script, words
from tests.core.pretrained.test_roundtrip import oracle_check

CORPUS = (
    "the cat sat on the mat. the dog sat on the log; the cats and the dogs sat together.\n"
    "a quick brown fox jumps over the lazy dog, and the lazy dog sleeps in the sun.\n"
) * 4


@pytest.fixture(scope="module")
def trained() -> unigram.UnigramResult:
    return unigram.train(CORPUS, vocab_size=60)


# -- oracles ------------------------------------------------------------------------------------------


def segmentations(word: str, vocab: dict[str, int]) -> Iterator[list[str]]:
    """Every way to write ``word`` as vocabulary pieces, by brute force."""
    if not word:
        yield []
        return
    for end in range(1, len(word) + 1):
        if word[:end] in vocab:
            for rest in segmentations(word[end:], vocab):
                yield [word[:end], *rest]


def random_model(rng: random.Random, alphabet: str = "abc", n_words: int = 6) -> tuple[list[str], dict[str, int], list[float]]:
    """Short random words, every character plus some of their substrings, random log-probabilities."""
    words_ = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(n_words)]
    substrings = sorted({w[i:j] for w in words_ for i in range(len(w)) for j in range(i + 2, min(len(w), i + 4) + 1)})
    pieces = sorted(set(alphabet)) + [s for s in substrings if rng.random() < 0.6]
    return words_, {p: i for i, p in enumerate(pieces)}, [rng.uniform(-6.0, -0.5) for _ in pieces]


def batch(words_: list[str], vocab: dict[str, int], weights: list[float]) -> Lattices:
    rows = [
        (w, i, j, vocab[word[i:j]])
        for w, word in enumerate(words_)
        for i in range(len(word))
        for j in range(i + 1, len(word) + 1)
        if word[i:j] in vocab
    ]
    w, s, e, p = (np.array(col) for col in zip(*rows, strict=True))
    return Lattices(np.array([len(x) for x in words_]), np.array(weights, dtype=float), w, s, e, p)


def tokenizer_for(vocab: dict[str, int], scores: list[float]) -> unigram.UnigramTokenizer:
    """A tokenizer under a pattern that keeps each test word whole, with ``vocab``'s pieces."""
    return unigram.UnigramTokenizer(pieces=[(p, scores[i]) for p, i in vocab.items()], pattern=r"\S+")


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


# -- seed and lattices: hand-checked --------------------------------------------------------------


def test_the_seed_by_hand() -> None:
    """▁ab 3 times, ▁ac twice, ▁b once. Characters: ▁ 6, a 5, b 4, c 2. Of the longer substrings only
    ▁a is seen twice and followed by two different symbols (b, c), so only it joins: count 5, value
    5 × 2 = 10. First log-probabilities: value / 27."""
    words_, counts = ["▁ab", "▁ac", "▁b"], np.array([3.0, 2.0, 1.0])
    seed = make_seed(words_, counts, max_len=16, seed_size=100, needed=4, by_script=True)
    assert seed.pieces == ["a", "b", "c", "▁", "▁a"]
    assert seed.counts.tolist() == [5, 4, 2, 6, 5]
    assert np.allclose(np.exp(seed.scores), np.array([5, 4, 2, 6, 10]) / 27)
    assert seed.possible == 10  # 4 characters, ▁a ab ac ▁b, ▁ab ▁ac
    # a vocabulary of 7 needs two more: the best others by count × length (▁ab 9; ab and ▁ac 6, tied: shorter first)
    bigger = make_seed(words_, counts, max_len=16, seed_size=100, needed=7, by_script=True)
    assert bigger.pieces == ["a", "b", "c", "▁", "▁a", "▁ab", "ab"]


def test_pieces_do_not_mix_scripts() -> None:
    """With room for everything, the seed is every substring that may be a piece: none ends in , or 1."""
    seed = make_seed(["▁hi,", "▁año1"], np.ones(2), max_len=16, seed_size=100, needed=100, by_script=True)
    assert sorted(seed.pieces) == sorted(
        ["▁", "h", "i", ",", "▁h", "hi", "▁hi", "a", "ñ", "o", "1", "▁a", "añ", "ño", "▁añ", "año", "▁año"]
    )
    assert seed.possible == 17
    mixed = make_seed(["▁hi,"], np.ones(1), max_len=3, seed_size=100, needed=100, by_script=False)
    assert {"i,", "hi,"} <= set(mixed.pieces) and "▁hi," not in mixed.pieces  # max_len 3
    assert script("a") == script("é") != script("ж") and script("日") == script("の") == script("カ")
    assert script(",") == script("1") and script(" ") == script(METASPACE)


def test_expected_counts_by_hand() -> None:
    """``ab`` with p(a) = p(b) = p(ab) = 1/2: [ab] has 1/2, [a, b] 1/4; so E[ab] = 2/3, E[a] = E[b] = 1/3."""
    vocab = {"a": 0, "b": 1, "ab": 2}
    counts, log_likelihood = batch(["ab"], vocab, [3.0]).expected_counts(np.log(np.full(3, 0.5)), 3)
    assert np.allclose(counts, [1.0, 1.0, 2.0])  # three occurrences of the word
    assert log_likelihood == pytest.approx(3 * math.log(0.75))


@pytest.mark.parametrize("seed", range(12))
def test_forward_backward_and_viterbi_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    words_, vocab, scores = random_model(rng)
    weights = [rng.randint(1, 5) for _ in words_]
    lattices = batch(words_, vocab, weights)
    counts, log_likelihood = lattices.expected_counts(np.array(scores), len(vocab))
    expected, total = np.zeros(len(vocab)), 0.0
    for word, weight in zip(words_, weights, strict=True):
        options = list(segmentations(word, vocab))
        probs = [math.exp(sum(scores[vocab[p]] for p in seg)) for seg in options]
        z = sum(probs)
        total += weight * math.log(z)
        for seg, prob in zip(options, probs, strict=True):
            for piece in seg:
                expected[vocab[piece]] += weight * prob / z
    assert np.allclose(counts, expected) and log_likelihood == pytest.approx(total)
    best, owner, pieces = lattices.viterbi(np.array(scores))
    for w, word in enumerate(words_):
        top = max(sum(scores[vocab[p]] for p in seg) for seg in segmentations(word, vocab))
        path = [list(vocab)[p] for p in pieces[owner == w][::-1]]
        assert "".join(path) == word and best[w] == pytest.approx(top)
        assert sum(scores[vocab[p]] for p in path) == pytest.approx(top)


def test_log_space_survives_long_words() -> None:
    """A 600-character word: probabilities near e^-1,900 underflow in linear space, not here."""
    vocab = {"a": 0, "aa": 1}
    counts, log_likelihood = batch(["a" * 600], vocab, [1.0]).expected_counts(np.array([-3.0, -4.0]), 2)
    z = [0.0, -3.0]  # log Z(n) = log(e^-3 Z(n - 1) + e^-4 Z(n - 2)), every way to write a^n as a and aa
    for _ in range(2, 601):
        z.append(np.logaddexp(z[-1] - 3.0, z[-2] - 4.0))
    assert log_likelihood == pytest.approx(z[600]) and log_likelihood < -1000
    assert counts[0] + 2 * counts[1] == pytest.approx(600)


def test_digamma() -> None:
    x = np.array([0.5, 1.0, 2.0, 10.0, 1e6])
    known = [-1.9635100260214235, -0.5772156649015329, 0.42278433509846713, 2.251752589066721, 13.815510057964274]
    assert np.allclose(digamma(x), known, rtol=1e-10)


# -- one word's searches against brute force -----------------------------------------------------


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


# -- training ----------------------------------------------------------------------------------------


def test_the_one_piece_worth_keeping() -> None:
    """Room for one piece beyond the 5 characters: ▁ab (4 times 3 tokens in 1) beats ▁a and ab."""
    result = unigram.train("ab ab ab ab cd", vocab_size=7)
    assert sorted(result.tokenizer.vocab) == sorted(["<unk>", "▁", "a", "b", "c", "d", "▁ab"])
    assert [t.bytes for t in result.tokenizer.encode("ab cd")] == [b"ab", b" ", b"c", b"d"]


def test_trace(trained: unigram.UnigramResult) -> None:
    trace = trained.trace
    assert [r.round for r in trace] == list(range(1, len(trace) + 1))
    assert trace[0].pieces_before == trained.seed_pieces
    assert trace[-1].pieces_kept == 59 and not trace[-1].dropped
    for before, after in zip(trace, trace[1:], strict=False):
        assert after.pieces_before == before.pieces_kept
    for r in trace:
        assert r.pieces_kept == r.pieces_before - len(r.vanished) - len(r.dropped)
        assert r.em_iterations == 2 and all(ll < 0 for ll in r.log_likelihoods)
        losses = [loss for _, loss in r.dropped]
        assert losses == sorted(losses)
        assert all(count < 0.5 for _, count in r.vanished)
    with pytest.raises(AttributeError):
        trace[0].round = 5  # type: ignore[misc]
    assert len(trained.tokenizer.vocab) == 60 and not trained.stopped_early


def test_never_drops_a_single_character() -> None:
    """q and z only ever appear inside frequent words; they still keep their pieces."""
    corpus = "quick quick quick quiz quiz buzz buzz buzz " * 20
    result = unigram.train(corpus, vocab_size=14)
    assert set("▁quickzb") <= set(result.tokenizer.vocab)
    for r in result.trace:
        assert all(len(piece) > 1 for piece, _ in r.dropped + r.vanished)


def test_one_run_gives_several_sizes() -> None:
    results = unigram.train_sizes(CORPUS, vocab_sizes=[40, 60, 35])
    assert sorted(results) == [35, 40, 60]
    direct = unigram.train(CORPUS, vocab_size=60)
    assert results[60].tokenizer.vocab == direct.tokenizer.vocab
    assert results[60].tokenizer.scores == pytest.approx(direct.tokenizer.scores)
    for size, result in results.items():
        assert result.tokenizer.vocab_size == size and result.trace[-1].pieces_kept == size - 1
        assert not result.stopped_early and result.tokenizer.name == unigram.default_name(size, None)
    assert results[35].trace[: len(results[60].trace)] == results[60].trace
    with pytest.raises(ValueError, match="at least one"):
        unigram.train_sizes(CORPUS, vocab_sizes=[])


def test_progress_is_reported_up_to_the_end() -> None:
    calls: list[tuple[int, int]] = []
    unigram.train(CORPUS, vocab_size=40, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1][0] == calls[-1][1] and [d for d, _ in calls] == sorted(d for d, _ in calls)


@pytest.mark.data
def test_close_to_sentencepiece_on_the_same_corpus(data_dir) -> None:
    """Tolerance: held-out bytes per token within 3 % of sentencepiece's unigram trainer, 800 pieces
    from 300 KB of Tiny Shakespeare (measured: 0.4 % apart; the bench measures the full 1 MB)."""
    import io

    import sentencepiece as spm

    from core.corpora import split_heldout

    text = (data_dir / "corpora" / "tinyshakespeare.txt").read_text(encoding="utf-8")[:300_000]
    train_text, heldout = split_heldout(text)
    ours = unigram.train(train_text, vocab_size=800).tokenizer
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(train_text.splitlines()), model_writer=model, model_type="unigram", vocab_size=800,
        character_coverage=1.0, bos_id=-1, eos_id=-1, normalization_rule_name="identity", minloglevel=2,
    )
    sp = spm.SentencePieceProcessor(model_proto=model.getvalue())
    theirs = sum(len(sp.encode(line)) for line in heldout.splitlines())
    ratio = theirs / len(ours.encode_ids(heldout))  # bytes/token ours over theirs
    assert 0.97 <= ratio <= 1.03
    # a size reached on the way to a smaller one compresses about as well as training to it directly
    on_the_way = unigram.train_sizes(train_text, vocab_sizes=[800, 500])[500].tokenizer
    direct = unigram.train(train_text, vocab_size=500).tokenizer
    assert len(on_the_way.encode_ids(heldout)) == pytest.approx(len(direct.encode_ids(heldout)), rel=0.02)


@pytest.mark.parametrize(
    ("corpus", "kwargs", "message"),
    [
        ("", {"vocab_size": 10}, "empty"),
        (" \n\t ", {"vocab_size": 10}, "empty"),
        ("abc abc", {"vocab_size": 4}, "at least 5"),
        ("abc abc", {"vocab_size": 1}, "at least 2"),
        ("abc abc", {"vocab_size": 12}, "at most 11"),
        ("abc abc", {"vocab_size": 6, "shrink": 0.2}, "shrink"),
        ("abc abc", {"vocab_size": 6, "em_iterations": 0}, "em_iterations"),
        ("abc abc", {"vocab_size": 6, "max_piece_len": 0}, "max_piece_len"),
        ("abc abc", {"vocab_size": 6, "seed_size": 0}, "seed_size"),
        ("abc abc", {"vocab_size": 6, "pattern": "("}, "invalid pattern"),
    ],
)
def test_bad_arguments(corpus: str, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        unigram.train(corpus, **kwargs)


def test_bad_calls_on_the_tokenizer(trained: unigram.UnigramResult) -> None:
    tok = trained.tokenizer
    for call, message in [
        (lambda: tok.nbest("cat", 0), "n must be"),
        (lambda: tok.sample("cat", alpha=-1.0), "alpha"),
        (lambda: tok.sample("cat", alpha=math.nan), "alpha"),
        (lambda: tok.lattice("two words"), "one word"),
        (lambda: tok.lattice(""), "one word"),
        (lambda: tok.decode([tok.vocab_size]), "not in this vocabulary"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()


# -- the tokenizer ------------------------------------------------------------------------------------


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


def test_a_text_without_spaces_trains_in_parts() -> None:
    """One 6,000-character word is cut into parts of MAX_WORD_CHARS for training; encoding is whole."""
    text = "abcab" * 1200
    result = unigram.train(text, vocab_size=12)
    tokens = result.tokenizer.encode(text)
    assert b"".join(t.bytes for t in tokens) == text.encode() and max(map(len, result.tokenizer.vocab)) <= 16
    assert len(tokens) < len(text) / 3


def test_training_reads_surrogates_as_replacement_characters() -> None:
    result = unigram.train("ab\ud800 ab\ud800 ab", vocab_size=8)
    assert "\ufffd" in result.alphabet
