"""The Jinja environment a chat template runs in, as ``transformers`` builds it; used inside the worker process.

``core.chat.templates`` runs ``render_bounded`` in a separate process (it owns the time and memory
limits); this module owns the sandbox and the output limit, and turns every failure into a sentence.
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import lru_cache
from typing import Any

from jinja2 import Template, TemplateError, TemplateSyntaxError
from jinja2.exceptions import SecurityError
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_STRING_CHARS = 1_000_000  # "x" * n inside a template may not build a longer string


class _Raised(TemplateError):
    """What the template's own ``raise_exception`` raises: the model's refusal, not a bug."""


class _Environment(ImmutableSandboxedEnvironment):
    """The sandbox, with ``*`` on strings and lists bounded (``'x' * 10**9`` would take a gigabyte at once)."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*" and isinstance(right, int) and isinstance(left, (str, list, tuple)):
            left, right = right, left
        if operator == "*" and isinstance(left, int) and isinstance(right, (str, list, tuple)) \
                and left * len(right) > MAX_STRING_CHARS:
            raise _Raised(f"it builds a sequence longer than {MAX_STRING_CHARS:,} items")
        if operator == "**" and isinstance(right, int) and right > 64:
            raise _Raised("it raises a number to a power above 64")
        return super().call_binop(context, operator, left, right)


def _raise_exception(message: str) -> None:
    raise _Raised(str(message))


def _tojson(value: Any, indent: int | None = None, separators: Any = None, sort_keys: bool = False) -> str:
    # transformers' tojson: no HTML escaping (jinja's own turns '<' into \u003c), non-ASCII kept
    return json.dumps(value, ensure_ascii=False, indent=indent, separators=separators, sort_keys=sort_keys)


def _strftime_now(format: str) -> str:  # noqa: A002 (the name templates call it by)
    return datetime.now().strftime(format)


def environment() -> ImmutableSandboxedEnvironment:
    env = _Environment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    env.filters["tojson"] = _tojson
    env.globals["raise_exception"] = _raise_exception
    env.globals["strftime_now"] = _strftime_now
    return env


@lru_cache(maxsize=16)
def _compiled(template: str) -> Template:
    """A template compiled once per worker (compiling Qwen3's takes most of a render's time)."""
    return environment().from_string(template)


def render_bounded(template: str, context: dict[str, Any], max_chars: int) -> tuple[bool | None, str]:
    """``(True, text)``, ``(None, words)`` when the template itself refused the conversation (the
    words of its ``raise_exception``: the model's rule) or ``(False, why)``: it failed, or was stopped
    once it passed ``max_chars``."""
    try:
        compiled = _compiled(template)
        parts, size = [], 0
        for part in compiled.generate(**context):
            size += len(part)
            if size > max_chars:
                return False, f"the chat template rendered more than {max_chars:,} characters, so it was stopped"
            parts.append(part)
        return True, "".join(parts)
    except _Raised as exc:
        return None, str(exc)
    except SecurityError as exc:
        return False, f"the chat template tried something the sandbox forbids: {exc}"
    except TemplateSyntaxError as exc:
        return False, f"the chat template is not valid Jinja at line {exc.lineno}: {exc.message}"
    except TemplateError as exc:
        return False, f"the chat template failed: {exc}"
    except RecursionError:
        return False, "the chat template recursed too deeply, so it was stopped"
    except MemoryError:
        return False, "the chat template ran out of memory, so it was stopped"
    except Exception as exc:  # noqa: BLE001 (untrusted code: any error becomes a sentence)
        return False, f"the chat template failed: {type(exc).__name__}: {exc}"
