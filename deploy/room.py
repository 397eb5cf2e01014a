"""Serve a room: N ``streamlit run`` replicas of the Playground on consecutive ports, HAProxy in front.

``python -m deploy.room --replicas 2 --port 8080`` (what ``make serve`` runs) starts the replicas on
ports ``port+1 … port+N`` (127.0.0.1 only), waits until each answers ``/_stcore/health``, fills
``deploy/haproxy.cfg.template`` into a temporary folder, and runs HAProxy in the foreground on
``bind:port``. Ctrl+C (or SIGTERM) stops HAProxy and every replica, and waits for them. A replica
that dies is taken out by HAProxy's health check; the launcher starts it again.

What the replicas share: nothing but the tokenizer cache files on disk (``PLAYGROUND_CACHE_DIR`` /
``PLAYGROUND_DATA_DIR``) and one cookie secret made for this launch (so a browser's XSRF cookie from one
replica is good on another after a failover). A user's session lives in one replica's memory; when
that replica goes, the browser reconnects through HAProxy to another, and the page's state comes
back from its link (every page keeps its state in the URL, ``ui.links``).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import secrets
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = Path(__file__).resolve().parent / "haproxy.cfg.template"
HAPROXY = os.environ.get("PLAYGROUND_HAPROXY", "haproxy")
START_TIMEOUT_S = 120
STOP_TIMEOUT_S = 15
MAX_REPLICAS = 64


def haproxy_path() -> str | None:
    """HAProxy's executable (``PLAYGROUND_HAPROXY``, else ``haproxy`` on PATH or in /usr/sbin), or None."""
    return shutil.which(HAPROXY) or shutil.which(HAPROXY, path="/usr/sbin:/usr/local/sbin")


def config(*, bind: str, port: int, replica_ports: Sequence[int], maxconn: int = 4096) -> str:
    """The HAProxy configuration: the template with the front address and one server per replica."""
    servers = "\n".join(
        f"    server r{i} 127.0.0.1:{p} check cookie r{i}" for i, p in enumerate(replica_ports, start=1)
    )
    return string.Template(TEMPLATE.read_text(encoding="utf-8")).substitute(
        bind=bind, port=port, maxconn=maxconn, servers=servers
    )


def healthy(url: str) -> bool:
    """Whether Streamlit (or HAProxy in front of it) at ``url`` answers its health check."""
    # subtle: probing a local port nobody listens on yet can connect the socket to itself (its
    # ephemeral source port equal to the port asked for), and the "answer" is the request echoed: a
    # BadStatusLine, which is not an OSError. Seen while a replica was starting under load.
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except (OSError, http.client.HTTPException):
        return False


def port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_block(count: int) -> int:
    """A port whose next ``count`` ports are all free (for tests and benchmarks)."""
    for _ in range(200):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            first = sock.getsockname()[1]
        if first + count < 65536 and all(port_free(p) for p in range(first, first + count + 1)):
            return first
    raise RuntimeError(f"found no {count + 1} consecutive free ports")


@dataclass
class Room:
    """A running room: its replicas (by port) and HAProxy; ``url`` is the front address."""

    port: int
    replica_ports: list[int]
    workdir: Path
    env: dict[str, str]
    replicas: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)
    proxy: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start_replica(self, port: int) -> subprocess.Popen[bytes]:
        command = [
            sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
            "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
        ]
        with (self.workdir / f"replica-{port}.log").open("ab") as sink:
            process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=sink, stderr=subprocess.STDOUT)
        self.replicas[port] = process
        return process

    def wait_healthy(self, port: int, timeout: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        while True:
            process = self.replicas[port]
            if process.poll() is not None:
                log = (self.workdir / f"replica-{port}.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"the replica on port {port} exited with {process.returncode}:\n{log}")
            if healthy(f"http://127.0.0.1:{port}"):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the replica on port {port} is not healthy after {timeout:.0f} s")
            time.sleep(0.25)

    def rss_mb(self) -> dict[int, float]:
        """Resident memory of each replica's process (and its children: the tokenizer workers), in MB."""
        return {port: _tree_rss_mb(process.pid) for port, process in self.replicas.items() if process.poll() is None}

    def log(self, port: int | None = None) -> str:
        name = "haproxy.log" if port is None else f"replica-{port}.log"
        path = self.workdir / name
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """HAProxy first (no new traffic), then every replica; SIGKILL after ``STOP_TIMEOUT_S``."""
        processes = ([self.proxy] if self.proxy else []) + list(self.replicas.values())
        for process in processes:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for process in processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextlib.contextmanager
def serve_room(
    replicas: int = 2, *, port: int | None = None, bind: str = "127.0.0.1", public_url: str = "",
    workdir: Path | None = None,
) -> Iterator[Room]:
    """Start a room (replicas on ``port+1 …``, HAProxy on ``port``); stop all of it on exit."""
    if not 1 <= replicas <= MAX_REPLICAS:
        raise ValueError(f"replicas must be 1 to {MAX_REPLICAS}; one or two per core is the useful range")
    binary = haproxy_path()
    if binary is None:
        raise RuntimeError("HAProxy is not installed (apt-get install haproxy)")
    port = free_block(replicas) if port is None else port
    busy = [p for p in range(port, port + replicas + 1) if not port_free(p)]
    if busy:
        raise RuntimeError(f"port{'s' if len(busy) > 1 else ''} {', '.join(map(str, busy))} already in use; "
                           "pick another with PORT=")
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="playground-room-")))
        env = dict(os.environ, STREAMLIT_SERVER_COOKIE_SECRET=secrets.token_hex(32))
        if public_url:
            env["PLAYGROUND_PUBLIC_URL"] = public_url
        room = Room(port=port, replica_ports=list(range(port + 1, port + replicas + 1)), workdir=workdir, env=env)
        try:
            for p in room.replica_ports:
                room.start_replica(p)
            for p in room.replica_ports:
                room.wait_healthy(p)
            cfg = workdir / "haproxy.cfg"
            cfg.write_text(config(bind=bind, port=port, replica_ports=room.replica_ports), encoding="utf-8")
            check = subprocess.run([binary, "-c", "-f", str(cfg)], capture_output=True, text=True)
            if check.returncode != 0:
                raise RuntimeError(f"HAProxy refused its configuration:\n{check.stdout}{check.stderr}")
            with (workdir / "haproxy.log").open("ab") as sink:
                room.proxy = subprocess.Popen([binary, "-db", "-f", str(cfg)], stdout=sink, stderr=subprocess.STDOUT)
            _wait_front(room)
            yield room
        finally:
            room.stop()


def _wait_front(room: Room) -> None:
    deadline = time.monotonic() + 30
    while True:
        if room.proxy is not None and room.proxy.poll() is not None:
            raise RuntimeError(f"HAProxy exited with {room.proxy.returncode}:\n{room.log()[-2000:]}")
        if healthy(room.url):
            return
        if time.monotonic() > deadline:
            raise RuntimeError("HAProxy does not answer after 30 s")
        time.sleep(0.2)


def _tree_rss_mb(pid: int) -> float:
    total = 0
    for one in [pid, *_children(pid)]:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{one}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def _children(pid: int) -> list[int]:
    found = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                for child in (task / "children").read_text().split():
                    found += [int(child), *_children(int(child))]
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy.room", description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=2, help="streamlit processes (1-2 per core)")
    parser.add_argument("--port", type=int, default=8080, help="HAProxy's port; replicas take the next N")
    parser.add_argument("--bind", default="0.0.0.0", help="the address HAProxy listens on (default: every one)")
    parser.add_argument("--public-url", default=os.environ.get("PLAYGROUND_PUBLIC_URL", ""),
                        help="the address the audience opens (for the QR code), e.g. http://192.168.1.20:8080")
    args = parser.parse_args(argv)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    # subtle: a shell starts a background job with SIGINT ignored, and Python keeps it so: Ctrl+C
    # must stop the room however it was started
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with serve_room(args.replicas, port=args.port, bind=args.bind, public_url=args.public_url) as room:
            print(f"Serving {args.replicas} replica(s) on ports {room.replica_ports[0]}-{room.replica_ports[-1]} "
                  f"behind HAProxy on {args.bind}:{args.port}. Ctrl+C stops everything.", flush=True)
            print(f"Public URL for the QR code: {args.public_url or 'not set (PLAYGROUND_PUBLIC_URL)'}", flush=True)
            while not stop:
                _revive(room)
                time.sleep(1)
    except KeyboardInterrupt:
        pass
    except (RuntimeError, ValueError) as exc:
        print(f"make serve: {exc}", file=sys.stderr)
        return 1
    print("Stopped HAProxy and every replica.", flush=True)
    return 0


def _revive(room: Room) -> None:
    """Start again a replica that died; HAProxy's health check brings it back in once it answers."""
    for port, process in list(room.replicas.items()):
        if process.poll() is not None:
            print(f"replica on port {port} exited ({process.returncode}); starting it again", flush=True)
            room.start_replica(port)


if __name__ == "__main__":
    sys.exit(main())
