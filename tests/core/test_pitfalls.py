"""core.pitfalls on hand-built tokens (place value, letters, trailing space, indentation, glitch shapes),
then on the real tokenizers where the data folder is present."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from core import pretrained
from core.pitfalls import CASES, catalog, glitch, indentation, place_value, vocab, words
from core.types import ADDED, Token


def test_every_case_has_a_text_and_an_explanation() -> None:
    assert list(CASES) == ["numbers", "spelling", "trailing_space", "indentation", "glitch", "special", "emoji"]
    for case in CASES.values():
        assert case.text and case.title and len(case.explanation) > 100


def test_place_value_of_a_number_cut_from_the_left() -> None:
    tokens = [Token(1, b"202", 0, 3), Token(2, b"6", 3, 4)]
    cells = place_value.place_cells(tokens, 0, 4, "2026")
    assert [(c.digit, c.place, c.token_id) for c in cells] == [("2", 3, 1), ("0", 2, 1), ("2", 1, 1), ("6", 0, 2)]
    assert place_value.groups(cells) == ["202", "6"]


def test_place_value_reads_a_token_with_a_glued_space_and_skips_added_tokens() -> None:
    text = "x 1597"
    tokens = [Token(0, b"<s>", 0, 0, ADDED), Token(1, b"x", 0, 1), Token(2, b" 15", 1, 4), Token(3, b"97", 4, 6)]
    ((start, end),) = place_value.number_spans(text)
    cells = place_value.place_cells(tokens, start, end, text)
    assert place_value.groups(cells) == ["15", "97"] and [c.place for c in cells] == [3, 2, 1, 0]


def test_letters_inside_pieces_including_a_piece_with_a_glued_space() -> None:
    tokens = [Token(1, b" straw", 0, 6), Token(2, b"berry", 6, 11)]
    pieces = words.word_pieces(" strawberry", tokens, 1, 11, letter="r")
    assert [(p.text, p.token_text, p.hits) for p in pieces] == [("straw", " straw", 1), ("berry", "berry", 2)]


def test_trailing_space_view_and_token_healing_candidates() -> None:
    spaced = [Token(1, b"el", 0, 2), Token(2, b" ", 2, 3)]
    full = [Token(1, b"el", 0, 2), Token(3, b" jard", 2, 7), Token(4, b"\xc3\xadn", 7, 9)]
    vocabulary = {1: b"el", 2: b" ", 3: b" jard", 5: b" j", 6: b" the", 7: b"jard"}
    view = words.trailing_space(spaced, full, 2, " jardín", vocabulary)
    assert view.last_token == b" " and view.natural_next == b" jard"
    assert view.candidates == 3 and view.natural_allowed is True and view.examples == (b" j", b" jard")
    assert words.trailing_space(spaced, full, 2, " jardín", None).candidates is None


def test_indentation_cost_counts_whitespace_tokens_at_line_starts() -> None:
    text = "def f():\n    return 1\n"
    tokens = [Token(1, b"def", 0, 3), Token(2, b" f", 3, 5), Token(3, b"():", 5, 8), Token(4, b"\n", 8, 9),
              Token(5, b"   ", 9, 12), Token(6, b" return", 12, 19), Token(7, b" 1", 19, 21), Token(8, b"\n", 21, 22)]
    cost = indentation.indentation_cost(text, tokens)
    assert (cost.tokens, cost.indentation_tokens, cost.indentation_chars) == (8, 1, 4)
    assert catalog.indented("\t").count("\t") == 8


@pytest.mark.parametrize(("text", "kind"), [
    (" SolidGoldMagikarp", "identifier"), ("TPPStreamerBot", "identifier"), ("isSpecialOrderable", "identifier"),
    ("________________", "symbol run"), (" =================", "symbol run"), ("ÃÂÃÂÃÂÃÂ", "mojibake"),
    (".getHost", "identifier"), ("_RECEIVED", "code"), (" telecommunications", None), (" MacArthur", None),
    ("rawdownloadcloneembedreportprint", None),
])
def test_glitch_shapes(text: str, kind: str | None) -> None:
    assert glitch.shape(text) == kind


def test_scan_keeps_long_unseen_tokens_by_shape_longest_first() -> None:
    vocabulary = {0: b"the", 1: b" SolidGoldMagikarp", 2: b" TheNitromeFan", 3: b"----------", 4: b" ordinaryword",
                  5: b"\xe2\x80", 6: b" seenCamelCase"}
    counts = np.array([9, 0, 0, 0, 0, 0, 3])
    result = glitch.scan(vocabulary, counts, min_chars=8)
    assert result.long_tokens == 5 and result.unseen_long == 4
    assert [t.text for t in result.by_shape["identifier"]] == [" SolidGoldMagikarp", " TheNitromeFan"]
    assert result.shape_counts == {"identifier": 2, "code": 0, "symbol run": 1, "mojibake": 0}


def test_the_reference_corpus_always_has_the_built_in_samples() -> None:
    reference = glitch.reference_corpus()
    assert reference.size_bytes > 10_000 and "Essay: why a model never sees letters" in reference.titles
    assert ("data folder" in reference.describe()) is reference.from_data_folder or not reference.from_data_folder


# -- on the real tokenizers ----------------------------------------------------------------------------

@functools.cache
def load(key: str):
    return pretrained.load(key)


def real(key: str, data_dir):  # noqa: ARG001 — the fixture skips without the data folder
    try:
        return load(key)
    except pretrained.TokenizerUnavailable as exc:
        pytest.skip(exc.reason)


@pytest.mark.data
def test_cl100k_cuts_2026_as_202_and_6_and_llama2_digit_by_digit(data_dir) -> None:
    text = CASES["numbers"].text
    spans = place_value.number_spans(text)
    cut = {key: [place_value.groups(place_value.place_cells(real(key, data_dir).encode(text), s, e, text))
                 for s, e in spans] for key in ("gpt2", "cl100k_base", "llama2")}
    assert cut["cl100k_base"][spans.index((text.index("2026"), text.index("2026") + 4))] == ["202", "6"]
    assert all(len(group) == 1 for groups in cut["llama2"] for group in groups)
    assert cut["gpt2"][0] == ["1000"]


@pytest.mark.data
@pytest.mark.parametrize("key", ["gpt2", "cl100k_base", "o200k_base", "llama3", "qwen", "claude_legacy", "llama2", "t5"])
def test_vocabulary_bytes_round_trip_through_the_tokenizer(key: str, data_dir) -> None:
    tok = real(key, data_dir)
    table = vocab.token_bytes(tok)
    assert table and len(table) > 30_000
    tokens = [t for t in tok.encode("hello world, again") if t.kind != ADDED]
    # the first token of a SentencePiece model leaves out its dummy-prefix space; the others are whole
    assert [table.get(t.id) for t in tokens[1:]] == [t.bytes for t in tokens[1:]], key


@pytest.mark.data
def test_wordpiece_has_no_byte_vocabulary(data_dir) -> None:
    assert vocab.token_bytes(real("bert_uncased", data_dir)) is None


@pytest.mark.data
def test_solidgoldmagikarp_is_found_in_gpt2(data_dir) -> None:
    from core import corpora

    tok = real("gpt2", data_dir)
    table = vocab.token_bytes(tok)
    texts = [corpora.load_corpus(k) for k in ("pud:en", "python_stdlib", *glitch.SAMPLE_KEYS)]
    counts = glitch.count_ids(tok, texts, size=max(table) + 1)
    result = glitch.scan(table, counts, per_shape=200)
    found = {t.text for t in result.by_shape["identifier"]}
    assert {" SolidGoldMagikarp", " TheNitromeFan", " RandomRedditorWithNo"} <= found
    assert " the" not in found and counts[tok.encode(" the")[0].id] > 1000


@pytest.mark.data
def test_trailing_space_under_cl100k(data_dir) -> None:
    tok = real("cl100k_base", data_dir)
    prompt, rest = catalog.TRAILING_PROMPT, catalog.TRAILING_CONTINUATION
    view = words.trailing_space(tok.encode(prompt + " "), tok.encode(prompt + rest), len(prompt), rest,
                                vocab.token_bytes(tok))
    assert view.last_token == b" " and view.natural_next.startswith(b" ")
    assert view.natural_allowed and view.candidates > 10_000 and b" j" in view.examples
