"""core.chat.formats: each format's rendering, ids checked against the tokenizers, hand-checked counts."""

from __future__ import annotations

import importlib.metadata

import pytest

from core import pretrained
from core.chat import formats as cf
from core.types import SPECIAL
from tests.loaded import load_once

HI = [cf.Message("user", "Hi")]


def load(key: str):
    try:
        return load_once(key)
    except pretrained.TokenizerUnavailable as exc:
        pytest.skip(f"{key} unavailable here: {exc.reason}")


@pytest.mark.parametrize("key", [k for k, f in cf.FORMATS.items() if f.tokenizer != "cl100k_base"])
def test_special_ids_are_the_tokenizers_own(key: str) -> None:
    fmt = cf.FORMATS[key]
    assert cf.missing_specials(fmt, load(fmt.tokenizer)) == {}


def test_chatml_ids_are_tiktoken_readmes_cl100k_im() -> None:
    readme = importlib.metadata.metadata("tiktoken").get_payload()
    for name, token_id in cf.FORMATS["chatml_openai"].specials.items():
        assert f'"{name}": {token_id}' in readme


def test_harmony_ids_are_tiktoken_ext_o200k_harmony(monkeypatch: pytest.MonkeyPatch) -> None:
    from tiktoken_ext import openai_public

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: {})  # no download: only the table
    specials = openai_public.o200k_harmony()["special_tokens"]
    for name, token_id in cf.FORMATS["harmony"].specials.items():
        assert specials[name] == token_id


def test_qwen_hi_by_hand() -> None:
    """Qwen2.5's template writes its default system turn (21 tokens, the format's own), then
    <|im_start|> user \n Hi <|im_end|> \n and the reply prompt <|im_start|> assistant \n: 30 tokens."""
    fmt = cf.FORMATS["qwen"]
    text, tokens, owners = cf.tokenize(fmt, cf.render(fmt, HI), load("qwen"))
    system = "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"
    assert text == system + "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
    assert len(tokens) == 30
    assert [t.id for t in tokens if t.kind == SPECIAL] == [151644, 151645, 151644, 151645, 151644]
    assert [text[t.start:t.end] for t in tokens[21:]] == [
        "<|im_start|>", "user", "\n", "Hi", "<|im_end|>", "\n", "<|im_start|>", "assistant", "\n"]
    assert owners == [-1] * 21 + [0] * 6 + [-1] * 3


def test_llama3_hi_by_hand() -> None:
    """Meta's header format: 11 tokens, with user 882, assistant 78191 and \\n\\n 271."""
    fmt = cf.FORMATS["llama3"]
    _, tokens, _ = cf.tokenize(fmt, cf.render(fmt, HI), load("llama3"))
    ids = [t.id for t in tokens]
    assert len(ids) == 11
    assert ids[:5] == [128000, 128006, 882, 128007, 271]
    assert ids[6:] == [128009, 128006, 78191, 128007, 271]


def test_llama2_folds_the_system_prompt_and_brackets_are_text() -> None:
    fmt = cf.FORMATS["llama2"]
    messages = cf.conversation(system="Be brief.", user="Hi", reply="Hello")
    text, tokens, _ = cf.tokenize(fmt, cf.render(fmt, messages), load("llama2"))
    assert text == "<s>[INST] <<SYS>>\nBe brief.\n<</SYS>>\n\nHi [/INST] Hello </s>"
    assert [t.id for t in tokens if t.kind == SPECIAL] == [1, 2]
    assert [t.id for t in tokens[1:4]] == [518, 25580, 29962]  # "▁[", "INST", "]": plain text pieces


def test_mistral_control_tokens_and_system_on_the_last_user_turn() -> None:
    fmt = cf.FORMATS["mistral_v3"]
    messages = cf.conversation(system="S.", user="Q?", reply="A.", tool=("f", '{"x": 1}', '{"y": 2}'))
    segments = cf.render(fmt, messages)
    specials = [s.text for s in segments if s.special]
    assert specials == ["<s>", "[INST]", "[/INST]", "[TOOL_CALLS]", "</s>", "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "</s>"]
    assert any(s.text == "S.\n\nQ?" for s in segments)


def test_typed_special_strings_stay_text() -> None:
    """A message that contains <|im_end|> must not end the turn: it is encoded as plain text."""
    fmt = cf.FORMATS["qwen"]
    text, tokens, _ = cf.tokenize(fmt, cf.render(fmt, [cf.Message("user", "x<|im_end|>")]), load("qwen"))
    assert text.count("<|im_end|>") == 3  # the default system turn's end, the typed one and the turn's own end
    assert sum(1 for t in tokens if t.id == 151645) == 2  # only the two turns' ends are the special token


def test_costs_add_up_and_overhead_is_the_framing() -> None:
    fmt = cf.FORMATS["llama3"]
    messages = cf.default_conversation()
    _, tokens, owners = cf.tokenize(fmt, cf.render(fmt, messages), load("llama3"))
    rows = cf.costs(messages, owners, load("llama3"))
    assert sum(r.format_tokens for r in rows) == len(tokens)
    assert all(r.overhead >= 0 for r in rows)
    assert rows[-1].message == -1 and rows[-1].format_tokens == 1  # <|begin_of_text|>


def test_every_format_renders_the_default_conversation_with_offsets_into_it() -> None:
    for fmt in cf.FORMATS.values():
        tokenizer = load(fmt.tokenizer)
        text, tokens, owners = cf.tokenize(fmt, cf.render(fmt, cf.default_conversation()), tokenizer)
        assert len(tokens) == len(owners) > 20
        assert all(0 <= t.start <= t.end <= len(text) for t in tokens)
        assert [t.start for t in tokens] == sorted(t.start for t in tokens)


def test_bad_conversations_raise_value_error() -> None:
    with pytest.raises(ValueError, match="unknown role"):
        cf.render(cf.FORMATS["qwen"], [cf.Message("narrator", "x")])
    with pytest.raises(ValueError, match="no system turn"):
        cf.render(cf.FORMATS["llama2"], [cf.Message("user", "Hi"), cf.Message("system", "a late system prompt")])
