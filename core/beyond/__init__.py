"""Beyond fixed tokenizers: bytes only, entropy patches and superwords.

The ByT5-style byte tokenizer and what length costs (byte_tokenizer), the byte n-gram model
behind entropy patches (byte_ngram, patches), superword BPE (superbpe) and the same sentences
in several languages that the page measures them on (multilingual). What it does not hold:
plain BPE (``core.bpe``) or the aligned corpora of the language tax (``core.tax``).
"""
