"""A Playground column's head and foot, as plain data its token box (``ui/span_box.py``) draws.

The head is the tokenizer's name, its token count (with the tokens it adds), what it is (the
algorithm, the vocabulary, an attribution such as "Built with Llama": a button that opens where its
file comes from, its sha256 and licence) and, for a lossy tokenizer, the flag saying where. The
foot is the context line (``ui.context_view.context_foot``). They used to be Streamlit elements:
a heading, a row, a popover, a warning and a caption per column, about ten of the ~60 deltas every
typed key sent, each re-created by React; drawn by the box's own script (``assets/span_box.js``),
they are one element with the spans and only the text nodes that changed are written.

Everything here is plain text: the script puts it in the page as text (``textContent``), never as
HTML or Markdown, so a tokenizer's name or a file name cannot become markup.
"""

from __future__ import annotations

from typing import Any

from ui.cache import Analysis
from ui.span_box import box_data, show_box
from ui.widgets import lossy_note

FACTS_HELP = "Where the tokenizer's file comes from, its sha256 and its licence"


def card_head(tokenizer: Any, analysis: Analysis) -> dict[str, Any]:
    """The head of ``tokenizer``'s column over ``analysis``: name, count, facts, source lines, lossy flag.

    >>> from types import SimpleNamespace as T
    >>> tok = T(name="GPT-2", algorithm="byte-level BPE", vocab_size=50257, source="r50k_base.tiktoken")
    >>> head = card_head(tok, T(counts=T(tokens=1, added=0), added=(), lossy=False))
    >>> head["count"], head["facts"], head["details"]
    ('1 token', 'byte-level BPE · 50,257 vocab', ['source: r50k_base.tiktoken'])
    """
    counts = analysis.counts
    added = ""
    if counts.added:  # the literals in order of appearance, each once
        added = f" + {counts.added} added by the tokenizer ({', '.join(analysis.added)})"
    attribution = getattr(tokenizer, "attribution", None)  # "Built with Llama" stays in sight
    facts = [tokenizer.algorithm, f"{tokenizer.vocab_size:,} vocab", attribution]
    details = [f"source: {tokenizer.source}"]
    if getattr(tokenizer, "license", None):
        details.append(f"licence: {tokenizer.license}")
    if getattr(tokenizer, "notes", None):
        details.append(tokenizer.notes)
    lossy = (lossy_note(counts.unknown or 0, analysis.difference, escape=str)
             if analysis.lossy else "")
    return {
        "name": tokenizer.name,
        "count": f"{counts.tokens:,} token{'' if counts.tokens == 1 else 's'}",
        "added": added,
        "facts": " · ".join(str(fact) for fact in facts if fact),
        "help": FACTS_HELP,
        "details": details,
        "lossy": lossy,
    }


def card_data(tokenizer: Any, analysis: Analysis, spans: str, *, key: str,
              foot: dict[str, str] | None = None) -> dict[str, str]:
    """A column's card as its span box takes it (``ui.span_box.box_data``): ``spans`` (``render_spans``
    markup), the head (``card_head``) and ``foot`` (the context line), under the box's key ``name``."""
    return box_data(key, spans, card_head(tokenizer, analysis), foot)


def tokenizer_card(data: dict[str, str]) -> None:
    """One tokenizer's column (``card_data``): its head, the spans and the context line, as one element.

    Subtle: these were a heading, a row, a popover, a warning and a caption per column, each a delta
    that React re-created on every typed key; the source details the popover held (drawn only while
    it was open, which reran the column) are a panel the facts button opens in the browser.
    """
    show_box(data)
