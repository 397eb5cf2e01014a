"""Stand-in tokenizers for the language-tax tests."""

from __future__ import annotations


class Chars:
    """One token per character, counted by ``count`` (a lossless tokenizer's route), counting its calls."""

    name, lossless = "chars", True

    def __init__(self) -> None:
        self.calls = 0

    def count(self, text: str) -> int:
        self.calls += 1
        return len(text)
