"""core.bpe, core.bpe.replay, core.bpe.export: reference vectors, both tie rules, both modes, the trace, segmentation, replay and exports."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import bpe
from core.bpe import export as bpe_export
from core.bpe import replay as bpe_replay
from core.corpora import load_corpus, split_heldout
from core.text.patterns import CL100K_PATTERN, GPT2_PATTERN, NAMED_PATTERNS
from core.types import UNKNOWN, Tokenizer
from tests.conftest import data_dir_or_none

ROOT = Path(__file__).resolve().parents[3]
WIKI = "aaabdaaabac"  # Wikipedia's byte-pair encoding example
MULTILINGUAL = "El niño juega en el jardín. Съешь ещё этих булок 日本語のテキスト 🙂👩‍💻  \n\n\tx = 2026;"


@pytest.fixture(scope="module")
def essay() -> str:
    return load_corpus("sample_essay_en")


@pytest.fixture(scope="module")
def small(essay: str) -> bpe.BPEResult:
    """A small byte-level BPE, trained once for the tests that only read it."""
    return bpe.train(essay, vocab_size=400)


@pytest.fixture(scope="module")
def corpus_and_heldout() -> tuple[str, str]:
    """Tiny Shakespeare (first 200 kB to keep tests quick) when the data folder has it, else the samples."""
    if data_dir_or_none() is not None:
        text = load_corpus("tinyshakespeare")[:220_000]
    else:
        text = "\n".join(load_corpus(k) for k in ("sample_essay_en", "sample_mercado_es", "sample_python"))
    return split_heldout(text)


def pieces(tokens: list) -> list[bytes]:
    return [t.bytes for t in tokens]


# -- reference vectors and tie rules ---------------------------------------------------------------


def test_wikipedia_example_with_first_seen_ties() -> None:
    result = bpe.train(WIKI, num_merges=10, min_count=2)
    assert [(s.left, s.right, s.new_id, s.piece, s.count) for s in result.trace] == [
        (97, 97, 256, b"aa", 4),  # aa -> Z: ZabdZabac (overlaps counted, as minbpe does)
        (97, 98, 257, b"ab", 2),  # ab -> Y: ZYdZYac
        (256, 257, 258, b"aaab", 2),  # ZY -> X: XdXac
    ]
    assert result.trace[1].n_tied == 2  # "Za" and "ab" both occur twice; "ab" was seen first
    assert result.stopped_early and "no pair occurs 2 times or more" in result.stop_reason
    assert pieces(result.tokenizer.encode(WIKI)) == [b"aaab", b"d", b"aaab", b"a", b"c"]


def test_largest_pair_breaks_the_same_tie_the_other_way() -> None:
    result = bpe.train(WIKI, num_merges=10, min_count=2, tie_break="largest_pair")
    assert [(s.left, s.right, s.piece) for s in result.trace] == [
        (97, 97, b"aa"),
        (256, 97, b"aaa"),  # (256, 97) > (97, 98): max by (count, pair)
        (257, 98, b"aaab"),
    ]
    assert result.trace[1].n_tied == 2
    assert result.tie_break == "largest_pair"


def test_a_crafted_tie_documents_both_rules() -> None:
    # ab, bc and xy all occur twice. first_seen: "ab" (seen first), then "xy" beats the new pair
    # "(ab)c", which is numbered after every pair of the starting corpus. largest_pair: the largest
    # ids win, "xy" = (120, 121) and then "bc" = (98, 99).
    corpus = "abc abc xy xy"
    first = bpe.train(corpus, num_merges=3, pattern=r"\w+")
    assert [(s.piece, s.n_tied) for s in first.trace] == [(b"ab", 3), (b"xy", 2), (b"abc", 1)]
    largest = bpe.train(corpus, num_merges=3, pattern=r"\w+", tie_break="largest_pair")
    assert [(s.piece, s.n_tied) for s in largest.trace] == [(b"xy", 3), (b"bc", 2), (b"abc", 1)]
    assert set(bpe.TIE_BREAKS) == {"first_seen", "largest_pair", "minbpe"}  # test_bpe_tie_rules: minbpe


def test_counts_never_increase_and_the_leaderboard_is_ordered(small: bpe.BPEResult) -> None:
    trace = small.trace
    assert [s.rank for s in trace] == list(range(len(trace)))
    assert [s.new_id for s in trace] == [256 + s.rank for s in trace]
    assert all(a.count >= b.count for a, b in zip(trace, trace[1:], strict=False))
    for step in trace:
        assert step.top[0] == (step.left, step.right, step.count)
        assert len(step.top) == 10
        assert [c for _, _, c in step.top] == sorted((c for _, _, c in step.top), reverse=True)
        assert step.n_tied == sum(1 for _, _, c in step.top if c == step.count) or step.n_tied > 10
        assert step.piece == small.tokenizer.vocab[step.left] + small.tokenizer.vocab[step.right]


def test_top_k_is_selectable(essay: str) -> None:
    assert len(bpe.train(essay, num_merges=3, top_k=25).trace[0].top) == 25


def test_token_counts_after_each_merge_match_encoding(essay: str, small: bpe.BPEResult) -> None:
    assert small.initial_tokens == len(essay.encode())
    assert small.corpus_tokens(0) == small.initial_tokens
    assert small.corpus_tokens(len(small.trace)) == len(small.tokenizer.encode_ids(essay))
    drops = [a.tokens_after - b.tokens_after for a, b in zip(small.trace, small.trace[1:], strict=False)]
    assert all(d > 0 for d in drops)
    with pytest.raises(ValueError, match="k must be between"):
        small.corpus_tokens(len(small.trace) + 1)


# -- character mode -------------------------------------------------------------------------------------


def test_char_mode_uses_end_of_word_symbols() -> None:
    result = bpe.train("low low low lower", num_merges=2, mode="char")
    tok = result.tokenizer
    assert [bpe.piece_label(s.piece) for s in result.trace] == ["lo", "low</w>"]
    assert tok.alphabet == ("e", "l", "o", "r</w>", "w", "w</w>")
    assert tok.vocab_size == 1 + 6 + 2 and tok.algorithm == "character BPE" and not tok.lossless
    tokens = tok.encode("low  lower\nxyz")
    assert [(t.bytes, t.start, t.end) for t in tokens][:2] == [(b"low", 0, 3), (b"lo", 5, 7)]
    assert tokens[-1].kind == UNKNOWN and tokens[-1].bytes == b""
    assert tok.decode(tok.encode_ids("low  lower")) == "low lower"


def test_char_mode_vocab_must_cover_the_alphabet() -> None:
    with pytest.raises(ValueError, match="at least 7: the corpus's alphabet has 7 symbols"):
        bpe.train("low low low lower", vocab_size=5, mode="char")


# -- errors, early stop, progress -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"corpus": "", "vocab_size": 300}, "the corpus is empty"),
        ({"corpus": "   \n ", "vocab_size": 300, "mode": "char"}, "the corpus is empty"),
        ({"corpus": "abc", "vocab_size": 100}, "vocab_size must be at least 256, so every byte has a token"),
        ({"corpus": "abc", "vocab_size": 300, "num_merges": 3}, "exactly one of them"),
        ({"corpus": "abc"}, "exactly one of them"),
        ({"corpus": "abc", "num_merges": -1}, "num_merges must be 0 or more"),
        ({"corpus": "abc", "num_merges": 1, "mode": "word"}, "mode must be one of"),
        ({"corpus": "abc", "num_merges": 1, "tie_break": "random"}, "tie_break must be one of"),
        ({"corpus": "abc", "num_merges": 1, "top_k": 0}, "top_k must be at least 1"),
        ({"corpus": "abc", "num_merges": 1, "pattern": "(["}, "invalid pattern"),
    ],
)
def test_bad_input_is_a_clear_value_error(kwargs: dict, message: str) -> None:
    corpus = kwargs.pop("corpus")
    with pytest.raises(ValueError, match=message):
        bpe.train(corpus, **kwargs)


def test_training_stops_early_when_no_pair_is_left() -> None:
    result = bpe.train("ab ab", vocab_size=1000)
    assert [s.piece for s in result.trace] == [b"ab", b" ab"]
    assert result.stopped_early
    assert "stopped after 2 of 744 merges: no pair is left to merge" in result.stop_reason
    assert result.tokenizer.vocab_size == 258


def test_no_early_stop_when_merges_run_out_exactly() -> None:
    result = bpe.train("ab", num_merges=1)
    assert not result.stopped_early and result.stop_reason is None


def test_progress_goes_through_the_callback(essay: str) -> None:
    calls: list[tuple[int, int]] = []
    bpe.train(essay, num_merges=250, progress=lambda done, total: calls.append((done, total)))
    assert 2 <= len(calls) <= 260
    assert calls[-1] == (250, 250)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


# -- the tokenizer ----------------------------------------------------------------------------------


def test_the_tokenizer_satisfies_the_protocol(small: bpe.BPEResult) -> None:
    tok = small.tokenizer
    assert isinstance(tok, Tokenizer)
    assert (tok.family, tok.algorithm, tok.lossless, dict(tok.special_tokens)) == (
        "trained here", "byte-level BPE", True, {}
    )
    assert tok.vocab_size == 400 and len(tok.vocab) == 400
    assert "GPT-2 pattern" in tok.name


def test_offsets_follow_characters_and_share_a_split_character(small: bpe.BPEResult) -> None:
    tokens = small.tokenizer.encode(MULTILINGUAL)
    assert b"".join(pieces(tokens)) == MULTILINGUAL.encode()
    assert [t.start for t in tokens] == sorted(t.start for t in tokens)
    assert all(t.start < t.end for t in tokens)
    for token in tokens:  # a token's bytes lie within the characters its offsets cover
        assert token.bytes in MULTILINGUAL[token.start : token.end].encode()
    emoji = MULTILINGUAL.index("🙂")
    assert {(t.start, t.end) for t in tokens if t.start == emoji} == {(emoji, emoji + 1)}


def test_decode_rejects_unknown_ids(small: bpe.BPEResult) -> None:
    with pytest.raises(ValueError, match="token id 400 is not in this vocabulary"):
        small.tokenizer.decode([400])


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=80))
def test_round_trip_on_any_text(text: str) -> None:
    tok = _round_trip_tokenizer()
    tokens = tok.encode(text)
    assert tok.decode([t.id for t in tokens]) == text
    assert [t.id for t in tokens] == tok.encode_ids(text)
    assert [t.start for t in tokens] == sorted(t.start for t in tokens)


def _round_trip_tokenizer() -> bpe.BPETokenizer:
    global _ROUND_TRIP
    if _ROUND_TRIP is None:
        _ROUND_TRIP = bpe.train(load_corpus("sample_multilingual"), vocab_size=500).tokenizer
    return _ROUND_TRIP


_ROUND_TRIP: bpe.BPETokenizer | None = None


def test_the_tokenizer_pickles_without_its_caches(small: bpe.BPEResult) -> None:
    small.tokenizer.encode_ids("warm the cache")
    copy = pickle.loads(pickle.dumps(small))
    assert copy.tokenizer.encode_ids(MULTILINGUAL) == small.tokenizer.encode_ids(MULTILINGUAL)


# -- segmentation after k merges ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["byte", "char"])
def test_segment_and_changed_spans_for_every_k(essay: str, mode: str) -> None:
    result = bpe.train(essay, num_merges=150, mode=mode)
    tok, text = result.tokenizer, essay[:400] + " niño 🙂"
    assert tok.segment(text, len(result.trace)) == tok.encode(text)
    previous = tok.segment(text, 0)
    if mode == "byte":
        assert [t.id for t in previous] == list(text.encode())
    assert tok.changed_spans(text, 0) == []
    for k in range(1, len(result.trace) + 1):
        current = tok.segment(text, k)
        assert b"".join(pieces(current)) == b"".join(pieces(previous))
        before = {(t.start, t.end, t.id) for t in previous}
        expected = sorted({(t.start, t.end) for t in current if (t.start, t.end, t.id) not in before})
        assert tok.changed_spans(text, k) == expected
        assert all(t.id == result.trace[k - 1].new_id for t in current if (t.start, t.end, t.id) not in before)
        previous = current
    assert tok.change_steps(text) == [k for k in range(1, len(result.trace) + 1) if tok.changed_spans(text, k)]


# -- replay of a real tokenizer ------------------------------------------------------------------------


def test_replay_ends_where_tiktoken_does(data_dir: Path) -> None:
    import tiktoken
    import tiktoken.load

    ranks = tiktoken.load.load_tiktoken_bpe(str(data_dir / "tokenizers" / "cl100k_base.tiktoken"))
    encoding = tiktoken.Encoding("cl100k_base", pat_str=CL100K_PATTERN, mergeable_ranks=ranks, special_tokens={})
    inputs = (data_dir / "testdata" / "ggml-vocab-gpt-2.gguf.inp").read_text(encoding="utf-8")
    texts = [*inputs.split("\n__ggml_vocab_test__\n"), MULTILINGUAL, load_corpus("sample_python")]
    for text in texts:
        replayed = bpe_replay.replay(text, mergeable_ranks=ranks, pattern=CL100K_PATTERN)
        final = replayed.segmentation(replayed.n_steps)
        assert [t.id for t in final] == encoding.encode_ordinary(text)
        assert b"".join(pieces(replayed.segmentation(0))) == text.encode()
        assert [e.rank for e in replayed.events] == sorted(e.rank for e in replayed.events)
        for event in replayed.events[:20]:
            assert replayed.changed_spans(event.step + 1) == [(event.start, event.end)]


def test_replay_needs_every_byte() -> None:
    with pytest.raises(ValueError, match="no token for the byte"):
        bpe_replay.replay("hé", mergeable_ranks={b"h": 0}, pattern=GPT2_PATTERN)


# -- export and saving ---------------------------------------------------------------------------------


@pytest.mark.parametrize("pattern_name", ["GPT-2", "cl100k_base", "o200k_base", "Llama 3"])
def test_exports_encode_like_the_python_encoder(corpus_and_heldout: tuple[str, str], pattern_name: str) -> None:
    from tokenizers import Tokenizer as HFTokenizer

    train, heldout = corpus_and_heldout
    result = bpe.train(train, vocab_size=600, pattern=NAMED_PATTERNS[pattern_name])
    encoding = bpe_export.to_tiktoken(result)
    hf = HFTokenizer.from_str(bpe_export.to_hf_json(result))
    for text in (heldout, MULTILINGUAL, load_corpus("sample_multilingual")):
        ids = result.tokenizer.encode_ids(text)
        assert encoding.encode_ordinary(text) == ids
        assert hf.encode(text).ids == ids
        assert hf.decode(ids) == text == encoding.decode(ids)


def test_hf_json_loads_from_a_file(tmp_path: Path, small: bpe.BPEResult) -> None:
    from tokenizers import Tokenizer as HFTokenizer

    path = tmp_path / "tokenizer.json"
    path.write_text(bpe_export.to_hf_json(small), encoding="utf-8")
    assert HFTokenizer.from_file(str(path)).encode(MULTILINGUAL).ids == small.tokenizer.encode_ids(MULTILINGUAL)


def test_char_mode_exports_to_hf_json_only(corpus_and_heldout: tuple[str, str]) -> None:
    from tokenizers import Tokenizer as HFTokenizer

    train, heldout = corpus_and_heldout
    result = bpe.train(train, num_merges=300, mode="char")
    hf = HFTokenizer.from_str(bpe_export.to_hf_json(result))
    for text in (heldout, MULTILINGUAL):
        assert hf.encode(text).ids == result.tokenizer.encode_ids(text)
    with pytest.raises(ValueError, match="only byte-level BPE exports to tiktoken"):
        bpe_export.to_tiktoken(result)


def test_patterns_a_library_cannot_run_are_a_value_error() -> None:
    result = bpe.train("hello world", num_merges=2, pattern=r"(?V1)\w+|.")  # the regex package only
    with pytest.raises(ValueError, match="tiktoken cannot use this tokenizer's pattern"):
        bpe_export.to_tiktoken(result)
    with pytest.raises(ValueError, match="tokenizers cannot use this tokenizer's pattern"):
        bpe_export.to_hf_json(result)


def test_saved_results_load_back(small: bpe.BPEResult) -> None:
    loaded = bpe_export.from_json(bpe_export.to_json(small))
    assert loaded.trace == small.trace
    assert (loaded.stopped_early, loaded.stop_reason, loaded.initial_tokens) == (
        small.stopped_early, small.stop_reason, small.initial_tokens
    )
    assert loaded.tokenizer.encode(MULTILINGUAL) == small.tokenizer.encode(MULTILINGUAL)
    char = bpe.train("low low low lower", num_merges=2, mode="char")
    assert bpe_export.from_json(bpe_export.to_json(char)).tokenizer.encode("lower") == char.tokenizer.encode("lower")
    with pytest.raises(ValueError, match="not a saved BPE result"):
        bpe_export.from_json("{}")


def test_export_libraries_are_imported_only_when_used() -> None:
    script = "import sys, core.bpe, core.bpe.export, core.bpe.replay, core.corpora; print(sorted(m for m in ('tiktoken', 'tokenizers') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- lone surrogates (a browser can send one) --------------------------------------------------------------


def test_a_lone_surrogate_reads_as_a_replacement_character_everywhere() -> None:
    tok = bpe.train("hello world", num_merges=2).tokenizer
    text, clean = "a\ud800b", "a\ufffdb"
    assert tok.segment(text, 0) == tok.segment(clean, 0)
    assert [t.bytes for t in tok.segment(text, 0)] == [b"a", b"\xef", b"\xbf", b"\xbd", b"b"]
    assert tok.encode(text) == tok.encode(clean) and tok.encode_ids(text) == tok.encode_ids(clean)
    assert tok.changed_spans("he\udfffllo", 1) == tok.changed_spans("he\ufffdllo", 1) != []
    assert tok.change_steps("he\udfffllo") == tok.change_steps("he\ufffdllo") == [1, 2]


@pytest.mark.parametrize("mode", ["byte", "char"])
def test_training_on_a_corpus_with_a_lone_surrogate(mode: str) -> None:
    result = bpe.train("ab\ud800 ab\ud800", num_merges=2, mode=mode)
    assert result.trace == bpe.train("ab\ufffd ab\ufffd", num_merges=2, mode=mode).trace
    assert result.tokenizer.decode(result.tokenizer.encode_ids("ab\ud800")) == "ab\ufffd"


def test_replay_reads_a_lone_surrogate_as_a_replacement_character() -> None:
    ranks = {bytes([i]): i for i in range(256)} | {b"\xef\xbf": 256, b"\xef\xbf\xbd": 257}
    replayed = bpe_replay.replay("a\udc80b", mergeable_ranks=ranks, pattern=GPT2_PATTERN)
    assert replayed.text == "a\ufffdb"
    assert [t.id for t in replayed.segmentation(replayed.n_steps)] == [97, 257, 98]
    assert [(t.start, t.end) for t in replayed.segmentation(replayed.n_steps)] == [(0, 1), (1, 2), (2, 3)]
    assert replayed.changed_spans(2) == [(1, 2)]
