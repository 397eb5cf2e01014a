"""core.beyond.byte_ngram: Kneser-Ney by hand on a tiny corpus, against a dict-based oracle, and its invariants."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.beyond import byte_ngram


def oracle_distribution(corpus: bytes, order: int, context: bytes) -> list[float]:
    """Interpolated Kneser-Ney written the slow, obvious way: n-grams as bytes in dicts."""
    top = order - 1
    levels: dict[int, Counter[bytes]] = {top: Counter(corpus[i - top : i + 1] for i in range(top, len(corpus)))}
    for k in range(top - 1, -1, -1):
        levels[k] = Counter(gram[1:] for gram in levels[k + 1])  # in how many contexts each shorter gram occurs
    probs = [1 / 256] * 256
    for k in range(0, min(top, len(context)) + 1):
        ctx = context[len(context) - k :]
        seen = {gram[-1]: count for gram, count in levels[k].items() if gram[:-1] == ctx}
        if not seen:
            continue
        d = oracle_discount(list(levels[k].values()))
        total, types = sum(seen.values()), len(seen)
        probs = [max(seen.get(w, 0) - d, 0) / total + d * types / total * probs[w] for w in range(256)]
    return probs


def oracle_discount(counts: list[int]) -> float:
    n1, n2 = counts.count(1), counts.count(2)
    return 0.5 if n1 + 2 * n2 == 0 else min(max(n1 / (n1 + 2 * n2), 0.1), 0.9)


def entropy_bits(probs: list[float]) -> float:
    return -sum(p * math.log2(p) for p in probs if p > 0)


def test_abab_by_hand() -> None:
    # Order 2 on "abab": bigrams at positions 1..3 are ab, ba, ab.
    #   order 1 (raw counts): c(a→b) = 2, c(b→a) = 1; n1 = 1, n2 = 1, so D1 = 1 / (1 + 2) = 1/3.
    #   order 0 (continuation counts): b follows 1 distinct byte (a), a follows 1 (b); n1 = 2, n2 = 0,
    #   so D0 = 2 / 2 = 1, clipped to 0.9.
    #   P0(a) = P0(b) = (1 - 0.9) / 2 + 0.9 * 2 / 2 / 256 = 0.05 + 0.9 / 256; any other byte 0.9 / 256.
    #   P(b | a) = (2 - 1/3) / 2 + (1/3) * 1 / 2 * P0(b) = 5/6 + P0(b) / 6.
    model = byte_ngram.train(b"abab", order=2)
    assert [level.discount for level in model.levels] == [0.9, pytest.approx(1 / 3)]
    p0_ab = 0.05 + 0.9 / 256
    p0 = model.distribution(b"")
    assert p0[ord("a")] == pytest.approx(p0_ab) and p0[ord("z")] == pytest.approx(0.9 / 256)
    after_a = model.distribution(b"a")
    assert after_a[ord("b")] == pytest.approx(5 / 6 + p0_ab / 6)
    assert after_a[ord("a")] == pytest.approx(p0_ab / 6)
    assert after_a[ord("z")] == pytest.approx(0.9 / 256 / 6)
    # the entropy at each byte of "ab": position 0 has no context (P0), position 1 follows "a"
    h0 = -(2 * p0_ab * math.log2(p0_ab) + 254 * (0.9 / 256) * math.log2(0.9 / 256))
    others = [p0_ab / 6] + [0.9 / 256 / 6] * 254
    h1 = -((5 / 6 + p0_ab / 6) * math.log2(5 / 6 + p0_ab / 6) + sum(p * math.log2(p) for p in others))
    assert model.entropy(b"ab").tolist() == pytest.approx([h0, h1])
    assert h0 == pytest.approx(7.7316, abs=1e-4) and h1 == pytest.approx(1.8673, abs=1e-4)


def test_unseen_context_backs_off_to_the_lower_order() -> None:
    model = byte_ngram.train(b"abab", order=2)
    assert model.distribution(b"z").tolist() == pytest.approx(model.distribution(b"").tolist())


@settings(max_examples=60, deadline=None)
@given(
    corpus=st.binary(min_size=6, max_size=60).map(lambda b: bytes(x % 5 + 97 for x in b)),
    query=st.binary(min_size=1, max_size=12).map(lambda b: bytes(x % 6 + 97 for x in b)),
    order=st.integers(1, 5),
)
def test_matches_the_dict_oracle(corpus: bytes, query: bytes, order: int) -> None:
    model = byte_ngram.train(corpus, order=order)
    got = model.entropy(query)
    want = [entropy_bits(oracle_distribution(corpus, order, query[:i])) for i in range(len(query))]
    assert got.tolist() == pytest.approx(want, abs=1e-9)
    assert model.distribution(query).tolist() == pytest.approx(oracle_distribution(corpus, order, query), abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(corpus=st.binary(min_size=8, max_size=300), query=st.binary(max_size=40), order=st.integers(1, 8))
def test_every_distribution_sums_to_one_and_entropy_is_in_range(corpus: bytes, query: bytes, order: int) -> None:
    model = byte_ngram.train(corpus, order=order)
    for i in range(len(query) + 1):
        dist = model.distribution(query[:i])
        assert dist.sum() == pytest.approx(1.0) and (dist > 0).all()
    h = model.entropy(query)
    assert h.shape == (len(query),)
    assert ((h >= 0) & (h <= 8 + 1e-9)).all()


def test_surprisal_is_minus_log2_of_the_actual_byte() -> None:
    model = byte_ngram.train(b"the cat sat on the mat. the cat sat.", order=3)
    text = b"the bat"
    want = [-math.log2(model.distribution(text[:i])[text[i]]) for i in range(len(text))]
    assert model.surprisal(text).tolist() == pytest.approx(want)


def test_long_texts_are_computed_in_blocks_with_the_same_result() -> None:
    rng = np.random.default_rng(0)
    corpus = bytes(rng.integers(97, 103, 3000, dtype=np.uint8))
    model = byte_ngram.train(corpus, order=4)
    text = bytes(rng.integers(97, 104, byte_ngram._CHUNK + 50, dtype=np.uint8))
    got = model.entropy(text)
    for i in (0, 1, 2, 3, byte_ngram._CHUNK - 1, byte_ngram._CHUNK, len(text) - 1):
        probs = model.distribution(text[:i])
        assert got[i] == pytest.approx(-(probs * np.log2(probs)).sum())


def test_text_and_its_utf8_bytes_train_the_same_model() -> None:
    a = byte_ngram.train("héllo wörld", order=3)
    b = byte_ngram.train("héllo wörld".encode(), order=3)
    assert a.entropy("wö".encode()).tolist() == b.entropy("wö".encode()).tolist()
    assert a.trained_bytes == len("héllo wörld".encode())


def test_predictable_bytes_have_low_entropy() -> None:
    model = byte_ngram.train("the tokenizer cuts the text. " * 50 + "a rare word: qajaq.", order=5)
    h = model.entropy(b"the tokenizer")
    assert h[5] > 0.5  # after "the t": "text" or "tokenizer"?
    assert h[6:].max() < 0.5  # once "the to" is read, "kenizer" is all but certain
    assert h[0] > 3.0  # the first byte, with no context, is not


@pytest.mark.parametrize(
    ("data", "order", "message"),
    [(b"abc", 0, "order must be between 1 and 8"), (b"abc", 9, "order must be between 1 and 8"),
     (b"ab", 3, "at least 3"), ("", 1, "at least 1")],
)
def test_bad_arguments_say_what_to_change(data: bytes | str, order: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        byte_ngram.train(data, order=order)


def test_progress_reports_every_order() -> None:
    calls: list[tuple[int, int]] = []
    byte_ngram.train(b"hello world", order=4, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1][0] == calls[-1][1] and len(calls) == 5
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


@pytest.mark.parametrize("order", [1, 2, 5, 8])
def test_entropy_and_surprisal_once_per_distinct_context_equal_every_position_alone(
    order: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``entropy`` and ``surprisal`` compute a distribution once per distinct context: bit for bit what
    every position computed on its own gives, the short-context head and a text of many blocks included."""
    from core.corpora import load_corpus

    monkeypatch.setattr(byte_ngram, "_CHUNK", 97)  # many blocks of distinct contexts

    text = load_corpus("sample_essay_en").encode()
    model = byte_ngram.train(text[: len(text) // 2], order=order)
    for query in (text[len(text) // 2:], "Съешь ещё 日本語 🙂 the the the".encode(), b"ab", b"a", b""):
        array = np.frombuffer(query, dtype=np.uint8)
        probs = model._distributions(array, np.arange(len(array)))
        assert np.array_equal(model.entropy(query), -(probs * np.log2(probs)).sum(axis=1))
        assert np.array_equal(model.surprisal(query), -np.log2(probs[np.arange(len(array)), array]))


def _gathered_distributions(model: byte_ngram.ByteNgramModel, data: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """The interpolation written with a gather and a scatter per order (rows picked, scaled, put back)."""
    base = model.levels[0]
    p0 = np.full(256, base.backoff[0] / 256)
    p0[base.next_bytes] += base.weights
    probs = np.tile(p0, (len(positions), 1))
    for level in model.levels[1:]:
        for row, position in enumerate(positions):
            if position < level.k:
                continue
            key = int(byte_ngram._context_keys(data, np.asarray([position]), level.k)[0])
            found = int(np.searchsorted(level.contexts, np.uint64(key)))
            if found == len(level.contexts) or int(level.contexts[found]) != key:
                continue
            probs[row] = probs[row] * level.backoff[found]
            entries = slice(level.offsets[found], level.offsets[found + 1])
            probs[row, level.next_bytes[entries]] += level.weights[entries]
    return probs


def test_entropy_is_bit_for_bit_the_row_by_row_interpolation() -> None:
    """The vectorized interpolation (rows scaled in place, entries added through flat indices) changes no
    bit of any entropy: patches cut at a threshold stay where they were."""
    corpus = ("the cat sat on the mat; der Hund lief über die Straße; 東京は雨です。 " * 40).encode()
    model = byte_ngram.train(corpus, order=5)
    query = "the dog sat on a hat; die Katze über den Hund; 京都は晴れです。".encode()
    data = np.frombuffer(query, dtype=np.uint8)
    probs = _gathered_distributions(model, data, np.arange(len(data)))
    expected = -(probs * np.log2(probs)).sum(axis=1)
    assert np.array_equal(model.entropy(query), expected)


@pytest.mark.parametrize("order", [1, 2, 5, 8])
def test_a_model_read_back_from_its_bytes_is_the_same_model(order: int) -> None:
    """What a model kept on disk (``to_bytes``) reads back as: every table bit for bit, the same entropies."""
    text = ("The same text in several languages: Привет, мир! 你好，世界。 " * 40).encode()
    model = byte_ngram.train(text, order=order)
    again = byte_ngram.from_bytes(byte_ngram.to_bytes(model))
    assert again is not None and (again.order, again.trained_bytes) == (model.order, model.trained_bytes)
    for mine, theirs in zip(again.levels, model.levels, strict=True):
        assert (mine.k, mine.discount) == (theirs.k, theirs.discount)
        for name in ("contexts", "offsets", "next_bytes", "counts", "weights", "totals", "backoff"):
            a, b = getattr(mine, name), getattr(theirs, name)
            assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert np.array_equal(again.entropy(b"Hello, world!"), model.entropy(b"Hello, world!"))
    assert byte_ngram.from_bytes(b"not a model") is None
