"""Speed of the "Beyond fixed tokenizers" engines: the byte n-gram model and SuperBPE.

Run: ``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/beyond.py [--runs 5]``.
Prints medians over ``--runs`` runs (in one process) for:

- training ``core.beyond.byte_ngram`` on 1 MB (Tiny Shakespeare's first million bytes) at orders 3, 5 and 8,
  against the obvious reference: the same n-grams counted into ``collections.Counter`` dicts of
  ``bytes`` (counting only, no smoothing tables), and their ratio;
- the entropy of the next byte at every byte of a 10 kB text (held out), and cutting it into patches;
- plain BPE and SuperBPE (``core.beyond.superbpe``) to 4,000 tokens with the transition at 3,000 on the same
  text, and the held-out tokens of each. Without the data folder it falls back to the built-in
  samples (tiny) and says so.

Not a test: timings vary by machine.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_seconds  # noqa: E402
from core import bpe  # noqa: E402
from core.beyond import byte_ngram, patches, superbpe  # noqa: E402
from core.corpora import load_corpus, split_heldout  # noqa: E402
from core.fetch.sources import SourceUnavailable  # noqa: E402

MB = 1_000_000
QUERY_BYTES = 10_000



def dict_counts(data: bytes, order: int) -> list[Counter[bytes]]:
    """The reference: every n-gram of every order up to ``order``, counted into dicts of bytes."""
    return [Counter(data[i - k : i + 1] for i in range(k, len(data))) for k in range(order)]


def corpus() -> tuple[str, str]:
    try:
        return load_corpus("tinyshakespeare"), "Tiny Shakespeare"
    except SourceUnavailable:
        text = "\n".join(load_corpus(k) for k in ("sample_essay_en", "sample_mercado_es", "sample_python"))
        return text * (MB // len(text.encode()) + 1), "the built-in samples, repeated (no data folder)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    text, title = corpus()
    data = text.encode()
    train_data, query = data[:MB], data[MB : MB + QUERY_BYTES] or data[-QUERY_BYTES:]
    print(f"Byte n-gram model on {len(train_data):,} bytes of {title}; medians of {args.runs} runs")
    print(f"{'order':>5}  {'core.beyond.byte_ngram':>15}  {'dict reference':>14}  {'ratio':>6}  {'entropy 10 kB':>13}  {'+ patches':>9}")
    for order in (3, 5, 8):
        ours = median_seconds(lambda order=order: byte_ngram.train(train_data, order=order), args.runs)
        reference = median_seconds(lambda order=order: dict_counts(train_data, order), max(1, args.runs // 2))
        model = byte_ngram.train(train_data, order=order)
        entropy = median_seconds(lambda model=model: model.entropy(query), args.runs)
        q_text = query.decode("utf-8", "ignore")

        def patch(model: byte_ngram.ByteNgramModel = model, q_text: str = q_text) -> object:
            h = model.entropy(q_text.encode())
            return patches.patch_tokens(q_text, patches.cut(q_text, h, 3.0, whole_chars=True))

        whole = median_seconds(patch, args.runs)
        print(f"{order:>5}  {ours:>14.3f}s  {reference:>13.3f}s  {reference / ours:>5.0f}×  {entropy * 1000:>11.0f}ms"
              f"  {whole * 1000:>7.0f}ms")

    train, heldout = split_heldout(text[: MB], 0.1)
    print(f"\nSuperBPE on {len(train.encode()):,} bytes of {title}, vocabulary 4,000, transition 3,000")
    plain_s = median_seconds(lambda: bpe.train(train, vocab_size=4000), max(1, args.runs // 2))
    plain = bpe.train(train, vocab_size=4000)
    super_s = median_seconds(lambda: superbpe.train(train, vocab_size=4000, transition=3000, stage1=plain),
                             max(1, args.runs // 2))
    result = superbpe.train(train, vocab_size=4000, transition=3000, stage1=plain)
    plain_tokens = len(superbpe.plain_prefix(plain, result.vocab_size).tokenizer.encode_ids(heldout))
    super_tokens = len(result.tokenizer.encode_ids(heldout))
    print(f"plain BPE to 4,000: {plain_s:.2f}s; SuperBPE stage 2 on top of it: {super_s:.2f}s "
          f"({len(result.superwords()):,} superwords)")
    print(f"held-out tokens ({len(heldout.encode()):,} bytes): plain {plain_tokens:,}, SuperBPE {super_tokens:,} "
          f"({super_tokens / plain_tokens - 1:+.1%})")


if __name__ == "__main__":
    main()
