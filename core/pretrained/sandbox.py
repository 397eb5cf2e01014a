"""Untrusted tokenizers run in warm worker processes, so a runaway one cannot stall the server.

A tokenizer file carries regular expressions (a ``Split`` pre-tokenizer, a ``Replace`` normalizer or
decoder, a rank file's pattern) that the libraries run in Rust while holding Python's GIL: a
pattern like ``(a+)+$`` froze every session of the server for seconds. So every call that runs
the file's logic on a text (``encode``, ``outline``, ``text_ids``, ``count``, ``decode``, the
Inside page's pipeline) goes to a worker process with a time budget; a worker that overruns is
killed (and a fresh one started at once), and the caller gets ``TokenizerFailed`` with a sentence
("this tokenizer could not encode the text in 5 s …"). A library panic or crash in the worker
becomes the same kind of sentence. Data look-ups (``piece``, the vocabulary, the special tokens)
stay in this process, on a copy of the adapter read from the same file.

Workers are warm (``core.pretrained.sandbox_worker``): at most ``MAX_WORKERS`` of them, each
keeping the last tokenizers it built, by content digest (``Recipe.key``); the first call for a tokenizer a worker
does not hold sends it the recipe (the builder's name and the file's bytes) once. A ``Recipe``
names any builder (``module:function``), so a tokenizer fetched by id from a hub would take this
same path. Subtle: the worker is started with ``subprocess`` (not ``multiprocessing``, which would
re-import Streamlit's ``__main__``), speaking ``multiprocessing.connection`` over a socket pair; it
exits when the server closes its end.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import socket
import subprocess
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from core.pretrained.adapter import Outline, TokenizerFailed
from core.types import Token

ROOT = Path(__file__).resolve().parents[2]
MAX_WORKERS = 2
START_BUDGET_S = 60.0  # importing the libraries in a fresh worker (seconds on a loaded machine)
LOAD_BUDGET_S = 60.0  # building a tokenizer from a file of up to 64 MB
BASE_BUDGET_S = 5.0  # a text's budget: this, plus PER_MB_BUDGET_S per MB of text
PER_MB_BUDGET_S = 4.0
_WHAT = {"encode": "encode the text", "outline": "encode the text", "text_ids": "encode the text",
         "count": "encode the text", "decode": "decode the ids", "pipeline": "run its pipeline on the text",
         "load": "load its file"}


def budget_for(size: int) -> float:
    """Seconds an untrusted tokenizer gets for a text of ``size`` characters: ``BASE_BUDGET_S`` plus
    ``PER_MB_BUDGET_S`` a million.

    >>> budget_for(1_000_000)
    9.0
    """
    return BASE_BUDGET_S + PER_MB_BUDGET_S * size / 1_000_000


@dataclass(frozen=True)
class Recipe:
    """How a worker builds a tokenizer: ``builder`` ("module:function") called with ``args``.

    ``key`` names the result (a content digest): workers cache by it. ``repr`` leaves out the
    arguments, which hold the file's bytes.
    """

    key: str
    builder: str
    args: tuple[Any, ...]

    def __repr__(self) -> str:
        return f"Recipe({self.key!r}, {self.builder!r})"


class Refused(TokenizerFailed):
    """The builder refused the file (a ``ValueError`` while loading); the message is the builder's own."""


class _Overrun(Exception):
    """The worker did not answer in time."""


class _Worker:
    """One worker process and its connection; ``ask`` sends a message and waits for the answer."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
               "RUST_BACKTRACE": "0"}  # a panic is answered as a sentence; one line of it in the log is enough
        self.process = subprocess.Popen(
            [sys.executable, "-m", "core.pretrained.sandbox_worker", str(theirs.fileno())], pass_fds=(theirs.fileno(),),
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self.conn = Connection(mine.detach())
        self.ready = False
        self.held: set[str] = set()  # recipe keys it built (it may have dropped some since: it says "need")

    def ask(self, message: tuple, budget: float) -> tuple:
        if not self.ready:
            if not self.conn.poll(START_BUDGET_S):
                raise _Overrun
            self.conn.recv()  # "ready": the libraries are imported
            self.ready = True
        self.conn.send(message)
        if not self.conn.poll(budget):
            raise _Overrun
        return self.conn.recv()

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        with contextlib.suppress(OSError):  # at exit a thread may still be reading from it
            self.conn.close()


class WorkerPool:
    """At most ``size`` warm workers shared by every session; a call takes an idle one (or waits)."""

    def __init__(self, size: int = MAX_WORKERS) -> None:
        self._size = size
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []
        self._free = threading.Condition()

    def warm(self) -> None:
        """Start the workers now (they import the libraries in the background)."""
        with self._free:
            while len(self._all) < self._size:
                self._add()

    def _add(self) -> None:
        worker = _Worker()
        self._all.append(worker)
        self._idle.append(worker)
        self._free.notify()

    def _take(self, key: str, patience: float) -> _Worker:
        """An idle worker, one that holds ``key`` if any does (starting another while under ``size``)."""
        with self._free:
            if not any(key in worker.held for worker in self._idle) and len(self._all) < self._size:
                self._add()
            if not self._free.wait_for(lambda: self._idle, timeout=patience):
                raise TokenizerFailed(f"every tokenizer worker stayed busy for {patience:.0f} s; try again")
            holding = [worker for worker in self._idle if key in worker.held]
            worker = holding[-1] if holding else self._idle[-1]
            self._idle.remove(worker)
            return worker

    def _give_back(self, worker: _Worker, healthy: bool) -> None:
        if not healthy:
            worker.kill()
        with self._free:
            if healthy:
                self._idle.append(worker)
                self._free.notify()
            else:
                self._all.remove(worker)
                self._add()  # the replacement warms up while nobody waits for it

    def call(self, recipe: Recipe, method: str, args: Sequence[Any], budget: float) -> Any:
        """``method(*args)`` of ``recipe``'s tokenizer in a worker, within ``budget`` seconds."""
        worker = self._take(recipe.key, patience=2 * budget + LOAD_BUDGET_S)
        healthy, stage = False, method
        try:
            answer = worker.ask(("call", recipe.key, method, tuple(args)), budget)
            if answer[0] == "need":
                worker.held.discard(recipe.key)  # it made room for others since
                stage = "load"
                answer = worker.ask(("load", recipe.key, recipe.builder, recipe.args), LOAD_BUDGET_S)
                if answer[0] == "ok":
                    worker.held.add(recipe.key)
                    stage = method
                    answer = worker.ask(("call", recipe.key, method, tuple(args)), budget)
            healthy = True
        except _Overrun:
            seconds = LOAD_BUDGET_S if stage == "load" else budget
            raise TokenizerFailed(
                f"this tokenizer could not {_WHAT[stage]} in {seconds:.0f} s (a runaway regular expression in "
                "its file?); it was stopped, so nobody else waits for it"
            ) from None
        except (EOFError, OSError):
            raise TokenizerFailed(f"the tokenizer library crashed trying to {_WHAT[stage]} (its file is probably "
                                  "malformed)") from None
        finally:
            self._give_back(worker, healthy)
        if answer[0] == "error":
            raise TokenizerFailed(answer[1])
        if answer[0] == "refused":
            raise Refused(answer[1])
        return answer[1]

    def shutdown(self) -> None:
        with self._free:
            for worker in self._all:
                worker.kill()
            self._all.clear()
            self._idle.clear()


_POOL: WorkerPool | None = None
_POOL_LOCK = threading.Lock()


def pool() -> WorkerPool:
    """The process-wide pool (made on first use, stopped at exit)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = WorkerPool()
            atexit.register(_POOL.shutdown)
        return _POOL


class SandboxedTokenizer:
    """An adapter whose text calls run in a worker; every other attribute is the local copy's.

    Subtle: not a ``PretrainedTokenizer`` subclass, so that its class attributes (``pattern``,
    ``mergeable_ranks``) cannot shadow the local copy's. A call that overran or crashed is
    remembered (``_failures``) and fails at once when repeated, instead of spending another budget.
    """

    def __init__(self, local: Any, recipe: Recipe, *, workers: Callable[[], WorkerPool] = pool) -> None:
        self._local = local
        self._recipe = recipe
        self._workers = workers
        self._failures: OrderedDict[str, str] = OrderedDict()
        self._failures_lock = threading.Lock()  # a session's fragments may run at once

    def __getattr__(self, name: str) -> Any:
        if name == "_local":  # during copy/unpickle, before __init__
            raise AttributeError(name)
        return getattr(self._local, name)

    def __repr__(self) -> str:
        return f"<sandboxed {self._local!r}>"

    def _run(self, method: str, size: int, *args: Any) -> Any:
        if self._failures and (known := self._failures.get(_memo(method, args))):
            raise TokenizerFailed(known)
        try:
            return self._workers().call(self._recipe, method, args, budget_for(size))
        except TokenizerFailed as exc:
            with self._failures_lock:
                self._failures[_memo(method, args)] = str(exc)
                while len(self._failures) > 32:
                    self._failures.popitem(last=False)
            raise

    def encode(self, text: str, *, allow_special: bool = False) -> list[Token]:
        return list(self._run("encode", len(text), text, allow_special))

    def outline(self, text: str, *, allow_special: bool = False) -> Outline:
        return self._run("outline", len(text), text, allow_special)

    def text_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        return self._run("text_ids", len(text), text, allow_special)

    def count(self, text: str, *, allow_special: bool = False) -> int:
        return self._run("count", len(text), text, allow_special)

    def decode(self, ids: Sequence[int]) -> str:
        return self._run("decode", 4 * len(ids), list(ids))

    def run_pipeline(self, text: str) -> Any:
        """``core.pretrained.pipeline.run`` of the worker's copy (its normalizer and pre-tokenizer run there)."""
        return self._run("pipeline", len(text), text)

    def load(self) -> None:
        """Have a worker build this tokenizer now (a file that crashes the library is found here)."""
        self._workers().call(self._recipe, "load", (), LOAD_BUDGET_S)


def _memo(method: str, args: tuple[Any, ...]) -> str:
    return hashlib.blake2b(repr((method, args)).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
