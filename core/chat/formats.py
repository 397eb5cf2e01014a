"""Chat formats: a conversation rendered the way each model family sees it, and what the format costs.

A chat model never sees "messages": it sees one token sequence in which special tokens mark where a
turn starts, whose turn it is and where it ends. ``FORMATS`` writes each family's format as data
(literal text, special tokens, where the content goes), with the source it follows; ``render``
turns a conversation into ``Segment``s and ``tokenize`` into ``Token``s over the rendered string,
so the one span renderer can draw it, with per-message costs and the format's own overhead.

Subtle:
- A special token here is always inserted by id, never read from text: a user who types
  ``<|im_end|>`` in a message gets plain text (``encode`` with ``allow_special=False``), which is
  exactly why a chat template must never let message text forge a turn boundary.
- How text between special tokens is cut into encode calls matters to SentencePiece (each call adds
  a leading ``▁``) and a little to regex pre-tokenizers: ``join_text`` follows the reference code of
  each format (Hugging Face templates render one string and tokenize it, so all the text between two
  special tokens is one call, across turns; Meta's Llama 2 ``chat_completion`` encodes
  ``[INST] question [/INST] answer `` as one string; Meta's Llama 3 and mistral-common encode
  header, content and separators one call each).
- The OpenAI encodings' published ``cl100k_base`` has no ChatML tokens; the ids used here are the
  ones tiktoken's README gives for its ``cl100k_im`` example. APIs also add tokens this view cannot
  see (tool definitions rendered into a hidden system message, the reply's priming, images).

>>> [s.text for s in render(FORMATS["llama3"], [Message("user", "Hi")])][:5]
['<|begin_of_text|>', '<|start_header_id|>', 'user', '<|end_header_id|>', '\\n\\n']
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from core.types import ADDED, SPECIAL, Token, Tokenizer

ROLES = ("system", "user", "assistant", "tool")
_PART = re.compile(r"\{(<[^{}]+>|\[[A-Z_/]+\]|content|role|name|arguments|calls|result)\}")
EXAMPLE_CALL_ID = "call00001"  # a tool call's id, 9 letters or digits as Mistral's are (its API draws them at random)


@dataclass(frozen=True)
class Message:
    """One turn. An assistant turn with ``tool_name`` is a tool call (``content`` holds its JSON arguments);
    a ``tool`` turn is the result of the call before it. ``call_id`` is the call's id (on a result: the
    id of the call it answers; empty there means the last call's)."""

    role: str
    content: str
    tool_name: str = ""
    call_id: str = ""


@dataclass(frozen=True)
class ChatFormat:
    """One family's chat format, as data.

    Templates are strings in which ``{<|x|>}`` or ``{[X]}`` is a special token, ``{content}`` the
    message text, ``{role}`` the role as the format names it, ``{name}``/``{arguments}`` a tool
    call's function and JSON, ``{calls}``/``{result}`` a call or result as mistral-common writes them
    (JSON with the arguments or content parsed, and the call's id). ``system`` says where a system message goes: its own turn
    (``"turn"``), folded into the first user turn (``"first_user"``, Llama 2) or the last one
    (``"last_user"``, Mistral). With ``join_text`` the text between two special tokens is encoded
    in one call, whatever turns it spans; without, each piece of a template is its own call.
    """

    key: str
    title: str
    tokenizer: str  # registry key
    source: str  # where the format is written down
    begin: str  # once, before the first turn
    turn: dict[str, str]  # role -> template
    tool_call: str
    generation: str  # what primes the model's reply after the last turn
    specials: dict[str, int]  # every special token the templates use, with its id
    role_names: dict[str, str] = field(default_factory=dict)
    system: str = "turn"
    system_fold: str = "{system}\n\n{content}"
    join_text: bool = True
    strip_content: bool = False  # Meta's Llama 2 code strips each message (system folded in) first
    default_system: str = ""  # the system turn the template writes when the conversation has none
    notes: str = ""


FORMATS: dict[str, ChatFormat] = {
    "chatml_openai": ChatFormat(
        "chatml_openai", "ChatML (OpenAI, cl100k_base)", "cl100k_base",
        "OpenAI's ChatML description (openai-python docs, 2023) and the cl100k_im example in tiktoken's README",
        begin="", turn={r: "{<|im_start|>}{role}\n{content}{<|im_end|>}\n" for r in ROLES},
        tool_call="{<|im_start|>}{role}\n{{\"name\": \"{name}\", \"arguments\": {arguments}}}{<|im_end|>}\n",
        generation="{<|im_start|>}assistant\n", specials={"<|im_start|>": 100264, "<|im_end|>": 100265},
        notes="The published cl100k_base has no <|im_start|>/<|im_end|>: their ids are those of tiktoken's "
        "cl100k_im example. How the API writes tool calls is not published; shown here as the call's JSON.",
    ),
    "harmony": ChatFormat(
        "harmony", "Harmony (GPT-OSS, o200k_harmony)", "o200k_harmony",
        "OpenAI's harmony response format (openai/harmony) and tiktoken_ext's o200k_harmony special tokens",
        begin="",
        turn={
            "system": "{<|start|>}system{<|message|>}{content}{<|end|>}",
            "user": "{<|start|>}user{<|message|>}{content}{<|end|>}",
            "assistant": "{<|start|>}assistant{<|channel|>}final{<|message|>}{content}{<|end|>}",
            "tool": "{<|start|>}functions.{name} to=assistant{<|channel|>}commentary{<|message|>}{content}{<|end|>}",
        },
        tool_call="{<|start|>}assistant{<|channel|>}commentary to=functions.{name} {<|constrain|>}json{<|message|>}{arguments}{<|call|>}",
        generation="{<|start|>}assistant",
        specials={"<|start|>": 200006, "<|end|>": 200007, "<|message|>": 200008, "<|channel|>": 200005,
                  "<|constrain|>": 200003, "<|call|>": 200012},
        notes="o200k_harmony is o200k_base plus these special tokens (tiktoken_ext.openai_public). A real "
        "system message also carries the date, knowledge cutoff, reasoning effort and valid channels; the "
        "model's reasoning goes to an 'analysis' channel that later turns drop.",
    ),
    "llama3": ChatFormat(
        "llama3", "Llama 3.1 headers", "llama3", "Meta's llama-models ChatFormat (Llama 3.1 prompt format)",
        begin="{<|begin_of_text|>}",
        turn={r: "{<|start_header_id|>}{role}{<|end_header_id|>}\n\n{content}{<|eot_id|>}" for r in ROLES},
        tool_call="{<|start_header_id|>}{role}{<|end_header_id|>}\n\n{<|python_tag|>}{{\"name\": \"{name}\", \"parameters\": {arguments}}}{<|eom_id|>}",
        generation="{<|start_header_id|>}assistant{<|end_header_id|>}\n\n",
        specials={"<|begin_of_text|>": 128000, "<|start_header_id|>": 128006, "<|end_header_id|>": 128007,
                  "<|eot_id|>": 128009, "<|eom_id|>": 128008, "<|python_tag|>": 128010},
        role_names={"tool": "ipython"}, join_text=False,
        notes="Tool results come back in an 'ipython' turn; <|eom_id|> ends a turn that waits for a tool.",
    ),
    "llama2": ChatFormat(
        "llama2", "Llama 2 [INST]", "llama2", "Meta's llama repository, chat_completion (B_INST, B_SYS)",
        begin="",
        turn={
            "user": "{<s>}[INST] {content} [/INST]",
            "assistant": " {content} {</s>}",
            "tool": "{<s>}[INST] {content} [/INST]",
        },
        tool_call=" {{\"name\": \"{name}\", \"arguments\": {arguments}}} {</s>}", generation="",
        specials={"<s>": 1, "</s>": 2}, system="first_user", system_fold="<<SYS>>\n{system}\n<</SYS>>\n\n{content}",
        strip_content=True,
        notes="[INST] and <<SYS>> are plain text to Llama 2, not special tokens; each question and its answer "
        "are encoded as one string, and messages lose their outer whitespace, as in Meta's code. Llama 2 chat "
        "had no tool format: a call is the reply's JSON and its result a user turn.",
    ),
    "mistral_v3": ChatFormat(
        "mistral_v3", "Mistral v3 control tokens", "mistral_v3", "mistral-common, InstructTokenizerV3",
        begin="{<s>}",
        turn={
            "user": "{[INST]}{content}{[/INST]}",
            "assistant": "{content}{</s>}",
            "tool": "{[TOOL_RESULTS]}{result}{[/TOOL_RESULTS]}",
        },
        tool_call="{[TOOL_CALLS]}{calls}{</s>}", generation="",
        specials={"<s>": 1, "</s>": 2, "[INST]": 3, "[/INST]": 4, "[TOOL_CALLS]": 5, "[TOOL_RESULTS]": 8,
                  "[/TOOL_RESULTS]": 9},
        system="last_user", join_text=False,
        notes="[INST], [/INST] and [TOOL_CALLS] are control tokens of the v3 vocabulary; the system prompt "
        "is prepended to the last user message. A tool call and its result carry the call's id (id, call_id), "
        "and their JSON is written again from the parsed arguments and content, as mistral-common does.",
    ),
    "qwen": ChatFormat(
        "qwen", "Qwen2.5 ChatML", "qwen", "Qwen2.5's chat_template in tokenizer_config.json (Qwen2.5-*-Instruct)",
        begin="",
        turn={
            **{r: "{<|im_start|>}{role}\n{content}{<|im_end|>}\n" for r in ("system", "user", "assistant")},
            "tool": "{<|im_start|>}user\n{<tool_response>}\n{content}\n{</tool_response>}{<|im_end|>}\n",
        },
        tool_call="{<|im_start|>}{role}\n{<tool_call>}\n{{\"name\": \"{name}\", \"arguments\": {arguments}}}\n{</tool_call>}{<|im_end|>}\n",
        generation="{<|im_start|>}assistant\n",
        specials={"<|im_start|>": 151644, "<|im_end|>": 151645, "<tool_call>": 151657, "</tool_call>": 151658,
                  "<tool_response>": 151665, "</tool_response>": 151666},
        default_system="You are Qwen, created by Alibaba Cloud. You are a helpful assistant.",
        notes="<tool_call> and <tool_response> are added tokens of Qwen's vocabulary, always read as one token; "
        "a tool's result comes back in a user turn. Without a system message Qwen2.5's template writes its own "
        "(\"You are Qwen, created by Alibaba Cloud…\"); Qwen2's default is \"You are a helpful assistant.\", and "
        "Qwen3's template writes none but adds an empty <think> block to the reply after the last question.",
    ),
}


@dataclass(frozen=True)
class Segment:
    """A run of the rendered conversation: a special token, or text to encode in one call.

    ``message`` is the index of the turn it belongs to, or -1 for the format's own framing
    (``begin``, ``generation``); ``content`` says whether it is the message's own text.
    """

    text: str
    special: bool
    message: int
    content: bool = False


def conversation(
    *, system: str = "", user: str, reply: str = "", tool: tuple[str, str, str] | None = None
) -> list[Message]:
    """A short conversation: optional system prompt, a question, optionally a tool call
    ``(name, arguments JSON, result)`` and its result, then the reply (when given).

    >>> [m.role for m in conversation(system="Be brief.", user="Hi", reply="Hello", tool=("f", "{}", "1"))]
    ['system', 'user', 'assistant', 'tool', 'assistant']
    """
    messages = [Message("system", system)] if system else []
    messages.append(Message("user", user))
    if tool:
        name, arguments, result = tool
        messages += [Message("assistant", arguments, tool_name=name, call_id=EXAMPLE_CALL_ID),
                     Message("tool", result, call_id=EXAMPLE_CALL_ID)]
    if reply:
        messages.append(Message("assistant", reply))
    return messages


def default_conversation() -> list[Message]:
    """A short conversation with a system prompt, a tool call and its result."""
    return conversation(
        system="You are a concise travel assistant.", user="What's the weather in Paris today?",
        tool=("get_weather", json.dumps({"city": "Paris"}), json.dumps({"temp_c": 18, "sky": "cloudy"})),
        reply="It is 18 °C and cloudy in Paris: take a light jacket.",
    )


def render(fmt: ChatFormat, messages: Sequence[Message], *, add_generation_prompt: bool = True) -> list[Segment]:
    """The conversation as segments, in order; raises ``ValueError`` for an unknown role or bad order."""
    turns = _fold_system(fmt, messages)
    segments = _parts(fmt.begin, fmt, -1, {})
    if fmt.default_system and not (messages and messages[0].role == "system"):
        segments += _parts(fmt.turn["system"], fmt, -1, {"content": fmt.default_system, "role": "system"})
    for index, message in turns:
        if message.role not in ROLES:
            raise ValueError(f"unknown role {message.role!r}; use one of {', '.join(ROLES)}")
        if message.role == "assistant" and message.tool_name:
            template = fmt.tool_call
            values = {"name": message.tool_name, "arguments": message.content or "{}",
                      "calls": _call_json(message)}
        else:
            template = fmt.turn.get(message.role)
            if template is None:
                raise ValueError(f"{fmt.title} has no {message.role} turn of its own")
            content = message.content.strip() if fmt.strip_content else message.content
            values = {"content": content, "name": _last_tool(messages, index),
                      "result": _result_json(message, messages[:index])}
        values["role"] = fmt.role_names.get(message.role, message.role)
        segments += _parts(template, fmt, index, values)
    if add_generation_prompt and (not turns or turns[-1][1].role != "assistant" or turns[-1][1].tool_name):
        segments += _parts(fmt.generation, fmt, -1, {})
    return _joined(segments) if fmt.join_text else segments


def tokenize(fmt: ChatFormat, segments: Sequence[Segment], tokenizer: Tokenizer) -> tuple[str, list[Token], list[int]]:
    """The rendered string, its tokens (offsets into it) and the message index of each token.

    Special segments become their special token by id; text is encoded one call per run of text
    segments between special tokens (``join_text``) or per segment, without the BOS or ``[CLS]`` a
    tokenizer adds on its own. A token of a run that spans turns belongs to the turn it starts in.
    """
    text, tokens, owners = "", [], []
    for run in _calls(fmt, segments):
        start = len(text)
        text += "".join(segment.text for segment in run)
        if run[0].special:
            tokens.append(Token(fmt.specials[run[0].text], run[0].text.encode(), start, len(text), SPECIAL))
            owners.append(run[0].message)
            continue
        ends = list(accumulate(len(segment.text) for segment in run))
        for token in tokenizer.encode(text[start:]):
            if token.kind != ADDED:
                tokens.append(token._replace(start=token.start + start, end=token.end + start))
                owners.append(run[min(bisect_right(ends, token.start), len(run) - 1)].message)
    return text, tokens, owners


def _calls(fmt: ChatFormat, segments: Sequence[Segment]) -> list[list[Segment]]:
    """The segments as encode calls: a special token alone, text alone or joined between specials."""
    calls: list[list[Segment]] = []
    for segment in segments:
        if fmt.join_text and calls and not segment.special and not calls[-1][0].special:
            calls[-1].append(segment)
        else:
            calls.append([segment])
    return calls


def missing_specials(fmt: ChatFormat, tokenizer: Tokenizer) -> dict[str, int]:
    """The format's special tokens that the tokenizer does not know under the same id."""
    known = tokenizer.special_tokens
    return {name: i for name, i in fmt.specials.items() if known.get(name) != i}


def _fold_system(fmt: ChatFormat, messages: Sequence[Message]) -> list[tuple[int, Message]]:
    turns = list(enumerate(messages))
    if fmt.system == "turn" or not turns or turns[0][1].role != "system":
        return turns
    system, rest = turns[0][1].content, turns[1:]
    users = [i for i, (_, m) in enumerate(rest) if m.role == "user"]
    if not users:
        return rest
    at = users[0] if fmt.system == "first_user" else users[-1]
    index, message = rest[at]
    rest[at] = (index, Message("user", fmt.system_fold.format(system=system, content=message.content)))
    return rest


def _last_tool(messages: Sequence[Message], index: int) -> str:
    return next((m.tool_name for m in reversed(messages[:index]) if m.tool_name), "tool")


def _parsed(text: str) -> object:
    """JSON text as its value, other text as itself (mistral-common's ``_parse_json_content``)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _call_json(message: Message) -> str:
    """A tool call as mistral-common's v3 writes it: a JSON list of one call, arguments parsed, its id."""
    call = {"name": message.tool_name, "arguments": _parsed(message.content or "{}")}
    if message.call_id:
        call["id"] = message.call_id
    return json.dumps([call], ensure_ascii=False)


def _result_json(message: Message, before: Sequence[Message]) -> str:
    """A tool result as mistral-common's v3 writes it: its content parsed, and the id of the call it answers."""
    call_id = message.call_id or next((m.call_id for m in reversed(before) if m.tool_name and m.call_id), "")
    result = {"content": _parsed(message.content)}
    if call_id:
        result["call_id"] = call_id
    return json.dumps(result, ensure_ascii=False)


def _parts(template: str, fmt: ChatFormat, message: int, values: dict[str, str]) -> list[Segment]:
    segments, at = [], 0
    for match in _PART.finditer(template):
        literal = template[at:match.start()].replace("{{", "{").replace("}}", "}")
        if literal:
            segments.append(Segment(literal, False, message))
        name = match.group(1)
        if name in fmt.specials:
            segments.append(Segment(name, True, message))
        elif values.get(name):
            segments.append(Segment(values[name], False, message, content=name in ("content", "arguments", "calls", "result")))
        at = match.end()
    tail = template[at:].replace("{{", "{").replace("}}", "}")
    if tail:
        segments.append(Segment(tail, False, message))
    return segments


def _joined(segments: list[Segment]) -> list[Segment]:
    """Neighbouring text segments of one message merged into one encode call (as a rendered template is)."""
    out: list[Segment] = []
    for segment in segments:
        last = out[-1] if out else None
        if last and not last.special and not segment.special and last.message == segment.message:
            out[-1] = Segment(last.text + segment.text, False, last.message, last.content or segment.content)
        else:
            out.append(segment)
    return out


@dataclass(frozen=True)
class Cost:
    """What one turn costs: its text alone, and with the format's framing around it."""

    message: int  # index into the conversation, -1 for the format's own framing
    role: str
    content_tokens: int  # the message's text encoded on its own
    format_tokens: int  # tokens the turn takes in the rendered conversation

    @property
    def overhead(self) -> int:
        return self.format_tokens - self.content_tokens


def costs(messages: Sequence[Message], tokens_owners: Sequence[int], tokenizer: Tokenizer) -> list[Cost]:
    """Per turn (and for the framing, ``message == -1``): content tokens alone against tokens in the format.

    Subtle: a system message folded into a user turn (Llama 2, Mistral) owns no tokens of its own;
    its text is counted in the turn that carries it, so its row shows 0 in the format.
    """
    rows = []
    for index, message in enumerate(messages):
        alone = sum(1 for t in tokenizer.encode(message.content) if t.kind != ADDED)
        rows.append(Cost(index, message.role, alone, sum(1 for o in tokens_owners if o == index)))
    framing = sum(1 for o in tokens_owners if o == -1)
    if framing:
        rows.append(Cost(-1, "(format)", 0, framing))
    return rows
