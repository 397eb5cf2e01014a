"""A key press in the Playground, two checkouts side by side: interleaved, so both see the same load.

Run (from the repository root, with the data folder):
``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/keys_ab.py OLD_DIR NEW_DIR [--keys 20] [--size 1000]``

Each checkout gets its own ``streamlit run app.py`` and its own chromium page (1440×900, the four
default tokenizers, two columns per row). Keys are typed at the start of a ``--size``-byte text, one
in A, one in B, in turn (each pair in alternating order), and each is timed as ``bench/browser.py``
times it: from the key press to every span box showing the new text. The page also records, for
each key, when its text left on the websocket, when the first and the last message of its run came
back, and how long the main thread was busy (long tasks over 50 ms are not needed: a
``PerformanceObserver`` of "event" and "longtask" misses short tasks, so busy time is read from
the gaps of a ``requestAnimationFrame``/``MessageChannel`` probe instead), so the medians split
into: the browser sending, the server's run, and the browser drawing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser import BOX, paste_text, wait_boxes, wait_idle  # noqa: E402
from bench.browser_common import chromium, load_average, serve  # noqa: E402
from bench.timing import sample_text  # noqa: E402

# Every websocket message, both ways, with its time (performance.now()); and the boxes' "done" time.
PROBE = """(() => {
  const log = window.__tpWs = [];
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    const send = socket.send.bind(socket);
    socket.send = (data) => { log.push([performance.now(), 'out', data.byteLength || data.length || 0]); send(data); };
    socket.addEventListener('message', (e) => log.push([performance.now(), 'in', e.data.byteLength || e.data.size || e.data.length || 0]));
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""

WATCH = """([head]) => new Promise((resolve) => {
  const boxes = () => [...document.querySelectorAll('.tp-box > .tp-spans')];
  const check = () => {
    const all = boxes();
    if (all.length === 4 && all.every((b) => b.textContent.slice(0, 400).includes(head))) resolve(performance.now());
    else requestAnimationFrame(check);
  };
  check();
})"""


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` and its threads so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Side:
    def __init__(self, name: str, browser, url: str, pid: int) -> None:
        self.name = name
        self.pid = pid
        self.context = browser.new_context(viewport={"width": 1440, "height": 900})
        self.context.add_init_script(PROBE)
        self.page = self.context.new_page()
        self.page.set_default_timeout(120_000)
        self.page.goto(url)
        wait_boxes(self.page, "true", 4)
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("Performance.enable")
        self.rows: list[dict[str, float]] = []

    def prepare(self, size: int) -> str:
        text = sample_text(size, f"Keys{size} ")
        paste_text(self.page, text)
        wait_boxes(self.page, f"box.textContent.slice(0, 400).includes('Keys{size} ')", 4)
        wait_idle(self.page)
        self.page.locator(BOX).evaluate("box => { box.focus(); box.setSelectionRange(0, 0); }")
        return text

    def busy(self) -> float:
        metrics = {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}
        return metrics["TaskDuration"]

    def key(self, text: str, i: int) -> str:
        page = self.page
        key = "abcdefghijklmnopqrstuvwxyz"[i % 26]
        text = text[:i] + key + text[i:]
        head = text[max(0, i - 10): i + 14]
        wait_idle(page)
        page.evaluate("() => { window.__tpWs.length = 0; }")
        busy0 = self.busy()
        cpu0 = cpu_seconds(self.pid)
        began = time.perf_counter()
        t0 = page.evaluate("() => performance.now()")
        page.keyboard.press(key)
        done = page.evaluate(WATCH, [head])
        wall = time.perf_counter() - began
        busy_to_done = self.busy() - busy0
        server_cpu = cpu_seconds(self.pid) - cpu0
        wait_idle(page)
        log = page.evaluate("() => window.__tpWs")
        outs = [t for t, d, _ in log if d == "out"]
        ins = [(t, n) for t, d, n in log if d == "in"]
        sent = outs[0] if outs else t0
        ins_run = [t for t, _ in ins if t >= sent and t <= done]
        self.rows.append({
            "wall": wall, "send": (sent - t0) / 1000, "first_in": ((ins_run[0] if ins_run else done) - sent) / 1000,
            "to_done": (done - (ins_run[0] if ins_run else sent)) / 1000, "done": (done - t0) / 1000,
            "msgs": len(ins_run), "busy": busy_to_done, "cpu": server_cpu,
        })
        return text


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--keys", type=int, default=20)
    parser.add_argument("--size", type=int, default=1_000)
    args = parser.parse_args()
    print(f"load average before: {load_average()}")
    folder = Path(tempfile.mkdtemp(prefix="bench-keys-ab-"))
    with serve(args.old.resolve(), folder / "a.log") as a, serve(args.new.resolve(), folder / "b.log") as b, \
            chromium() as browser:
        sides = [Side("A (old)", browser, a.url, a.process.pid), Side("B (new)", browser, b.url, b.process.pid)]
        texts = [side.prepare(args.size) for side in sides]
        for i in range(args.keys):
            order = [0, 1] if i % 2 == 0 else [1, 0]
            for j in order:
                texts[j] = sides[j].key(texts[j], i)
        print(f"load average after: {load_average()} · tracebacks: {a.tracebacks()} / {b.tracebacks()}")
    print(f"{args.size:,} B × 4, {args.keys} keys each; seconds (median, p95) — send: key → text on the socket; "
          "server: → first message back; draw: first message → boxes show it; busy: main thread, key → boxes; "
          "server CPU: the server process, key → boxes")
    for side in sides:
        rows = side.rows
        col = {k: [r[k] for r in rows] for k in rows[0]}
        print(f"{side.name}: key→boxes p50 {statistics.median(col['wall']):.3f} p95 {p95(col['wall']):.3f} · "
              f"in-page p50 {statistics.median(col['done']):.3f} p95 {p95(col['done']):.3f} · "
              f"send {statistics.median(col['send']):.3f} · server {statistics.median(col['first_in']):.3f} · "
              f"draw {statistics.median(col['to_done']):.3f} · messages {statistics.median(col['msgs']):.0f} · "
              f"busy {statistics.median(col['busy']):.3f} · server CPU {statistics.median(col['cpu']):.3f}")


if __name__ == "__main__":
    main()
