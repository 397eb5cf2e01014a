"""The page's tables, built by pure functions: counts in, ``pandas.DataFrame`` out, tested as objects.

Numbers stay numbers (Streamlit right-aligns them); the pages format them with ``column_config``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from core import bpe
from core.beyond import superbpe
from core.beyond.byte_tokenizer import BYT5_VOCAB, ByteTokenizer, SequenceCost
from ui.spans import printable

BYTES_ROW = ByteTokenizer.name
COST_COLUMNS = ("tokens", "vocabulary", "bytes / token", "bytes: length ×", "bytes: attention ×", "bytes: output layer ×")


def bytes_cost_frame(n_bytes: int, tokenizers: Mapping[str, tuple[int, int]]) -> pd.DataFrame:
    """One row per tokenizer (``name -> (tokens, vocabulary size)``), bytes first: what reading the
    text as raw bytes costs, as a multiple of reading it as that tokenizer's tokens.

    >>> frame = bytes_cost_frame(400, {"cl100k": (100, 100_256)})
    >>> frame.loc["cl100k", ["bytes: length ×", "bytes: attention ×"]].tolist()
    [4.0, 16.0]
    """
    as_bytes = SequenceCost(BYTES_ROW, n_bytes, BYT5_VOCAB)
    rows = {BYTES_ROW: (n_bytes, BYT5_VOCAB, 1.0, 1.0, 1.0, 1.0)}
    for name, (tokens, vocab) in tokenizers.items():
        if tokens == 0:
            rows[name] = (0, vocab, float("nan"), float("nan"), float("nan"), float("nan"))
            continue
        length, attention, output = as_bytes.relative_to(SequenceCost(name, tokens, vocab))
        rows[name] = (tokens, vocab, n_bytes / tokens, length, attention, output)
    return pd.DataFrame.from_dict(rows, orient="index", columns=list(COST_COLUMNS))


def units_frame(n_bytes: int, units: Mapping[str, int]) -> pd.DataFrame:
    """Units (patches, tokens) of one text and the bytes each covers on average.

    >>> units_frame(12, {"patches": 3}).to_dict("list")
    {'units': [12, 3], 'bytes / unit': [1.0, 4.0]}
    """
    rows = {"UTF-8 bytes": (n_bytes, 1.0)}
    rows.update({name: (count, n_bytes / count if count else float("nan")) for name, count in units.items()})
    return pd.DataFrame.from_dict(rows, orient="index", columns=["units", "bytes / unit"])


def languages_frame(
    names: Sequence[str], n_bytes: Sequence[int], patches: Sequence[int], tokens: Mapping[str, Sequence[int]]
) -> pd.DataFrame:
    """One row per language: its bytes, its entropy patches and each tokenizer's tokens.

    >>> languages_frame(["English"], [100], [25], {"gpt2": [22]}).loc["English"].tolist()
    [100, 25, 22]
    """
    data = {"bytes": list(n_bytes), "patches": list(patches)} | {name: list(v) for name, v in tokens.items()}
    return pd.DataFrame(data, index=pd.Index(list(names), name="language"))


def superwords_frame(steps: Sequence[bpe.MergeStep]) -> pd.DataFrame:
    """The superword tokens learned, in order: vocabulary id, the token (spaces as ·), the two parts'
    count when merged, and how many words it spans.

    >>> step = bpe.MergeStep(500, 300, 301, 756, b" of the", 42, 1, (), 0)
    >>> superwords_frame([step]).to_dict("records")
    [{'id': 756, 'token': '·of·the', 'count': 42, 'words': 2}]
    """
    return pd.DataFrame(
        {
            "id": [s.new_id for s in steps],
            "token": [printable(s.piece) for s in steps],
            "count": [s.count for s in steps],
            "words": [len(s.piece.split()) for s in steps],
        },
        columns=["id", "token", "count", "words"],
    )


def compression_frame(
    *, heldout_bytes: int, plain: int, super_tokens: int, at_transition: int, vocab_size: int, transition: int,
    plain_vocab: int | None = None,
) -> pd.DataFrame:
    """Held-out tokens of plain BPE and SuperBPE at the same vocabulary (``plain_vocab`` when plain BPE
    stopped short of it), and of plain BPE at the transition; ``vs plain BPE`` is the change in
    tokens against plain BPE.

    >>> frame = compression_frame(heldout_bytes=1000, plain=250, super_tokens=200, at_transition=280,
    ...                           vocab_size=4000, transition=3000)
    >>> frame["vs plain BPE"].round(2).tolist()
    [0.0, -0.2, 0.12]
    """
    rows = {
        f"plain BPE, {plain_vocab or vocab_size:,} tokens": plain,
        f"SuperBPE, {transition:,} → {vocab_size:,} tokens": super_tokens,
        f"plain BPE at the transition, {transition:,} tokens": at_transition,
    }
    return pd.DataFrame(
        {
            "tokens": list(rows.values()),
            "bytes / token": [heldout_bytes / n if n else float("nan") for n in rows.values()],
            "vs plain BPE": [n / plain - 1 if plain else float("nan") for n in rows.values()],
        },
        index=list(rows),
    )


def superword_examples(labels: Sequence[str], wanted: Sequence[str] = (" of the", " in order to", ", and")) -> list[str]:
    """The classic superwords among ``labels`` (with or without their leading space), in ``wanted``'s order.

    >>> superword_examples(["of the", " in the"], [" of the", " in order to"])
    ['of the']
    """
    found = set(labels)
    out = []
    for label in wanted:
        for form in (label, label.lstrip()):
            if form in found and superbpe.is_superword(form.encode()):
                out.append(form)
                break
    return out
