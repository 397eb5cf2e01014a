"""What the Pre-tokenization page says about each pattern, and its fixed examples with explanations.

Every claim here is checked against the patterns in tests/ui/test_pretokenization.py, so the prose
cannot drift from what the regexes do.
"""

from __future__ import annotations

CUSTOM = "Your regex"

# One line per named pattern of core.text.patterns: who uses it and what stands out.
PATTERN_NOTES = {
    "GPT-2": "GPT-2, p50k, Whisper: lower-case contractions only; digit runs kept whole",
    "cl100k_base": "GPT-3.5/4: contractions in any case; digits in groups of up to three",
    "o200k_base": "GPT-4o: contractions stay on their word; letter runs split at case changes",
    "Llama 3": "Llama 3: cl100k's rules, written without possessive quantifiers",
    "Qwen": "Qwen: like Llama 3, but every digit is a chunk of its own",
    "Whitespace": "a baseline: each run of non-space characters with the spaces before it",
}

CONTRACTIONS_TEXT = "I'm sure they'll say it's fine, don't you? I'M SURE THEY'LL SAY IT'S FINE. We’re"
CONTRACTIONS_NOTE = (
    "GPT-2's pattern lists the contractions 's 't 're 've 'm 'll 'd in lower case only, so *IT'S* "
    "falls apart into IT + ' + S, and the same word in capitals costs more tokens. cl100k, Llama 3 "
    "and Qwen match them in any case; o200k goes further and keeps the contraction on its word "
    "(*they'll* is one chunk). The curly apostrophe of *We’re* is not an apostrophe to any of them."
)

SPACES_TEXT = "one two  three   four\n    indented line\n\ttabbed line\nend.   "
SPACES_NOTE = (
    "A space belongs to the word after it: `two` at the start of a line and `·two` inside one are "
    "different chunks, hence different tokens. In a run of spaces all but the last stay together "
    "(`\\s+(?!\\S)`), and the last one joins the next word. GPT-2 glues a line break to the "
    "indentation after it; cl100k, o200k and Llama 3 cut after the line break, and glue a tab to the "
    "word it precedes."
)

DIGITS_NOTE = (
    "GPT-2 keeps a digit run whole, so each number is whatever its vocabulary happened to learn; "
    "cl100k, o200k and Llama 3 cut runs into groups of at most three digits *from the left* "
    "(2026 → 202 + 6, so the groups do not line up with thousands); Qwen and the SentencePiece "
    "models (Llama 2, Mistral) give every digit its own token. The rows below the patterns are the "
    "real tokenizers on the same text."
)
