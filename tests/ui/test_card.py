"""ui.card: a Playground column's head as plain text (the box's script writes it as text nodes)."""

from __future__ import annotations

from types import SimpleNamespace

from core.tokens.roundtrip import Difference
from ui.card import FACTS_HELP, card_head

EVIL = "<b>my [vocab](x) :red[v]_*.txt"


def tokenizer(**extra: object) -> SimpleNamespace:
    fields = {"name": EVIL, "algorithm": "WordPiece", "vocab_size": 30522, "source": "vocab.txt (sha256 0123abcd)"}
    return SimpleNamespace(**(fields | extra))


def analysis(tokens: int, *, added: tuple[str, ...] = (), unknown: int = 0,
             difference: Difference | None = None) -> SimpleNamespace:
    counts = SimpleNamespace(tokens=tokens, added=len(added), unknown=unknown)
    return SimpleNamespace(counts=counts, added=added, lossy=difference is not None or unknown > 0,
                           difference=difference)


def test_every_piece_is_the_plain_text_it_stands_for() -> None:
    head = card_head(tokenizer(), analysis(1_234))
    assert head == {
        "name": EVIL, "count": "1,234 tokens", "added": "", "facts": "WordPiece · 30,522 vocab",
        "help": FACTS_HELP, "details": ["source: vocab.txt (sha256 0123abcd)"], "lossy": "",
    }  # no Markdown escapes: the browser writes each as text, so nothing in it can become markup


def test_added_tokens_attribution_licence_and_notes() -> None:
    tok = tokenizer(attribution="Built with Llama", license="llama3 <licence>", notes="repackaged *by* x")
    head = card_head(tok, analysis(1, added=("<s>", "[CLS]")))
    assert head["count"] == "1 token"
    assert head["added"] == " + 2 added by the tokenizer (<s>, [CLS])"
    assert head["facts"] == "WordPiece · 30,522 vocab · Built with Llama"
    assert head["details"] == ["source: vocab.txt (sha256 0123abcd)", "licence: llama3 <licence>", "repackaged *by* x"]


def test_a_lossy_tokenizer_says_where_in_plain_text() -> None:
    head = card_head(tokenizer(), analysis(3, unknown=1, difference=Difference(0, "*H*", "h")))
    assert head["lossy"] == "Lossy: the tokens decode to another text; at character 1, “*H*” came back as “h”; 1 unknown token"
