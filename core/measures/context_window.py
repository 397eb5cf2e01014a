"""How much of a model's context window a text fills, and what it costs at a price per million tokens.

The windows are data (``data/context/context_windows.json``): for each registry tokenizer one model
that reads with it, its window in tokens and where the number comes from. No prices are built in
(they change): the user gives one.

>>> f"{share(2_048, 8_192):.0%}"
'25%'
>>> cost(1_500, 2.5)
0.00375
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

WINDOWS_FILE = Path(__file__).resolve().parents[2] / "data" / "context" / "context_windows.json"


@dataclass(frozen=True)
class ContextWindow:
    model: str
    tokens: int
    source: str


@lru_cache(maxsize=1)
def context_windows(path: Path = WINDOWS_FILE) -> dict[str, ContextWindow]:
    """Registry key → its model's context window (keys starting with "_" are notes)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {key: ContextWindow(str(v["model"]), int(v["tokens"]), str(v["source"]))
            for key, v in raw.items() if not key.startswith("_")}


def share(tokens: int, window: int) -> float:
    """The fraction of a ``window``-token context that ``tokens`` fill (over 1: it does not fit)."""
    if window <= 0:
        raise ValueError("a context window holds at least one token")
    return tokens / window


def cost(tokens: int, price_per_million: float) -> float:
    """What ``tokens`` input tokens cost at ``price_per_million`` (any currency) per million."""
    if price_per_million < 0:
        raise ValueError("a price cannot be negative")
    return tokens * price_per_million / 1_000_000
