"""Type hints everywhere is a house rule: ``mypy --strict`` runs as its own step of ``./dev test``
(and so of ``.ci/run``); these checks are the part of the rule that needs no type checker."""
from __future__ import annotations

import ast

from tests.conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "chord_git"


def test_the_package_ships_its_type_information() -> None:
    assert (PACKAGE / "py.typed").is_file()


def test_every_module_defers_annotations() -> None:
    """``from __future__ import annotations`` in every module with code (``__init__`` docstrings aside)."""
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        body = [node for node in tree.body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
        if body and not any(isinstance(node, ast.ImportFrom) and node.module == "__future__"
                            and any(alias.name == "annotations" for alias in node.names) for node in tree.body):
            missing.append(str(path.relative_to(REPO_ROOT)))
    assert missing == []

