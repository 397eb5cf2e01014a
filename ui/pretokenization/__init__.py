"""Helpers of the "Pre-tokenization" page: example texts and notes (``examples``), the cached cuts and
their rows of chunk spans, and the digits under real tokenizers (``views``)."""
