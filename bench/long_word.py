"""Training on a text without spaces (issue 19, item 6): one pre-token of a megabyte, cut or not.

Run: ``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/long_word.py [--runs 1] [--mb 1.0]
[--only bpe,unigram]``. The text is Tiny Shakespeare with its whitespace removed (``--mb`` megabytes of
it), so every pattern reads it as one word. For each algorithm it trains, in one process, with the
training cut of ``core.text.pretokenize.MAX_TRAINING_WORD`` characters and without it (BPE: the whole word;
Unigram: its former cut of 1,024 characters), and prints the median seconds, the ratio and the peak
memory of the process so far. The same sizes as the pages: BPE to 20,000 tokens (the BPE page's
most), Unigram to 8,000 (the Algorithms page's largest) on the first 480,000 characters, under its
budget of ``core.unigram.MAX_TRAINING_CHARS`` distinct-word characters (a megabyte without spaces is
refused at once). Measured on a shared 2-core machine (load 14-16, medians of 3): BPE 38.3 s uncut,
40.0 s cut, so the cut buys BPE no time here (its long-word path was already O(n log n)); what costs
is a megabyte of text that repeats no word. Unigram at 480,000 characters: 44.4 s at the old cut,
38.4 s at 256 (one run each).
"""

from __future__ import annotations

import argparse
import resource
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import core.bpe.model as bpe_model  # noqa: E402
import core.unigram as unigram  # noqa: E402
from bench.timing import median_seconds  # noqa: E402
from core import bpe  # noqa: E402
from core.corpora import load_corpus  # noqa: E402
from core.text.pretokenize import MAX_TRAINING_WORD, cut_long_words  # noqa: E402

OLD_UNIGRAM_CUT = 1_024  # core.unigram's cut before the shared one


def no_spaces(megabytes: float) -> str:
    return "".join(load_corpus("tinyshakespeare").split())[: int(megabytes * 1_000_000)]


def with_cut(module: object, name: str, value: Callable[[Counter[str]], Counter[str]] | int) -> Callable[[], None]:
    """Set ``module.name`` (the trainer's view of the cut: its function, or its length) to ``value``."""
    def install() -> None:
        setattr(module, name, value)

    return install


def bench(title: str, train: Callable[[], object], variants: dict[str, Callable[[], None]], runs: int) -> None:
    print(f"\n{title}")
    times = {}
    for label, install in variants.items():
        install()
        times[label] = median_seconds(train, runs)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  {label:<34} {times[label]:8.1f} s   peak so far {peak:6.0f} MB", flush=True)
    first, last = list(times)
    print(f"  ratio: {times[first] / times[last]:.1f}x faster with the cut")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--only", default="bpe,unigram")
    args = parser.parse_args()
    text = no_spaces(args.mb)
    print(f"{len(text):,} characters without a space; cut at {MAX_TRAINING_WORD:,} characters for training")
    wanted = args.only.split(",")
    if "bpe" in wanted:
        bench("BPE, byte-level, GPT-2 pattern, vocabulary 20,000", lambda: bpe.train(text, vocab_size=20_000), {
            "uncut (one word)": with_cut(bpe_model, "cut_long_words", lambda counted: counted),
            f"cut at {MAX_TRAINING_WORD}": with_cut(bpe_model, "cut_long_words", cut_long_words),
        }, args.runs)
    if "unigram" in wanted:
        part = text[:480_000]
        bench("Unigram, SentencePiece words, vocabulary 8,000, 480,000 characters",
              lambda: unigram.train_sizes(part, vocab_sizes=[8000]), {
            f"cut at {OLD_UNIGRAM_CUT} (before)": with_cut(unigram, "MAX_WORD_CHARS", OLD_UNIGRAM_CUT),
            f"cut at {MAX_TRAINING_WORD}": with_cut(unigram, "MAX_WORD_CHARS", MAX_TRAINING_WORD),
        }, args.runs)


if __name__ == "__main__":
    main()
