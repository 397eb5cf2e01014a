"""``make serve``: replicas behind HAProxy; a replica that dies mid-session loses its users to another,
with their page state back from the link and no error left on the page."""

from __future__ import annotations

import os
import signal
import time

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


def test_a_killed_replica_hands_its_users_to_another_with_their_state(browser, room) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
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
        page.wait_for_function(f"() => !document.querySelector('{ERRORS}')", timeout=30_000)
        # and the page still works there: a new text is tokenized by the new replica
        area.fill(TEXT + " again")
        page.wait_for_function(f"() => [...document.querySelectorAll('{SPANS}')].every(b => b.textContent.includes('again'))")
        assert page.locator(ERRORS).count() == 0
        assert "Traceback" not in "".join(room.log(p) for p in room.replica_ports)
    except Exception:
        page.screenshot(path=str(room.workdir / "failed.png"))
        raise
    finally:
        context.close()
