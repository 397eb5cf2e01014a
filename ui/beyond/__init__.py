"""What only the "Beyond fixed tokenizers" page uses: its models (``models``), views (``views``),
tables (``frames``) and figures (``figures``). The engine is in ``core.beyond.byte_tokenizer``,
``core.beyond.byte_ngram``, ``core.beyond.patches`` and ``core.beyond.superbpe``."""
