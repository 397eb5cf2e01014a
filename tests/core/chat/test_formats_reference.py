"""core.chat.formats against the vendors' reference code, for many conversations.

Llama 2: Meta's ``chat_completion`` (the llama repository's generation.py) written out here directly
on sentencepiece: the system prompt folded into the first question between ``<<SYS>>`` markers, each
message stripped, each question and its answer encoded as one string ``[INST] q [/INST] a `` between
BOS and EOS, a last unanswered question as ``[INST] q [/INST]`` after a BOS.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import pretrained
from core.chat import formats as cf
from tests.loaded import load_once

B_INST, E_INST = "[INST]", "[/INST]"
B_SYS, E_SYS = "<<SYS>>\n", "\n<</SYS>>\n\n"


_LOADED: dict[str, object] = {}


def load(key: str):
    if key not in _LOADED:
        try:
            _LOADED[key] = load_once(key)
        except pretrained.TokenizerUnavailable as exc:
            pytest.skip(f"{key} unavailable here: {exc.reason}")
    return _LOADED[key]


def meta_llama2_ids(sp, messages: list[cf.Message]) -> list[int]:
    """Meta's chat_completion on one dialog, extended to a dialog that ends with an answer."""
    dialog = [(m.role, m.content) for m in messages]
    if dialog[0][0] == "system":
        dialog = [(dialog[1][0], B_SYS + dialog[0][1] + E_SYS + dialog[1][1]), *dialog[2:]]
    ids: list[int] = []
    for (_, question), (_, answer) in zip(dialog[::2], dialog[1::2], strict=False):  # a last question: below
        ids += [sp.bos_id(), *sp.encode(f"{B_INST} {question.strip()} {E_INST} {answer.strip()} "), sp.eos_id()]
    if len(dialog) % 2:
        ids += [sp.bos_id(), *sp.encode(f"{B_INST} {dialog[-1][1].strip()} {E_INST}")]
    return ids


def our_ids(key: str, messages: list[cf.Message], tokenizer) -> list[int]:
    fmt = cf.FORMATS[key]
    _, tokens, _ = cf.tokenize(fmt, cf.render(fmt, messages), tokenizer)
    return [t.id for t in tokens]


_WORDS = st.sampled_from(["Hi", "hello", "  ", " ", "\n", "\t", "Be brief.", "é", "你好", "🙂", "[INST]", "x y", "?"])
message_text = st.lists(st.one_of(_WORDS, st.text(st.characters(exclude_categories=("Cs",)), max_size=3)),
                        max_size=5).map("".join)


@st.composite
def dialogs(draw) -> list[cf.Message]:
    """An optional system prompt, then questions and answers in turn, ending with either."""
    messages = [cf.Message("system", draw(message_text))] if draw(st.booleans()) else []
    for turn in range(draw(st.integers(1, 5))):
        messages.append(cf.Message("user" if turn % 2 == 0 else "assistant", draw(message_text)))
    return messages


def test_llama2_reply_is_encoded_with_its_question() -> None:
    """The reply "Hello" is "▁Hello" inside "[INST] Hi [/INST] Hello ": the one lone ▁ (29871) is the last space."""
    tok = load("llama2")
    messages = cf.conversation(system="Be brief.", user="Hi", reply="Hello")
    assert our_ids("llama2", messages, tok) == meta_llama2_ids(tok._sp, messages)
    assert our_ids("llama2", messages, tok).count(29871) == 1


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=dialogs())
def test_llama2_matches_metas_chat_completion(messages: list[cf.Message]) -> None:
    tok = load("llama2")
    assert our_ids("llama2", messages, tok) == meta_llama2_ids(tok._sp, messages)


# -- Qwen ---------------------------------------------------------------------------------------------

QWEN25_DEFAULT_SYSTEM = "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"


def qwen3_template():
    """Qwen3's chat template from its tokenizer_config.json in the data folder, as transformers renders it."""
    import json
    import os
    from pathlib import Path

    path = Path(os.environ.get("PLAYGROUND_DATA_DIR", "")) / "tokenizers" / "qwen3_tokenizer_config.json"
    if not path.is_file():
        pytest.skip("qwen3_tokenizer_config.json is not in PLAYGROUND_DATA_DIR")
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    return env.from_string(json.loads(path.read_text(encoding="utf-8"))["chat_template"])


@st.composite
def questions_last(draw) -> list[cf.Message]:
    """Dialogs that end with a question, so Qwen3's <think> handling of replies does not apply."""
    messages = draw(dialogs())
    return messages if messages[-1].role == "user" else messages[:-1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=questions_last())
def test_qwen_is_qwen3s_template_with_qwen25s_default_system_turn(messages: list[cf.Message]) -> None:
    """Where Qwen2.5's and Qwen3's templates agree (a question last, no tools), ours is Qwen3's
    rendering, with Qwen2.5's default system turn first when the conversation has none."""
    fmt = cf.FORMATS["qwen"]
    rendered = qwen3_template().render(
        messages=[{"role": m.role, "content": m.content} for m in messages], add_generation_prompt=True)
    expected = rendered if messages[0].role == "system" else QWEN25_DEFAULT_SYSTEM + rendered
    assert "".join(s.text for s in cf.render(fmt, messages)) == expected


# -- Mistral v3 tool calls -----------------------------------------------------------------------------

# Computed with mistral-common 1.13.1 (MistralTokenizer.from_file on its mistral_instruct_tokenizer_240323
# .model.v3, InstructTokenizerV3; finetuning mode for a dialog ending with a reply, serving mode otherwise;
# tool calls given the ids our conversation gives them). That file's text pieces are those of the registry's
# mistral_v3 file (only 24 unused control names differ). Written here so the test needs no mistral-common.
MISTRAL_CASES = {
    "default": cf.default_conversation(),
    "compact_args": cf.conversation(system="S.", user="Q?", reply="A.", tool=("f", '{"x":1,"é":"ü"}', '{"y":2}')),
    "plain_result": cf.conversation(user="Weather?", reply="Sunny.",
                                    tool=("get_weather", '{"city": "Paris"}', "sunny, 18 C")),
    "no_reply": cf.conversation(user="Hi", tool=("lookup", '{"q": "tokens"}', "[1, 2, 3]")),
}
MISTRAL_COMMON_V3_IDS = {
    "default": [
        1, 3, 1763, 1228, 1032, 3846, 1632, 5298, 14660, 29491, 781, 781, 3963, 29510, 29481, 1040,
        8854, 1065, 6233, 3922, 29572, 4, 5, 1501, 7567, 1629, 2032, 1113, 1295, 29498, 1537, 1991,
        1316, 1113, 17452, 2032, 10598, 19141, 2032, 1113, 4684, 1046, 8474, 1113, 1081, 2032, 1113,
        3613, 29502, 29502, 29502, 29502, 29508, 29507, 10925, 2, 8, 10598, 4557, 2032, 10598, 7891,
        29498, 29485, 2032, 29473, 29508, 29551, 29493, 1113, 11687, 2032, 1113, 8948, 29492, 8474,
        1113, 3613, 29498, 1081, 2032, 1113, 3613, 29502, 29502, 29502, 29502, 29508, 18163, 9, 1429,
        1117, 29473, 29508, 29551, 9561, 29511, 1072, 7713, 29492, 1065, 6233, 29515, 2156, 1032, 2829,
        16322, 29491, 2
    ],
    "compact_args": [
        1, 3, 1086, 29491, 781, 781, 29592, 29572, 4, 5, 1501, 7567, 1629, 2032, 1113, 29490, 1316,
        1113, 17452, 2032, 10598, 29512, 2032, 29473, 29508, 29493, 1113, 29565, 2032, 1113, 29605,
        8474, 1113, 1081, 2032, 1113, 3613, 29502, 29502, 29502, 29502, 29508, 29507, 10925, 2, 8,
        10598, 4557, 2032, 10598, 29492, 2032, 29473, 29518, 1649, 1113, 3613, 29498, 1081, 2032, 1113,
        3613, 29502, 29502, 29502, 29502, 29508, 18163, 9, 1098, 29491, 2
    ],
    "plain_result": [
        1, 3, 1584, 1991, 29572, 4, 5, 1501, 7567, 1629, 2032, 1113, 1295, 29498, 1537, 1991, 1316,
        1113, 17452, 2032, 10598, 19141, 2032, 1113, 4684, 1046, 8474, 1113, 1081, 2032, 1113, 3613,
        29502, 29502, 29502, 29502, 29508, 29507, 10925, 2, 8, 10598, 4557, 2032, 1113, 20643, 2548,
        29493, 29473, 29508, 29551, 1102, 1316, 1113, 3613, 29498, 1081, 2032, 1113, 3613, 29502, 29502,
        29502, 29502, 29508, 18163, 9, 7825, 2548, 29491, 2
    ],
    "no_reply": [
        1, 3, 16127, 4, 5, 1501, 7567, 1629, 2032, 1113, 17403, 1316, 1113, 17452, 2032, 10598, 29543,
        2032, 1113, 20996, 8474, 1113, 1081, 2032, 1113, 3613, 29502, 29502, 29502, 29502, 29508, 29507,
        10925, 2, 8, 10598, 4557, 2032, 1501, 29508, 29493, 29473, 29518, 29493, 29473, 29538, 1949,
        1113, 3613, 29498, 1081, 2032, 1113, 3613, 29502, 29502, 29502, 29502, 29508, 18163, 9
    ],
}


@pytest.mark.parametrize("case", MISTRAL_CASES)
def test_mistral_v3_tool_calls_and_results_are_mistral_commons(case: str) -> None:
    """The call carries its "id" and the result its "call_id"; both JSON bodies written again from the
    parsed arguments and content (compact JSON gets mistral-common's spaces; plain text stays a string)."""
    assert our_ids("mistral_v3", MISTRAL_CASES[case], load("mistral_v3")) == MISTRAL_COMMON_V3_IDS[case]


def test_mistral_v3_tool_turns_name_the_call_id() -> None:
    fmt = cf.FORMATS["mistral_v3"]
    text = "".join(s.text for s in cf.render(fmt, MISTRAL_CASES["compact_args"]))
    assert '[TOOL_CALLS][{"name": "f", "arguments": {"x": 1, "é": "ü"}, "id": "call00001"}]</s>' in text
    assert '[TOOL_RESULTS]{"content": {"y": 2}, "call_id": "call00001"}[/TOOL_RESULTS]' in text
