"""What a visit to each page costs the server: issue 21's item 9, measured in chromium.

Run (from the repository root, with the data folder):
``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/pages.py [--runs 3] [--pages Language_tax ...]``

It starts a fresh ``streamlit run app.py`` on a free local port and opens every page in Debian's chromium
(1400×900): first *cold* (the first visit since the server started: models trained, files read,
counts made), then *warm* ``--runs`` times, each in a new browser session (a new visitor: what the
process-wide caches keep counts, what a session keeps does not). A few actions follow the same way
(the Compression tab, its WordPiece and Unigram curves added on demand, the Language tax switched
to PUD, a click on a tax bar). For each it prints the seconds until the page is drawn and idle, and
the server's CPU seconds for the visit (user + system time of the server process from ``/proc``,
read before and after, 0.5 s after the page went idle): the steadier figure on a loaded machine. Targets from the issue: a first visit at most 2 s of server
CPU, a warm view at most 0.3 s. A warm visit from a new browser context fetches Streamlit's static files
(about 100 JavaScript files and fonts, 3 MB, sent by its Python server: most of a simple page's warm
CPU); the "tab CPU" column is the same visit in a new tab of one browser, whose cache holds them.
``--room`` serves the app as ``make serve`` does (``deploy/room.py``: HAProxy in front of one replica)
and reads the replica's CPU: HAProxy's cache then sends the static files to every browser after the
first, so a new visitor costs the replica only the page's own run. Not a test: the numbers depend on the machine and its load (printed).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser_common import ROOT, Server, chromium, load_average, serve  # noqa: E402

COLD_TARGET_S = 2.0
WARM_TARGET_S = 0.3
TIMEOUT_MS = 300_000
SETTLE_S = 0.5  # after the page is idle: what the server still does for the visit (forward messages)
IDLE = ("() => !document.querySelector('[data-testid=stStatusWidget]') "
        "&& !document.querySelector('[data-testid=stSkeleton]')")


@dataclass(frozen=True)
class Visit:
    """A page (its path) and what shows that it has run; ``then`` acts on it and waits (an action)."""

    name: str
    path: str
    drawn: str
    then: Callable[[object], None] | None = None


def _compression_tab(page) -> None:
    page.get_by_role("tab", name="Compression vs vocabulary").click()
    page.locator("[role=tabpanel]:not([hidden]) .js-plotly-plot").first.wait_for(timeout=TIMEOUT_MS)


def _train_others(page) -> None:
    _compression_tab(page)
    page.wait_for_function(IDLE, timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Train WordPiece and Unigram too").click()
    page.locator("[role=tabpanel]:not([hidden]) .js-plotly-plot").get_by_text("Unigram trained here").first.wait_for(
        timeout=TIMEOUT_MS)


def _tax_pud(page) -> None:
    page.locator("[data-testid=stSidebar] [data-testid=stSelectbox]").first.click()
    page.get_by_role("option", name="PUD").first.click()
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .barlayer .point').length === 21",
                           timeout=TIMEOUT_MS)


def _tax_bar(page) -> None:
    bar = page.locator(".js-plotly-plot .barlayer .point").nth(3)
    box = bar.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "() => document.querySelectorAll('input[aria-label=\"Language shown as tokens\"]').length === 1 "
        "&& document.querySelector('input[aria-label=\"Language shown as tokens\"]').value !== 'Burmese'",
        timeout=TIMEOUT_MS)


VISITS = (
    Visit("Playground", "", ".tp-box > .tp-spans"),
    Visit("BPE step by step", "BPE_step_by_step", ".bpe-merge"),
    Visit("Algorithms", "Algorithms", ".al-grid"),
    Visit("Words & compression", "Words_and_compression", ".js-plotly-plot"),
    Visit("Language tax", "Language_tax", ".js-plotly-plot .barlayer .point"),
    Visit("Unicode & bytes", "Unicode_and_bytes", "h1"),
    Visit("Pre-tokenization", "Pre-tokenization", ".tp-spans"),
    Visit("Pitfalls", "Pitfalls", "h1"),
    Visit("Beyond fixed tokenizers", "Beyond_tokenizers", ".js-plotly-plot"),
    Visit("Inside a tokenizer", "Inside_a_tokenizer", "h1"),
    Visit("Chat formats", "Chat_formats", "h1"),
    Visit("Words: Compression tab", "Words_and_compression", ".js-plotly-plot", _compression_tab),
    Visit("Words: + WordPiece, Unigram", "Words_and_compression", ".js-plotly-plot", _train_others),
    Visit("Language tax: PUD", "Language_tax", ".js-plotly-plot .barlayer .point", _tax_pud),
    Visit("Language tax: a bar clicked", "Language_tax", ".js-plotly-plot .barlayer .point", _tax_bar),
)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def visit_once(browser, url: str, pid: int, visit: Visit, *, tab_of=None) -> tuple[float, float]:
    """One visit in a new session: (wall seconds, server CPU seconds) of the page, or of its action.

    A new browser context each time (a new visitor: Streamlit's static files, about 100 JavaScript files
    and fonts, 3 MB, are fetched from the server again), or, with ``tab_of``, a new tab of that context
    (a visitor's second tab: the static files come from the browser's cache)."""
    context = tab_of or browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        if visit.then is not None:  # the page first, untimed: the action is what is measured
            page.goto(f"{url}/{visit.path}")
            _settle(page, visit.drawn)
        began_cpu, began = cpu_seconds(pid), time.perf_counter()
        if visit.then is None:
            page.goto(f"{url}/{visit.path}")
            _settle(page, visit.drawn)
        else:
            visit.then(page)
            page.wait_for_function(IDLE, timeout=TIMEOUT_MS)
        wall = time.perf_counter() - began
        time.sleep(SETTLE_S)
        return wall, cpu_seconds(pid) - began_cpu
    finally:
        page.close()
        if tab_of is None:
            context.close()


def _settle(page, drawn: str) -> None:
    page.locator(drawn).first.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_timeout(300)  # a run that starts right after the first frame shows its status widget
    page.wait_for_function(IDLE, timeout=TIMEOUT_MS)


@contextlib.contextmanager
def _served(args: argparse.Namespace, tmp: Path) -> Iterator[Server]:
    """The app from ``args.app_dir``: one ``streamlit run``, or (``--room``) a room of one replica, whose
    address is HAProxy's and whose process is the replica's."""
    if not args.room:
        with serve(args.app_dir, args.log or tmp / "server.log") as server:
            yield server
        return
    if args.app_dir.resolve() != ROOT:
        raise SystemExit("--room serves this checkout (deploy/room.py runs its own app.py)")
    from deploy.room import serve_room

    with serve_room(1, workdir=tmp) as room:
        (port,) = room.replica_ports
        yield Server(room.url, room.replicas[port], tmp / f"replica-{port}.log")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="warm visits per page (median)")
    parser.add_argument("--pages", nargs="*", help="only these visits (by name or path)")
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--log", type=Path, help="keep the server's log here (to read its tracebacks)")
    parser.add_argument("--room", action="store_true",
                        help="serve as `make serve` does (HAProxy and one replica) and read the replica's CPU")
    args = parser.parse_args()
    visits = [v for v in VISITS if not args.pages or v.name in args.pages or v.path in args.pages]
    print(f"load average before: {load_average()}  ({os.cpu_count()} cores)"
          + ("; through HAProxy (deploy/room.py, one replica)" if args.room else ""))
    rows = []
    with tempfile.TemporaryDirectory() as tmp, _served(args, Path(tmp)) as server:
        pid = server.process.pid
        with chromium() as browser:
            tabs = browser.new_context(viewport={"width": 1400, "height": 900})  # one visitor's tabs
            for visit in visits:
                cold = visit_once(browser, server.url, pid, visit)
                warm = [visit_once(browser, server.url, pid, visit) for _ in range(args.runs)]
                visit_once(browser, server.url, pid, visit, tab_of=tabs)  # the static files into its cache
                tab = [visit_once(browser, server.url, pid, visit, tab_of=tabs)[1] for _ in range(args.runs)]
                rows.append((visit.name, cold, (statistics.median(w for w, _ in warm),
                                                statistics.median(c for _, c in warm)), statistics.median(tab)))
                print(f"  {visit.name}: cold {cold[0]:.2f} s ({cold[1]:.2f} s CPU), warm median "
                      f"{rows[-1][2][0]:.2f} s ({rows[-1][2][1]:.2f} s CPU; {rows[-1][3]:.2f} s in a new tab)",
                      flush=True)
            tabs.close()
        tracebacks = server.tracebacks()
    print()
    print(f"{'visit':<30} {'cold s':>7} {'cold CPU':>9} {'warm s':>7} {'warm CPU':>9} {'tab CPU':>8}  target: cold "
          f"CPU <= {COLD_TARGET_S} s, warm CPU <= {WARM_TARGET_S} s")
    for name, (cold_wall, cold_cpu), (warm_wall, warm_cpu), tab_cpu in rows:
        flags = ("" if cold_cpu <= COLD_TARGET_S else " cold over") + ("" if warm_cpu <= WARM_TARGET_S else " warm over")
        print(f"{name:<30} {cold_wall:>7.2f} {cold_cpu:>9.2f} {warm_wall:>7.2f} {warm_cpu:>9.2f} {tab_cpu:>8.2f} {flags}")
    print(f"load average after: {load_average()}; tracebacks in the server log: {tracebacks}")


if __name__ == "__main__":
    main()
