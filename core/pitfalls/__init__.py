"""The pitfalls gallery: where tokenization trips models up (numbers, spelling, a trailing space,
indentation, glitch tokens, special tokens, emoji), each computed live from real tokenizers.

- ``catalog``: the cases, their texts and explanations;
- ``place_value``: which digits of a number each token holds, by place value;
- ``words``: the letters inside each piece of a word; the trailing-space view and token healing;
- ``indentation``: tokens spent on indentation;
- ``glitch``: long vocabulary tokens never seen in a reference corpus, by shape;
- ``vocab``: a tokenizer's vocabulary as bytes, for the last two.

Nothing here draws or imports Streamlit (``ui.pitfalls`` does).
"""

from core.pitfalls.catalog import CASES, Case

__all__ = ["CASES", "Case"]
