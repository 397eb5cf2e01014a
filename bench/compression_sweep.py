"""The compression sweep: one BPE training run for every vocabulary size, against training each size apart.

Run: ``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/compression_sweep.py [--runs 3]``.

On Tiny Shakespeare's first 90 % (``core.corpora.split_heldout``), measuring the held-out 10 % at
eight log-spaced sizes from 256 to 8,256 (``core.measures.compression.default_sizes``), it times, interleaved
in one process and reported as medians over ``--runs``:

- **one run, incremental**: what the page does. One ``core.bpe.train`` to the largest size, then one
  encode of the held-out text that records the rank of every merge (``bpe_heldout_tokens``): every
  size at once.
- **one run, an encode per size**: the same training, then each size's tokenizer (the first k merges)
  encodes the held-out text from scratch.
- **a training per size**: ``core.bpe.train`` to each size, then an encode: what a sweep costs without
  the prefix property.
- **tokenizers, a training per size**: Hugging Face's BpeTrainer (Rust, every core) the same way, for
  reference (skip with ``--skip-hf``).

Every way must give the same held-out token counts for ours (checked); the ratios show what the single
run saves. Then word statistics (``core.measures.wordstats``) of Don Quijote (2 MB): counts, Heaps' curve and
fit, Zipf's fit and the OOV curve. Not a test: timings depend on the machine and its load.
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
from core.measures import compression, wordstats  # noqa: E402
from core.text.patterns import GPT2_PATTERN  # noqa: E402

SIZES = compression.default_sizes(top=8_256, points=8)


def one_run_incremental(train: str, heldout: str) -> list[int]:
    sweep = compression.bpe_sweep(train, heldout, max_vocab=max(SIZES))
    return [sweep.tokens_at(size) for size in SIZES]


def one_run_encodes(train: str, heldout: str) -> list[int]:
    merges = bpe.train(train, vocab_size=max(SIZES)).tokenizer.merges
    return [len(bpe.BPETokenizer(merges=merges[: size - 256]).encode_ids(heldout)) for size in SIZES]


def training_per_size(train: str, heldout: str) -> list[int]:
    return [len(bpe.train(train, vocab_size=size).tokenizer.encode_ids(heldout)) for size in SIZES]


def hf_training_per_size(train: str, heldout: str) -> list[int]:
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

    counts = []
    for size in SIZES:
        tokenizer = Tokenizer(models.BPE())
        tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(GPT2_PATTERN), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ])
        trainer = trainers.BpeTrainer(
            vocab_size=size, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
        )
        tokenizer.train_from_iterator([train], trainer=trainer)
        counts.append(len(tokenizer.encode(heldout).ids))
    return counts


def clock(make: Callable[[], object]) -> tuple[float, float, object]:
    """Wall-clock and CPU seconds of ``make()``, and its result.

    Subtle: on a machine shared with other work the wall clock includes waiting for a core; this
    process's CPU time does not, so both are printed (tokenizers' threads make its CPU time larger).
    """
    wall, cpu = time.perf_counter(), time.process_time()
    result = make()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def timed(runs: int, ways: dict[str, Callable[[], list[int]]]) -> dict[str, tuple[list[float], list[float], list[int]]]:
    """Interleave the ways ``runs`` times; each way's wall and CPU times and its (last) result."""
    out: dict[str, tuple[list[float], list[float], list[int]]] = {name: ([], [], []) for name in ways}
    for _ in range(runs):
        for name, way in ways.items():
            wall, cpu, result = clock(way)
            walls, cpus, _ = out[name]
            out[name] = (walls + [wall], cpus + [cpu], result)
    return out


def sweep_bench(runs: int, with_hf: bool) -> None:
    train, heldout = split_heldout(load_corpus("tinyshakespeare"))
    ways: dict[str, Callable[[], list[int]]] = {
        "one run, incremental encode": lambda: one_run_incremental(train, heldout),
        "one run, an encode per size": lambda: one_run_encodes(train, heldout),
        "a training per size": lambda: training_per_size(train, heldout),
    }
    if with_hf:
        ways["tokenizers, a training per size"] = lambda: hf_training_per_size(train, heldout)
    results = timed(runs, ways)
    ours = [r for name, (_, _, r) in results.items() if not name.startswith("tokenizers")]
    if any(r != ours[0] for r in ours):
        raise SystemExit(f"the ways disagree: {ours}")
    held_bytes = len(heldout.encode())
    print(f"BPE sweep on Tiny Shakespeare: train {len(train.encode()):,} bytes, held-out {held_bytes:,} bytes, "
          f"{len(SIZES)} sizes {', '.join(f'{s:,}' for s in SIZES)}; {runs} runs, medians")
    print(f"  {'way':<32} {'wall s':>8} {'per point':>10} {'CPU s':>8} {'× one run (wall, CPU)':>22}")
    base_wall = statistics.median(results["one run, incremental encode"][0])
    base_cpu = statistics.median(results["one run, incremental encode"][1])
    for name, (walls, cpus, _) in results.items():
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        ratio = f"{wall / base_wall:.2f}, {cpu / base_cpu:.2f}"
        print(f"  {name:<32} {wall:8.3f} {wall / len(SIZES):10.3f} {cpu:8.3f} {ratio:>22}")
    print("  held-out bytes / token: " + ", ".join(
        f"{s:,}: {held_bytes / t:.3f}" for s, t in zip(SIZES, ours[0], strict=True)))
    if with_hf:
        hf = results["tokenizers, a training per size"][2]
        print("  tokenizers' BpeTrainer:  " + ", ".join(
            f"{s:,}: {held_bytes / t:.3f}" for s, t in zip(SIZES, hf, strict=True)))
    print(f"  ceiling, one token per pre-token: {compression.pretoken_ceiling(heldout):.3f} bytes / token")


def words_bench(runs: int) -> None:
    text = load_corpus("don_quijote_es")
    train, heldout = split_heldout(text)

    def everything() -> tuple:  # what the page's word tab computes
        stats, oov = wordstats.split_report(train, heldout)
        return stats, wordstats.heaps_fit(stats), wordstats.zipf_fit(stats, 10, 1_000), oov

    counts, whole = [], []
    for _ in range(runs):
        counts.append(clock(lambda: wordstats.word_stats(text))[:2])
        wall, cpu, (stats, heaps, zipf, oov) = clock(everything)
        whole.append((wall, cpu))
    print(f"\nWord statistics of Don Quijote ({len(text.encode()):,} bytes, {stats.tokens:,} words, "
          f"{stats.types:,} types), {runs} runs, medians (wall / CPU)")
    for label, times in (("counts, ranks and Heaps' curve (word_stats)", counts),
                         ("the word tab: counts, both fits, the OOV curve", whole)):
        wall, cpu = statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)
        print(f"  {label:<47} {wall:.3f} s / {cpu:.3f} s")
    print(f"  Zipf slope (ranks 10-1,000) {zipf.exponent:.3f}; Heaps β {heaps.exponent:.3f}, K {heaps.constant:.2f}; "
          f"held-out words never seen in training {oov.unseen:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-hf", action="store_true", help="do not time Hugging Face tokenizers")
    args = parser.parse_args()
    try:
        sweep_bench(args.runs, not args.skip_hf)
        words_bench(max(args.runs, 5))
    except SourceUnavailable as exc:
        raise SystemExit(f"{exc} Set PLAYGROUND_DATA_DIR to the data folder (see README: offline use).") from None


if __name__ == "__main__":
    main()
