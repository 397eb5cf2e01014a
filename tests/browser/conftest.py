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


# What a test may ask of a context that the worker's one warm context gives each page on its own.
PER_PAGE_OPTIONS = {"viewport", "accept_downloads"}


class PageGroup:
    """A test's "context" of plain pages (``browser.new_context(viewport=…)``): its pages, opened in
    the worker's one warm context, each at the viewport asked for; ``close`` closes them.

    Subtle: the pages share the warm context's storage. Streamlit keeps the sidebar's state (collapsed,
    width, navigation) in the origin's localStorage, so a test that closed the sidebar would open the
    next test's pages with it closed: ``close`` empties the origin's storage first.
    """

    def __init__(self, warm: object, viewport: dict[str, int] | None) -> None:
        self._warm, self._viewport, self._pages = warm, viewport, []

    def new_page(self) -> object:
        page = self._warm.new_page()
        if self._viewport:
            page.set_viewport_size(self._viewport)
        self._pages.append(page)
        return page

    @property
    def pages(self) -> list[object]:
        return [page for page in self._pages if not page.is_closed()]

    def new_cdp_session(self, page: object) -> object:
        return self._warm.new_cdp_session(page)

    def close(self) -> None:
        for page in self.pages:
            try:
                if page.url.startswith("http"):
                    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            except Exception:  # noqa: BLE001, S110 — a crashed or navigating page: closing it is what counts
                pass
            page.close()


class WarmBrowser:
    """The session's chromium, whose ``new_context`` with only a viewport gives a ``PageGroup`` in one
    persistent (on-disk) context instead of a new incognito one; any other option gets a real context.

    Why: an incognito context keeps no compiled code, so every page visit compiled Streamlit's 3 MB
    of JavaScript again. With the disk profile, V8 reuses the code it cached: a Playground visit cost
    chromium 3.7 s of CPU in a fresh context and 2.5 s in the warm one (medians of 6, load 8), and page
    visits are most of what the browser tests cost (issue 27).
    """

    def __init__(self, browser: object, warm: object) -> None:
        self._browser, self.warm = browser, warm

    def new_context(self, **options: object) -> object:
        if set(options) <= PER_PAGE_OPTIONS:
            return PageGroup(self.warm, options.get("viewport"))  # type: ignore[arg-type]
        return self.isolated_context(**options)

    def isolated_context(self, **options: object) -> object:
        """A real incognito context: its own cookies (a room's replica affinity) and storage."""
        return self._browser.new_context(**options)

    @property
    def contexts(self) -> list[object]:
        return [*self._browser.contexts, self.warm]

    def __getattr__(self, name: str) -> object:
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """Debian's chromium, headless, driven by Playwright; skips (or fails in CI) when absent."""
    if not CHROMIUM.exists() and shutil.which(str(CHROMIUM)) is None:
        _missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -r requirements-dev.txt)")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        warm = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM), headless=True,
            args=CHROMIUM_ARGS,
        )
        try:
            yield WarmBrowser(instance, warm)
        finally:
            warm.close()
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
