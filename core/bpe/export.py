"""Export of a BPE trained here to other libraries' formats, and saving a training result as JSON.

``to_tiktoken`` gives a ``tiktoken.Encoding`` (byte mode only), ``to_tiktoken_file`` its ``.tiktoken`` rank file, ``to_hf_json`` a Hugging Face
``tokenizer.json``, ``to_json``/``from_json`` save and load a whole ``BPEResult`` (settings, merges,
trace). Subtle: tiktoken and tokenizers are imported only inside the function that needs them, so
importing this module stays cheap. What this module does not do: train or encode (``core.bpe``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.bpe.model import END_OF_WORD, UNK, BPEResult, BPETokenizer, MergeStep
from core.pretrained.adapter import byte_level_piece
from core.text.patterns import GPT2_PATTERN

if TYPE_CHECKING:
    import tiktoken


def to_tiktoken(result: BPEResult | BPETokenizer) -> tiktoken.Encoding:
    """The trained byte-level BPE as a ``tiktoken.Encoding``: the fast path for encoding.

    Ranks are ids (0–255 are the single bytes in byte order), so ids match ``encode``.

    >>> from core.bpe import train
    >>> to_tiktoken(train("hi hi", num_merges=1)).encode("hi")
    [256]
    """
    tokenizer = _tokenizer_of(result)
    if tokenizer.mode != "byte":
        raise ValueError("only byte-level BPE exports to tiktoken; character BPE has no bytes for whitespace")
    import tiktoken

    try:
        return tiktoken.Encoding(
            name="trained-here",
            pat_str=tokenizer.pattern,
            mergeable_ranks=_unique(tokenizer.vocab, "tiktoken"),
            special_tokens={},
        )
    except ValueError as exc:
        raise ValueError(f"tiktoken cannot use this tokenizer's pattern: {exc}") from None


def to_tiktoken_file(result: BPEResult | BPETokenizer) -> str:
    """The trained byte-level BPE as a ``.tiktoken`` rank file: one ``base64(bytes) rank`` line per token.

    ``tiktoken.load.load_tiktoken_bpe`` reads it back; the pattern is not part of the format, so
    give it alongside (``BPETokenizer.pattern``). Ranks are ids, as in ``to_tiktoken``.

    >>> from core.bpe import train
    >>> to_tiktoken_file(train("hi hi", num_merges=1)).splitlines()[256]
    'aGk= 256'
    """
    import base64

    tokenizer = _tokenizer_of(result)
    if tokenizer.mode != "byte":
        raise ValueError("only byte-level BPE exports to .tiktoken; character BPE has no bytes for whitespace")
    ranks = _unique(tokenizer.vocab, ".tiktoken")
    return "".join(f"{base64.b64encode(piece).decode('ascii')} {rank}\n" for piece, rank in ranks.items())


def tiktoken_bundle(result: BPEResult | BPETokenizer, *, name: str = "trained_here") -> bytes:
    """A zip with the ``.tiktoken`` rank file, its pattern, and a README saying how tiktoken loads them."""
    import io
    import zipfile

    tokenizer = _tokenizer_of(result)
    ranks = to_tiktoken_file(tokenizer)
    readme = (
        f"{name}.tiktoken: a byte-level BPE trained in the Tokenizer Playground ({tokenizer.vocab_size:,} tokens).\n"
        f"{name}.pattern.txt: the pre-tokenization regex it was trained with (tiktoken needs it beside the ranks).\n\n"
        "import tiktoken\nfrom tiktoken.load import load_tiktoken_bpe\n"
        f'pattern = open("{name}.pattern.txt", encoding="utf-8").read()\n'
        f'enc = tiktoken.Encoding("{name}", pat_str=pattern, mergeable_ranks=load_tiktoken_bpe("{name}.tiktoken"), '
        "special_tokens={})\n"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{name}.tiktoken", ranks)
        zf.writestr(f"{name}.pattern.txt", tokenizer.pattern)
        zf.writestr("README.txt", readme)
    return buffer.getvalue()


def to_hf_json(result: BPEResult | BPETokenizer) -> str:
    """The trained tokenizer as a Hugging Face ``tokenizer.json`` string (``Tokenizer.from_str`` loads it).

    Byte mode: a BPE model in GPT-2's byte-to-unicode alphabet behind ``Split(pattern)`` and
    ``ByteLevel(use_regex=False)``; the pattern is rewritten where the library's regex engine would
    read it differently (``oniguruma_source``). Char mode: a BPE model with ``unk_token`` and
    ``end_of_word_suffix="</w>"`` behind ``WhitespaceSplit``, decoded by ``BPEDecoder``; only the
    glued layout (``w</w>``), which is the one that suffix means.
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    tokenizer = _tokenizer_of(result)
    if tokenizer.mode == "char" and tokenizer.end_of_word != "glued":
        raise ValueError(
            f"tokenizer.json has no separate {END_OF_WORD} symbol (its BPE glues the marker to the last "
            f"character): train with end_of_word='glued' to export character BPE"
        )
    if tokenizer.mode == "byte":
        symbols = [byte_level_piece(piece) for piece in tokenizer.vocab]
    else:
        symbols = [tokenizer.piece(i).decode() for i in range(tokenizer.vocab_size)]
    vocab = {s: i for s, i in _unique(symbols, "tokenizer.json").items()}
    merges = [(symbols[left], symbols[right]) for left, right in tokenizer.merges]
    if tokenizer.mode == "byte":
        try:
            split = pre_tokenizers.Split(oniguruma_pattern(tokenizer.pattern), behavior="isolated")
        except Exception as exc:  # tokenizers raises a bare Exception for Oniguruma's errors
            raise ValueError(f"tokenizers cannot use this tokenizer's pattern: {exc}") from None
        hf = Tokenizer(models.BPE(vocab=vocab, merges=merges))
        hf.pre_tokenizer = pre_tokenizers.Sequence(
            [split, pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
        )
        hf.decoder = decoders.ByteLevel()
    else:
        hf = Tokenizer(models.BPE(vocab=vocab, merges=merges, unk_token=UNK, end_of_word_suffix=END_OF_WORD))
        hf.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        hf.decoder = decoders.BPEDecoder(suffix=END_OF_WORD)
    return hf.to_str(pretty=True)


def oniguruma_source(pattern: str) -> str:
    """``pattern`` as the ``tokenizers`` library's regex engine (Oniguruma) must read it to cut alike.

    Subtle: in the ``regex`` package ``X{1,3}+`` is possessive; Oniguruma (Ruby syntax) reads it as
    ``(X{1,3})+``, a repetition of a repetition, so cl100k's ``\\p{N}{1,3}+`` would take a whole
    digit run as one chunk. Each bounded repetition followed by ``+`` becomes the atomic group
    ``(?>X{1,3})``, which means the same in both engines. ``?+``, ``*+`` and ``++`` are possessive in
    both and are left alone.

    >>> oniguruma_source(r"\\p{N}{1,3}+|\\s")
    '(?>\\\\p{N}{1,3})|\\\\s'
    """
    out: list[str] = []
    atom = 0  # where the last atom starts in ``out``
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            end = _escape_end(pattern, i)
            atom = len(out)
            out.append(pattern[i:end])
            i = end
        elif ch == "[":
            end = _class_end(pattern, i)
            atom = len(out)
            out.append(pattern[i:end])
            i = end
        elif ch == "(":
            out.append(ch)
            i += 1
        elif ch == ")":
            atom = _group_start(out)
            out.append(ch)
            i += 1
        elif ch == "{" and (match := _BOUNDED.match(pattern, i)):
            end = match.end()
            if end < n and pattern[end] == "+":
                out[atom:] = ["(?>", *out[atom:], match.group(), ")"]
                i = end + 1
            else:
                out.append(match.group())
                i = end
        else:
            if ch not in "?*+|":
                atom = len(out)
            out.append(ch)
            i += 1
    return "".join(out)


def oniguruma_pattern(pattern: str):
    """``tokenizers.Regex`` of ``oniguruma_source(pattern)``."""
    from tokenizers import Regex

    return Regex(oniguruma_source(pattern))


_BOUNDED = re.compile(r"\{(?:\d+(?:,\d*)?|,\d+)\}")


def _escape_end(pattern: str, i: int) -> int:
    """End of the escape at ``i``: ``\\p{L}``, ``\\x{263A}``, ``\\N{...}`` or one escaped character."""
    if i + 2 < len(pattern) and pattern[i + 1] in "pPxNu" and pattern[i + 2] == "{":
        close = pattern.find("}", i + 3)
        return len(pattern) if close < 0 else close + 1
    if i + 1 < len(pattern) and pattern[i + 1] in "pP":
        return min(i + 3, len(pattern))  # \pL
    return min(i + 2, len(pattern))


def _class_end(pattern: str, i: int) -> int:
    """End of the character class opening at ``i``: its first unescaped "]" (a leading one is literal)."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern):
        if pattern[j] == "\\":
            j = _escape_end(pattern, j)
        elif pattern[j] == "]":
            return j + 1
        else:
            j += 1
    return len(pattern)


def _group_start(out: list[str]) -> int:
    """Index in ``out`` of the "(" that the ")" about to be appended closes."""
    depth = 0
    for k in range(len(out) - 1, -1, -1):
        if out[k] == ")":
            depth += 1
        elif out[k].startswith("("):  # "(" or an atomic group "(?>" this function wrote
            if depth == 0:
                return k
            depth -= 1
    return 0


def to_json(result: BPEResult) -> str:
    """Save a training result (settings, merges, trace) as JSON; ``from_json`` reads it back."""
    tok = result.tokenizer
    return json.dumps(
        {
            "format": "tokenizer-playground/bpe",
            "version": 1,
            "name": tok.name,
            "mode": tok.mode,
            "pattern": tok.pattern,
            "alphabet": list(tok.alphabet),
            "end_of_word": tok.end_of_word,
            "merges": [list(m) for m in tok.merges],
            "tie_break": result.tie_break,
            "stop_reason": result.stop_reason,
            "initial_tokens": result.initial_tokens,
            "trace": [[s.count, s.n_tied, [list(t) for t in s.top], s.tokens_after] for s in result.trace],
        },
        ensure_ascii=False,
    )


def from_json(text: str) -> BPEResult:
    """Read a result saved by ``to_json``; the vocabulary is derived again from the merges.

    >>> from core.bpe import train
    >>> from_json(to_json(train("abab", num_merges=1))).tokenizer.encode_ids("ab")
    [256]
    """
    try:
        data = json.loads(text)
        if data.get("format") != "tokenizer-playground/bpe":
            raise KeyError("format")
        tok = BPETokenizer(
            merges=[tuple(m) for m in data["merges"]],
            mode=data["mode"],
            pattern=data["pattern"] or GPT2_PATTERN,
            alphabet=data["alphabet"],
            end_of_word=data.get("end_of_word", "glued"),  # files saved before the layouts were glued
            name=data["name"],
        )
        trace = tuple(
            MergeStep(
                rank, left, right, tok.base_size + rank, tok.piece(tok.base_size + rank),
                count, n_tied, tuple(tuple(t) for t in top), after,
            )
            for rank, ((left, right), (count, n_tied, top, after)) in enumerate(zip(tok.merges, data["trace"], strict=True))
        )
        reason = data["stop_reason"]
        return BPEResult(tok, trace, reason is not None, reason, data["tie_break"], data["initial_tokens"])
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise ValueError(f"this is not a saved BPE result ({exc})") from None


def _tokenizer_of(result: BPEResult | BPETokenizer) -> BPETokenizer:
    return result.tokenizer if isinstance(result, BPEResult) else result


def _unique(pieces: Sequence, target: str) -> dict:
    """``{piece: id}``, or a ValueError when two ids share a piece (the format needs them distinct)."""
    out: dict = {}
    for i, piece in enumerate(pieces):
        if piece in out:
            raise ValueError(f"ids {out[piece]} and {i} are the same piece {piece!r}; {target} needs them distinct")
        out[piece] = i
    return out
