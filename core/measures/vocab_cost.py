"""What a vocabulary costs a model: embedding and output-layer parameters, and output multiply-adds per token.

A vocabulary of V tokens in a model of width d needs an input embedding of V × d parameters and an
output layer (the "unembedding" that turns the last hidden state into V logits) of another V × d,
unless the two share one matrix ("tied"). Tied or not, producing one token's logits takes V × d
multiply-adds: the output layer's cost per generated token grows with V whatever the tying.

Preset rows are real open models with their published V, d and parameter count N; ``ModelPreset``
names the source of each figure. Biases and the MLM transform of BERT's output head are left out: the
output layer here is the V × d projection alone.

>>> cost = vocab_cost(50_257, 768, tied=True, params=124_439_808)
>>> cost.embedding, cost.output, round(cost.share, 3)
(38597376, 0, 0.31)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VocabCost:
    """The vocabulary's share of a model of width ``d_model`` and ``params`` parameters (``None``: unknown)."""

    vocab_size: int
    d_model: int
    tied: bool
    params: int | None = None

    @property
    def embedding(self) -> int:
        """Input embedding parameters: one row of d for each of the V tokens."""
        return self.vocab_size * self.d_model

    @property
    def output(self) -> int:
        """Output-layer parameters not already counted in the embedding (0 when tied)."""
        return 0 if self.tied else self.vocab_size * self.d_model

    @property
    def vocabulary_params(self) -> int:
        return self.embedding + self.output

    @property
    def share(self) -> float | None:
        """The vocabulary's parameters as a share of the whole model, or ``None`` without N."""
        return self.vocabulary_params / self.params if self.params else None

    @property
    def output_macs(self) -> int:
        """Multiply-adds of the output layer for one generated token: V × d, tied or not."""
        return self.vocab_size * self.d_model


def vocab_cost(vocab_size: int, d_model: int, *, tied: bool = False, params: int | None = None) -> VocabCost:
    """Check the figures and return their ``VocabCost``; ``ValueError`` with what to fix otherwise.

    >>> vocab_cost(32_000, 4_096).vocabulary_params
    262144000
    """
    if vocab_size < 1 or d_model < 1:
        raise ValueError("the vocabulary size V and the width d must both be at least 1")
    cost = VocabCost(int(vocab_size), int(d_model), bool(tied), int(params) if params else None)
    if cost.params is not None and cost.vocabulary_params > cost.params:
        raise ValueError(
            f"N ({cost.params:,}) is smaller than the vocabulary's own {cost.vocabulary_params:,} parameters; "
            "raise N or lower V or d"
        )
    return cost


@dataclass(frozen=True)
class ModelPreset:
    """A published model: V and d from its configuration file, N its parameter count, and where they come from.

    ``repo`` is the Hugging Face repository whose ``config.json`` gives V (``vocab_size``), d
    (``hidden_size``, ``n_embd`` for GPT-2) and whether the output layer is tied; ``note`` adds what
    else a reader should know about the figures.
    """

    name: str
    vocab_size: int
    d_model: int
    params: int
    tied: bool
    repo: str
    note: str = ""

    @property
    def source(self) -> str:
        """Where each figure comes from, in one sentence.

        >>> PRESETS[0].source.startswith("V and d: config.json of openai-community/gpt2")
        True
        """
        extra = f"; {self.note}" if self.note else ""
        return (
            f"V and d: config.json of {self.repo}; N: counted from the same file's shapes (layers × widths), "
            f"as the released weights have{extra}"
        )

    def cost(self) -> VocabCost:
        return vocab_cost(self.vocab_size, self.d_model, tied=self.tied, params=self.params)


# Tied is config.json's tie_word_embeddings (GPT-2 and BERT share the embedding with the output layer).
# Each N is recomputed from the architecture's shapes in tests/core/measures/test_vocab_cost.py.
PRESETS: tuple[ModelPreset, ...] = (
    ModelPreset("GPT-2 small", 50_257, 768, 124_439_808, True, "openai-community/gpt2",
                "the paper's 117M is a miscount, corrected in the openai/gpt-2 README"),
    ModelPreset("BERT-base (uncased)", 30_522, 768, 109_482_240, True, "google-bert/bert-base-uncased",
                "the paper rounds it to 110M"),
    ModelPreset("Llama 2 7B", 32_000, 4_096, 6_738_415_616, False, "meta-llama/Llama-2-7b-hf"),
    ModelPreset("Mistral 7B (v0.1)", 32_000, 4_096, 7_241_732_096, False, "mistralai/Mistral-7B-v0.1"),
    ModelPreset("Llama 3 8B", 128_256, 4_096, 8_030_261_248, False, "meta-llama/Meta-Llama-3-8B"),
    ModelPreset("Qwen2.5 7B", 152_064, 3_584, 7_615_616_512, False, "Qwen/Qwen2.5-7B",
                "its model card says 7.61B"),
)
