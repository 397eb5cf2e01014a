"""WordPiece trained here as a Hugging Face ``tokenizer.json``: ``to_hf_json``.

The model is ``tokenizers``' own WordPiece (greedy longest match, ``##`` continuations, ``[UNK]`` for a
word it cannot cut, the same ``max_input_chars_per_word``), behind a pre-tokenizer that cuts exactly
where ours does: whitespace first, then our pattern's matches (``Split`` with ``isolated``), and a
``Lowercase`` normalizer when the tokenizer lowercases. ``Tokenizer.from_str`` loads it and gives the
same ids as ``WordPieceTokenizer.encode`` (tested on held-out text). What it does not carry: the
offsets of characters that lowercasing lengthens (the library reports its own).
"""

from __future__ import annotations

from core.wordpiece.tokenizer import PREFIX, UNK, WordPieceTokenizer
from core.wordpiece.training import WordPieceResult


def to_hf_json(result: WordPieceResult | WordPieceTokenizer) -> str:
    """The tokenizer as a ``tokenizer.json`` string (``tokenizers.Tokenizer.from_str`` loads it)."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers

    tok = result.tokenizer if isinstance(result, WordPieceResult) else result
    vocab = {piece: i for i, piece in enumerate(tok.pieces)}
    if len(vocab) != len(tok.pieces):
        raise ValueError("two ids share a piece; tokenizer.json needs them distinct")
    hf = Tokenizer(models.WordPiece(
        vocab=vocab, unk_token=UNK, max_input_chars_per_word=tok.max_chars_per_word,
        continuing_subword_prefix=PREFIX,
    ))
    if tok.lowercase:
        hf.normalizer = normalizers.Lowercase()
    try:
        split = pre_tokenizers.Split(Regex(tok.pattern), behavior="isolated")
    except Exception as exc:  # tokenizers raises a bare Exception for Oniguruma's errors
        raise ValueError(f"tokenizers cannot use this tokenizer's pattern: {exc}") from None
    hf.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), split])
    hf.decoder = decoders.WordPiece(prefix=PREFIX)
    return hf.to_str(pretty=True)
