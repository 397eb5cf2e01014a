"""Layering: core/ never imports Streamlit, plotly or ui/; no import circles; no tokenizer library until one loads.

The import graph is read from the source (every ``import`` and ``from … import``, those under
``TYPE_CHECKING`` included: a circle there is still two modules that each need the other).
"""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import core

ROOT = Path(__file__).resolve().parents[2]


def core_modules() -> list[str]:
    return ["core"] + [m.name for m in pkgutil.walk_packages(core.__path__, prefix="core.")]


def module_files(package: str) -> dict[str, Path]:
    """Every module of a top-level package (``core`` or ``ui``) with its file."""
    files = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    return files


def import_graph(packages: tuple[str, ...] = ("core", "ui")) -> dict[str, set[str]]:
    """module -> the project modules it imports (a ``from pkg import name`` counts ``pkg.name`` when that is a module)."""
    files = {name: path for package in packages for name, path in module_files(package).items()}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: resolve against this module's package
                    anchor = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                # ``from pkg import module`` needs the module (the package's __init__ runs first
                # anyway, as for any submodule); ``from pkg import name`` needs pkg itself.
                submodules = {f"{base}.{alias.name}" for alias in node.names} & files.keys()
                targets |= submodules or {base}
        graph[name] = {t for t in targets if t in files and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return stack[stack.index(target):] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


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
    assert {"core.pretrained", "core.fetch.sources", "core.types"} <= set(names)
    loaded = modules_after_importing(names)
    assert not {m for m in loaded if m.split(".")[0] in ("streamlit", "plotly")}


def test_the_registry_imports_no_tokenizer_library() -> None:
    loaded = modules_after_importing(["core.pretrained", "core.fetch.sources"])
    assert not {m for m in loaded if m.split(".")[0] in ("tiktoken", "sentencepiece", "tokenizers")}


def test_the_graph_sees_every_module_and_its_imports() -> None:
    graph = import_graph()
    assert {"core.bpe.model", "core.pretrained.registry", "core.fetch.sources", "ui.spans", "ui.bpe.views"} <= set(graph)
    assert "core.bpe.pair_counts" in graph["core.bpe.model"]
    assert "core.fetch.downloads" in graph["core.fetch.sources"]
    assert "ui.spans" in graph["ui.bpe.views"]


def test_find_cycle_reports_a_circle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_core_and_ui_have_no_import_circle() -> None:
    assert find_cycle(import_graph()) is None


def test_core_never_imports_ui() -> None:
    graph = import_graph()
    assert not {(m, t) for m, targets in graph.items() if m.startswith("core") for t in targets if t.startswith("ui")}
    for path in module_files("core").values():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not {n for n in names if n.split(".")[0] in ("ui", "streamlit", "plotly")}, path


def test_every_project_import_resolves() -> None:
    """Imports inside functions run late (a Retry button's): each one must name a real module and name."""
    import importlib

    sources = [p for folder in ("core", "ui", "pages", "playground", "bench") for p in (ROOT / folder).rglob("*.py")]
    broken = []
    for path in [*sources, ROOT / "app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] in ("core", "ui"):
                module = importlib.import_module(node.module)
                for alias in node.names:
                    if not hasattr(module, alias.name):
                        try:
                            importlib.import_module(f"{node.module}.{alias.name}")
                        except ImportError:
                            broken.append(f"{path.relative_to(ROOT)}:{node.lineno} from {node.module} import {alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in ("core", "ui"):
                        try:
                            importlib.import_module(alias.name)
                        except ImportError:
                            broken.append(f"{path.relative_to(ROOT)}:{node.lineno} import {alias.name}")
    assert not broken
