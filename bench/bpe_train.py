"""Training speed of core.bpe against Hugging Face tokenizers' BpeTrainer, and what each one learns.

Run: ``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/bpe_train.py [--runs 5] [--skip-10mb]``.
Prints, for Tiny Shakespeare's first 90 % (about 1 MB) and for that text repeated to about 10 MB:
the median training time of each engine over ``--runs`` runs (interleaved, in one process), their
ratio, and the held-out bytes per token of each vocabulary. Not a test: timings vary by machine, and
on a busy one the best runs say more than the medians (tokenizers' threads suffer most from a
machine shared with other work).

What is the same on both sides: the training text (one string), the GPT-2 pattern, byte-level
pre-tokens, a 256-byte base alphabet and a vocabulary of 2,000. What is not: tokenizers is Rust and
counts pairs on every core, core.bpe is pure Python on one; tokenizers breaks ties by its own pair
ids, core.bpe by first occurrence, so the vocabularies part ways at the first tie; tokenizers' Split
runs the pattern with Oniguruma, core.bpe with the ``regex`` package. Both timings include
pre-tokenizing and counting the text, as a user waiting for "Train" experiences them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core import bpe  # noqa: E402
from core.corpora import load_corpus, split_heldout  # noqa: E402
from core.fetch.sources import SourceUnavailable  # noqa: E402
from core.text.patterns import GPT2_PATTERN  # noqa: E402

VOCAB_SIZE = 2_000
TARGET_BYTES = 10_000_000


def train_ours(text: str) -> Callable[[str], int]:
    tokenizer = bpe.train(text, vocab_size=VOCAB_SIZE, pattern=GPT2_PATTERN).tokenizer
    return lambda held: len(tokenizer.encode_ids(held))


def train_hf(text: str) -> Callable[[str], int]:
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(GPT2_PATTERN), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tokenizer.train_from_iterator([text], trainer=trainer)
    return lambda held: len(tokenizer.encode(held).ids)


def measure(label: str, text: str, heldout: str, runs: int) -> tuple[float, float]:
    """Interleave the engines ``runs`` times; print and return both medians."""
    times: dict[str, list[float]] = {"core.bpe": [], "tokenizers": []}
    counters: dict[str, Callable[[str], int]] = {}
    for _ in range(runs):
        for name, engine in (("core.bpe", train_ours), ("tokenizers", train_hf)):
            start = time.perf_counter()
            counters[name] = engine(text)
            times[name].append(time.perf_counter() - start)
    ours, theirs = statistics.median(times["core.bpe"]), statistics.median(times["tokenizers"])
    held_bytes = len(heldout.encode())
    print(f"\n{label}: {len(text.encode()) / 1e6:.2f} MB of training text, vocabulary {VOCAB_SIZE:,}, {runs} runs")
    print(f"  {'engine':<12} {'median s':>9} {'min s':>7} {'max s':>7} {'held-out bytes/token':>21}")
    for name in times:
        values = times[name]
        per_token = held_bytes / counters[name](heldout)
        print(f"  {name:<12} {statistics.median(values):9.3f} {min(values):7.3f} {max(values):7.3f} {per_token:21.3f}")
    best = min(times["core.bpe"]) / min(times["tokenizers"])
    print(f"  ratio core.bpe / tokenizers: {ours / theirs:.2f}x of medians, {best:.2f}x of best runs (target: at most 1.00x)")
    return ours, theirs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip-10mb", action="store_true")
    args = parser.parse_args()
    try:
        text = load_corpus("tinyshakespeare")
    except SourceUnavailable as exc:
        print(f"bench/bpe_train.py needs Tiny Shakespeare and skipped: {exc.reason}")
        return 0
    train, heldout = split_heldout(text)
    small = measure("Tiny Shakespeare, first 90 %", train, heldout, args.runs)
    if not args.skip_10mb:
        big_text = train * -(-TARGET_BYTES // len(train.encode()))
        big = measure("Tiny Shakespeare 90 % repeated", big_text, heldout, args.runs)
        print(f"\nratio moves from {small[0] / small[1]:.2f}x at 1 MB to {big[0] / big[1]:.2f}x at 10 MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
