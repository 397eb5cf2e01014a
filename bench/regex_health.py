"""A runaway regex in an uploaded tokenizer: how long it delays everyone else's ``/_stcore/health`` (issue 19).

Run (from the repository root, with the data folder):
``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/regex_health.py [--runs 2] [--app-dir DIR]``

It starts ``streamlit run app.py`` on a free local port and opens the Playground in Debian's chromium.
Each run uploads a tokenizer.json built here whose ``Split`` pre-tokenizer is ``(a+)+$`` (a new file
each run, so no cached failure answers it) and types a 1,500-character text that keeps the tokenizers
library's regex engine busy for about 17 s on a quiet machine, holding its GIL. Meanwhile another
client asks ``/_stcore/health`` every 50 ms. Printed per run: how long until the column said it could
not encode the text, how many polls were made, the slowest poll and the 99th percentile. The target
(issue 19's "Done when"): no poll over 0.5 s. Exit status 1 when a run misses it. The machine's load is
printed beside the times; ``--app-dir`` points at another checkout (an older commit) to compare.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser_common import BOXES_JS, IDLE_JS, ROOT, chromium, load_average, serve  # noqa: E402

TARGET_S = 0.5
RUNAWAY_TEXT = ("a" * 23 + "b ") * 60


def runaway_tokenizer(run: int) -> str:
    vocab = {"[UNK]": 0, "a": 1, "b": 2, f"run{run}": 3}  # a distinct file (and hash) each run
    return json.dumps({
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
        "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(a+)+$"}, "behavior": "Isolated", "invert": False},
        "post_processor": None, "decoder": None,
        "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "[UNK]"},
    })


class HealthPoller(threading.Thread):
    """Another client: asks ``/_stcore/health`` every 50 ms and keeps how long each answer took."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = f"{url}/_stcore/health"
        self.seconds: list[float] = []
        self.at: list[float] = []  # when each poll was sent
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            began = time.perf_counter()
            self.at.append(began)
            with urllib.request.urlopen(self.url, timeout=60) as response:
                response.read()
            self.seconds.append(time.perf_counter() - began)
            time.sleep(0.05)


@dataclass(frozen=True)
class Run:
    """One runaway upload: seconds until the column's sentence (from ``began``), the polls, the sentence."""

    began: float
    waited: float
    poller: HealthPoller
    sentence: str


def wait_columns(page, count: int) -> None:
    page.wait_for_function(f"n => {BOXES_JS}.length === n && {IDLE_JS}", arg=count, timeout=120_000)


def one_run(page, url: str, folder: Path, run: int, *, timeout_ms: int = 120_000) -> Run:
    """One runaway upload in the Playground at ``url`` while another client polls the health check
    (the browser test of issue 19, item 3 runs this too)."""
    page.goto(url)
    wait_columns(page, 4)
    path = folder / f"runaway{run}.json"
    path.write_text(runaway_tokenizer(run), encoding="utf-8")
    page.locator("[data-testid=stSidebar] [data-testid=stFileUploaderDropzoneInput]").nth(1).set_input_files(str(path))
    wait_columns(page, 5)
    poller = HealthPoller(url)
    poller.start()
    try:
        time.sleep(0.5)
        began = time.perf_counter()
        page.locator(".tp-live-box").fill(RUNAWAY_TEXT)
        alert = page.locator("[data-testid=stAlertContentError]", has_text="could not encode the text")
        alert.wait_for(timeout=timeout_ms)
        waited = time.perf_counter() - began
        wait_columns(page, 4)  # the four registry columns drew the text too
        time.sleep(0.5)
    finally:
        poller.stop.set()
        poller.join()
    return Run(began, waited, poller, " ".join(alert.inner_text().split()).removeprefix("error "))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--app-dir", type=Path, default=ROOT)
    args = parser.parse_args()
    missed = 0
    with tempfile.TemporaryDirectory() as folder, serve(args.app_dir, Path(folder) / "server.log") as server, \
            chromium() as browser:
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        page = context.new_page()
        for run in range(args.runs):
            load = load_average()
            result = one_run(page, server.url, Path(folder), run)
            waited, polls, sentence = result.waited, result.poller.seconds, result.sentence
            slowest = max(polls)
            missed += slowest >= TARGET_S
            print(f"run {run + 1}: column's sentence after {waited:.1f} s; /_stcore/health {len(polls)} polls, "
                  f"slowest {slowest:.3f} s, p99 {percentile(polls, 0.99):.3f} s, median {percentile(polls, 0.5):.3f} s "
                  f"(target: every poll under {TARGET_S} s) · load {load} -> {load_average()}")
            print(f"  the column said: {sentence[:160]}")
        context.close()
        print(f"server tracebacks: {server.tracebacks()}")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
