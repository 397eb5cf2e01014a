"""Reading a GGUF vocabulary: our bounds-checked reader against the gguf package's GGUFReader.

Run (from the repository root): ``.venv/bin/python bench/gguf_read.py [--tokens 150000] [--runs 3]``

It writes, with gguf.GGUFWriter, a byte-level vocabulary of ``--tokens`` tokens (token types, scores
and as many merges) into a temporary folder, then prints the median time of reading its metadata
with ``core.pretrained.gguf_metadata.read_metadata`` and with ``gguf.GGUFReader`` (every field's
contents, as the playground used it), and their ratio. With PLAYGROUND_DATA_DIR it also times a
whole upload (read + rebuild) of DeepSeek V3's real vocabulary (128,818 tokens, 127,741 merges)
written as a GGUF. The machine's load is printed beside the times.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_seconds  # noqa: E402
from core.pretrained.adapter import BYTE_TO_UNICODE  # noqa: E402
from core.pretrained.gguf_metadata import read_metadata  # noqa: E402


def write_vocabulary(path: Path, size: int) -> None:
    import gguf

    alphabet = list(BYTE_TO_UNICODE)
    tokens = alphabet + [f"{alphabet[i % 256]}{alphabet[i // 256 % 256]}{'é' * (i % 5)}{i}" for i in range(size - 256)]
    writer = gguf.GGUFWriter(str(path), arch="llama")
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("qwen2")
    writer.add_token_list(tokens)
    writer.add_token_types([1] * size)
    writer.add_token_scores([-float(i) for i in range(size)])
    writer.add_token_merges([f"{tokens[i % 256]} {tokens[i + 256]}" for i in range(size - 256)])
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def library_read(path: Path) -> dict:
    from gguf import GGUFReader

    reader = GGUFReader(str(path))
    return {key: field.contents() for key, field in reader.fields.items()}


def deepseek_upload(folder: Path) -> float | None:
    """Seconds to upload DeepSeek V3's vocabulary as a GGUF (read + rebuild), or None without the data."""
    import gguf

    from core.pretrained.uploaded import read_upload

    source = Path(os.environ.get("PLAYGROUND_DATA_DIR", "")) / "tokenizers" / "deepseek_v3_tokenizer.json"
    if not source.is_file():
        return None
    document = json.loads(source.read_text(encoding="utf-8"))
    by_id = {i: token for token, i in document["model"]["vocab"].items()}
    by_id.update({t["id"]: t["content"] for t in document["added_tokens"]})
    tokens = [by_id.get(i, f"[PAD{i}]") for i in range(max(by_id) + 1)]
    writer = gguf.GGUFWriter(str(folder / "ds.gguf"), arch="llama")
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("deepseek-v3")
    writer.add_token_list(tokens)
    writer.add_token_types([1] * len(tokens))
    writer.add_token_merges(document["model"]["merges"])
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    data = (folder / "ds.gguf").read_bytes()
    print(f"DeepSeek V3 GGUF: {len(data) / 1e6:.1f} MB")
    return median_seconds(lambda: read_upload(data, "deepseek-v3.gguf"), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=150_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-gguf-") as folder:
        path = Path(folder) / "vocab.gguf"
        write_vocabulary(path, args.tokens)
        data = path.read_bytes()
        print(f"vocabulary: {args.tokens:,} tokens, types, scores, {args.tokens - 256:,} merges; "
              f"{len(data) / 1e6:.1f} MB; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        ours = median_seconds(lambda: read_metadata(data), args.runs)
        print(f"read_metadata (ours):   {ours:8.3f} s  (median of {args.runs})")
        theirs = median_seconds(lambda: library_read(path), args.runs)
        print(f"gguf.GGUFReader:        {theirs:8.3f} s  (median of {args.runs})")
        print(f"ratio: ours is {theirs / ours:,.0f}x faster")
        upload = deepseek_upload(Path(folder))
        if upload is not None:
            print(f"read_upload of DeepSeek V3's GGUF (read + rebuild): {upload:.2f} s (median of 3)")
        print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
