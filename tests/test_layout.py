"""The package's floor plan, read from its import statements (``ast``, nothing is imported).

Rooms are the folders of ``chord_git/`` and the modules at its root. Imports between rooms must
form no cycle, so every arrow runs one way; the root holds only entry points and cross-cutting
modules; and each external tool has one adapter module. ``secrets/`` has inner rooms of its own
(its top-level modules and folders) under the same rules, and a face (``__init__``) that only
hands names on.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "chord_git"
ENTRY_POINTS = {"main", "api"}
# config_trust decides which project config fields are honoured (config and the trust command).
# Helpers that know nothing of the product (lazy data classes and patterns, the YAML adapter) live
# in support/; the session summary lives in memory/.
CROSS_CUTTING = {"config", "config_trust", "errors", "findings", "ui"}
ROOT_LIMIT = 9  # modules at the root, __init__ included


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imported(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """(imported name, line) of every import statement, relative ones resolved."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:
                # ``from chord_git import config`` imports the module, not the package.
                yield (f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base), node.lineno


def _internal_arrows() -> set[tuple[str, str]]:
    return {(module, target) for module, path in MODULES.items()
            for target, _line in _imported(module, path) if target in MODULES and target != module}


def room(module: str) -> str:
    """``chord_git.memory.store`` -> ``memory``; a root module is a room of its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_no_import_cycles_between_modules() -> None:
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for source, target in _internal_arrows():
        graph[source].add(target)
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        pytest.fail(f"import cycle: {' -> '.join(exc.args[1])}")


def test_no_arrow_runs_back_up_between_rooms() -> None:
    """The room graph is acyclic: no folder reaches a root module that reaches back into it."""
    graph: dict[str, set[str]] = {}
    for source, target in _internal_arrows():
        if room(source) != room(target) and room(target) != "__init__":
            graph.setdefault(room(source), set()).add(room(target))
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        cycle = exc.args[1]
        witnesses = sorted(f"{s} -> {t}" for s, t in _internal_arrows()
                           if room(s) in cycle and room(t) in cycle and room(s) != room(t))
        pytest.fail(f"rooms import each other: {' -> '.join(cycle)}; arrows: {witnesses}")


def test_the_root_holds_only_entry_points_and_cross_cutting_modules() -> None:
    root_modules = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    assert root_modules == ENTRY_POINTS | CROSS_CUTTING
    assert len(list(PACKAGE.glob("*.py"))) <= ROOT_LIMIT
    # Entry points sit on top: no module imports them.
    importers = {source for source, target in _internal_arrows() if room(target) in ENTRY_POINTS}
    assert importers == set()


def test_support_imports_nothing_of_the_package() -> None:
    """support/ is the floor every room may stand on: it reaches no other module of ours."""
    arrows = {(source, target) for source, target in _internal_arrows()
              if room(source) == "support" and room(target) != "support"}
    assert arrows == set()


@pytest.mark.parametrize(("library", "adapter"), [
    ("pygit2", "chord_git.git.libgit2"),
    ("detect_secrets", "chord_git.secrets.layer2.detect"),
    ("openai", "chord_git.extraction.pool"),
    ("yaml", "chord_git.support.safe_yaml"),
    ("re2", "chord_git.secrets.verdicts.allow_patterns"),
    ("mcp", "chord_git.mcp.server"),
])
def test_one_adapter_module_per_external_tool(library: str, adapter: str) -> None:
    importers = {module for module, path in MODULES.items()
                 for target, _line in _imported(module, path) if target.split(".")[0] == library}
    assert importers == {adapter}


def test_dataclass_lazy_is_the_only_data_class_implementation() -> None:
    """No module imports the standard ``dataclasses`` but dataclass_lazy, and that one only inside
    the function that hands it foreign data classes: two implementations side by side would drift
    apart, and a top-level import would put ``dataclasses`` and ``inspect`` back on the hook's path."""
    lazy = "chord_git.support.dataclass_lazy"
    importers = {(module, line) for module, path in MODULES.items()
                 for target, line in _imported(module, path) if target.split(".")[0] == "dataclasses"}
    assert sorted(f"{module}:{line}" for module, line in importers if module != lazy) == []
    in_functions = {inner.lineno for node in ast.walk(ast.parse(MODULES[lazy].read_text("utf-8")))
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    for inner in ast.walk(node) if isinstance(inner, (ast.Import, ast.ImportFrom))}
    assert {line for module, line in importers if module == lazy} <= in_functions


SECRETS = "chord_git.secrets"
MAX_SECRETS_ROOMS = 6


def secrets_room(module: str) -> str:
    """``chord_git.secrets.scanners.prose`` -> ``scanners``; the face is ``__init__``."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else "__init__"


def _in_secrets(module: str) -> bool:
    return module == SECRETS or module.startswith(SECRETS + ".")


def test_secrets_has_at_most_six_rooms() -> None:
    rooms = {secrets_room(module) for module in MODULES if _in_secrets(module)} - {"__init__"}
    assert len(rooms) <= MAX_SECRETS_ROOMS, sorted(rooms)


def test_no_import_cycles_between_the_rooms_of_secrets() -> None:
    graph: dict[str, set[str]] = {}
    for source, target in _internal_arrows():
        if source != SECRETS and _in_secrets(source) and _in_secrets(target) \
                and secrets_room(source) != secrets_room(target):
            graph.setdefault(secrets_room(source), set()).add(secrets_room(target))
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        cycle = exc.args[1]
        witnesses = sorted(f"{s} -> {t}" for s, t in _internal_arrows()
                           if _in_secrets(s) and _in_secrets(t) and s != SECRETS
                           and secrets_room(s) in cycle and secrets_room(t) in cycle
                           and secrets_room(s) != secrets_room(t))
        pytest.fail(f"rooms of secrets/ import each other: {' -> '.join(cycle)}; arrows: {witnesses}")


def test_no_module_of_secrets_imports_the_face_or_a_package_above_it() -> None:
    """An inner module reaches what it needs in the module that defines it, never through
    ``chord_git.secrets`` or the ``__init__`` of a folder it sits in."""
    packages = {module for module, path in MODULES.items() if path.name == "__init__.py"}
    upward = sorted(f"{module}:{line} imports {target}" for module, path in MODULES.items() if _in_secrets(module)
                    for target, line in _imported(module, path)
                    if target in packages and module.startswith(target + "."))
    assert upward == []


def test_the_init_files_of_secrets_only_hand_names_on() -> None:
    """The face (and each room's ``__init__``) holds a docstring, imports and ``__all__``: no
    function, class or other statement, so no logic hides behind a package name."""
    logic = []
    for module, path in MODULES.items():
        if not _in_secrets(module) or path.name != "__init__.py":
            continue
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                continue  # the docstring
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]:
                continue
            logic.append(f"{module}:{node.lineno} {type(node).__name__}")
    assert logic == []


def test_only_the_git_room_runs_git() -> None:
    """Every ``git`` command line is written in ``chord_git/git/`` (its spawn keeps git's
    environment sanitized in one place): no other module holds an argument list starting with
    ``"git"``."""
    outside = sorted(f"{module}:{node.lineno}" for module, path in MODULES.items() if room(module) != "git"
                     for node in ast.walk(ast.parse(path.read_text("utf-8")))
                     if isinstance(node, (ast.List, ast.Tuple)) and node.elts
                     and isinstance(node.elts[0], ast.Constant) and node.elts[0].value == "git")
    assert outside == []


def test_only_the_entry_point_reaches_the_mcp_server() -> None:
    """The MCP server (and its optional SDK) hangs off ``main`` alone: no room the hooks load, nor
    any other, imports it."""
    importers = {source for source, target in _internal_arrows()
                 if room(target) == "mcp" and room(source) != "mcp"}
    assert importers == {"chord_git.main"}
