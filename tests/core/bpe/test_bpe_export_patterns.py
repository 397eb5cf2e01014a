"""core.bpe.export: the exported tokenizer.json cuts every text as ``encode`` does, digit runs included.

Subtle: the ``tokenizers`` library runs its regexes on Oniguruma, where ``X{1,3}+`` is not possessive
(as in the ``regex`` package) but a repetition of a repetition: cl100k's ``\\p{N}{1,3}+`` read that
way takes a whole run of digits as one chunk.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import bpe
from core.bpe import export as bpe_export
from core.text.patterns import CL100K_PATTERN, NAMED_PATTERNS
from core.text.pretokenize import chunks

DIGITS = "1111 111 11 12345 2026 99999999 3.14159 0x1F 1,000,000"
RUNS = ["1" * n for n in range(1, 14)] + ["a1234567b", "x 12345678901234 y", "2026-05-17T10:00", "٣٤٥٦٧ ١٢"]


def hf_from(result: bpe.BPEResult):
    from tokenizers import Tokenizer

    return Tokenizer.from_str(bpe_export.to_hf_json(result))


def test_the_reported_case_gives_the_same_ids() -> None:
    result = bpe.train("1111 111 11", num_merges=2, pattern=CL100K_PATTERN)
    ids = result.tokenizer.encode_ids("1111 111 11")
    assert ids[:2] == [257, 49]  # "111" then "1": cl100k cuts digit runs into threes
    assert hf_from(result).encode("1111 111 11").ids == ids


@pytest.mark.parametrize("pattern_name", list(NAMED_PATTERNS))
def test_digit_runs_round_trip_through_the_export(pattern_name: str) -> None:
    result = bpe.train(DIGITS * 3, num_merges=40, pattern=NAMED_PATTERNS[pattern_name])
    hf = hf_from(result)
    for text in RUNS:
        ids = result.tokenizer.encode_ids(text)
        assert hf.encode(text).ids == ids, text
        assert hf.decode(ids) == text


@pytest.mark.parametrize("pattern_name", list(NAMED_PATTERNS))
@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("0123456789 ab'\n\t.,-é٣"), max_size=40))
def test_the_exported_pattern_cuts_random_text_like_ours(pattern_name: str, text: str) -> None:
    from tokenizers import pre_tokenizers

    pattern = NAMED_PATTERNS[pattern_name]
    split = pre_tokenizers.Split(bpe_export.oniguruma_pattern(pattern), behavior="isolated")
    theirs = [piece for piece, _ in split.pre_tokenize_str(text)]
    assert theirs == chunks(text, pattern)


def test_only_bounded_possessive_repetitions_are_rewritten() -> None:
    assert bpe_export.oniguruma_source(r"\p{N}{1,3}+") == r"(?>\p{N}{1,3})"
    assert bpe_export.oniguruma_source(r"[a\]]{2}+x") == r"(?>[a\]]{2})x"
    assert bpe_export.oniguruma_source(r"(ab|c){1,}+") == r"(?>(ab|c){1,})"
    assert bpe_export.oniguruma_source(r"\p{L}++ ?x{2,3}") == r"\p{L}++ ?x{2,3}"  # ++ is possessive there too
    assert bpe_export.oniguruma_source(r"\{1,3}+") == r"\{1,3}+"  # an escaped brace is no quantifier
