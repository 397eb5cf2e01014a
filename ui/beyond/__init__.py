"""What only the "Beyond fixed tokenizers" page uses: its models (``models``), views (``views``),
tables (``frames``) and figures (``figures``). The engine is in ``core.byte_level``,
``core.byte_ngram``, ``core.patches`` and ``core.superbpe``."""
