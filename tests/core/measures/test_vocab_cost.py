"""core.measures.vocab_cost: the calculator's arithmetic on hand-checked rows, its refusals, and every preset's N."""

from __future__ import annotations

import pytest

from core.measures.vocab_cost import PRESETS, vocab_cost


def test_a_tied_row_checked_by_hand() -> None:
    # GPT-2 small: 50,257 × 768 = 38,597,376 parameters, shared by the input and output layers
    cost = vocab_cost(50_257, 768, tied=True, params=124_439_808)
    assert (cost.embedding, cost.output, cost.vocabulary_params) == (38_597_376, 0, 38_597_376)
    assert cost.share == pytest.approx(0.310170, abs=1e-6)
    assert cost.output_macs == 38_597_376  # one token's logits, tied or not


def test_an_untied_row_checked_by_hand() -> None:
    # Llama 2 7B: 32,000 × 4,096 = 131,072,000, twice
    cost = vocab_cost(32_000, 4_096, tied=False, params=6_738_415_616)
    assert (cost.embedding, cost.output, cost.vocabulary_params) == (131_072_000, 131_072_000, 262_144_000)
    assert cost.share == pytest.approx(0.038902, abs=1e-6)
    assert cost.output_macs == 131_072_000


def test_without_n_there_is_no_share() -> None:
    assert vocab_cost(1_000, 64).share is None


@pytest.mark.parametrize(("v", "d", "n"), [(0, 768, None), (1_000, 0, None), (50_000, 4_096, 1_000_000)])
def test_impossible_figures_are_refused_with_what_to_fix(v: int, d: int, n: int | None) -> None:
    with pytest.raises(ValueError, match="V|N"):
        vocab_cost(v, d, params=n)


def decoder(*, vocab: int, d: int, layers: int, ffn: int, heads: int, kv_heads: int, qkv_bias: bool = False,
            tied: bool = False) -> int:
    """Parameters of a Llama-style decoder (RMSNorm, SwiGLU, grouped-query attention), from its config."""
    kv = d // heads * kv_heads
    attention = d * d * 2 + d * kv * 2 + ((d + 2 * kv) if qkv_bias else 0)
    per_layer = attention + 3 * d * ffn + 2 * d
    return layers * per_layer + vocab * d * (1 if tied else 2) + d


def gpt2_small() -> int:
    d, layers, context, vocab = 768, 12, 1_024, 50_257
    per_layer = 2 * 2 * d + (d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d)
    return vocab * d + context * d + layers * per_layer + 2 * d


def bert_base() -> int:
    d, layers, vocab = 768, 12, 30_522
    embeddings = vocab * d + 512 * d + 2 * d + 2 * d
    per_layer = 4 * (d * d + d) + 2 * d + (d * 4 * d + 4 * d) + (4 * d * d + d) + 2 * d
    return embeddings + layers * per_layer + d * d + d  # + the pooler


# N of each preset, recomputed from the shapes in the model's config.json
ARCHITECTURES = {
    "GPT-2 small": gpt2_small(),
    "BERT-base (uncased)": bert_base(),
    "Llama 2 7B": decoder(vocab=32_000, d=4_096, layers=32, ffn=11_008, heads=32, kv_heads=32),
    "Mistral 7B (v0.1)": decoder(vocab=32_000, d=4_096, layers=32, ffn=14_336, heads=32, kv_heads=8),
    "Llama 3 8B": decoder(vocab=128_256, d=4_096, layers=32, ffn=14_336, heads=32, kv_heads=8),
    "Qwen2.5 7B": decoder(vocab=152_064, d=3_584, layers=28, ffn=18_944, heads=28, kv_heads=4, qkv_bias=True),
}


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_each_preset_matches_its_architecture_and_names_its_source(preset: object) -> None:
    assert preset.params == ARCHITECTURES[preset.name]
    assert "config.json of" in preset.source and preset.repo in preset.source
    assert 0 < preset.cost().share < 0.5
