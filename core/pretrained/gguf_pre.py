"""Which pattern cuts the text for each pre-tokenizer name a GGUF file can carry (``tokenizer.ggml.pre``).

The table follows llama.cpp's ``src/llama-vocab.cpp``: ``llama_vocab::impl::load`` maps each name
to a ``LLAMA_VOCAB_PRE_TYPE_*`` (and says which types take a whole pre-token found in the vocabulary
as one token, ``ignore_merges``), and ``llm_tokenizer_bpe`` gives each type its regexes, which live
in ``core.text.patterns``. Where llama.cpp rewrote a tokenizer.json regex for C++'s ``std::regex`` (case
classes spelled with lookaheads, ``(?i:…)`` spelled out) the original it quotes is used; where it
runs a hand-written splitter (Kimi K2, AFMoE digits), a regex that cuts the same way.

What this module does not do: names whose vocabulary is not byte-level (``gemma4``, ``sarvam-moe``,
``granite-embed-multi-311m``, ``whitespace``: raw UTF-8 with ``▁`` for spaces) are in ``NOT_BYTE_LEVEL``,
so a file naming them is refused with that reason instead of being cut wrongly.

>>> PRE_TOKENIZERS["qwen35"].label, PRE_TOKENIZERS["llama-bpe"].ignore_merges
('Qwen 3.5', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from core.text import patterns as p


@dataclass(frozen=True)
class PreTokenizer:
    """The regexes applied one after the other, the name shown to the user, and llama.cpp's ignore_merges."""

    label: str
    patterns: tuple[str, ...]
    ignore_merges: bool = False


def _all(names: str, label: str, patterns: str | tuple[str, ...], *, ignore_merges: bool = False,
         ) -> dict[str, PreTokenizer]:
    steps = (patterns,) if isinstance(patterns, str) else patterns
    return dict.fromkeys(names.split(), PreTokenizer(label, steps, ignore_merges))


PRE_TOKENIZERS: dict[str, PreTokenizer] = {
    **_all("default", "llama.cpp's default", p.LLAMA_CPP_DEFAULT_PATTERNS),
    **_all("llama3 llama-v3 llama-bpe falcon3 falcon-h1 pixtral midm-2.0 lfm2 jina-v5-nano", "Llama 3",
           p.LLAMA3_PATTERN, ignore_merges=True),
    **_all("dbrx smaug-bpe glm4 chatglm-bpe", "Llama 3", p.LLAMA3_PATTERN),
    **_all("gpt-2 phi-2 jina-es jina-de gigachat jina-v2-es jina-v2-de a.x-4.0 mellum modern-bert jina-v1-en "
           "jina-v2-code roberta-bpe exaone4 mpt olmo jais trillion granite-docling", "GPT-2", p.GPT2_PATTERN),
    **_all("qwen2 deepseek-r1-qwen kormo f2llmv2 megrez stablelm2 hunyuan solar-open grok-2", "Qwen",
           p.QWEN_PATTERN),
    **_all("qwen35", "Qwen 3.5", p.QWEN3_5_PATTERN),
    **_all("gpt-4o llama4 kanana2 talkie minimax-m2", "o200k_base", p.O200K_PATTERN),
    **_all("tekken", "Tekken", p.TEKKEN_PATTERN, ignore_merges=True),
    **_all("deepseek-llm", "DeepSeek LLM", p.DEEPSEEK_LLM_PATTERNS),
    **_all("deepseek-coder", "DeepSeek Coder", p.DEEPSEEK_CODER_PATTERNS),
    **_all("deepseek-v3 hunyuan-dense joyai-llm hy_v4", "DeepSeek V3", p.DEEPSEEK_V3_PATTERNS),
    **_all("spark2_5", "Spark 2.5", p.SPARK2_5_PATTERNS),
    **_all("youtu", "Youtu", p.YOUTU_PATTERNS, ignore_merges=True),
    **_all("falcon", "Falcon", p.FALCON_PATTERNS),
    **_all("starcoder refact command-r smollm codeshell exaone minerva-7b mellum2", "StarCoder",
           p.STARCODER_PATTERNS),
    **_all("jais-2", "Jais 2", p.JAIS2_PATTERN),
    **_all("poro-chat bloom gpt3-finnish", "BLOOM", p.BLOOM_PATTERN),
    **_all("viking", "Viking", p.VIKING_PATTERNS),
    **_all("chameleon", "Chameleon", p.CHAMELEON_PATTERNS),
    **_all("granite-embed-multi-97m", "Granite embedding", p.GRANITE_EMBED_PATTERN, ignore_merges=True),
    **_all("tiny_aya cohere2moe", "Tiny Aya", p.TINY_AYA_PATTERNS),
    **_all("kimi-k2", "Kimi K2", p.KIMI_K2_PATTERN),
    **_all("superbpe", "SuperBPE", p.SUPERBPE_PATTERNS),
    **_all("bailingmoe bailingmoe2 llada-moe", "Ling (Bailing MoE)", p.BAILINGMOE_PATTERN),
    **_all("seed-coder", "Seed-Coder", p.SEED_CODER_PATTERN),
    **_all("ufakzeka", "ufakzeka", p.UFAKZEKA_PATTERN),
    **_all("afmoe", "AFMoE", p.AFMOE_PATTERNS),
    **_all("laguna", "Laguna", p.LAGUNA_PATTERNS),
    **_all("exaone-moe", "EXAONE MoE", p.EXAONE_MOE_PATTERN),
    **_all("minicpm5", "MiniCPM 5", p.MINICPM5_PATTERNS, ignore_merges=True),
}
# A file without tokenizer.ggml.pre gets llama.cpp's default (llama.cpp warns that quality suffers).
MISSING = PRE_TOKENIZERS["default"]
# Names llama.cpp knows whose vocabulary is raw UTF-8 with ▁ for spaces, not byte-level BPE.
NOT_BYTE_LEVEL = frozenset(("gemma4", "granite-embed-multi-311m", "sarvam-moe", "whitespace"))
