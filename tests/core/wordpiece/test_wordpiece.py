"""core.wordpiece: hand-checked training, a from-scratch oracle, greedy longest match, [UNK] rules,
offsets, match steps, and cross-checks with Hugging Face tokenizers."""

from __future__ import annotations

import pickle
from collections import Counter
from fractions import Fraction
from unittest import mock

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import wordpiece
from core.corpora import load_corpus, split_heldout
from core.text.patterns import BERT_PATTERN, WHITESPACE_WORDS_PATTERN
from core.types import SPECIAL, TEXT, UNKNOWN, Tokenizer
from core.wordpiece import pair_scores
from core.wordpiece.tokenizer import count_words, word_spans
from tests.conftest import data_dir_or_none

# Hugging Face's course example: hug 10, pug 5, pun 12, bun 4, hugs 5.
COURSE = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def essay() -> wordpiece.WordPieceResult:
    return wordpiece.train(load_corpus("sample_essay_en"), vocab_size=400)


def labels(tokenizer: wordpiece.WordPieceTokenizer, tokens: list) -> list[str]:
    return [tokenizer.label(t.id) for t in tokens]


# -- training, checked by hand ----------------------------------------------------------------------


def test_the_course_example_by_hand() -> None:
    """h=15 p=17 b=4 ##u=36 ##g=20 ##n=16 ##s=5 (113 characters)."""
    result = wordpiece.train(COURSE, vocab_size=11)
    tok = result.tokenizer
    assert tok.pieces[: result.base_size] == ("[UNK]", "b", "##g", "h", "##n", "p", "##s", "##u")
    assert result.initial_tokens == 113
    first, second, third = result.trace
    # ##g ##s: 5 / (20 * 5) = 1/20, the best: ##u ##g is 4x as frequent but scores 15 / (36 * 20)
    assert (first.piece, first.count, first.left_count, first.right_count) == ("##gs", 5, 20, 5)
    assert first.score == 1 / 20 and first.n_tied == 1 and first.tokens_after == 108
    assert [tok.label(c.left) + " " + tok.label(c.right) for c in first.top[:3]] == ["##g ##s", "h ##u", "##u ##g"]
    # now ##g=15: h ##u, ##u ##g, p ##u, ##u ##n, b ##u and ##u ##gs all score 1/36; h ##u was seen first
    assert (second.piece, second.count, second.left_count, second.right_count) == ("hu", 15, 15, 36)
    assert second.n_tied == 6 and second.tokens_after == 93
    assert all(c.score == 1 / 36 for c in second.top)
    # hu ##gs: 5 / (15 * 5) = 1/15 beats p ##u, ##u ##n, b ##u at 1/21 and hu ##g at 10/225
    assert (third.piece, third.score, third.n_tied, third.tokens_after) == ("hugs", 1 / 15, 1, 88)
    board = [(tok.label(c.left) + tok.label(c.right), c.score) for c in third.top]
    assert board == [("hu##gs", 1 / 15), ("p##u", 1 / 21), ("##u##n", 1 / 21), ("b##u", 1 / 21),
                     ("hu##g", 10 / 225), ("##u##g", 5 / 315)]
    assert tok.pieces[result.base_size :] == ("##gs", "hu", "hugs")


def test_two_merges_that_spell_the_same_piece_share_it() -> None:
    """ab+##c and a+##bc both spell "abc": the second merge adds no piece, its occurrences join the first's."""
    result = wordpiece.train("ab abc xbc", vocab_size=20)
    made = [(s.piece, s.added) for s in result.trace]
    pieces = result.tokenizer.pieces
    assert len(set(pieces)) == len(pieces) == result.base_size + sum(added for _, added in made)
    assert result.tokenizer.encode_ids("abc") == [pieces.index("abc")]


def test_min_count_keeps_rare_pairs_out_of_the_race() -> None:
    result = wordpiece.train(COURSE + " xy", vocab_size=30, min_count=4)
    assert result.trace and all(s.count >= 4 for s in result.trace)
    assert "xy" not in result.tokenizer.pieces
    assert "no pair occurs 4 times or more" in result.stop_reason


def test_training_stops_early_when_every_word_is_one_piece() -> None:
    result = wordpiece.train("hug hug", vocab_size=50)
    assert result.stopped_early and result.tokenizer.vocab_size == 6  # [UNK] h ##g ##u hu hug
    assert "single piece" in result.stop_reason
    assert not wordpiece.train("hug", vocab_size=6).stopped_early


def test_progress_goes_through_the_callback(essay: wordpiece.WordPieceResult) -> None:
    calls: list[tuple[int, int]] = []
    wordpiece.train(load_corpus("sample_essay_en"), vocab_size=400, progress=lambda d, t: calls.append((d, t)))
    assert 10 <= len(calls) <= 110
    assert calls[-1] == (400 - essay.base_size,) * 2
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"vocab_size": 1}, "between 2"),
        ({"vocab_size": 5}, "at least 8"),
        ({"vocab_size": 50, "top_k": 0}, "top_k"),
        ({"vocab_size": 50, "min_count": 0}, "min_count"),
        ({"vocab_size": 50, "max_chars_per_word": 0}, "max_chars_per_word"),
        ({"vocab_size": 50, "pattern": "(unclosed"}, "invalid pattern"),
    ],
)
def test_bad_arguments_are_a_clear_value_error(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=regex.escape(message)):
        wordpiece.train(COURSE, **kwargs)


@pytest.mark.parametrize(("corpus", "message"), [("", "no words"), (" \n\t ", "no words"), ("a" * 200, "longer than")])
def test_a_corpus_without_usable_words_is_a_clear_value_error(corpus: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        wordpiece.train(corpus, vocab_size=50)


def test_a_longer_run_contains_every_shorter_one(essay: wordpiece.WordPieceResult) -> None:
    shorter = wordpiece.train(load_corpus("sample_essay_en"), vocab_size=250)
    assert essay.tokenizer_at(250).pieces == shorter.tokenizer.pieces
    assert essay.trace[: len(shorter.trace)] == shorter.trace
    text = load_corpus("sample_mercado_es")
    assert essay.tokenizer_at(250).encode(text) == shorter.tokenizer.encode(text)
    with pytest.raises(ValueError, match="between"):
        essay.tokenizer_at(401)


def test_corpus_tokens_follow_the_trace(essay: wordpiece.WordPieceResult) -> None:
    text = load_corpus("sample_essay_en")
    for k in (0, 1, 50, len(essay.trace)):
        size = essay.base_size + sum(s.added for s in essay.trace[:k])
        assert essay.corpus_tokens(k) == len(essay.tokenizer_at(size).encode_ids(text))


# -- training against a from-scratch oracle ---------------------------------------------------------


def naive_train(corpus: str, vocab_size: int, *, min_count: int = 1, top_k: int = 10) -> tuple[list, list]:
    """WordPiece training as the definition says: recount everything with exact fractions every step.

    Symbols are ``(text, continuation)``; ties go to the pair seen first, pairs made by a merge
    numbered after all others in corpus order.
    """
    counted = Counter(m.group() for m in regex.finditer(BERT_PATTERN, corpus))
    segs = [[(w[0], False)] + [(c, True) for c in w[1:]] for w in counted]
    freqs = list(counted.values())
    seen: dict = {}

    def number_new_pairs() -> None:
        for seg in segs:
            for pair in zip(seg, seg[1:], strict=False):
                seen.setdefault(pair, len(seen))

    number_new_pairs()
    alphabet = sorted({s for seg in segs for s in seg}, key=lambda s: (s[0], s[1]))
    vocab = [("[UNK]", False), *alphabet]
    steps = []
    while len(vocab) < vocab_size:
        pairs: Counter = Counter()
        symbols: Counter = Counter()
        for seg, freq in zip(segs, freqs, strict=True):
            for s in seg:
                symbols[s] += freq
            for pair in zip(seg, seg[1:], strict=False):
                pairs[pair] += freq
        race = {p: Fraction(c, symbols[p[0]] * symbols[p[1]]) for p, c in pairs.items() if c >= min_count}
        if not race:
            break
        board = sorted(race, key=lambda p: (-race[p], seen[p]))
        a, b = board[0]
        new = (a[0] + b[0], a[1])
        tied = sum(score == race[(a, b)] for score in race.values())
        top = [(p, race[p], pairs[p], symbols[p[0]], symbols[p[1]]) for p in board[:top_k]]
        for seg in segs:
            i = 0
            while i < len(seg) - 1:
                if seg[i] == a and seg[i + 1] == b:
                    seg[i : i + 2] = [new]
                i += 1
        number_new_pairs()
        if new not in vocab:
            vocab.append(new)
        steps.append((new, tied, top, sum(len(s) * f for s, f in zip(segs, freqs, strict=True))))
    return vocab, steps


def symbol(tok: wordpiece.WordPieceTokenizer, token_id: int) -> tuple[str, bool]:
    return tok.texts[token_id], tok.continuation[token_id]


@SETTINGS
@given(
    words=st.lists(st.text("aabbcd,A", min_size=1, max_size=7), min_size=1, max_size=25),
    extra=st.integers(0, 30),
    min_count=st.integers(1, 3),
    group_at=st.sampled_from([1, 3, pair_scores.GROUP_AT]),
)
def test_training_matches_the_from_scratch_oracle(words: list[str], extra: int, min_count: int, group_at: int) -> None:
    """``group_at`` 1 puts every pair in a group, 3 some of them, the default none on corpora this small."""
    corpus = " ".join(words)
    try:
        result = wordpiece.train(corpus, vocab_size=200, min_count=min_count)
    except ValueError:
        return
    size = result.base_size + extra
    with mock.patch.object(pair_scores, "GROUP_AT", group_at):
        result = wordpiece.train(corpus, vocab_size=size, min_count=min_count)
    vocab, steps = naive_train(corpus, size, min_count=min_count)
    tok = result.tokenizer
    assert [symbol(tok, i) for i in range(tok.vocab_size)] == vocab
    assert len(result.trace) == len(steps)
    for step, (new, tied, top, tokens_after) in zip(result.trace, steps, strict=True):
        assert symbol(tok, step.new_id) == new
        assert (step.n_tied, step.tokens_after) == (tied, tokens_after)
        ours = [((symbol(tok, c.left), symbol(tok, c.right)), c.score, c.count, c.left_count, c.right_count) for c in step.top]
        assert ours == [(p, float(score), c, lc, rc) for p, score, c, lc, rc in top]
        assert step.score == step.count / (step.left_count * step.right_count)


@pytest.mark.parametrize("group_at", [2, 10, pair_scores.GROUP_AT])
def test_training_on_a_real_text_matches_the_oracle(group_at: int) -> None:
    text = load_corpus("sample_mercado_es")
    with mock.patch.object(pair_scores, "GROUP_AT", group_at):
        result = wordpiece.train(text, vocab_size=300)
    vocab, steps = naive_train(text, 300)
    tok = result.tokenizer
    assert [symbol(tok, i) for i in range(tok.vocab_size)] == vocab
    assert [(s.n_tied, s.tokens_after) for s in result.trace] == [(tied, after) for _, tied, _, after in steps]
    top = [[(symbol(tok, c.left), symbol(tok, c.right), c.count) for c in s.top] for s in result.trace]
    assert top == [[(p[0], p[1], c) for p, _, c, _, _ in board] for _, _, board, _ in steps]


# -- encoding ---------------------------------------------------------------------------------------


def test_greedy_longest_match_by_hand() -> None:
    tok = wordpiece.WordPieceTokenizer(pieces=["[UNK]", "u", "un", "##a", "##able", "##b", "##le"])
    assert labels(tok, tok.encode("unable unble")) == ["un", "##able", "un", "##b", "##le"]
    # longest first at each position, not the best overall: "u" + "##nable" does not exist anyway
    assert tok.decode(tok.encode_ids("unable unble")) == "unable unble"


def test_a_character_never_seen_makes_the_whole_word_unknown() -> None:
    tok = wordpiece.train("hug pug hugs", vocab_size=12).tokenizer
    tokens = tok.encode("hug bug hux")
    assert [(t.id, t.bytes, t.start, t.end, t.kind) for t in tokens[1:]] == [
        (0, b"", 4, 7, UNKNOWN),  # "b" never starts a word in training
        (0, b"", 8, 11, UNKNOWN),  # "##x" is not a piece: "hu" matched, but the whole word is lost
    ]
    assert tokens[0].kind == TEXT
    assert "[UNK]" in wordpiece.UNSEEN_CHARACTER


def test_words_longer_than_max_chars_per_word_are_unknown() -> None:
    tok = wordpiece.train("a " * 3 + "aa", vocab_size=20).tokenizer
    assert tok.pieces == ("[UNK]", "a", "##a", "aa")
    assert [t.kind for t in tok.encode("a" * 100)] == [TEXT] * 99  # aa ##a ##a ...
    assert [(t.kind, t.start, t.end) for t in tok.encode("x " + "a" * 101)] == [(UNKNOWN, 0, 1), (UNKNOWN, 2, 103)]
    short = wordpiece.WordPieceTokenizer(pieces=tok.pieces, max_chars_per_word=3)
    assert [t.kind for t in short.encode("aaa aaaa")] == [TEXT, TEXT, UNKNOWN]


def test_allow_special_reads_a_literal_unk() -> None:
    tok = wordpiece.WordPieceTokenizer(pieces=["[UNK]", "a", "[", "]", "U", "##N", "##K"])
    assert [t.kind for t in tok.encode("a[UNK]a", allow_special=True)] == [TEXT, SPECIAL, TEXT]
    assert tok.encode("a[UNK]a", allow_special=True)[1] == (0, b"[UNK]", 1, 6, SPECIAL)
    assert labels(tok, tok.encode("[UNK]")) == ["[", "U", "##N", "##K", "]"]


def test_decode_glues_continuations_and_rejects_unknown_ids() -> None:
    tok = wordpiece.WordPieceTokenizer(pieces=["[UNK]", "un", "##able", "x"])
    assert tok.decode([2, 1, 2, 3, 0]) == "able unable x [UNK]"
    with pytest.raises(ValueError, match="not in this vocabulary"):
        tok.decode([4])


def test_a_word_may_start_with_the_continuation_mark() -> None:
    """With whitespace words "##a" is a word: its first piece "#" is not the continuation "##"."""
    result = wordpiece.train("##a ##a ##a a", vocab_size=30, pattern=WHITESPACE_WORDS_PATTERN)
    tok = result.tokenizer
    tokens = tok.encode("##a a")
    assert [(t.bytes, t.start, t.end) for t in tokens] == [(b"##a", 0, 3), (b"a", 4, 5)]
    assert tok.continuation[tokens[0].id] is False


def test_lowercasing_keeps_offsets_into_the_original_text() -> None:
    result = wordpiece.train("hug Hug HUG İstanbul ΟΔΟΣ", vocab_size=60, lowercase=True)
    tok = result.tokenizer
    assert all(p == p.lower() for p in tok.pieces if p != "[UNK]")
    tokens = tok.encode("HUG İstanbul ΟΔΟΣ")
    assert tokens[0] == (tok.pieces.index("hug"), b"hug", 0, 3, TEXT)
    istanbul = [t for t in tokens if 4 <= t.start < 12]
    assert b"".join(t.bytes for t in istanbul) == "i̇stanbul".encode()  # İ lowercases to two characters
    assert (istanbul[0].start, istanbul[-1].end) == (4, 12)
    assert b"".join(t.bytes for t in tokens if t.start >= 13) == "οδος".encode()  # final sigma


def test_the_tokenizer_satisfies_the_protocol_and_pickles(essay: wordpiece.WordPieceResult) -> None:
    tok = essay.tokenizer
    assert isinstance(tok, Tokenizer)
    assert (tok.algorithm, tok.family, tok.lossless, tok.vocab_size) == ("WordPiece", "trained here", False, 400)
    assert dict(tok.special_tokens) == {"[UNK]": 0}
    tok.encode("warm the memo")
    copy = pickle.loads(pickle.dumps(tok))
    assert tok._specs and copy.pieces == tok.pieces and copy._specs == {} and copy._ids == {}
    assert copy.encode("Tokens, tokens!") == tok.encode("Tokens, tokens!")


def test_a_lone_surrogate_reads_as_a_replacement_character(essay: wordpiece.WordPieceResult) -> None:
    tokens = essay.tokenizer.encode("a\ud800b")
    assert [(t.kind, t.start, t.end) for t in tokens] == [(UNKNOWN, 0, 3)]
    assert wordpiece.train("ab\udc00 ab", vocab_size=10).tokenizer.pieces[1:4] == ("a", "##b", "##\ufffd")


# -- encoding against slow oracles --------------------------------------------------------------------

TEXTS = st.lists(
    st.one_of(
        st.text(st.characters(exclude_categories=("Cs",)), max_size=8),
        st.sampled_from(["the", "token", "tokens,", "Tokenization", "e\u0301", "👩‍💻", "日本語", "  \n", "[UNK]"]),
    ),
    max_size=12,
).map(" ".join)


def greedy_oracle(tok: wordpiece.WordPieceTokenizer, word: str) -> list[int] | None:
    """Greedy longest match by scanning the whole vocabulary at every position."""
    out, start = [], 0
    while start < len(word):
        fits = [
            i for i in range(tok.vocab_size)
            if i != tok.unk_id and tok.continuation[i] == (start > 0) and word.startswith(tok.texts[i], start) and tok.texts[i]
        ]
        if not fits:
            return None
        best = max(fits, key=lambda i: len(tok.texts[i]))
        out.append(best)
        start += len(tok.texts[best])
    return out


@SETTINGS
@given(text=TEXTS)
def test_encoding_and_offsets_agree_with_slow_oracles(essay: wordpiece.WordPieceResult, text: str) -> None:
    tok = essay.tokenizer
    tokens = tok.encode(text)
    expected = []
    for match in regex.finditer(BERT_PATTERN, text):
        word, start = match.group(), match.start()
        cut = greedy_oracle(tok, word) if len(word) <= 100 else None
        if cut is None:
            expected.append((0, b"", start, match.end(), UNKNOWN))
            continue
        for i in cut:
            piece = tok.texts[i]
            expected.append((i, piece.encode(), start, start + len(piece), TEXT))
            start += len(piece)
    assert tokens == expected
    for t in tokens:  # offsets into the text as given: the text under a token is its piece
        if t.kind == TEXT:
            assert text[t.start : t.end].encode() == t.bytes
    assert tok.encode_ids(text) == [t.id for t in tokens]


@SETTINGS
@given(word=st.text("thesonkiz", min_size=1, max_size=12))
def test_match_steps_agree_with_encoding(essay: wordpiece.WordPieceResult, word: str) -> None:
    tok = essay.tokenizer
    steps = tok.match_steps(word)
    assert list(steps.pieces) == labels(tok, tok.encode(word))
    assert (steps.unknown is None) == (steps.pieces != ("[UNK]",))
    found = [a for a in steps.attempts if a.found]
    assert [a.candidate for a in found] == ([] if steps.unknown else list(steps.pieces))
    for a in steps.attempts:
        assert a.candidate == ("##" if a.start else "") + word[a.start : a.end]


def test_match_steps_by_hand() -> None:
    tok = wordpiece.WordPieceTokenizer(pieces=["[UNK]", "u", "un", "##a", "##able"])
    steps = tok.match_steps("unable")
    assert [(a.candidate, a.found) for a in steps.attempts] == [
        ("unable", False), ("unabl", False), ("unab", False), ("una", False), ("un", True), ("##able", True),
    ]
    assert steps.pieces == ("un", "##able") and steps.unknown is None
    unknown = tok.match_steps("unx")
    assert [(a.candidate, a.found) for a in unknown.attempts] == [("unx", False), ("un", True), ("##x", False)]
    assert unknown.pieces == ("[UNK]",) and "'##x' is not in the vocabulary" in unknown.unknown
    too_long = tok.match_steps("u" * 101)
    assert too_long.attempts == () and "more than max_chars_per_word (100)" in too_long.unknown
    with pytest.raises(ValueError, match="empty"):
        tok.match_steps("")


@SETTINGS
@given(text=TEXTS.map(lambda t: t.replace("\x1c", " ")) | st.text("ab ,.\x1c\x1f\u3000\u0085x"))
def test_the_fast_word_count_is_the_slow_one(text: str) -> None:
    for pattern in (BERT_PATTERN, WHITESPACE_WORDS_PATTERN):
        slow = Counter(word for _, _, word in word_spans(text, pattern))
        assert list(count_words(text, pattern).items()) == list(slow.items())


@pytest.mark.parametrize(
    "text",
    [
        "'tis, -- (lord)! don't a.b ...x... «word» word… ¿qué? ٣, x_y _ 3.14 [UNK] ##ab ,,a,, a1,b2",
        "\u00e9t\u00e9; na\u0308ive, \U0001f600! \u4e2d\u6587\u3002 {a}b} #1",
    ],
)
def test_words_between_ascii_punctuation_are_cut_as_the_pattern_cuts_them(text: str) -> None:
    """The strip shortcut of count_words (letters between ASCII marks) against the pattern itself."""
    slow = Counter(word for _, _, word in word_spans(text, BERT_PATTERN))
    assert list(count_words(text, BERT_PATTERN).items()) == list(slow.items())


# -- against Hugging Face tokenizers --------------------------------------------------------------------


def hf_wordpiece(text: str, vocab_size: int):
    tokenizers = pytest.importorskip("tokenizers")
    tok = tokenizers.Tokenizer(tokenizers.models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    trainer = tokenizers.trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=["[UNK]"], show_progress=False)
    tok.train_from_iterator([text], trainer=trainer)
    return tok


@pytest.fixture(scope="module")
def train_and_heldout() -> tuple[str, str]:
    """Tiny Shakespeare's first 200 kB when the data folder has it, else the built-in samples."""
    if data_dir_or_none() is not None:
        return split_heldout(load_corpus("tinyshakespeare")[:200_000])
    return split_heldout("\n".join(load_corpus(k) for k in ("sample_essay_en", "sample_mercado_es", "sample_python")))


def test_our_encoder_on_their_vocabulary_gives_their_tokens(train_and_heldout: tuple[str, str]) -> None:
    train, heldout = train_and_heldout
    theirs = hf_wordpiece(train, 800)
    vocab = theirs.get_vocab()
    ours = wordpiece.WordPieceTokenizer(pieces=sorted(vocab, key=vocab.get))
    text = heldout + " Zebra-crossing: ünïcödé naïveté, 日本語 🙂"
    encoding = theirs.encode(text)
    assert [t.id for t in ours.encode(text)] == encoding.ids
    assert [(t.start, t.end) for t in ours.encode(text)] == encoding.offsets  # ASCII-free offsets agree too


def test_held_out_compression_against_their_trainer(train_and_heldout: tuple[str, str]) -> None:
    """Same corpus, same pre-tokenizer, same vocabulary size; what differs is the merge rule.

    Theirs merges the most frequent pair, ours the best count(ab) / (count(a) count(b)), which spends
    pieces on rare pairs (a name seen twice scores as well as a common ending), so ours needs more
    tokens for the same text. Stated tolerance: ours keeps at least 45 % of their held-out bytes per
    token (measured: about 60 % on 200 kB of Tiny Shakespeare, 51 % on 1 MB, 64-99 % on the samples)
    and does not beat theirs by more than 5 %. With no merges at all both cut the training text into
    the same characters (on other text they differ: their alphabet also has "Z" when "Z" was only seen
    inside words, as "##Z"; ours, as the course describes it, only has the characters seen starting one).
    """
    train, heldout = train_and_heldout
    ours = wordpiece.train(train, vocab_size=1000)
    theirs = hf_wordpiece(train, 1000)
    ratio = len(theirs.encode(heldout).ids) / len(ours.tokenizer.encode_ids(heldout))
    assert 0.45 <= ratio <= 1.05, ratio
    alphabet = ours.tokenizer_at(ours.base_size)
    plain = hf_wordpiece(train, ours.base_size)
    assert labels(alphabet, alphabet.encode(train)) == plain.encode(train).tokens
