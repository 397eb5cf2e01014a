"""core.tax.language_tax: premiums on hand-made parallel sets, pairwise alignment, lossy marking, counting routes."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.tax import language_tax as lt
from core.tax.language_tax import context_fit, language_tax, token_counter
from core.tax.parallel_corpus import ParallelCorpus, ParallelLanguage, load_parallel, parallel_from_texts
from core.types import ADDED, TEXT, UNKNOWN, Token
from tests.core.tax.fakes import Chars
from tests.loaded import load_once


def corpus_of(segments: Mapping[str, Mapping[str, str]]) -> ParallelCorpus:
    """A parallel corpus of hand-written segments (code -> segment id -> text)."""
    languages = tuple(ParallelLanguage(code, code.upper(), code, "Latn", "ltr") for code in segments)
    ids = tuple(dict.fromkeys(i for texts in segments.values() for i in texts))
    return ParallelCorpus("hand", "Hand-made", "sentence", languages, ids, segments, "test", "test",
                          fingerprint=str(sorted((c, sorted(t.items())) for c, t in segments.items())))




class Bytes:
    """One token per UTF-8 byte, through ``text_ids`` (the ids-only route)."""

    name, lossless = "bytes", True
    unknown_ids: frozenset[int] = frozenset()

    def text_ids(self, text: str) -> list[int]:
        return list(text.encode())


class AsciiOnly:
    """A lossy tokenizer: a BOS, then a token per character, every non-ASCII one unknown (id 0)."""

    name, lossless = "ascii-only", False

    def encode(self, text: str) -> list[Token]:
        tokens = [Token(1, b"<s>", 0, 0, ADDED)]
        for i, ch in enumerate(text):
            known = ch.isascii()
            tokens.append(Token(ord(ch) if known else 0, ch.encode() if known else b"", i, i + 1,
                                TEXT if known else UNKNOWN))
        return tokens


class AsciiOnlyIds(AsciiOnly):
    """The same tokenizer with the ids-only route: unknown characters are id 0."""

    unknown_ids = frozenset({0})

    def text_ids(self, text: str) -> list[int]:
        return [ord(ch) if ch.isascii() else 0 for ch in text]

    def encode(self, text: str) -> list[Token]:
        raise AssertionError("the ids route must be used")


HAND = {"en": {"1": "aa bb", "2": "cc"}, "xx": {"1": "aaaa", "2": "cccccc"}, "yy": {"1": "a"}}


def by_language(table: pd.DataFrame, tokenizer: str = "c") -> pd.DataFrame:
    return table[table["tokenizer"] == tokenizer].set_index("language")


def test_premium_on_a_hand_made_parallel_set() -> None:
    table = language_tax(corpus_of(HAND), {"c": Chars()}, base="en")
    rows = by_language(table)
    assert list(rows.index) == ["en", "xx", "yy"]  # base first
    assert rows.loc["en", "premium"] == 1.0 and rows.loc["en", "is_base"]
    assert (rows.loc["xx", "tokens"], rows.loc["xx", "base_tokens"]) == (10, 7)
    assert rows.loc["xx", "premium"] == pytest.approx(10 / 7)
    assert rows.loc["xx", "segments"] == 2 and rows.loc["xx", "words"] == 2 and rows.loc["xx", "base_words"] == 3


def test_a_language_missing_a_segment_is_compared_on_the_segments_both_have() -> None:
    rows = by_language(language_tax(corpus_of(HAND), {"c": Chars()}, base="en"))
    assert rows.loc["yy", "segments"] == 1
    assert (rows.loc["yy", "tokens"], rows.loc["yy", "base_tokens"]) == (1, 5)  # "a" vs "aa bb"
    assert rows.loc["yy", "premium"] == pytest.approx(0.2)
    assert rows.loc["yy", "chars_ratio"] == pytest.approx(0.2) and rows.loc["yy", "base_chars"] == 5
    # and its gap does not shrink anyone else's comparison
    assert rows.loc["xx", "segments"] == 2 and rows.loc["xx", "premium"] == pytest.approx(10 / 7)


def test_a_base_that_lacks_a_segment_compares_the_others_without_it() -> None:
    rows = by_language(language_tax(corpus_of(HAND), {"c": Chars()}, base="yy"))
    assert rows.loc["en", "premium"] == 5.0 and rows.loc["xx", "premium"] == 4.0
    assert set(rows["segments"]) == {1}


def test_bytes_and_characters_ratios_and_the_premium_beyond_bytes() -> None:
    corpus = corpus_of({"en": {"1": "abcd"}, "hi": {"1": "नमस"}})  # 3 characters, 9 bytes
    rows = by_language(language_tax(corpus, {"b": Bytes(), "c": Chars()}, base="en"), "b")
    assert rows.loc["hi", "chars_ratio"] == pytest.approx(3 / 4)
    assert rows.loc["hi", "bytes_ratio"] == pytest.approx(9 / 4)
    assert rows.loc["hi", "premium"] == pytest.approx(9 / 4)  # a byte tokenizer's premium is the bytes ratio
    assert rows.loc["hi", "premium_beyond_bytes"] == pytest.approx(1.0)


texts = st.text(alphabet=st.characters(exclude_categories=("Cs",)), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), texts, min_size=2))
def test_a_character_tokenizer_costs_the_characters_ratio_a_byte_one_the_bytes_ratio(
    samples: dict[str, str],
) -> None:
    corpus = parallel_from_texts(samples)
    base = next(iter(samples))
    table = language_tax(corpus, {"c": Chars(), "b": Bytes()}, base=base)
    chars, bytes_ = by_language(table, "c"), by_language(table, "b")
    assert np.allclose(chars["premium"], chars["chars_ratio"])
    assert np.allclose(bytes_["premium"], bytes_["bytes_ratio"])
    assert chars.loc[base, "premium"] == 1.0
    assert (table["tokens"] >= 0).all() and (table["unknown"] == 0).all()


@pytest.mark.parametrize("tokenizer", [AsciiOnly(), AsciiOnlyIds()], ids=["encode", "text_ids"])
def test_a_lossy_tokenizer_reports_its_unknown_share(tokenizer: object) -> None:
    corpus = corpus_of({"en": {"1": "hello world"}, "de": {"1": "héllo wörld"}, "ru": {"1": "мир"}})
    rows = by_language(language_tax(corpus, {"u": tokenizer}, base="en"), "u")
    assert rows.loc["de", "tokens"] == 11  # the BOS is not counted
    assert rows.loc["de", "unknown"] == 2 and rows.loc["de", "unknown_share"] == pytest.approx(2 / 11)
    assert rows.loc["ru", "unknown_share"] == 1.0 and rows.loc["en", "unknown_share"] == 0.0
    assert not rows["lossless"].any()


def test_the_counting_route_follows_what_the_tokenizer_offers() -> None:
    assert token_counter(Chars())("abc") == (3, 0)
    assert token_counter(Bytes())("é") == (2, 0)
    assert token_counter(AsciiOnlyIds())("aé") == (2, 1)
    assert token_counter(AsciiOnly())("aé") == (2, 1)


def test_the_memo_counts_each_language_once_across_calls() -> None:
    chars, memo = Chars(), {}
    corpus = corpus_of(HAND)
    language_tax(corpus, {"c": chars}, base="en", memo=memo)
    calls = chars.calls
    assert calls == 5  # one per segment of each language
    again = language_tax(corpus, {"c": chars}, base="xx", languages=["en"], memo=memo)
    assert chars.calls == calls  # another base, a smaller selection: nothing counted again
    assert by_language(again).loc["en", "premium"] == pytest.approx(7 / 10)
    assert ("hand", corpus.fingerprint, "en", "c") in memo and ("hand", corpus.fingerprint, "en", "") in memo


def test_progress_reaches_one_and_names_what_it_counts() -> None:
    seen: list[tuple[float, str]] = []
    language_tax(corpus_of(HAND), {"c": Chars(), "b": Bytes()}, base="en",
                 progress=lambda f, m: seen.append((f, m)))
    fractions = [f for f, _ in seen]
    assert len(seen) == 6 and fractions == sorted(fractions) and fractions[-1] == 1.0
    assert seen[0][1] == "chars: EN" and seen[-1][1] == "bytes: YY"


def test_bad_requests_fail_before_counting() -> None:
    corpus = corpus_of(HAND)
    with pytest.raises(ValueError, match="at least one tokenizer"):
        language_tax(corpus, {}, base="en")
    with pytest.raises(ValueError, match="has no language 'zz'"):
        language_tax(corpus, {"c": Chars()}, base="en", languages=["zz"])
    with pytest.raises(ValueError, match="has no language 'zz'"):
        language_tax(corpus, {"c": Chars()}, base="zz")
    with pytest.raises(ValueError, match="cannot be empty"):
        language_tax(corpus, {"": Chars()}, base="en")


def test_a_language_sharing_nothing_with_the_base_has_no_premium() -> None:
    corpus = corpus_of({"en": {"1": "ab"}, "xx": {"2": "abc"}})
    rows = by_language(language_tax(corpus, {"c": Chars()}, base="en"))
    assert rows.loc["xx", "segments"] == 0 and np.isnan(rows.loc["xx", "premium"])
    assert np.isnan(rows.loc["xx", "bytes_ratio"]) and rows.loc["xx", "tokens"] == 0


def test_practical_units() -> None:
    table = language_tax(corpus_of(HAND), {"c": Chars()}, base="en")
    fit = context_fit(table, context_tokens=70, price_per_million=2.0)
    xx = fit[table["language"] == "xx"].iloc[0]
    assert xx["segments_per_context"] == pytest.approx(70 * 2 / 10)  # 2 sentences in 10 tokens
    assert xx["base_words_per_context"] == pytest.approx(70 * 3 / 10)  # they say what 3 English words say
    assert xx["cost_per_million_words"] == pytest.approx(10 / 3 * 2.0)
    with pytest.raises(ValueError, match="at least one token"):
        context_fit(table, context_tokens=0, price_per_million=1.0)
    with pytest.raises(ValueError, match="negative"):
        context_fit(table, context_tokens=10, price_per_million=-1.0)


def test_the_table_has_the_documented_columns() -> None:
    table = language_tax(corpus_of(HAND), {"c": Chars()}, base="en")
    assert tuple(table.columns) == lt.COLUMNS and len(table) == 3


# -- real tokenizers (the data folder) ------------------------------------------------------------

STRINGS = ("", "a", "Hello, world!", "El niño juega en el jardín.", "नमस्ते दुनिया", "東京は雨です。", "🙂👩‍💻",
           "مرحبا بالعالم", "   \n\t  ", "ሰላም ዓለም")


def registry_keys() -> list[str]:
    from core import pretrained

    return list(pretrained.registry())


@pytest.mark.data
@pytest.mark.parametrize("key", registry_keys())
def test_the_fast_count_agrees_with_encode_for_every_registry_tokenizer(data_dir: Path, key: str) -> None:
    from core import pretrained

    try:
        tokenizer = load_once(key)
    except pretrained.TokenizerUnavailable as exc:
        pytest.skip(exc.reason)
    fast = token_counter(tokenizer)
    for text in STRINGS:
        tokens = tokenizer.encode(text)
        expected = (sum(t.kind != ADDED for t in tokens), sum(t.kind == UNKNOWN for t in tokens))
        assert fast(text) == expected, text


@pytest.mark.data
def test_real_tokenizers_on_the_sample(data_dir: Path) -> None:

    tokenizers = {key: load_once(key) for key in ("cl100k_base", "o200k_base", "t5")}
    table = language_tax(load_parallel("sample"), tokenizers, base="en")
    cl100k, t5 = by_language(table, "cl100k_base"), by_language(table, "t5")
    assert cl100k.loc["en", "premium"] == 1.0 and cl100k["unknown"].sum() == 0
    # Burmese: three bytes a letter explain part of its premium; the vocabulary explains the rest
    assert cl100k.loc["my", "premium"] > 2 * cl100k.loc["my", "bytes_ratio"] > 2
    assert by_language(table, "o200k_base").loc["my", "premium"] < cl100k.loc["my", "premium"]
    # T5 knows no Chinese: it looks cheap, and the unknown share says why
    assert t5.loc["zh-Hans", "premium"] < 1 and t5.loc["zh-Hans", "unknown_share"] > 0.3
