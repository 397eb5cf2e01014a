"""Streamlit hashes every argument of an ``st.cache_data`` function on every call, element by element
in Python: a tuple of 250,000 spans took about 30 s, so a megabyte on the Pre-tokenization page froze
its run. A cached function's hashed arguments are therefore small: text (hashed as one string),
numbers, switches, or a frozen ``…Settings`` record; anything else is passed unhashed (``_name``) with
a small key beside it that names it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"str", "int", "bool", "float"}


def _cached_functions() -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for path in sorted((ROOT / "ui").rglob("*.py")) + sorted((ROOT / "pages").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.FunctionDef) and any(
                "cache_data" in ast.unparse(d) for d in node.decorator_list
            ):
                found.append((f"{path.relative_to(ROOT)}::{node.name}", node))
    return found


def _hashed_but_big(function: ast.FunctionDef) -> list[str]:
    params = function.args.posonlyargs + function.args.args + function.args.kwonlyargs
    return [
        f"{p.arg}: {ast.unparse(p.annotation) if p.annotation else '(no annotation)'}"
        for p in params
        if not p.arg.startswith("_")
        and not (p.annotation is not None and (ast.unparse(p.annotation) in SMALL
                                               or ast.unparse(p.annotation).endswith("Settings")))
    ]


def test_there_are_cached_functions_to_check() -> None:
    names = [name for name, _ in _cached_functions()]
    assert "ui/pretokenization/views.py::chunks_html" in names


def test_cached_functions_hash_only_small_arguments() -> None:
    offenders = {name: bad for name, function in _cached_functions() if (bad := _hashed_but_big(function))}
    assert offenders == {}
