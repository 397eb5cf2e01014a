"""Browser-test fixtures: a real ``streamlit run app.py`` server and Debian's chromium via Playwright.

Chromium is the system one (``/usr/bin/chromium``, or ``PLAYGROUND_CHROMIUM``); Playwright never
downloads a browser here. Without it the tests skip with a reason, unless
``PLAYGROUND_REQUIRE_BROWSER=1`` (set by CI), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from bench.browser_common import CHROMIUM, CHROMIUM_ARGS, ROOT, serve
from tests.browser.failure import describe_pages


def _missing(reason: str) -> None:
    if os.environ.get("PLAYGROUND_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (PLAYGROUND_REQUIRE_BROWSER=1, so this is a failure, not a skip)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start the Playground on a free port (the benchmarks' own launcher) and yield its URL; stop it after.

    The server gets this process's environment, so PLAYGROUND_DATA_DIR and the cache dir pass through.
    """
    with serve(ROOT, tmp_path_factory.mktemp("streamlit") / "server.log") as server:
        yield server.url


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


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """A failed browser test's report says what its pages showed (CI's log is all there is to read)."""
    report = yield
    browser = getattr(item, "funcargs", {}).get("browser")
    if report.when == "call" and report.failed and browser is not None:
        report.sections.append(("what the pages showed", describe_pages(browser)))
    return report


@pytest.fixture()
def blank_page(browser: object, app_url: str) -> Iterator[object]:
    """A fresh 1440×900 page that has opened nothing yet, with every dialog recorded (and dismissed):
    for a test whose first step is its own address (a page visit is the suite's dearest step)."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.dialogs = []  # type: ignore[attr-defined]

    def on_dialog(dialog: object) -> None:
        page.dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture()
def page(blank_page: object, app_url: str) -> object:
    """``blank_page`` opened on the Playground."""
    blank_page.goto(app_url)
    return blank_page
