"""What every benchmark here shares: the median of several timed runs, and the Playground's sample text.

Machines are noisy: each number a benchmark prints is the median over ``runs`` runs of the same work.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "samples" / "playground_default.txt"


def median_seconds(work: Callable[[], object], runs: int) -> float:
    """The median wall time of ``runs`` calls of ``work``."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def sample_text(size: int, marker: str = "") -> str:
    """About ``size`` UTF-8 bytes of the Playground's multilingual default sample, repeated, after
    ``marker`` (cut by bytes, then back to a whole character)."""
    base = SAMPLE.read_text(encoding="utf-8")
    reps = size // len(base.encode()) + 1
    text = marker + (base + "\n") * reps
    return text.encode()[:size].decode("utf-8", errors="ignore")
