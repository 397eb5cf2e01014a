"""Measurements: counts, word statistics, compression, units and what a vocabulary costs.

Text counts and ratios (metrics), Zipf, Heaps and out-of-vocabulary curves (wordstats), bytes
per token against vocabulary size (compression, vocab_grid), the same text in units (units),
a vocabulary's parameters (vocab_cost) and a context window's share and price
(context_window). What it does not hold: the algorithms it measures (``core.bpe``,
``core.wordpiece``, ``core.unigram``) or the language tax across languages (``core.tax``).
"""
