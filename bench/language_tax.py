"""How long the Language tax table takes: 50 UDHR languages × 8 tokenizers, cold and warm.

Run: ``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/language_tax.py [--runs 3]``.
Prints the median over ``--runs`` of:
- ``cold``: ``core.tax.language_tax.language_tax`` with the tokenizers loaded and nothing counted yet
  (an empty memo): every article of every language tokenized, then the table built;
- ``warm``: the same call again with the memo filled (what the page does on a rerun: another
  base language, another view), so only the table is built;
- ``library``: the plain library calls for the same work, ids only (tiktoken ``encode_ordinary``,
  sentencepiece ``encode``, tokenizers ``encode(...).ids``), one call per article, no table;
- ``ratio``: cold / library, what counting through the adapters and building the table cost on
  top of the libraries.
Then the same per tokenizer. Targets on the build machine: cold under 3 s, warm under 0.2 s.

Then the compression leaderboard (``core.tax.tax_stats.leaderboard`` and its matrix): every registry
tokenizer that loads × the UDHR's 52 suggested languages; ``cold`` with an empty memo (tokenizers
already loaded; their load time is printed apart), ``warm`` with the memo filled (what the page
does when the leaderboard's own cache has dropped the table). Targets: cold < 20 s, warm < 1 s.
Both as wall time and as this process's CPU time: on a loaded shared machine the wall time is the
CPU time stretched by the load, so the CPU time is what the same work takes when the machine is idle.
``--leaderboard-only`` skips the first part.
Not a test: timings vary with the machine and its load; compare the ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_seconds  # noqa: E402
from core import pretrained  # noqa: E402
from core.tax.language_tax import language_tax  # noqa: E402
from core.tax.parallel_corpus import load_parallel  # noqa: E402
from core.tax.tax_stats import leaderboard, leaderboard_matrix  # noqa: E402

TOKENIZERS = ("gpt2", "cl100k_base", "o200k_base", "llama3", "qwen", "xlmr", "llama2", "mbert")
N_LANGUAGES = 50


def demo_languages(n: int) -> list[str]:
    """The first ``n`` of the data folder's suggested UDHR languages (udhr/demo_languages.tsv)."""
    path = Path(os.environ.get("PLAYGROUND_DATA_DIR", "")) / "corpora" / "udhr" / "demo_languages.tsv"
    if not path.is_file():
        sys.exit(f"{path} is missing: set PLAYGROUND_DATA_DIR to the data folder (its list of suggested languages)")
    rows = path.read_text(encoding="utf-8").splitlines()[1:]
    return [row.split("\t")[0] for row in rows if row.strip()][:n]


def library_call(tokenizer: object) -> Callable[[str], list[int]]:
    """The wrapped library's own ids call (reaching into the adapter for the library object)."""
    if hasattr(tokenizer, "_enc"):
        enc, nfc = tokenizer._enc, tokenizer._nfc
        if nfc:  # Qwen normalizes first; the library call is the same encode on the normalized text
            return lambda text: enc.encode_ordinary(unicodedata.normalize("NFC", text))
        return enc.encode_ordinary
    if hasattr(tokenizer, "_sp"):
        return tokenizer._sp.encode
    tok = tokenizer._tok
    return lambda text: tok.encode(text, add_special_tokens=False).ids



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--leaderboard-only", action="store_true")
    args = parser.parse_args()
    corpus = load_parallel("udhr")
    if args.leaderboard_only:
        bench_leaderboard(corpus, args.runs)
        return
    languages = demo_languages(N_LANGUAGES)
    tokenizers = {key: pretrained.load(key) for key in TOKENIZERS}
    texts = [text for code in languages for text in corpus.segments[code].values()]
    print(f"{len(languages)} UDHR languages ({len(texts):,} articles) × {len(tokenizers)} tokenizers, "
          f"median of {args.runs}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")

    def cold(keys: tuple[str, ...] = TOKENIZERS) -> None:
        language_tax(corpus, {k: tokenizers[k] for k in keys}, base="eng", languages=languages, memo={})

    memo: dict = {}
    language_tax(corpus, tokenizers, base="eng", languages=languages, memo=memo)

    def warm() -> None:
        language_tax(corpus, tokenizers, base="hin", languages=languages, memo=memo)

    def library(keys: tuple[str, ...] = TOKENIZERS) -> None:
        for key in keys:
            call = library_call(tokenizers[key])
            for text in texts:
                call(text)

    print(f"{'tokenizer':<14}{'cold s':>9}{'library s':>11}{'ratio':>7}")
    for key in TOKENIZERS:
        ours = median_seconds(lambda key=key: cold((key,)), args.runs)
        theirs = median_seconds(lambda key=key: library((key,)), args.runs)
        print(f"{key:<14}{ours:>9.3f}{theirs:>11.3f}{ours / theirs:>7.2f}")
    total_cold, total_library = median_seconds(cold, args.runs), median_seconds(library, args.runs)
    total_warm = median_seconds(warm, args.runs)
    print(f"{'all 8':<14}{total_cold:>9.3f}{total_library:>11.3f}{total_cold / total_library:>7.2f}")
    print(f"cold {total_cold:.2f} s (target < 3 s) · warm {total_warm:.3f} s (target < 0.2 s) · "
          f"library {total_library:.2f} s · cold / library {total_cold / total_library:.2f}")
    bench_leaderboard(corpus, args.runs)


def bench_leaderboard(corpus: object, runs: int) -> None:
    """Every registry tokenizer × the 52 suggested UDHR languages: load, cold and warm leaderboard."""
    languages = demo_languages(52)
    started, started_cpu = time.perf_counter(), time.process_time()
    tokenizers, missing = {}, []
    for key in pretrained.registry():
        try:
            tokenizers[key] = pretrained.load(key)
        except Exception as exc:  # noqa: BLE001 — a bench reports what it could not load and goes on
            missing.append(f"{key} ({type(exc).__name__})")
    loaded, loaded_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    print(f"\nleaderboard: {len(tokenizers)} registry tokenizers × {len(languages)} UDHR languages; "
          f"loading them took {loaded:.1f} s wall, {loaded_cpu:.1f} s CPU (once per server process, not in "
          "the cold time)" + (f"; not loaded: {', '.join(missing)}" if missing else ""))

    def build(memo: dict) -> None:
        board = leaderboard(corpus, tokenizers, base="eng", languages=languages, memo=memo)
        for value in ("bytes_per_token", "chars_per_token", "premium"):
            leaderboard_matrix(board, value)

    load_before = os.getloadavg()[0]
    cold, cold_cpu = wall_and_cpu(lambda: build({}), runs)
    memo: dict = {}
    build(memo)
    warm, warm_cpu = wall_and_cpu(lambda: build(memo), runs)
    print(f"leaderboard cold {cold:.2f} s wall, {cold_cpu:.2f} s CPU (target < 20 s) · warm {warm:.3f} s wall, "
          f"{warm_cpu:.3f} s CPU (target < 1 s) · load average {load_before:.1f} → {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs")


def wall_and_cpu(work: Callable[[], object], runs: int) -> tuple[float, float]:
    """Medians over ``runs`` of the wall time and of this process's CPU time (all its threads) for
    ``work``. On a shared machine the wall time grows with the load average while the CPU time
    stays what the work costs, which is the wall time the same work takes on an idle machine."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


if __name__ == "__main__":
    main()
