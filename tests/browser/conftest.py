"""Browser-test fixtures: a real ``streamlit run app.py`` server and Debian's chromium via Playwright.

Chromium is the system one (``/usr/bin/chromium``, or ``PLAYGROUND_CHROMIUM``); Playwright never
downloads a browser here. Without it the tests skip with a reason, unless
``PLAYGROUND_REQUIRE_BROWSER=1`` (set by CI), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("PLAYGROUND_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SERVER_START_TIMEOUT_S = 60


def _missing(reason: str) -> None:
    if os.environ.get("PLAYGROUND_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (PLAYGROUND_REQUIRE_BROWSER=1, so this is a failure, not a skip)")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.25)
    raise RuntimeError(f"streamlit did not become healthy in {SERVER_START_TIMEOUT_S} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start the Playground on a free port and yield its URL; stop it afterwards."""
    port = _free_port()
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
    ]
    env = dict(os.environ)  # passes PLAYGROUND_DATA_DIR (and the cache dir) through
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process, log)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's chromium, headless, driven by Playwright; skips (or fails in CI) when absent."""
    if not CHROMIUM.exists() and shutil.which(str(CHROMIUM)) is None:
        _missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -r requirements-dev.txt)")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture()
def page(browser: object, app_url: str) -> Iterator[object]:
    """A fresh 1440×900 page on the Playground, with every dialog recorded (and dismissed)."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.dialogs = []  # type: ignore[attr-defined]

    def on_dialog(dialog: object) -> None:
        page.dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.set_default_timeout(30_000)
    page.goto(app_url)
    try:
        yield page
    finally:
        context.close()
