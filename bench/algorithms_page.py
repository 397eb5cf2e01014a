"""How long the Algorithms page takes to be ready: cold (training) and warm (everything cached).

Run: ``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/algorithms_page.py [--runs 3]
[--corpus tinyshakespeare] [--sizes 500,1000,2000]``. Issue 8's target: 3 algorithms x 3 sizes on
Tiny Shakespeare ready in under 10 s cold and under 1 s warm. Prints wall-clock and processor time
(all threads of this process): on a machine shared with other work the wall clock grows with the
load, the processor time much less. Not a test.

Three measurements, each the median of ``--runs``:

- ``train``: what a cold page does before drawing: load the corpus, then ``core.measures.vocab_grid.train_models``
  for BPE (byte-level), WordPiece and Unigram, each once for all sizes (the page's store calls exactly
  this), then the nine cells (encode the page's default text, ``ui.spans.render_spans``) and the
  grid's HTML (``ui.algorithms.render``).
- ``cells``: the nine cells and the grid from trained models, uncached: a new text on a warm page.
- ``page``: the whole page in Streamlit's ``AppTest`` on the corpus: the first run of this process
  trains (cold), the next runs find every model and cell in the caches (warm).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core import corpora  # noqa: E402
from core.fetch.sources import SourceUnavailable  # noqa: E402
from core.measures.vocab_grid import ALGORITHMS, train_models  # noqa: E402
from ui import state  # noqa: E402
from ui.algorithms import render  # noqa: E402

TEXT = state.AL_DEFAULT_TEXT
PAGE = ROOT / "pages" / "2_Algorithms.py"


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and processor seconds of ``work()``."""
    start, start_cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - start, time.process_time() - start_cpu


def grid(models: dict, sizes: list[int]) -> str:
    rows = [
        render.Row(label, "", "#000", [render.cell_view(models[alg].cell(size), TEXT, show_whitespace=True)
                                       for size in sizes])
        for alg, label in ALGORITHMS.items()
    ]
    return render.grid_html(sizes, rows)


def train_all(key: str, sizes: list[int], per_algorithm: dict[str, list[tuple[float, float]]]) -> dict:
    text = corpora.load_corpus(key)
    models = {}
    for algorithm in ALGORITHMS:
        start, start_cpu = time.perf_counter(), time.process_time()
        models[algorithm] = train_models(algorithm, text, sizes=sizes)
        per_algorithm[algorithm].append((time.perf_counter() - start, time.process_time() - start_cpu))
    grid(models, sizes)
    return models


def page_runs(key: str, sizes: list[int], runs: int) -> list[tuple[float, float]]:
    """The page in AppTest: the first run trains, the later ones are served from the caches."""
    from streamlit.testing.v1 import AppTest

    from ui.algorithms.store import GridSettings

    at = AppTest.from_file(str(PAGE), default_timeout=600)
    at.session_state[state.AL_APPLIED] = GridSettings(key)
    at.session_state[state.AL_SIZES] = sizes
    out = []
    for _ in range(runs + 1):
        out.append(timed(at.run))
        if at.exception:
            raise RuntimeError(f"the page failed: {[e.value for e in at.exception]}")
    return out


def show(label: str, values: list[tuple[float, float]]) -> None:
    walls, cpus = [w for w, _ in values], [c for _, c in values]
    print(f"  {label:<34} {statistics.median(walls):8.2f} {min(walls):8.2f} {statistics.median(cpus):8.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpus", default="tinyshakespeare")
    parser.add_argument("--sizes", default="500,1000,2000")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    try:
        corpora.load_corpus(args.corpus)
    except SourceUnavailable as exc:
        print(f"bench/algorithms_page.py needs {args.corpus} and skipped: {exc.reason}")
        return 0
    print(f"{args.corpus}, sizes {sizes}, {args.runs} runs; seconds (wall median, wall min, processor median)")
    page = page_runs(args.corpus, sizes, args.runs)
    per_algorithm: dict[str, list[tuple[float, float]]] = {alg: [] for alg in ALGORITHMS}
    cold, cells = [], []
    for _ in range(args.runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        models = train_all(args.corpus, sizes, per_algorithm)
        cold.append((time.perf_counter() - start, time.process_time() - start_cpu))
        cells.append(timed(lambda models=models: grid(models, sizes)))
    print(f"  {'':<34} {'wall':>8} {'min':>8} {'cpu':>8}")
    show("page, cold (AppTest, first run)", page[:1])
    show("page, warm (AppTest, later runs)", page[1:])
    show("train: corpus + 3 algorithms + grid", cold)
    for algorithm, values in per_algorithm.items():
        show(f"  of which {ALGORITHMS[algorithm]}", values)
    show("cells: 9 encodings + spans, uncached", cells)
    print("  targets (issue 8): cold under 10 s, warm under 1 s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
