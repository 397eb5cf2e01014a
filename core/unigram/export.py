"""Unigram trained here as a Hugging Face ``tokenizer.json``: ``to_hf_json``.

The model is ``tokenizers``' own Unigram (Viterbi over the same pieces and log-probabilities, id 0
``<unk>``, neighbouring unknown characters fused into one, as SentencePiece does) behind the same
cut into words: ``Metaspace`` turns each space into ``▁`` glued to the word after it and adds one in
front of the first word, as ``core.unigram.words`` does. ``Tokenizer.from_str`` loads it and gives
the same ids as ``UnigramTokenizer.encode`` on text with single spaces; where ours skips the extra
spaces of a run, ``Metaspace`` keeps each one as a ``▁``. A tokenizer trained with a regex pattern
is cut by ``Split`` on that pattern instead. The library reads "<unk>" written in a word as the
unknown piece, and so does ``UnigramTokenizer`` (see ``core.unigram.model``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.unigram.model import UnigramTokenizer
from core.unigram.words import METASPACE

if TYPE_CHECKING:
    from core.unigram import UnigramResult


def to_hf_json(result: UnigramResult | UnigramTokenizer) -> str:
    """The tokenizer as a ``tokenizer.json`` string (``tokenizers.Tokenizer.from_str`` loads it)."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers

    tok = result if isinstance(result, UnigramTokenizer) else result.tokenizer
    vocab = list(zip(tok.vocab, tok.scores, strict=True))
    hf = Tokenizer(models.Unigram(vocab, unk_id=0, byte_fallback=False))
    if tok.pattern is None:
        hf.pre_tokenizer = pre_tokenizers.Metaspace(replacement=METASPACE, prepend_scheme="always")
        hf.decoder = decoders.Metaspace(replacement=METASPACE, prepend_scheme="always")
    else:
        try:
            hf.pre_tokenizer = pre_tokenizers.Split(Regex(tok.pattern), behavior="isolated")
        except Exception as exc:  # tokenizers raises a bare Exception for Oniguruma's errors
            raise ValueError(f"tokenizers cannot use this tokenizer's pattern: {exc}") from None
    return hf.to_str(pretty=True)
