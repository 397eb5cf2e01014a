"""``make serve``: replicas behind HAProxy; a replica that dies mid-session loses its users to another,
with their page state back from the link and no error left on the page; HAProxy keeps Streamlit's
static files, so a new browser does not cost a replica its hundred files."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from deploy.room import haproxy_path, serve_room
from tests.browser.test_playground import SPANS

pytestmark = pytest.mark.browser

TEXT = "Failover: the room keeps its text, ñ 🦀"
BOXES_WITH_TEXT = f"""() => {{ const boxes = [...document.querySelectorAll('{SPANS}')];
    return boxes.length === 2 && boxes.every(b => b.textContent.includes('🦀') && b.querySelector('i')); }}"""
AREA = "() => (document.querySelector('.tp-live-box') || {}).value"  # the Playground's live text box
ERRORS = "[data-testid=stException], [data-testid=stAlertContentError], [role=dialog]"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory):
    if haproxy_path() is None:
        if os.environ.get("PLAYGROUND_REQUIRE_BROWSER") == "1" or os.environ.get("CI"):
            pytest.fail("HAProxy is not installed (apt-get install haproxy); CI must have it")
        pytest.skip("HAProxy is not installed (apt-get install haproxy); .ci/run installs it")
    with serve_room(2, workdir=tmp_path_factory.mktemp("room")) as running:
        yield running


def replica_of(context) -> str:
    cookies = {c["name"]: c["value"] for c in context.cookies()}
    return cookies["TP_REPLICA"]


def warm(browser, room) -> None:
    """Open the Playground on every replica directly, as a room's earlier users have by the time one dies.

    subtle: a replica's first run imports the app and loads its tokenizers, holding Python's lock for
    seconds; a browser handed over to a cold replica on a loaded machine saw its pings time out and
    Streamlit's "Connection error" dialog, which is the cold start, not the handover, under test."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        for port in room.replica_ports:
            page.goto(f"http://127.0.0.1:{port}/?page=playground&tokenizers=cl100k_base,o200k_base")
            page.wait_for_function(f"() => document.querySelectorAll('{SPANS}').length === 2")
    finally:
        context.close()


@contextmanager
def replicas_stopped(room) -> Iterator[None]:
    """Every live replica paused (SIGSTOP): what still answers is HAProxy alone."""
    alive = [p for p in room.replicas.values() if p.poll() is None]
    for process in alive:
        process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        for process in alive:
            process.send_signal(signal.SIGCONT)


def test_haproxy_keeps_the_static_files_and_never_a_cookie(room) -> None:
    """Issue 21, item 9: a new visitor's hundred static files (about 0.2 s of a replica's CPU) come from
    HAProxy's cache once one browser has fetched them: with every replica paused, both files come back.
    Neither carries the affinity cookie, not even the one first fetched by a newcomer, whose response
    set it (HAProxy adds the cookie after its cache has stored the replica's answer): a stored cookie
    would pin every later visitor to that replica."""
    visitor = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    page = visitor.open(f"{room.url}/", timeout=30).read().decode()
    files = re.findall(r'"\.?/?(static/js/[^"]+\.js)"', page)[:2]
    bodies = []
    with visitor.open(f"{room.url}/{files[0]}", timeout=30) as response:  # with the cookie the page set
        bodies.append(response.read())
        assert response.status == 200 and "set-cookie" not in response.headers
    with urllib.request.urlopen(f"{room.url}/{files[1]}", timeout=30) as response:  # a newcomer: no cookie
        bodies.append(response.read())
        assert "TP_REPLICA" in response.headers.get("set-cookie", "")

    with replicas_stopped(room):
        for path, body in zip(files, bodies, strict=True):
            with urllib.request.urlopen(f"{room.url}/{path}", timeout=10) as response:
                assert response.status == 200 and response.read() == body
                assert "set-cookie" not in response.headers and response.headers["age"] is not None


def test_a_killed_replica_hands_its_users_to_another_with_their_state(browser, room) -> None:
    warm(browser, room)
    # its own cookie jar: the replica it is tied to is HAProxy's cookie
    context = browser.isolated_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(90_000)
        page.goto(f"{room.url}/?page=playground&tokenizers=cl100k_base,o200k_base&show_whitespace=1")
        area = page.locator(".tp-live-box")  # applies as typed
        page.wait_for_function(f"() => document.querySelectorAll('{SPANS}').length === 2")
        area.fill(TEXT)
        page.wait_for_function(BOXES_WITH_TEXT)
        page.wait_for_function("() => location.search.includes('text=')")
        before = replica_of(context)
        victim = room.replicas[room.replica_ports[int(before[1:]) - 1]]

        victim.send_signal(signal.SIGKILL)  # a crash: no goodbye on its websockets
        victim.wait()

        # the browser reconnects through HAProxy to the live replica (which sets its own cookie) and
        # that replica reruns the page from its link
        deadline = time.monotonic() + 60
        while replica_of(context) == before:
            assert time.monotonic() < deadline, "the browser never reached another replica"
            page.wait_for_timeout(250)
        page.wait_for_function(BOXES_WITH_TEXT)
        page.wait_for_function(f"() => ({AREA})() === {TEXT!r}")
        try:
            page.wait_for_function(f"() => !document.querySelector('{ERRORS}')", timeout=60_000)
        except Exception as exc:
            shown = [e.inner_text() for e in page.locator(ERRORS).all()]
            raise AssertionError(f"an error stays on the page after the handover: {shown!r}") from exc
        # and the page still works there: a new text is tokenized by the new replica
        area.fill(TEXT + " again")
        page.wait_for_function(f"() => [...document.querySelectorAll('{SPANS}')].every(b => b.textContent.includes('again'))")
        assert page.locator(ERRORS).count() == 0
        assert "Traceback" not in "".join(room.log(p) for p in room.replica_ports)
    except Exception:
        page.screenshot(path=str(room.workdir / "failed.png"))
        print("LIVE", page.evaluate("() => JSON.stringify({boxes: Object.fromEntries(Object.entries(window.__tpLive.boxes).map(([k, s]) => [k, {seq: s.seq, ack: s.ack, sentSeq: s.sentSeq, sentText: s.sentText, version: s.version, timer: s.timer, value: s.box && s.box.value}])), done: window.__tpLive.done})"))
        raise
    finally:
        context.close()
