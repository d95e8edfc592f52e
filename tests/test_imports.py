"""No import cycle among the project's modules, whether the import is at module level or in a function.

The graph joins two readings: the source's import statements (in functions too, so lazy imports
count), and the imports that really happen when every module is imported in a fresh interpreter
(so an `importlib.import_module` registry counts). Imports under `if TYPE_CHECKING:` never run and
are left out.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "tables", "cogs", "renderers")
SCRIPTS = ("bot.py", "logs.py", "settings.py")

Graph = Mapping[str, frozenset[str]]


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every project module by dotted name (a package by its own name)."""
    found = {Path(script).stem: root / script for script in SCRIPTS}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def import_graph(files: Mapping[str, Path]) -> dict[str, frozenset[str]]:
    """Each module's edges to the project modules it imports (and their packages, which run first)."""
    graph = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for imported in _imports(ast.parse(path.read_text(encoding="utf-8")), name, is_package):
            parts = imported.split(".")
            for end in range(1, len(parts) + 1):
                target = ".".join(parts[:end])
                # Its own packages are already being imported when a module runs.
                if target in files and target != name and not name.startswith(target + "."):
                    targets.add(target)
        graph[name] = frozenset(targets)
    return graph


_RECORDER = """
import builtins, importlib, json, sys
project = set(json.loads(sys.argv[1]))
edges = set()
plain_import, plain_import_module = builtins.__import__, importlib.import_module

def importer():
    frame = sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__") not in project:
        frame = frame.f_back
    return None if frame is None else frame.f_globals["__name__"]

def note(name, source):
    parts = name.split(".")
    for end in range(1, len(parts) + 1):
        target = ".".join(parts[:end])
        if source and target in project and target != source and not source.startswith(target + "."):
            edges.add((source, target))

def recorded_import(name, globals=None, locals=None, fromlist=(), level=0):
    module = plain_import(name, globals, locals, fromlist, level)
    source = importer()
    base = module.__name__ if level else name
    note(base, source)
    for item in fromlist or ():
        note(f"{base}.{item}", source)
    return module

def recorded_import_module(name, package=None):
    module = plain_import_module(name, package)
    note(module.__name__, importer())
    return module

builtins.__import__, importlib.import_module = recorded_import, recorded_import_module
for name in sorted(project):
    if name != "bot":
        plain_import_module(name)
print(json.dumps(sorted(edges)))
"""


def runtime_edges(files: Mapping[str, Path], root: Path = ROOT) -> set[tuple[str, str]]:
    """The (importer, imported) pairs seen while every module is imported in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", _RECORDER, json.dumps(sorted(files))],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return {(source, target) for source, target in json.loads(done.stdout)}


def joined(graph: Graph, edges: Iterable[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """The graph with extra edges added."""
    merged = {name: set(targets) for name, targets in graph.items()}
    for source, target in edges:
        merged.setdefault(source, set()).add(target)
    return {name: frozenset(targets) for name, targets in merged.items()}


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (each a cycle or several), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def _imports(tree: ast.Module, module: str, is_package: bool) -> Iterable[str]:
    """The dotted names a module's code imports, relative imports resolved, TYPE_CHECKING blocks skipped."""
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def _runtime_nodes(tree: ast.AST) -> Iterable[ast.AST]:
    """Every node that can run, leaving out the bodies of `if TYPE_CHECKING:`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from (inner for part in node.orelse for inner in [part, *_runtime_nodes(part)])
            continue
        yield node
        yield from _runtime_nodes(node)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def test_the_project_has_no_import_cycle() -> None:
    files = module_files()
    found = cycles(joined(import_graph(files), runtime_edges(files)))
    assert not found, "modules that import each other (directly or round a loop): " + "; ".join(
        " <-> ".join(group) for group in found
    )


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    for script in SCRIPTS:
        (tmp_path / script).write_text("")
    (tmp_path / "tables" / "a.py").write_text("from tables import b\n")
    (tmp_path / "tables" / "b.py").write_text("def late():\n    from . import a\n")
    (tmp_path / "tables" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tables import a\nimport tables.b\n"
    )
    graph = import_graph(module_files(tmp_path))
    assert cycles(graph) == [["tables.a", "tables.b"]]
    assert graph["tables.c"] == frozenset({"tables.b"})


def test_a_registry_cycle_is_found_at_run_time(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    for script in SCRIPTS:
        (tmp_path / script).write_text("")
    (tmp_path / "cogs" / "__init__.py").write_text(
        "import importlib\nGAMES = [importlib.import_module(f'{__name__}.game')]\n"
    )
    (tmp_path / "cogs" / "game.py").write_text("def play():\n    from tables import lobby\n")
    (tmp_path / "tables" / "lobby.py").write_text("import cogs\n")
    files = module_files(tmp_path)
    assert cycles(import_graph(files)) == []
    graph = joined(import_graph(files), runtime_edges(files, tmp_path))
    assert cycles(graph) == [["cogs", "cogs.game", "tables.lobby"]]
