"""What a page switch looks like in chromium: issue 21's item 8 ("switching pages shows a blank page for
about 0.3 s and BPE shows loading placeholders for about 3 s"), measured frame by frame.

Run (from the repository root, with the data folder):
``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/page_switch.py [--runs 3] [--pages BPE ...]``

It starts a fresh ``streamlit run app.py``, visits every page once (so the server's caches and the
browser's script bundles are warm: what a visitor clicking through sees), then, ``--runs`` times per
page, opens the Playground, clicks the page's sidebar link and records every animation frame for
``--watch`` seconds: whether the new page's title is drawn, how many of the main block's elements
are Streamlit's grey loading placeholders (``stSkeleton``), and whether the main block shows nothing
at all. It prints, per page, the medians: milliseconds until the title shows, until the last
placeholder is gone, and the frames (and milliseconds) with an empty main block or placeholders only.
While ``assets/page_hold.js`` holds the old page on screen (a view transition: the browser paints no
frame, so none is recorded), the old page is what shows; the first frame after it is the new page's.
``--app-dir`` serves another checkout (old code against new, one after the other). Not a test: the
numbers depend on the machine and its load (printed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser_common import ROOT, chromium, load_average, serve  # noqa: E402
from tests.browser.settle import wait_settled  # noqa: E402
from ui.nav import PAGES  # noqa: E402

# Every animation frame until ``ms``: the main block's state (the new page's title, placeholders, content).
RECORD_JS = """(ms) => {
  window.__frames = [];
  const t0 = performance.now();
  const tick = () => {
    const main = document.querySelector('[data-testid=stMain] [data-testid=stMainBlockContainer]');
    const shown = main ? [...main.querySelectorAll('[data-testid=stElementContainer]')]
        .filter(e => e.getBoundingClientRect().height > 0) : [];
    const skeletons = main ? main.querySelectorAll('[data-testid=stSkeleton]').length : 0;
    const h1 = main && main.querySelector('h1');
    window.__frames.push({t: performance.now() - t0, title: h1 ? h1.textContent : '', skeletons,
                          content: shown.filter(e => !e.querySelector('[data-testid=stSkeleton]')).length});
    if (performance.now() - t0 < ms) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def switch_once(page, url: str, label: str, title: str, watch_ms: int) -> dict[str, float]:
    """From the Playground, click ``label`` in the sidebar and read the frames of ``watch_ms`` after it."""
    page.goto(url)
    wait_settled(page)
    # the Playground's own loading placeholders (its lazily loaded elements) can outlast its run by a
    # second: counted, they were taken for the new page's
    page.wait_for_function("() => !document.querySelector('[data-testid=stSkeleton]')", timeout=120_000)
    page.evaluate(RECORD_JS, watch_ms)
    page.locator("[data-testid=stSidebar]").get_by_role("link", name=label).first.click()
    page.wait_for_timeout(watch_ms + 200)
    frames = page.evaluate("window.__frames")
    return summarize(frames, title)


def summarize(frames: list[dict], title: str) -> dict[str, float]:
    """ms to the title, ms to the last placeholder, and the frames (ms) with no content or placeholders only."""
    titled = next((f["t"] for f in frames if f["title"].startswith(title)), float("nan"))
    last_skeleton = max((f["t"] for f in frames if f["skeletons"]), default=0.0)
    empty = [f for f in frames if f["content"] == 0 or not f["title"].startswith(title) and f["skeletons"]]
    gaps = [b["t"] - a["t"] for a, b in zip(frames, frames[1:], strict=False)]
    empty_ms = sum(g for f, g in zip(frames, gaps, strict=False) if f in empty)
    return {"title_ms": titled, "placeholders_until_ms": last_skeleton, "empty_frames": len(empty), "empty_ms": empty_ms}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="switches per page (median)")
    parser.add_argument("--pages", nargs="*", help="only these pages (sidebar labels, or the start of one)")
    parser.add_argument("--watch", type=float, default=6.0, help="seconds of frames recorded after the click")
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout to serve")
    args = parser.parse_args()
    pages = [(label, path) for path, label, _ in PAGES[1:]
             if not args.pages or any(label.startswith(p) for p in args.pages)]
    print(f"load average before: {load_average()}  ({os.cpu_count()} cores)")
    rows = []
    with tempfile.TemporaryDirectory() as tmp, serve(args.app_dir, Path(tmp) / "server.log") as server, \
            chromium() as browser:
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        page.set_default_timeout(300_000)
        for label, _ in pages:  # once each: the server's caches and the browser's bundles warm
            page.goto(server.url)
            wait_settled(page)
            page.locator("[data-testid=stSidebar]").get_by_role("link", name=label).first.click()
            wait_settled(page)
        for label, _ in pages:
            title = page_title(label)
            runs = [switch_once(page, server.url, label, title, int(args.watch * 1000)) for _ in range(args.runs)]
            row = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            rows.append((label, row))
            print(f"  {label}: title after {row['title_ms']:.0f} ms, placeholders until {row['placeholders_until_ms']:.0f} "
                  f"ms, {row['empty_frames']:.0f} frames ({row['empty_ms']:.0f} ms) blank or placeholders only", flush=True)
        context.close()
    print(f"load average after: {load_average()}")


def page_title(label: str) -> str:
    """The start of the page's ``st.title`` (the Algorithms page's is longer than its sidebar label)."""
    return {"Beyond fixed tokenizers": "Beyond fixed tokenizers", "Algorithms": "Algorithms"}.get(label, label)


if __name__ == "__main__":
    main()
