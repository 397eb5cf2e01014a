"""How long the Unicode, Pre-tokenization and Pitfalls pages take on 1 MB of multilingual text.

Run: ``PLAYGROUND_DATA_DIR=../shared/data .venv/bin/python bench/text_pages.py [--runs 3]``.
Each line is the median over ``--runs`` of our code, the reference it builds on, and their ratio:
- ``graphemes``: ``core.text.unicode_info.grapheme_starts`` vs a plain ``regex`` ``\\X`` finditer;
- ``odd chars``: ``core.text.odd_chars.flagged_chars`` (no reference: it is one pass over distinct characters);
- ``NFKC view``: ``core.text.normalization.form_view`` (sizes of all, pieces of 3,000 clusters) vs
  ``unicodedata.normalize`` of the whole text;
- ``GPT-2 cut``: ``core.text.pretokenize.split`` (spans that cover the text) vs ``regex.findall``;
- ``glitch scan``: counting GPT-2's ids over the reference corpus through our adapter vs tiktoken's
  own ``encode_ordinary`` (data folder needed), then the vocabulary scan itself.
Not a test: timings vary by machine; compare the ratios.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import regex  # noqa: E402

from bench.timing import median_seconds  # noqa: E402
from core.pitfalls import glitch, vocab  # noqa: E402
from core.pretrained import TokenizerUnavailable, load  # noqa: E402
from core.text import normalization, odd_chars, pretokenize, unicode_info  # noqa: E402
from core.text.patterns import GPT2_PATTERN  # noqa: E402

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "samples" / "playground_default.txt"



def line(name: str, ours: float, reference: float | None = None) -> None:
    ratio = f"{ours / reference:6.2f}×" if reference else "       "
    ref = f"{reference:8.3f} s" if reference is not None else "          "
    print(f"{name:<14} ours {ours:8.3f} s   reference {ref}   ratio {ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    base = SAMPLE.read_text(encoding="utf-8") + "\n"
    text = (base * (1_000_000 // len(base) + 1))[:1_000_000]
    print(f"1,000,000 code points ({len(text.encode()):,} bytes) of the Playground's multilingual sample; "
          f"median of {runs} runs")
    line("graphemes", median_seconds(lambda: unicode_info.grapheme_starts(text), runs),
         median_seconds(lambda: [m.start() for m in regex.finditer(r"\X", text)], runs))
    line("odd chars", median_seconds(lambda: odd_chars.flagged_chars(text), runs))
    line("NFKC view", median_seconds(lambda: normalization.form_view(text, "NFKC"), runs),
         median_seconds(lambda: unicodedata.normalize("NFKC", text), runs))
    line("GPT-2 cut", median_seconds(lambda: pretokenize.split(text, GPT2_PATTERN), runs),
         median_seconds(lambda: regex.findall(GPT2_PATTERN, text), runs))
    try:
        tokenizer = load("gpt2")
    except TokenizerUnavailable as exc:
        print(f"glitch scan    skipped: {exc.reason}")
        return
    reference = glitch.reference_corpus()
    table = vocab.token_bytes(tokenizer)
    size = max(table) + 1
    print(f"reference corpus: {reference.describe()}")
    import tiktoken

    enc = tiktoken.Encoding("bench-gpt2", pat_str=tokenizer.pattern, mergeable_ranks=dict(tokenizer.mergeable_ranks),
                            special_tokens={})
    line("glitch count", median_seconds(lambda: glitch.count_ids(tokenizer, reference.texts, size=size), 1),
         median_seconds(lambda: [enc.encode_ordinary(t) for t in reference.texts], 1))
    counts = glitch.count_ids(tokenizer, reference.texts, size=size)
    line("glitch scan", median_seconds(lambda: glitch.scan(table, counts), runs))


if __name__ == "__main__":
    main()
