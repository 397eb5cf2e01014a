"""Many users without a browser: Locust users speaking Streamlit's websocket protocol to ``make serve``.

Each simulated user opens the Playground (a new session), sets a 2 KB text and four tokenizers, waits
until the run has finished and the four columns' span boxes have arrived (each holding the text's
marker), then types a new text twice, thinking 1-3 s between actions; then closes the tab and starts
again. A typed text is what the live box sends: a run of the box's fragment alone (timed: the columns
follow), then, typing paused, the whole-page run the box asks for (also a request, not an interaction). Every action is a Locust request (type ``WS``): its latency is from the rerun request to the
run's ``script_finished``; a failed run, an exception on the page or a missing box is an error. A
connection lost mid-action (a replica killed) is what a browser survives: the user reconnects through
HAProxy, opens the page again and repeats the action, as Streamlit's page and the live box do; the
action's latency includes that, the table counts the reconnections, and only a failed recovery is an
error. The protocol client is ``bench/streamlit_protocol.py``.

Why Locust: its users are greenlets (hundreds in one process, where chromium saturates this machine at
ten pages), it keeps the percentiles, and the same user class runs distributed across machines
(``locust -f bench/load_protocol.py --host http://room:8080``) for a bigger room than one client can
drive. Here it runs as a library so one command measures every row of the table.

    python bench/load_protocol.py                       # 50, 100, 200 users × 1 and 2 replicas + a fault run
    python bench/load_protocol.py --users 20 --replicas 2 --seconds 30 --no-fault
    python bench/load_protocol.py --validate            # the same runs and boxes as chromium on 3 sessions

Only loopback traffic: the rooms it starts (deploy/room.py) listen on 127.0.0.1.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import contextlib  # noqa: E402
import itertools  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
from locust import User, between, events, task  # noqa: E402
from locust.env import Environment  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.streamlit_protocol import Dropped, ProtocolError, Session  # noqa: E402
from core import pretrained  # noqa: E402
from core.pretrained import catalog  # noqa: E402
from deploy.room import serve_room  # noqa: E402

TOKENIZERS = ("cl100k_base", "o200k_base", "llama3", "qwen")
TEXT_BYTES = 2048
MAX_SECONDS = 600  # one run's bound
MAX_USERS = 500
RECOVERED = "reconnected after a lost connection"  # a Locust request name: counted, not an error
# the whole-page run that follows a typed text (server load, and an error if it fails; not an interaction)
FOLLOWS = "page follows the typed text"
_serial = itertools.count()


def sample_text(marker: str) -> str:
    """A 2 KB multilingual text starting with ``marker`` (so its boxes are told from the last run's)."""
    base = (ROOT / "data" / "samples" / "playground_default.txt").read_text(encoding="utf-8")
    text = f"{marker} "
    while len(text.encode()) < TEXT_BYTES:
        text += base
    return text.encode()[:TEXT_BYTES].decode("utf-8", errors="ignore")


def labels() -> list[str]:
    """The four tokenizers as the picker shows (and the browser sends) them: its ``format_func`` labels."""
    names = {key: spec.name for key, spec in pretrained.registry().items()}
    return [catalog.search_label(key, names[key]) for key in TOKENIZERS]


class PlaygroundUser(User):
    """One audience member: a tab that opens the Playground, sets a text and four tokenizers, edits twice."""

    wait_time = between(1, 3)
    abstract = False

    def on_start(self) -> None:
        self.labels = labels()
        self.session: Session | None = None

    @task
    def visit(self) -> None:
        serial = next(_serial)
        try:
            self.session = self._timed("open", self._open)
            for step in range(3):
                if step:
                    self.wait()
                marker = f"u{serial}s{step}mark"
                run = self._timed("set text and tokenizers" if step == 0 else "change text",
                                  lambda m=marker, typed=step > 0: self._act(sample_text(m), typed=typed))
                if len(run.boxes) != len(TOKENIZERS) or not all(marker in box for box in run.boxes):
                    raise ProtocolError(f"{len(run.boxes)} span boxes arrived, not {len(TOKENIZERS)} with the new text")
                if step:  # typing paused: the box asks for the whole page (counts, ids, link), as a browser's does
                    self._timed(FOLLOWS, self.session.follow_page)
        except Exception:  # noqa: BLE001 — already counted by _timed; a new tab starts after the think time
            pass
        finally:
            self._close()

    def _open(self) -> Session:
        """A new tab on the Playground; a connection lost while it opens is opened again once, as a
        browser's page reconnects (counted under ``RECOVERED``)."""
        try:
            return self._first_run()
        except Dropped:
            return self._recovered(self._first_run)

    def _first_run(self) -> Session:
        session = Session(self.host)
        try:
            session.rerun(query={"page": "playground"})
        except Exception:
            with contextlib.suppress(Exception):
                session.close()
            raise
        return session

    def _act(self, text: str, *, typed: bool = False):
        """Set ``text`` and the four tokenizers (or, ``typed``, type ``text`` into the live box: a run of
        its fragment alone); on a lost connection, carry on as a browser does.

        Streamlit's page reconnects on its own (through HAProxy, to a live replica), the new session
        runs the page from its link, and the live box sends its unacknowledged text again
        (``assets/live_text.js``); here: a new session, the page, the same text and tokenizers. The
        latency counts all of it; only a second loss, or a recovery that fails, is an error. Each
        recovery is counted apart (``RECOVERED``) so the table says how many actions needed one.
        """
        try:
            return self.session.type_text(text) if typed else self.session.set_text_and_tokenizers(text, self.labels)
        except Dropped:
            self._close()

            def again():
                self.session = self._first_run()
                return self.session.set_text_and_tokenizers(text, self.labels)

            return self._recovered(again)

    @staticmethod
    def _recovered(action):
        """``action()``, the recovery after a lost connection, counted and timed under ``RECOVERED``."""
        started = time.perf_counter()
        result = action()
        events.request.fire(request_type="WS", name=RECOVERED, response_time=(time.perf_counter() - started) * 1000,
                            response_length=0, exception=None, context={})
        return result

    def _close(self) -> None:
        if self.session is not None:
            with contextlib.suppress(Exception):
                self.session.close()
            self.session = None

    def _timed(self, name: str, action, *, count: bool = True):
        start = time.perf_counter()
        error: Exception | None = None
        try:
            return action()
        except Exception as exc:  # noqa: BLE001 — every failure is a counted error
            error = exc
            raise
        finally:
            if count or error:
                events.request.fire(request_type="WS", name=name, response_time=(time.perf_counter() - start) * 1000,
                                    response_length=0, exception=error, context={})


def warm(room) -> float:
    """One uncounted visit straight to each replica: its tokenizers loaded, as after the first listener."""
    start = time.monotonic()
    for port in room.replica_ports:
        session = Session(f"http://127.0.0.1:{port}", timeout=300)
        try:
            session.rerun(query={"page": "playground"})
            session.set_text_and_tokenizers(sample_text("warm"), labels())
        finally:
            session.close()
    return time.monotonic() - start


def measure(room, users: int, seconds: int, *, kill_at: float | None = None) -> dict:
    """Run ``users`` against ``room`` for ``seconds``; RSS per replica sampled every 5 s."""
    env = Environment(user_classes=[PlaygroundUser], host=room.url, events=events)
    runner = env.create_local_runner()
    runner.start(users, spawn_rate=max(1, users / 10))
    rss: dict[int, list[float]] = {port: [] for port in room.replica_ports}
    killed = None
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        gevent.sleep(5)
        for port, mb in room.rss_mb().items():
            rss[port].append(mb)
        if kill_at is not None and killed is None and time.monotonic() - start >= kill_at:
            killed = room.replica_ports[0]
            room.replicas[killed].send_signal(signal.SIGKILL)
    runner.quit()
    elapsed = time.monotonic() - start
    stats = env.stats
    interactions = [stats.get(n, "WS") for n in ("set text and tokenizers", "change text")]
    done = sum(s.num_requests - s.num_failures for s in interactions)
    merged = interactions[0]
    merged.extend(interactions[1])
    row = {
        "users": users, "replicas": len(room.replica_ports), "seconds": round(elapsed),
        "p50": merged.get_response_time_percentile(0.5) / 1000, "p95": merged.get_response_time_percentile(0.95) / 1000,
        "interactions": done, "per_s": done / elapsed, "errors": stats.total.num_failures,
        "opened": stats.get("open", "WS").num_requests, "recovered": stats.get(RECOVERED, "WS").num_requests,
        "rss": {port: (round(v[0]), round(max(v)), round(v[-1])) for port, v in rss.items() if v},
        "errors_by": {f"{e.name}: {e.error}": e.occurrences for e in stats.errors.values()}, "killed": killed,
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
    }
    stats.reset_all()
    return row


def print_row(row: dict) -> None:
    rss = ", ".join(f"{a}→{b}→{c}" for a, b, c in row["rss"].values())
    print(f"| {row['replicas']} | {row['users']} | {row['seconds']} | {row['p50']:.2f} | {row['p95']:.2f} | "
          f"{row['per_s']:.1f} | {row['errors']}" + (f" ({row['recovered']} reconnected)" if row["recovered"] else "")
          + f" | {rss} | {row['load']} |"
          + (f" killed replica on port {row['killed']}" if row["killed"] else ""), flush=True)
    for error, n in list(row["errors_by"].items())[:3]:
        print(f"|   error ×{n}: {error[:160]}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", default="50,100,200", help="comma-separated user counts")
    parser.add_argument("--replicas", default="1,2", help="comma-separated replica counts")
    parser.add_argument("--seconds", type=int, default=90, help="each run's length (at most 600)")
    parser.add_argument("--no-fault", action="store_true", help="skip the run that kills a replica under load")
    parser.add_argument("--fault-users", type=int, default=100, help="users in the run that kills a replica")
    parser.add_argument("--only-fault", action="store_true", help="only the run that kills a replica")
    parser.add_argument("--validate", action="store_true", help="compare with chromium on 3 sessions and stop")
    args = parser.parse_args(argv)
    if args.validate:
        from bench.load_protocol_check import validate

        return validate()
    users = [int(u) for u in args.users.split(",")]
    if not all(1 <= u <= MAX_USERS for u in [*users, args.fault_users]) or not 10 <= args.seconds <= MAX_SECONDS:
        parser.error(f"users must be 1-{MAX_USERS} and seconds 10-{MAX_SECONDS}")
    print(f"Locust users over Streamlit's websocket; 2 KB text × {', '.join(TOKENIZERS)}; think 1-3 s; "
          f"{args.seconds} s a run. Load before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")
    print("| replicas | users | s | p50 s | p95 s | interactions/s | errors | RSS MB per replica (start→peak→end) | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    for replicas in () if args.only_fault else (int(r) for r in args.replicas.split(",")):
        with serve_room(replicas) as room:
            print(f"(warm-up of {replicas} replica(s): {warm(room):.0f} s, not counted)", flush=True)
            for count in users:
                print_row(measure(room, count, args.seconds))
    if not args.no_fault:
        with serve_room(2) as room:
            print(f"(warm-up: {warm(room):.0f} s, not counted; one replica is killed a third of the way in)", flush=True)
            print_row(measure(room, args.fault_users, args.seconds, kill_at=args.seconds / 3))
    return 0


if __name__ == "__main__":
    sys.exit(main())
