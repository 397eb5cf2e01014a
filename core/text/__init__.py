"""The text below the tokens: reading it, cutting it into pre-tokens, and what it is made of.

Strict UTF-8 reading (textio), pre-tokenization patterns and the cuts they make (patterns,
pretokenize, chunks), grapheme clusters, code points, odd characters and the characters table
(unicode_info, odd_chars, char_table), normalization forms and what each real tokenizer's
normalizer does (normalization, tokenizer_normalizers). What it does not hold: tokenizers,
token sequences (``core.tokens``) or counts and costs (``core.measures``).
"""
