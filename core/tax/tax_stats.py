"""What a researcher cites beyond totals: the spread of the per-segment premium, validated pairs,
and a compression leaderboard; all built from ``core.tax.language_tax``'s per-segment counts.

- **Per-segment premium**: for each segment a language shares with the base, its tokens over the
  base's tokens for that segment (segments where the base has no token are left out).
  ``segment_premiums`` reads the counts ``language_tax`` left in its ``memo``, so nothing is
  counted twice. ``language_tax``'s table already holds their median, quartiles and share above
  2x (``core.tax.language_tax.premium_spread``); ``distribution_summary`` computes the same from
  these premiums (a test holds the two equal).
- **Validated pairs** (``validated``): a language x tokenizer pair whose unknown-token share is above a
  threshold (10 % by default) is marked invalid, as multilingual tokenization studies leave out
  pairs where the tokenizer cannot represent the text: its premium would look cheap because text was lost.
- **Compression leaderboard** (``leaderboard``): tokenizers x languages with UTF-8 bytes per token,
  characters per token and the premium over the base, over the segments each language shares with the base.

Pure: no I/O, no caching of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from core.tax.language_tax import ABOVE, language_tax
from core.tax.parallel_types import ParallelCorpus

DEFAULT_UNKNOWN_THRESHOLD = 0.10


def segment_premiums(
    corpus: ParallelCorpus, memo: Mapping[tuple[str, ...], np.ndarray], *, base: str,
    languages: Sequence[str], tokenizers: Sequence[str],
) -> pd.DataFrame:
    """Long frame (language, tokenizer, segment, premium): one row per segment shared with the base.

    ``memo`` must hold the counts ``language_tax`` made for these languages (base included) and
    tokenizer keys; a missing one is a ``KeyError`` naming it (call ``language_tax`` first).

    >>> from core.tax.parallel_corpus import parallel_from_texts
    >>> class Chars:
    ...     name, lossless = "chars", True
    ...     def count(self, text): return len(text)
    >>> corpus, memo = parallel_from_texts({"en": "ab", "xx": "abcd"}), {}
    >>> _ = language_tax(corpus, {"c": Chars()}, base="en", memo=memo)
    >>> segment_premiums(corpus, memo, base="en", languages=["xx"], tokenizers=["c"])["premium"].tolist()
    [2.0]
    """
    frames = []
    ids = np.asarray(corpus.segment_ids, dtype=object)
    for key in tokenizers:
        base_tokens = memo[(corpus.key, corpus.fingerprint, base, key)][0]
        for code in languages:
            tokens = memo[(corpus.key, corpus.fingerprint, code, key)][0]
            present = corpus_presence(corpus, code) & corpus_presence(corpus, base) & (base_tokens > 0)
            frames.append(pd.DataFrame({
                "language": code, "tokenizer": key, "segment": ids[present],
                "premium": tokens[present] / base_tokens[present],
            }))
    if not frames:
        return pd.DataFrame(columns=["language", "tokenizer", "segment", "premium"])
    return pd.concat(frames, ignore_index=True)


def corpus_presence(corpus: ParallelCorpus, code: str) -> np.ndarray:
    """A boolean per segment of ``corpus.segment_ids``: whether language ``code`` has it."""
    texts = corpus.segments[corpus.language(code).code]
    return np.fromiter((i in texts for i in corpus.segment_ids), dtype=bool, count=len(corpus.segment_ids))


def distribution_summary(premiums: pd.DataFrame) -> pd.DataFrame:
    """Per (language, tokenizer): median, first and third quartile, and the share of segments above 2x.

    >>> frame = pd.DataFrame({"language": ["x"] * 4, "tokenizer": ["t"] * 4, "premium": [1.0, 2.0, 3.0, 4.0]})
    >>> [float(v) for v in distribution_summary(frame).iloc[0][["median", "q1", "q3", "share_above_2x"]]]
    [2.5, 1.75, 3.25, 0.5]
    """
    grouped = premiums.groupby(["language", "tokenizer"], sort=False)["premium"]
    return pd.DataFrame({
        "median": grouped.median(), "q1": grouped.quantile(0.25), "q3": grouped.quantile(0.75),
        "share_above_2x": grouped.apply(lambda s: float((s > ABOVE).mean()) if len(s) else np.nan),
    }).reset_index()


def with_distribution(table: pd.DataFrame, premiums: pd.DataFrame) -> pd.DataFrame:
    """``table`` (a ``language_tax`` table) with the columns of ``distribution_summary`` (re)computed
    from ``premiums`` and joined on, in place of the table's own."""
    summary = distribution_summary(premiums)
    own = [c for c in summary.columns if c in table.columns and c not in ("language", "tokenizer")]
    joined = table.drop(columns=own).merge(summary, on=["language", "tokenizer"], how="left")
    return joined[[*table.columns, *(c for c in joined.columns if c not in table.columns)]]


def validated(table: pd.DataFrame, *, threshold: float = DEFAULT_UNKNOWN_THRESHOLD) -> pd.DataFrame:
    """``table`` with a ``valid`` column: False where the unknown-token share is above ``threshold``.

    >>> validated(pd.DataFrame({"unknown_share": [0.0, 0.2, float("nan")]}))["valid"].tolist()
    [True, False, True]
    """
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"the unknown-token threshold is a share between 0 and 1, not {threshold}")
    share = table["unknown_share"].astype(float).fillna(0.0)
    return table.assign(valid=share <= threshold)


def leaderboard(
    corpus: ParallelCorpus, tokenizers: Mapping[str, Any], *, base: str, languages: Sequence[str],
    memo: Any = None, progress: Any = None,
) -> pd.DataFrame:
    """Tokenizers x languages: tokens, bytes and characters per token, premium and unknown share.

    One row per (tokenizer, language), base included, from ``language_tax`` (same memo, same
    definitions: sums over the segments each language shares with the base).
    """
    return leaderboard_of(language_tax(corpus, tokenizers, base=base, languages=languages, memo=memo,
                                       progress=progress))


def leaderboard_of(table: pd.DataFrame) -> pd.DataFrame:
    """``leaderboard``'s rows from a ``language_tax`` table already counted."""
    tokens = table["tokens"].astype(float).where(table["tokens"] > 0)
    return pd.DataFrame({
        "tokenizer": table["tokenizer"], "tokenizer_name": table["tokenizer_name"], "language": table["language"],
        "name": table["name"], "script": table["script"], "tokens": table["tokens"],
        "bytes_per_token": table["bytes"] / tokens, "chars_per_token": table["chars"] / tokens,
        "premium": table["premium"], "unknown_share": table["unknown_share"],
    })


def leaderboard_matrix(board: pd.DataFrame, value: str = "bytes_per_token", *,
                       unknown_max: float | None = None) -> pd.DataFrame:
    """Tokenizers (rows, best mean first) x languages (columns, corpus order) of one leaderboard column;
    with ``unknown_max``, the pairs ``leaderboard_left_out`` marks are NaN, so no mean counts them."""
    if value not in ("bytes_per_token", "chars_per_token", "premium"):
        raise ValueError(f"the leaderboard shows bytes_per_token, chars_per_token or premium, not {value!r}")
    matrix = board.pivot(index="tokenizer", columns="language", values=value)
    if unknown_max is not None:
        matrix = matrix.mask(leaderboard_left_out(board, unknown_max).reindex_like(matrix).fillna(False).astype(bool))
    matrix = matrix[list(dict.fromkeys(board["language"]))]
    ascending = value == "premium"  # fewer tokens is better: more bytes a token, a lower premium
    return matrix.loc[matrix.mean(axis=1).sort_values(ascending=ascending).index]


def leaderboard_left_out(board: pd.DataFrame, unknown_max: float) -> pd.DataFrame:
    """Tokenizers x languages, True where the pair's unknown-token share is above ``unknown_max``
    (a share, 0 to 1): the pairs validation leaves out, as ``validated`` marks them.

    >>> board = pd.DataFrame({"tokenizer": ["t", "t"], "language": ["a", "b"], "unknown_share": [0.0, 0.5]})
    >>> leaderboard_left_out(board, 0.1).loc["t"].tolist()
    [False, True]
    """
    flags = ~validated(board, threshold=unknown_max)["valid"]
    return board.assign(left_out=flags).pivot(index="tokenizer", columns="language", values="left_out")
