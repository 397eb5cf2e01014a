"""What the browser benchmarks share: a local ``streamlit run app.py``, Debian's chromium, sample texts.

Used by ``bench/browser.py`` (one session, the issue's table) and ``bench/load.py`` (many sessions).
Traffic goes only to the server started here, on 127.0.0.1; the browser is told to fetch nothing else
(no component updates, no background networking).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path(os.environ.get("PLAYGROUND_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--no-first-run", "--disable-sync", "--disable-extensions",
]
START_TIMEOUT_S = 90

# The Playground's span boxes (not the legend's examples) and "the app is running" spinner.
BOXES_JS = "[...document.querySelectorAll('.tp-box > .tp-spans')]"
IDLE_JS = "!document.querySelector('[data-testid=stStatusWidget] [data-testid=stSpinner]')"



def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def rss_mb(self) -> float:
        """Resident memory of the server process, in MB (Linux ``/proc``)."""
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def tracebacks(self) -> int:
        return self.log.read_text(errors="replace").count("Traceback")


@contextlib.contextmanager
def serve(app_dir: Path, log: Path, *, extra_args: tuple[str, ...] = ()) -> Iterator[Server]:
    """``streamlit run app.py`` from ``app_dir`` on a free local port; stopped (and waited for) on exit."""
    port = free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false", *extra_args,
    ]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=app_dir, env=dict(os.environ), stdout=sink, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"streamlit exited with {process.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit not healthy after {START_TIMEOUT_S} s") from None
                time.sleep(0.25)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    """The system chromium, headless, through Playwright (which downloads nothing here)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())
