"""How long one step of "BPE step by step" takes: the server's redraw work, and a click in chromium.

Run (from the repository root):
``.venv/bin/python bench/bpe_steps.py [--runs 5] [--clicks 10] [--no-browser]``

1. **Server work per step, 10,000 merges.** A model of 10,000 merges is trained on a synthetic corpus
   of many distinct words (so that many merges exist); then, for 50 consecutive steps, what a step
   redraws is computed by the page's own code (``ui.bpe.views.train_step_frames``): the merge line,
   the leaderboard, the text's tokens at that step, their spans (the merges of that step lit) and the
   tokens-vs-vocabulary chart, serialized as ``st.plotly_chart`` sends it. The
   median over ``--runs`` of the mean per step is printed. Target: under 0.25 s (what the scrubber's
   per-step state, built once, is for).
2. **A click in the browser.** ``streamlit run app.py`` on a free port, the page opened in Debian's
   chromium (1440×900, the default model), then "Prev" clicked ``--clicks`` times, each timed from
   the click until the merge line shows the step before. Median and p95 printed. Target: under 2 s.

Not a test (the suite times nothing): the numbers depend on the machine and its load (printed).
There is no reference library for a scrubber's step, so the figures are absolute, with their targets.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser_common import ROOT, chromium, load_average, serve  # noqa: E402

SERVER_TARGET_S = 0.25
BROWSER_TARGET_S = 2.0
MERGES = 10_000
STEPS = 50
PREV = re.compile(r"^Prev\b")
STEP = re.compile(r"step ([\d,]+) of ([\d,]+)")


def server_step_seconds(runs: int) -> list[float]:
    """Mean seconds per step over ``STEPS`` steps of a 10,000-merge model, once per run."""
    from core import bpe
    from core.text.patterns import NAMED_PATTERNS
    from ui.bpe.views import train_step_frames

    words = [f"w{i:05d}x{i * 7919 % 10007:05d}" for i in range(30_000)]
    model = bpe.train(" ".join(words), num_merges=MERGES, pattern=NAMED_PATTERNS["GPT-2"])
    text = "w00042x00017 and w12345x99999 " * 20
    # what the page builds once, before scrubbing: the chart's data and the text's history
    frame = train_step_frames(model, text, show_whitespace=True)
    out = []
    for run in range(runs):
        first = 4_000 + run * STEPS
        began = time.perf_counter()
        for k in range(first, first + STEPS):
            view, fig = frame(k)  # what the page's draw(k) computes
            fig.to_json()  # what st.plotly_chart sends of the chart
        out.append((time.perf_counter() - began) / STEPS)
    return out


def _step_of(page) -> tuple[int, int]:
    page.wait_for_function("document.querySelectorAll('.bpe-merge').length === 1")
    k, n = STEP.search(page.locator(".bpe-merge").inner_text()).groups()
    return int(k.replace(",", "")), int(n.replace(",", ""))


def browser_click_seconds(clicks: int) -> list[float]:
    """Seconds from a click on "Prev" to the merge line showing the step before, ``clicks`` times."""
    out = []
    with tempfile.TemporaryDirectory() as folder, serve(ROOT, Path(folder) / "server.log") as server, \
            chromium() as browser:
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.set_default_timeout(120_000)
        page.goto(f"{server.url}/BPE_step_by_step")
        page.wait_for_selector(".bpe-merge")
        page.wait_for_selector(".tp-spans")
        page.wait_for_function("() => window.__tpSteps && window.__tpSteps.current && window.__tpSteps.current.send")
        k, n = _step_of(page)
        if k < clicks:
            raise SystemExit(f"the page opened on step {k}: fewer than {clicks} steps to go back")
        button = page.get_by_role("button", name=PREV)
        for target in range(k - 1, k - 1 - clicks, -1):
            page.wait_for_timeout(300)  # a step at rest, as a speaker clicks
            began = time.perf_counter()
            button.click()
            page.locator(".bpe-merge", has_text=f"step {target:,} of {n:,}").wait_for()
            out.append(time.perf_counter() - began)
        if server.tracebacks():
            print(f"tracebacks in the server log: {server.tracebacks()}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--clicks", type=int, default=10)
    parser.add_argument("--no-browser", action="store_true", help="only the server's work per step")
    args = parser.parse_args()
    print(f"load average before: {load_average()}")
    server = server_step_seconds(args.runs)
    print(f"server work per step, {MERGES:,} merges: median {statistics.median(server) * 1000:.0f} ms "
          f"(runs: {', '.join(f'{s * 1000:.0f}' for s in server)}) · target < {SERVER_TARGET_S * 1000:.0f} ms")
    if not args.no_browser:
        clicks = sorted(browser_click_seconds(args.clicks))
        p95 = clicks[min(len(clicks) - 1, round(0.95 * (len(clicks) - 1)))]
        print(f"a click on Prev until the step shows, chromium: median {statistics.median(clicks):.2f} s, "
              f"p95 {p95:.2f} s, max {clicks[-1]:.2f} s · target < {BROWSER_TARGET_S:.0f} s")
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
