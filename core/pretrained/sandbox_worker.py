"""The worker process of ``core.pretrained.sandbox``: builds untrusted tokenizers and runs their text calls.

Started as ``python -m core.pretrained.sandbox_worker FD`` with one end of a socket pair; answers
``("load", key, builder, args)`` and ``("call", key, method, args)`` until the server closes its
end. It keeps the last ``CACHED_PER_WORKER`` tokenizers it built; a call for one it no longer holds
is answered ``"need"`` (the server then sends the recipe). Every failure is answered as a sentence,
a library panic (a ``BaseException``) included; a ``ValueError`` while loading is the builder's own
refusal of the file (``"refused"``). Its address space is capped (``PLAYGROUND_WORKER_MB``) and it
may run at a lower priority (``PLAYGROUND_WORKER_NICE``).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections import OrderedDict
from multiprocessing.connection import Connection
from typing import Any

from core.pretrained.adapter import describe_failure

CACHED_PER_WORKER = 8
NICENESS = int(os.environ.get("PLAYGROUND_WORKER_NICE", "0"))
WORKER_MEMORY_MB = int(os.environ.get("PLAYGROUND_WORKER_MB", "4096"))  # address space of one worker


def _build(builder: str, args: tuple[Any, ...]) -> Any:
    module, _, function = builder.partition(":")
    return getattr(importlib.import_module(module), function)(*args)


def _build_room(held: OrderedDict[str, Any], builder: str, args: tuple[Any, ...]) -> Any:
    """``_build``; out of memory, the tokenizers held are dropped (they are rebuilt on demand) and it tries again."""
    try:
        return _build(builder, args)
    except MemoryError:
        held.clear()
        return _build(builder, args)


def _call(tokenizer: Any, method: str, args: tuple[Any, ...]) -> Any:
    from core.tokens.packed import PackedTokens

    if method == "encode":
        text, allow_special = args
        return PackedTokens(tokenizer.encode(text, allow_special=allow_special))
    if method in ("outline", "text_ids", "count"):
        text, allow_special = args
        return getattr(tokenizer, method)(text, allow_special=allow_special)
    if method == "decode":
        return tokenizer.decode(args[0])
    if method == "pipeline":
        from core.pretrained import pipeline

        return pipeline.run(tokenizer, args[0])
    if method == "load":
        return None
    raise ValueError(f"unknown method {method!r}")


def serve(conn: Connection) -> None:
    """Answer ``("call", key, method, args)`` and ``("load", key, builder, args)`` until the socket closes."""
    held: OrderedDict[str, Any] = OrderedDict()
    with contextlib.suppress(OSError):  # the server went away before this worker was ready
        conn.send(("ready", None))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        kind, key = message[0], message[1]
        try:
            if kind == "load":
                try:
                    held[key] = _build_room(held, message[2], message[3])
                except ValueError as exc:  # the builder's own one-line refusal
                    conn.send(("refused", str(exc)))
                    continue
                while len(held) > CACHED_PER_WORKER:
                    held.popitem(last=False)
                conn.send(("ok", None))
            elif key not in held:
                conn.send(("need", None))
            else:
                held.move_to_end(key)
                conn.send(("ok", _call(held[key], message[2], message[3])))
        except BaseException as exc:  # noqa: BLE001 - a library panic is a BaseException; the worker must answer
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            with contextlib.suppress(OSError):
                conn.send(("error", describe_failure(exc)))


def _limit_memory() -> None:
    import resource

    limit = WORKER_MEMORY_MB * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


if __name__ == "__main__":
    os.nice(NICENESS)  # untrusted work yields the CPU to the server's own threads
    _limit_memory()
    # the libraries are imported before "ready": a call's budget is for the call, not for imports
    import regex  # noqa: F401
    import sentencepiece  # noqa: F401
    import tiktoken  # noqa: F401
    import tokenizers  # noqa: F401

    serve(Connection(int(sys.argv[1])))
