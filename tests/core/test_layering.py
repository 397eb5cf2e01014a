"""core/ never imports Streamlit or plotly, and imports no tokenizer library until one is loaded."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import core

ROOT = Path(__file__).resolve().parents[2]


def core_modules() -> list[str]:
    return ["core"] + [f"core.{m.name}" for m in pkgutil.iter_modules(core.__path__)]


def modules_after_importing(names: list[str]) -> set[str]:
    script = (
        "import importlib, json, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return set(json.loads(result.stdout))


def test_core_imports_neither_streamlit_nor_plotly() -> None:
    names = core_modules()
    assert {"core.pretrained", "core.sources", "core.types"} <= set(names)
    loaded = modules_after_importing(names)
    assert not {m for m in loaded if m.split(".")[0] in ("streamlit", "plotly")}


def test_the_registry_imports_no_tokenizer_library() -> None:
    loaded = modules_after_importing(["core.pretrained", "core.sources"])
    assert not {m for m in loaded if m.split(".")[0] in ("tiktoken", "sentencepiece", "tokenizers")}
