"""Shared fixtures: the data folder (skip with a reason when absent) and the default cache dir; under
pytest-xdist, timed tests run alone and the longest test files are handed out first."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.suite_time import (  # the last two are hooks: pytest finds them here
    expected_seconds,
    longest_first,
    pytest_runtest_logreport,  # noqa: F401
    pytest_terminal_summary,  # noqa: F401
)

# CI runs every property test on the same examples (derandomize) so that a run that lands is one that
# can be repeated; a local run keeps exploring new examples, and what it finds becomes a fixed test.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def data_dir_or_none() -> Path | None:
    """The folder named by PLAYGROUND_DATA_DIR, when it is set and exists."""
    value = os.environ.get("PLAYGROUND_DATA_DIR", "")
    path = Path(value) if value else None
    return path if path is not None and path.is_dir() else None


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """PLAYGROUND_DATA_DIR, or skip: these tests compare against the verified files in it."""
    path = data_dir_or_none()
    if path is None:
        pytest.skip("PLAYGROUND_DATA_DIR is not set to an existing folder (see README: offline use)")
    return path


# Tests that assert a wall-clock bound (a refusal "in under a second", no health-check stall over
# 0.5 s) must not share the 2 cores with other tests. Under pytest-xdist (`make test` runs `-n 3`),
# such a test takes an exclusive lock that every other test holds shared, so the other workers pause
# between two of their tests until the timed one is done. Only a bound that is the behaviour tested
# (a budget, a refusal before work) belongs here: how fast something is goes to bench/
# (bench/bpe_steps.py). Mark new ones with @pytest.mark.timed, or list them here. Without xdist there
# is nothing to wait for and no lock is taken.
TIMED = (
    "tests/browser/test_upload_health.py",
    "tests/browser/test_bpe_page.py::test_keys_pressed_just_after_leaving_the_page_are_not_taken",
    "tests/core/pretrained/test_upload_hardening.py",
    "tests/core/pretrained/test_gguf_metadata.py",
    "tests/core/pretrained/test_gguf_vocab.py::test_too_many_control_tokens_are_refused_before_they_are_built",
    "tests/core/text/test_pretokenize.py::test_a_runaway_pattern_stops_with_a_message",
)
TIMED_SCOPE = "timed tests"  # the xdist work unit of the TIMED tests (pytest_xdist_make_scheduler)


LOCKS_ENV = "PLAYGROUND_TEST_LOCKS"


def pytest_configure(config: pytest.Config) -> None:
    """In the xdist controller: a folder for the workers' lock files (they inherit the environment)."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        os.environ[LOCKS_ENV] = tempfile.mkdtemp(prefix="playground-test-locks-")


def pytest_unconfigure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and os.environ.get(LOCKS_ENV):
        shutil.rmtree(os.environ.pop(LOCKS_ENV), ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(TIMED):
            item.add_marker(pytest.mark.timed)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``--dist loadfile`` (a module's fixtures are built once), with the files handed out longest first
    (tests/suite_time.py: measured seconds; the browser test files are most of them), so that what is
    left for the end is short. The ``TIMED`` tests are one unit of their own, handed out last: each
    timed call waits for the tests the other workers are running to end, and in the middle of the run
    those were browser tests of up to a minute (a timed call of 2 s measured 39 s, waiting); at the end
    the others run short files, and the wait is paid once. Each worker that runs a browser file starts
    its own server and chromium (three in all); measured under load, that beats one worker running every
    browser test, which was still on its first tenth of them when the other worker was a third through
    the rest."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class LongestFirst(LoadFileScheduling):
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return TIMED_SCOPE if nodeid.startswith(TIMED) else super()._split_scope(nodeid)

        def _assign_work_unit(self, node: object) -> None:
            if not self.ordered:
                for scope in longest_first(list(self.workqueue), expected_seconds()):
                    self.workqueue.move_to_end(scope)
                if TIMED_SCOPE in self.workqueue:
                    self.workqueue.move_to_end(TIMED_SCOPE)
                self.ordered = True
            super()._assign_work_unit(node)

    return LongestFirst(config, log)


# A timed test's call runs alone (its setup and teardown, a server's start say, share the machine like
# any test's). The exclusive lock is kept from one timed test to the next one of the same worker: the
# other workers then wait once for a file of timed tests, not once per test for whatever they are running.
_ALONE: list[contextlib.ExitStack] = []  # the held lock, or nothing


def _timed(item: pytest.Item | None) -> bool:
    return item is not None and item.get_closest_marker("timed") is not None


def _locks() -> Path | None:
    folder = os.environ.get(LOCKS_ENV)
    return Path(folder) if folder and os.environ.get("PYTEST_XDIST_WORKER") else None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    folder = _locks()
    if folder is None or not _timed(item):
        with _alone_or_shared(folder, alone=False) if folder else contextlib.nullcontext():
            yield
        return
    yield
    if _ALONE and not _timed(nextitem):
        _ALONE.pop().close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    folder = _locks()
    if folder is None or not _timed(item) or _ALONE:
        yield
        return
    with _alone_or_shared(folder, alone=False):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    folder = _locks()
    if folder is not None and _timed(item) and not _ALONE:
        _ALONE.append(contextlib.ExitStack())
        _ALONE[0].enter_context(_alone_or_shared(folder, alone=True))
    yield


@contextlib.contextmanager
def _alone_or_shared(folder: Path, *, alone: bool) -> Iterator[None]:
    """A readers-writer lock between the xdist workers. The turnstile keeps a waiting writer from
    starving: a reader passes it before taking its shared lock, a writer holds it while it waits."""
    with (folder / "turnstile").open("a") as gate, (folder / "lock").open("a") as lock:
        fcntl.flock(gate, fcntl.LOCK_EX)
        if not alone:
            fcntl.flock(gate, fcntl.LOCK_UN)
        fcntl.flock(lock, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)
