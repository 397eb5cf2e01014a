"""Token sequences once encoded: kept compactly, cut to their head, checked, and read back from ids.

PackedTokens for caches (packed), the first tokens of a long encoding (head), where a round
trip first changes a text (roundtrip) and ids back to tokens and text (decode_ids). What it
does not hold: the ``Token`` type itself (``core.types``) or any tokenizer.
"""
