"""Pretrained tokenizers: the registry, the files behind them, and one adapter per library.

- ``registry``: what each tokenizer is (``PretrainedSpec``), where its file comes from, how it loads.
- ``adapter``: the base class every wrapped tokenizer shares, with the offset helpers.
- ``tiktoken_adapter``, ``sentencepiece_adapter``, ``hf_adapter``: one per library.
- ``vocab_files``: readers for vocabulary formats the libraries do not read themselves.

The names below are the package's public face: ``from core import pretrained`` then
``pretrained.load("cl100k_base")``. Tokenizer libraries are imported only when one is loaded.
What it does not hold: where a file is fetched from (``core.fetch``), the tokenizers trained here
(``core.bpe``, ``core.wordpiece``, ``core.unigram``) or what is measured with them (``core.measures``).
"""

from __future__ import annotations

from core.pretrained.adapter import PretrainedSpec, PretrainedTokenizer, TokenizerUnavailable
from core.pretrained.registry import DEFAULT_KEYS, load, registry

__all__ = [
    "DEFAULT_KEYS", "PretrainedSpec", "PretrainedTokenizer", "TokenizerUnavailable", "load", "registry",
]
