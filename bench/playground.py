"""How long the Playground takes per tokenizer on 10 KB, 100 KB and 1 MB of multilingual text.

Run: ``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/playground.py [--runs 3]``.
For every registry tokenizer that can be loaded here it prints the median over ``--runs`` of:
- ``library``: the wrapped library's own encode, ids only (``tokenizer.count``: the reference);
- ``encode``: our adapter, ``list[Token]`` with bytes and code-point offsets;
- ``ratio``: encode / library, what the offsets and Token objects cost on top of the library;
- ``outline``: every id and the kinds from the library alone (``outline``, how a long text is counted),
  and its ratio to ``library``;
- ``page``: what the Playground does with the text (``ui.cache.compute_analysis``: counts, the round
  trip and the tokens it draws first: all of them up to 30,000 characters, the first ones after);
- ``render``: building the span HTML the page draws (the first 5,000 tokens, as the page caps it);
- ``counts``: the counts table's numbers for the whole text, from the tokens.
Not a test: timings vary by machine; compare the ratios.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_seconds, sample_text  # noqa: E402
from core.measures.metrics import text_counts  # noqa: E402
from core.pretrained import TokenizerUnavailable, load, registry  # noqa: E402
from ui.cache import compute_analysis  # noqa: E402
from ui.spans import DEFAULT_LIMIT, render_spans  # noqa: E402

SIZES = (10_000, 100_000, 1_000_000)




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    texts = {size: sample_text(size) for size in SIZES}
    print(f"{'tokenizer':<16}{'size':>9}{'tokens':>10}{'library s':>11}{'encode s':>10}"
          f"{'ratio':>7}{'outline s':>11}{'ratio':>7}{'page s':>9}{'render s':>10}{'counts s':>10}")
    for key in registry():
        try:
            tokenizer = load(key)
        except TokenizerUnavailable as exc:
            print(f"{key:<16} unavailable: {exc.reason}")
            continue
        for size, text in texts.items():
            library = median_seconds(lambda t=text, z=tokenizer: z.count(t), args.runs)
            encode = median_seconds(lambda t=text, z=tokenizer: z.encode(t), args.runs)
            outline = median_seconds(lambda t=text, z=tokenizer: z.outline(t), args.runs)
            page = median_seconds(lambda t=text, z=tokenizer, k=key: compute_analysis(k, z, t, False), args.runs)
            tokens = tokenizer.encode(text)
            render = median_seconds(lambda t=text, k=tokens: render_spans(t, k, limit=DEFAULT_LIMIT), args.runs)
            counts = median_seconds(lambda t=text, k=tokens: text_counts(t, k), args.runs)
            print(f"{key:<16}{size // 1000:>7}KB{len(tokens):>10,}{library:>11.3f}{encode:>10.3f}"
                  f"{encode / library:>7.2f}{outline:>11.3f}{outline / library:>7.2f}{page:>9.3f}"
                  f"{render:>10.3f}{counts:>10.3f}")


if __name__ == "__main__":
    main()
