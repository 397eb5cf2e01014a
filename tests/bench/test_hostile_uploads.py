"""Issue 19's "Done when": every hostile file of ``bench/hostile_uploads.py`` is refused with one sentence
in under a second, the refusing process growing by under 100 MB of resident memory (native allocations
of the tokenizers library included, which tracemalloc does not see). One child process reads them all,
with RUST_BACKTRACE=1 in its environment as on a machine where it is set (it cost 1.2-1.6 s and 51 MB)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bench.hostile_uploads import ROOT, hostile_files

pytestmark = pytest.mark.timed

CHILD = """
import json, resource, sys, time
from pathlib import Path
import gguf, sentencepiece, tiktoken, tokenizers
from core.pretrained.uploaded import UploadRejected, read_upload
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
answers = []
for path in sorted(Path(sys.argv[1]).iterdir()):
    case, name = path.name.split("__", 1)
    began = time.perf_counter()
    try:
        read_upload(path.read_bytes(), name)
        outcome = "ACCEPTED"
    except UploadRejected as exc:
        outcome = str(exc)
    answers.append([case, name, time.perf_counter() - began, outcome])
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"answers": answers, "grown_kb": grown, "children_kb": children}))
"""


def test_every_hostile_file_is_refused_in_a_second_and_100_mb() -> None:
    files = hostile_files()
    with tempfile.TemporaryDirectory() as folder:
        for index, (name, data) in enumerate(files.values()):
            (Path(folder) / f"{index:02d}__{name}").write_bytes(data)
        done = subprocess.run([sys.executable, "-c", CHILD, folder], capture_output=True, text=True, timeout=120,
                              cwd=ROOT, env={**os.environ, "RUST_BACKTRACE": "1", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-1000:]
    result = json.loads(done.stdout)
    assert len(result["answers"]) == len(files)
    for case, name, seconds, outcome in result["answers"]:
        assert outcome.startswith(name) and "\n" not in outcome, (case, outcome)
        assert seconds < 1.0, (case, seconds)
    assert result["grown_kb"] < 100_000, result["grown_kb"]
    assert result["children_kb"] == 0  # no hostile file starts a worker
    assert "stack backtrace" not in done.stderr
