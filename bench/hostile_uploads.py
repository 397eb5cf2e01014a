"""Hostile tokenizer uploads: how long a refusal takes and how much memory it costs (issue 19).

Run (from the repository root): ``.venv/bin/python bench/hostile_uploads.py [--timeout 30]``

Every file is built here, in memory: the review's cases of issue 19 (items 1, 2, 4 and 13) and a
few of their cousins, each a few bytes to a few MB. Each one goes through ``read_upload`` exactly as
the app calls it (sandboxed), in a fresh child process that has already imported what
``read_upload`` imports, so the numbers are the upload's own: the wall time of the call and how
far the child's peak resident memory grew during it (``ru_maxrss``, native allocations of the
tokenizers library included, which ``tracemalloc`` does not see), plus the peak of any worker
process it started. Every file must be refused with one sentence in under ``--seconds`` (1 s) and
``--megabytes`` (100 MB); the script exits 1 otherwise. A child still running after ``--timeout``
is killed and counted as a failure. The machine's load is printed beside the times. The child inherits
this environment (RUST_BACKTRACE included) as the server would.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.browser_common import load_average  # noqa: E402

CHILD = """
import resource, sys, time
from pathlib import Path
import gguf, sentencepiece, tiktoken, tokenizers  # read_upload's imports: not the upload's cost
from core.pretrained.uploaded import UploadRejected, read_upload
data = Path(sys.argv[1]).read_bytes()
name = sys.argv[2]
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
began = time.perf_counter()
try:
    read_upload(data, name)
    outcome = "ACCEPTED"
except UploadRejected as exc:
    outcome = str(exc)
seconds = time.perf_counter() - began
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"{seconds:.4f} {grown} {children}")
print(outcome)
"""


def tiktoken_file(extra: dict[bytes, int]) -> bytes:
    """The 256 single bytes (ranks 0-255) and ``extra``: a .tiktoken file of about 2 KB."""
    ranks = {bytes([b]): b for b in range(256)} | extra
    return "\n".join(f"{base64.b64encode(t).decode()} {r}" for t, r in ranks.items()).encode()


def tekken(n_special: int, *, pattern: str = r"\S+|\s+", ranks: dict[int, int] | None = None) -> bytes:
    """A Tekken JSON of the 256 single bytes (their ranks from ``ranks``, else the byte) declaring
    ``n_special`` special tokens."""
    entries = [{"rank": (ranks or {}).get(b, b), "token_bytes": base64.b64encode(bytes([b])).decode()}
               for b in range(256)]
    config = {"pattern": pattern, "num_vocab_tokens": 256, "default_vocab_size": 256 + n_special,
              "default_num_special_tokens": n_special}
    return json.dumps({"config": config, "vocab": entries}).encode()


def hf_json(*, pre_tokenizer: dict | None = None, normalizer: dict | None = None, vocab: dict[str, int] | None = None,
            added: list[dict] | tuple = (), post: dict | None = None) -> bytes:
    """A WordLevel tokenizer.json with the given parts."""
    return json.dumps({
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": list(added),
        "normalizer": normalizer, "pre_tokenizer": pre_tokenizer, "post_processor": post, "decoder": None,
        "model": {"type": "WordLevel", "vocab": vocab or {"[UNK]": 0, "a": 1, "b": 2}, "unk_token": "[UNK]"},
    }).encode()


def added(token_id: int) -> dict:
    return {"id": token_id, "content": "<x>", "single_word": False, "lstrip": False, "rstrip": False,
            "normalized": False, "special": True}


def gguf_header(kv_count: int) -> bytes:
    return b"GGUF" + struct.pack("<IQQ", 3, 0, kv_count)


def gguf_key(name: str, kind: int) -> bytes:
    return struct.pack("<Q", len(name)) + name.encode() + struct.pack("<I", kind)


def gguf_string(raw: bytes) -> bytes:
    return struct.pack("<Q", len(raw)) + raw


STRING, ARRAY, FLOAT32 = 8, 9, 6


def hostile_files() -> dict[str, tuple[str, bytes]]:
    """Name of the case -> (file name, bytes)."""
    template = {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<x>", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}}], "pair": [{"Sequence": {"id": "A", "type_id": 0}}],
                "special_tokens": {"<x>": {"id": "<x>", "ids": [2_000_000_000], "tokens": ["<x>"]}}}
    return {
        "tiktoken: one rank of 100,000,000": ("big.tiktoken", tiktoken_file({b"ab": 100_000_000})),
        "tiktoken: a rank of 2^31": ("big.tiktoken", tiktoken_file({b"ab": 2**31})),
        "tiktoken: a rank above 2^63": ("big.tiktoken", tiktoken_file({b"ab": 2**63 + 5})),
        "tekken: 400,000 special tokens": ("tekken.json", tekken(400_000)),
        "tekken: 2,000,000 special tokens": ("tekken.json", tekken(2_000_000)),
        "tekken: a rank of 100,000,000": ("tekken.json", tekken(0, ranks={255: 100_000_000})),
        "tekken: an invalid pattern": ("tekken.json", tekken(0, pattern="(?<bad")),
        "tokenizer.json: a vocabulary id of 100,000,000": ("tokenizer.json", hf_json(vocab={"[UNK]": 0, "a": 100_000_000})),
        "tokenizer.json: an added token id of 2^31": ("tokenizer.json", hf_json(added=[added(2**31)])),
        "tokenizer.json: a post-processor id of 2e9": ("tokenizer.json", hf_json(post=template)),
        "tokenizer.json: a charsmap the library cannot parse": (
            "tokenizer.json", hf_json(normalizer={"type": "Precompiled", "precompiled_charsmap":
                                                  base64.b64encode(struct.pack("<I", 2**31) + b"\x00" * 16).decode()})),
        "GGUF: 186 bytes claiming 2^40 strings": (
            "hostile.gguf", gguf_header(2) + gguf_key("tokenizer.ggml.model", STRING) + gguf_string(b"llama")
            + gguf_key("tokenizer.ggml.tokens", ARRAY) + struct.pack("<IQ", STRING, 2**40) + gguf_string(b"a") * 8),
        "SentencePiece .model: protobuf-like garbage": ("sp.model", b"\x0a\xff\xff\xff\xff\x0f" + bytes(range(256)) * 4),
        "GGUF: 2^40 floats": ("hostile.gguf", gguf_header(1) + gguf_key("tokenizer.ggml.scores", ARRAY)
                              + struct.pack("<IQ", FLOAT32, 2**40) + bytes(64)),
        "GGUF: 2^63 key/value pairs": ("hostile.gguf", gguf_header(2**63) + bytes(100)),
        "GGUF: 2,000,000 empty tokens (16 MB)": (
            "hostile.gguf", gguf_header(1) + gguf_key("tokenizer.ggml.tokens", ARRAY)
            + struct.pack("<IQ", STRING, 2_000_000) + bytes(16_000_000)),
    }


def measure(path: Path, name: str, timeout: float) -> tuple[float, float, float, str]:
    """(seconds, MB the child's peak grew, MB peak of its own children, outcome) of one upload."""
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(path), name], capture_output=True, text=True,
                              timeout=timeout, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    except subprocess.TimeoutExpired:
        return float("inf"), float("nan"), float("nan"), f"still running after {timeout:.0f} s (killed)"
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) < 2:
        return float("nan"), float("nan"), float("nan"), f"child failed ({done.returncode}): {done.stderr[-300:]}"
    seconds, grown_kb, children_kb = lines[0].split()
    return float(seconds), int(grown_kb) / 1024, int(children_kb) / 1024, lines[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="target: refused within this many seconds")
    parser.add_argument("--megabytes", type=float, default=100.0, help="target: peak memory growth in MB")
    parser.add_argument("--timeout", type=float, default=30.0, help="kill a child after this many seconds")
    args = parser.parse_args()
    print(f"load average before: {load_average()}")
    print(f"{'case':52} {'bytes':>10} {'seconds':>8} {'MB':>7} {'worker MB':>9}  refusal")
    failures = 0
    worst_s = worst_mb = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for case, (name, data) in hostile_files().items():
            path = Path(folder) / name
            path.write_bytes(data)
            seconds, grown, children, outcome = measure(path, name, args.timeout)
            ok = (seconds < args.seconds and grown < args.megabytes and children < args.megabytes
                  and outcome.startswith(name) and "\n" not in outcome)
            failures += not ok
            worst_s, worst_mb = max(worst_s, seconds), max(worst_mb, grown, children)
            print(f"{case:52} {len(data):>10,} {seconds:>8.3f} {grown:>7.1f} {children:>9.1f}  "
                  f"{'' if ok else 'FAIL '}{outcome[:110]}")
    print(f"load average after: {load_average()}")
    print(f"worst: {worst_s:.3f} s, {worst_mb:.1f} MB (targets: under {args.seconds:g} s and {args.megabytes:g} MB); "
          f"{failures} of {len(hostile_files())} missed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
