"""Where the suite's time goes, and the order the xdist workers take the test files in.

At the end of a run: each worker's busy time beside the run's wall time (a worker idle at the end, or
waiting for a timed test, shows as a gap) and the files that took the longest. Under ``--dist loadfile``
the files are handed out longest first (``FILE_SECONDS``, measured), so what is left for the end is short
and neither worker waits long for the other. ``PLAYGROUND_WRITE_FILE_SECONDS=1`` rewrites that file from
the run (a file it does not know counts as the median file of its folder kind, browser or not).

Hooks imported by tests/conftest.py; in the xdist controller they see every worker's reports.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

import pytest

FILE_SECONDS = Path(__file__).with_name("file_seconds.json")
WRITE_ENV = "PLAYGROUND_WRITE_FILE_SECONDS"
BROWSER = "tests/browser/"
SHOWN_FILES = 12

_began = time.monotonic()
_by_worker: defaultdict[str, float] = defaultdict(float)
_by_file: defaultdict[str, float] = defaultdict(float)


def expected_seconds() -> dict[str, float]:
    """Each test file's measured worker-seconds (tests/file_seconds.json), or nothing when it is absent."""
    try:
        seconds = json.loads(FILE_SECONDS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(path): float(value) for path, value in seconds.items()} if isinstance(seconds, dict) else {}


def longest_first(files: list[str], seconds: dict[str, float]) -> list[str]:
    """``files`` by expected time, longest first; a file not measured yet counts as the median measured
    file of its kind (browser tests or the rest), so a new browser file still goes out early."""
    medians = {}
    for browser in (True, False):
        known = [value for path, value in seconds.items() if path.startswith(BROWSER) == browser]
        medians[browser] = statistics.median(known) if known else (60.0 if browser else 1.0)
    return sorted(files, key=lambda path: -seconds.get(path, medians[path.startswith(BROWSER)]))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add a test's phase (setup, call, teardown) to its worker's and its file's time."""
    node = getattr(report, "node", None)  # set by xdist in the controller: the worker that ran it
    worker = node.gateway.id if node is not None else "main"
    _by_worker[worker] += report.duration
    _by_file[report.nodeid.split("::", 1)[0]] += report.duration


def pytest_terminal_summary(terminalreporter: object, config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not _by_worker:
        return
    wall = time.monotonic() - _began
    write = terminalreporter.write_line  # type: ignore[attr-defined]
    busy = ", ".join(f"{worker} {seconds:.0f} s" for worker, seconds in sorted(_by_worker.items()))
    write(f"suite time: wall {wall:.0f} s since the session began; busy per worker: {busy}")
    longest = sorted(_by_file.items(), key=lambda item: -item[1])[:SHOWN_FILES]
    write("longest files (worker-seconds): " + ", ".join(f"{path} {seconds:.0f}" for path, seconds in longest))
    if os.environ.get(WRITE_ENV) == "1":
        measured = expected_seconds() | {path: round(seconds, 1) for path, seconds in _by_file.items()}
        FILE_SECONDS.write_text(json.dumps(dict(sorted(measured.items())), indent=0) + "\n", encoding="utf-8")
        write(f"wrote {FILE_SECONDS} ({len(_by_file)} of its {len(measured)} files from this run)")
