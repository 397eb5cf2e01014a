"""The language tax: what the same content costs in tokens in each language, under each tokenizer.

Parallel corpora aligned by segment and their types (parallel_corpus, parallel_types), where
UDHR and PUD come from and how they are read (parallel_sources, parallel_loaders, udhr_html,
conllu_text), your own corpus (parallel_upload), the tax table (language_tax), its counts kept on disk
for pinned corpora and tokenizers (kept_counts) and what a
researcher cites beyond totals (tax_stats). What it does not hold: the Beyond page's
line-aligned sample (``core.beyond.multilingual``) or the fetching itself (``core.fetch``).
"""
