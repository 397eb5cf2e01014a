"""``deploy.room.healthy``: a replica's health probe says yes or no, whatever answers the port."""

from __future__ import annotations

import http.server
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from deploy.room import healthy


@contextmanager
def listening(answer) -> Iterator[str]:
    """A loopback port whose every connection gets ``answer(request bytes)``; yields its URL."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(answer(conn.recv(4096)))

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()


def test_a_port_that_echoes_the_probe_is_not_healthy() -> None:
    # what a socket connected to itself reads back (a replica's port probed before it listens)
    with listening(lambda request: request) as url:
        assert healthy(url) is False


def test_a_port_that_closes_at_once_is_not_healthy() -> None:
    with listening(lambda request: b"") as url:
        assert healthy(url) is False


def test_streamlits_answer_is_healthy() -> None:
    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 — the handler's name
            self.send_response(200 if self.path == "/_stcore/health" else 404)
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert healthy(f"http://127.0.0.1:{server.server_address[1]}") is True
    finally:
        server.shutdown()
