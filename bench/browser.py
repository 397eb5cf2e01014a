"""How long the Playground takes in a real browser: issue 12's table, measured in chromium.

Run (from the repository root, with the data folder):
``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/browser.py [--runs 3] [--app-dir DIR]``

It starts ``streamlit run app.py`` (from ``--app-dir``, default this checkout: point it at an
exported older commit to compare) on a free local port, opens it in Debian's chromium through
Playwright (1440×900, the default two columns per row) and times, from the action to the moment every
span box shows the result (checked on each animation frame), the median over ``--runs`` of:

- a key press in the live text box holding 1 KB / 10 KB (typed at the start of the text, so the
  first screenful changes) → every one of the four default columns shows the new tokens: p50 and
  p95 over ``--keys`` presses;
- paste 1 KB / 10 KB / 100 KB of the multilingual sample over the box's text → the four default
  columns show it (each run a distinct text: the server tokenizes it afresh);
- with 50 KB applied: the whitespace, raw-pieces and columns-per-row switches, each way;
- typing 40 characters into the text area holding 100 KB: the longest main-thread task (a stall);
- 400 KB uploaded with every available tokenizer selected → every column shows it; then raw pieces.

The key presses and pastes are also timed *in the page* ("…, in page" rows): from the moment the
page received the key (its ``keydown``) or the paste (its ``input`` event) to the animation frame in
which every column shows the result, both read from ``performance.now()``. The first figure also holds
Playwright's round trips to the browser (sending the key, reading the result: 5-20 ms), which a person
typing does not wait for; both are printed, with the same targets.

For each it also prints the megabytes the browser received over the websocket for that action
(a rerun that changes nothing big should receive little). Targets from the issue are printed next
to the numbers. Not a test: the numbers depend on the machine and its load (printed too).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser_common import BOXES_JS, IDLE_JS, ROOT, chromium, load_average, serve  # noqa: E402
from bench.timing import sample_text  # noqa: E402

TARGETS = {
    "key press, 1 KB": "p50 ≤ 0.15 s, p95 ≤ 0.30 s", "key press, 10 KB": "p50 ≤ 0.40 s",
    "paste 1 KB": "p50 ≤ 0.15 s, p95 ≤ 0.30 s", "paste 10 KB": "p50 ≤ 0.40 s", "paste 100 KB": "< 1.5 s",
    "50 KB whitespace on": "< 0.5 s", "50 KB whitespace off": "< 0.5 s",
    "50 KB raw pieces on": "< 0.5 s", "50 KB raw pieces off": "< 0.5 s",
    "50 KB 1 column per row": "< 0.5 s", "50 KB 2 columns per row": "< 0.5 s",
    "typing, 100 KB in the area": "no stall", "400 KB, all tokenizers": "< 4 s",
    "400 KB raw pieces on": "< 1 s", "400 KB raw pieces off": "< 1 s",
}


# Whitespace marks and the raw view, in the compact markup (i marks, box class tp-raw) and in the
# older one (span.tp-ws, pill class tp-raw), so one script measures both.
WS = "box.querySelector('.tp-ws, i')"
RAW = "(box.matches('.tp-raw') || box.querySelector('.tp-raw') !== null)"


class Wire:
    """Counts the bytes the page receives over Streamlit's websocket."""

    def __init__(self, page) -> None:
        self.received = 0
        page.on("websocket", self._attach)

    def _attach(self, socket) -> None:
        socket.on("framereceived", lambda payload: self._add(payload))

    def _add(self, payload) -> None:
        self.received += len(payload) if isinstance(payload, (bytes, bytearray)) else len(payload.encode())


def wait_boxes(page, condition: str, count: int, timeout_ms: int = 120_000) -> None:
    """Wait (checking on every animation frame) until ``count`` span boxes all satisfy ``condition(box)``."""
    page.wait_for_function(
        f"([n]) => {{ const boxes = {BOXES_JS}; const ok = boxes.length === n && boxes.every(box => {condition});"
        " if (ok) window.__benchShown = performance.now(); return ok; }",
        arg=[count], polling="raf", timeout=timeout_ms,
    )


# When the page got the last key or paste (its keydown or input event): the start of the in-page time.
ACTION_JS = """(() => {
  document.addEventListener('keydown', () => { window.__benchAction = performance.now(); }, true);
  document.addEventListener('input', (e) => {
    if (e.inputType === 'insertFromPaste') window.__benchAction = performance.now(); }, true);
})();"""


def in_page(page) -> float:
    """Seconds from the page receiving the last key or paste to the frame that showed its result."""
    return page.evaluate("() => (window.__benchShown - window.__benchAction) / 1000")


# Every live box's last text drawn by a whole-page run too (ui/live_text.py whole_page_drawn): on the
# Playground a key reruns only the box's fragment, and the rest of the page follows when typing pauses.
SETTLED_JS = """(() => { const r = window.__tpLive; if (!r || !r.whole) return true;
  return Object.entries(r.whole).every(([name, whole]) => { const s = r.boxes[name];
    return !s || !s.box || (s.box.value === s.sentText && whole.seq >= s.sentSeq); }); })()"""


def wait_idle(page) -> None:
    """Until no run is in flight and the page has followed the last typed text everywhere."""
    for _ in range(2):
        page.wait_for_function(f"() => {IDLE_JS} && {SETTLED_JS}", timeout=120_000)
        page.wait_for_timeout(300)  # the last deltas of the run, or a whole-page run about to start


def timed(page, wire: Wire, action: Callable[[], None], done: Callable[[], None]) -> tuple[float, float]:
    """Seconds from ``action`` to ``done`` returning, and MB received until the run ended."""
    wait_idle(page)
    wire.received = 0
    began = time.perf_counter()
    action()
    done()
    seconds = time.perf_counter() - began
    wait_idle(page)
    return seconds, wire.received / 1e6


def stable_count(page, quiet_s: float = 3.0) -> int:
    """The number of span boxes once it has not changed for ``quiet_s`` seconds.

    subtle: the status widget's spinner (IDLE_JS) was seen absent while the columns of 30
    tokenizers were still being drawn, so a count taken 1 s after "idle" missed the last columns
    and the 400 KB step then waited for a count it could never reach.
    """
    last, since = -1, time.monotonic()
    while True:
        count = page.evaluate(f"() => {BOXES_JS}.length")
        if count != last:
            last, since = count, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return count
        page.wait_for_timeout(250)


def has_marker(marker: str) -> str:
    return f"box.textContent.slice(0, 400).includes({marker!r})"


BOX = ".tp-live-box"  # the Playground's live text box (ui/live_text.py)


def paste_text(page, text: str) -> None:
    """Replace the box's text as a paste does (select all, paste): it goes to the server at once."""
    # one round trip to the page (a locator's evaluate takes two: find the box, then run the script)
    page.evaluate(
        """([selector, text]) => { const box = document.querySelector(selector); box.focus();
            box.setRangeText(text, 0, box.value.length, 'end');
            box.dispatchEvent(new InputEvent('input', {inputType: 'insertFromPaste', data: text, bubbles: true})); }""",
        [BOX, text],
    )


def key_presses(page, wire: Wire, size: int, count: int) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Seconds from a key press at the start of a ``size``-byte text to every column showing it: as
    Playwright sees it, and in the page (``in_page``)."""
    text = sample_text(size, f"Keys{size} ")
    paste_text(page, text)
    wait_boxes(page, has_marker(f"Keys{size} "), 4)
    box = page.locator(BOX)
    box.evaluate("box => { box.focus(); box.setSelectionRange(0, 0); }")
    out, inside = [], []
    for i in range(count):
        key = "abcdefghijklmnopqrstuvwxyz"[i % 26]
        text = text[:i] + key + text[i:]  # the caret moves on after each key
        head = text[max(0, i - 10): i + 14]
        out.append(timed(page, wire, lambda k=key: page.keyboard.press(k),
                         lambda h=head: wait_boxes(page, f"box.textContent.slice(0, 400).includes({h!r})", 4)))
        inside.append((in_page(page), out[-1][1]))
    return out, inside


def sidebar_toggle(page, label: str) -> None:
    page.locator("[data-testid=stSidebar] label", has_text=label).first.click()


def per_row(page, n: int) -> None:
    page.locator("[data-testid=stSidebar] [data-testid=stButtonGroup] button", has_text=str(n)).first.click()


def longest_task_while_typing(page, characters: int = 40) -> float:
    """The longest main-thread task (ms) while typing into the text area (0 when none passed 50 ms)."""
    page.evaluate("""() => { window.__tpLong = 0;
        new PerformanceObserver(list => { for (const e of list.getEntries())
            window.__tpLong = Math.max(window.__tpLong, e.duration); }).observe({type: 'longtask'}); }""")
    area = page.locator(BOX)
    area.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("typing along " * (characters // 13 + 1), delay=40)
    page.wait_for_timeout(300)
    return page.evaluate("() => window.__tpLong")


def run(app_dir: Path, runs: int, big_kb: int, keys: int, only_keys: bool = False) -> dict[str, list[tuple[float, float]]]:
    results: dict[str, list[tuple[float, float]]] = {}

    def record(name: str, value: tuple[float, float]) -> None:
        results.setdefault(name, []).append(value)
        print(f"  {name}: {value[0]:.2f} s, {value[1]:.2f} MB", file=sys.stderr, flush=True)

    from core import pretrained

    all_keys = list(pretrained.registry())
    log = Path(tempfile.mkdtemp(prefix="bench-browser-")) / "server.log"
    with serve(app_dir, log) as server, chromium() as browser:
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        page = context.new_page()
        page.set_default_timeout(120_000)
        wire = Wire(page)
        page.goto(server.url)
        wait_boxes(page, "true", 4)
        page.add_init_script(ACTION_JS)
        page.evaluate(ACTION_JS)
        for size in (1_000, 10_000):
            seen, inside = key_presses(page, wire, size, keys)
            for value in seen:
                record(f"key press, {size // 1000} KB", value)
            for value in inside:
                record(f"key press, {size // 1000} KB, in page", value)
        serial = 0
        for size in (1_000, 10_000) if only_keys else (1_000, 10_000, 100_000):
            for _ in range(keys if size <= 10_000 else runs):
                serial += 1
                marker = f"Run{serial}x{size} "
                text = sample_text(size, marker)
                record(f"paste {size // 1000} KB", timed(page, wire, lambda t=text: paste_text(page, t),
                                                          lambda m=marker: wait_boxes(page, has_marker(m), 4)))
                if size <= 10_000:
                    record(f"paste {size // 1000} KB, in page", (in_page(page), results[f"paste {size // 1000} KB"][-1][1]))
        if only_keys:
            results["_available"] = [(4, len(all_keys))]
            results["_tracebacks"] = [(server.tracebacks(), 0)]
            return results
        # display switches with 50 KB
        paste_text(page, sample_text(50_000, "Switch50 "))
        wait_boxes(page, has_marker("Switch50 "), 4)
        switches = [
            ("whitespace", "Show whitespace", f"{WS} !== null", f"{WS} === null"),
            ("raw pieces", "Raw pieces", RAW, f"!({RAW})"),
        ]
        for _ in range(runs):
            for name, label, on, off in switches:
                record(f"50 KB {name} on", timed(page, wire, lambda lab=label: sidebar_toggle(page, lab),
                                                  lambda c=on: wait_boxes(page, c, 4)))
                record(f"50 KB {name} off", timed(page, wire, lambda lab=label: sidebar_toggle(page, lab),
                                                   lambda c=off: wait_boxes(page, c, 4)))
            record("50 KB 1 column per row", timed(page, wire, lambda: per_row(page, 1),
                                                    lambda: wait_boxes(page, "box.clientWidth > 900", 4)))
            record("50 KB 2 columns per row", timed(page, wire, lambda: per_row(page, 2),
                                                     lambda: wait_boxes(page, "box.clientWidth < 800", 4)))
        # typing with 100 KB in the text area
        paste_text(page, sample_text(100_000, "Typing100 "))
        wait_boxes(page, has_marker("Typing100 "), 4)
        wait_idle(page)
        for _ in range(runs):
            record("typing, 100 KB in the area", (longest_task_while_typing(page) / 1000, 0.0))
        context.close()

        # every tokenizer, a big uploaded text
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        page = context.new_page()
        page.set_default_timeout(300_000)
        wire = Wire(page)
        page.goto(f"{server.url}/?page=playground&tokenizers={','.join(all_keys)}")
        wait_idle(page)
        page.wait_for_function(f"() => {BOXES_JS}.length > 0 && {IDLE_JS}", timeout=600_000)
        available = stable_count(page)
        results["_available"] = [(available, len(all_keys))]
        folder = Path(tempfile.mkdtemp(prefix="bench-upload-"))
        for i in range(runs):
            marker = f"Big{i}x{big_kb} "
            path = folder / f"big{i}.txt"
            path.write_text(sample_text(big_kb * 1000, marker), encoding="utf-8")
            uploader = page.locator("[data-testid=stFileUploaderDropzoneInput]").first
            record(f"{big_kb} KB, all tokenizers", timed(
                page, wire, lambda p=path, u=uploader: u.set_input_files(str(p)),
                lambda m=marker: wait_boxes(page, has_marker(m), available, 600_000)))
            record(f"{big_kb} KB raw pieces on", timed(
                page, wire, lambda: sidebar_toggle(page, "Raw pieces"),
                lambda: wait_boxes(page, RAW, available, 600_000)))
            record(f"{big_kb} KB raw pieces off", timed(
                page, wire, lambda: sidebar_toggle(page, "Raw pieces"),
                lambda: wait_boxes(page, f"!({RAW})", available, 600_000)))
        context.close()
        results["_tracebacks"] = [(server.tracebacks(), 0)]
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big-kb", type=int, default=400)
    parser.add_argument("--keys", type=int, default=20, help="key presses timed per text size (for p95)")
    parser.add_argument("--only-keys", action="store_true", help="only the key presses and pastes of 1 and 10 KB")
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    args = parser.parse_args()
    print(f"app: {args.app_dir} · load average before: {load_average()}")
    results = run(args.app_dir.resolve(), max(1, args.runs), args.big_kb, max(1, args.keys), args.only_keys)
    available, total = results.pop("_available")[0]
    tracebacks = results.pop("_tracebacks")[0][0]
    print(f"load average after: {load_average()} · tokenizers available: {available} of {total}"
          f" · tracebacks in the server log: {tracebacks}")
    print(f"{'action':<30}{'median s':>10}{'p95 s':>8}{'min s':>8}{'max s':>8}{'MB recv':>9}  target")
    for name, values in results.items():
        seconds = [s for s, _ in values]
        received = statistics.median(mb for _, mb in values)
        plain = name.removesuffix(", in page")
        target = TARGETS.get(plain, TARGETS.get(plain.replace(f"{args.big_kb} KB", "400 KB"), ""))
        print(f"{name:<30}{statistics.median(seconds):>10.2f}{p95(seconds):>8.2f}{min(seconds):>8.2f}"
              f"{max(seconds):>8.2f}{received:>9.2f}  {target}")


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank): with fewer than 20 values, the largest."""
    ordered = sorted(values)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


if __name__ == "__main__":
    main()
