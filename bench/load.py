"""Many users at once: N headless chromium sessions against one local Playground server, for T seconds.

Run (from the repository root, with the data folder):
``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/load.py [--sessions 10] [--seconds 60]``

It starts ``streamlit run app.py`` on a free local port (all traffic goes to it and nowhere else) and
drives ``--sessions`` browser sessions (one Playwright context each, in one chromium) that each apply
a distinct ``--text-kb`` text in a loop until ``--seconds`` have passed, timing each round from
Ctrl+Enter to the moment the four default columns show it. Meanwhile, unless ``--no-faults``:

- a session that disconnects in the middle of a run (its tab closed while the server works);
- a client that uploads a 5 MB text (the uploader's limit) and waits for its columns;
- a client that uploads 1 MB and switches tokenizers while that long encode runs;
- a client that uploads distinct 1 MB texts one after another (the caches must stay bounded).

It prints rounds, p50 / p95 / max latency, errors (a round that timed out, an exception on a page),
the server's resident memory before the load, at its peak and after, what each fault client saw,
and the tracebacks in the server log. Every loop ends at the deadline or after a bounded number of
rounds. Not a test: the numbers depend on the machine and its load (printed too).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser_common import (  # noqa: E402
    BOXES_JS,
    CHROMIUM,
    CHROMIUM_ARGS,
    IDLE_JS,
    ROOT,
    load_average,
    serve,
)
from bench.timing import sample_text  # noqa: E402

ROUND_TIMEOUT_MS = 90_000
MAX_ROUNDS = 10_000  # per session: the deadline ends the loop long before
EXCEPTION = "[data-testid=stException]"
UPLOADER = "[data-testid=stFileUploaderDropzoneInput]"


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)


def shows(marker: str, boxes: int) -> str:
    return (f"() => {{ const b = {BOXES_JS}; return b.length === {boxes} && "
            f"b.every(x => x.textContent.slice(0, 400).includes({marker!r})); }}")


async def open_page(browser, url: str):
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    page.set_default_timeout(ROUND_TIMEOUT_MS)
    await page.goto(url)
    await page.wait_for_function(f"() => {BOXES_JS}.length === 4 && {IDLE_JS}", timeout=180_000)
    return context, page


async def typist(browser, url: str, index: int, deadline: float, size: int, stats: Stats) -> None:
    """One user applying distinct texts in a loop until the deadline."""
    context, page = await open_page(browser, url)
    area = page.locator(".tp-live-box")  # the Playground's live text box: a text applies as it is typed
    try:
        for round_ in range(1, MAX_ROUNDS):
            if time.monotonic() >= deadline:
                break
            marker = f"S{index}R{round_}x "
            began = time.perf_counter()
            await area.fill(sample_text(size, marker))
            try:
                await page.wait_for_function(shows(marker, 4), polling=50, timeout=ROUND_TIMEOUT_MS)
                stats.latencies.append(time.perf_counter() - began)
            except Exception as exc:  # a timeout is an error of the run, not of this script
                stats.errors.append(f"session {index} round {round_}: {type(exc).__name__}")
            if await page.locator(EXCEPTION).count():
                stats.errors.append(f"session {index} round {round_}: an exception on the page")
    finally:
        await context.close()


async def disconnecter(browser, url: str, deadline: float, stats: Stats) -> None:
    """Applies a big text and closes the tab while the server is still working on it, twice."""
    for attempt in range(2):
        if time.monotonic() >= deadline:
            return
        context, page = await open_page(browser, url)
        area = page.locator(".tp-live-box")
        await area.fill(sample_text(90_000, f"Gone{attempt}x "))  # applies when typing pauses (over 20,000)
        await asyncio.sleep(0.3)
        await context.close()  # mid-run: the websocket drops under the server's feet
        stats.notes.append(f"disconnect {attempt + 1}: closed 0.3 s into a 90 KB run")
        await asyncio.sleep(5)


async def uploader(browser, url: str, folder: Path, size: int, label: str, stats: Stats, *, switch: bool) -> None:
    """Uploads a ``size``-byte text; with ``switch``, changes the tokenizers while it is encoded."""
    context, page = await open_page(browser, url)
    try:
        marker = f"{label}x "
        path = folder / f"{label}.txt"
        path.write_text(sample_text(size, marker), encoding="utf-8")
        began = time.perf_counter()
        await page.locator(UPLOADER).first.set_input_files(str(path))
        boxes = 4
        if switch:
            await asyncio.sleep(1.0)  # the encode has started
            await page.locator("[data-testid=stMultiSelect] button[aria-label='Remove GPT-2 (r50k_base)']").click()
            boxes = 3
        try:
            await page.wait_for_function(shows(marker, boxes), polling=200, timeout=600_000)
            stats.notes.append(f"{label}: {size / 1e6:.1f} MB shown in {boxes} columns after "
                               f"{time.perf_counter() - began:.1f} s")
        except Exception as exc:
            stats.errors.append(f"{label}: {type(exc).__name__}")
        if await page.locator(EXCEPTION).count():
            stats.errors.append(f"{label}: an exception on the page")
    finally:
        await context.close()


async def streamer(browser, url: str, folder: Path, deadline: float, server, stats: Stats) -> None:
    """Uploads distinct 1 MB texts one after another until the deadline (at most 12), noting the RSS."""
    context, page = await open_page(browser, url)
    rss = []
    try:
        for i in range(12):
            if time.monotonic() >= deadline:
                break
            marker = f"Stream{i}x "
            path = folder / f"stream{i}.txt"
            path.write_text(sample_text(1_000_000, marker), encoding="utf-8")
            await page.locator(UPLOADER).first.set_input_files(str(path))
            try:
                await page.wait_for_function(shows(marker, 4), polling=200, timeout=300_000)
            except Exception as exc:
                stats.errors.append(f"stream {i}: {type(exc).__name__}")
            rss.append(server.rss_mb())
        stats.notes.append("1 MB stream: RSS after each text (MB): " + ", ".join(f"{r:.0f}" for r in rss))
    finally:
        await context.close()


async def sample_rss(server, stop: asyncio.Event, stats: Stats) -> None:
    while not stop.is_set():
        stats.rss.append(server.rss_mb())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=0.5)


async def run(args: argparse.Namespace) -> None:
    from playwright.async_api import async_playwright

    stats = Stats()
    folder = Path(tempfile.mkdtemp(prefix="bench-load-"))
    with serve(args.app_dir.resolve(), folder / "server.log") as server:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            # warm up: the four default tokenizers loaded once, before anything is measured
            context, _ = await open_page(browser, server.url)
            await context.close()
            await asyncio.sleep(2)
            before = server.rss_mb()
            stop = asyncio.Event()
            sampler = asyncio.create_task(sample_rss(server, stop, stats))
            deadline = time.monotonic() + args.seconds
            tasks = [typist(browser, server.url, i, deadline, args.text_kb * 1000, stats) for i in range(args.sessions)]
            if not args.no_faults:
                tasks += [
                    disconnecter(browser, server.url, deadline, stats),
                    uploader(browser, server.url, folder, 4_990_000, "FiveMB", stats, switch=False),
                    uploader(browser, server.url, folder, 1_000_000, "Switch", stats, switch=True),
                    streamer(browser, server.url, folder, deadline, server, stats),
                ]
            began = time.monotonic()
            await asyncio.gather(*tasks)
            wall = time.monotonic() - began
            await browser.close()
        await asyncio.sleep(3)
        stop.set()
        await sampler
        after = server.rss_mb()
        tracebacks = server.tracebacks()
        log_tail = server.log.read_text(errors="replace")[-2000:] if tracebacks else ""
    lat = sorted(stats.latencies)
    print(f"sessions {args.sessions} · {args.text_kb} KB texts · {args.seconds} s (wall {wall:.0f} s)"
          f" · load average after: {load_average()}")
    if lat:
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        print(f"rounds {len(lat)} · p50 {statistics.median(lat):.2f} s · p95 {p95:.2f} s · max {lat[-1]:.2f} s")
    else:
        print("rounds 0")
    print(f"errors {len(stats.errors)}" + (": " + "; ".join(stats.errors[:10]) if stats.errors else ""))
    print(f"server RSS: before {before:.0f} MB · peak {max(stats.rss, default=before):.0f} MB · after {after:.0f} MB")
    for note in stats.notes:
        print(note)
    print(f"tracebacks in the server log: {tracebacks}")
    if log_tail:
        print(log_tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--text-kb", type=int, default=2)
    parser.add_argument("--no-faults", action="store_true", help="only the typing sessions")
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    args = parser.parse_args()
    if not 1 <= args.sessions <= 50 or not 1 <= args.seconds <= 3600:
        raise SystemExit("--sessions must be 1-50 and --seconds 1-3600")
    print(f"load average before: {load_average()}")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
