"""Requirement numbers (``R26``, ``R14–R16``) are for developers: no text a user reads carries one.

User-facing: every command's ``--help`` (what ``git memory help CMD`` prints), the man page, the
README, ``docs/``, the pre-commit and action definitions, and every string the package can print
(its string literals, docstrings and comments aside: those are read by developers, as are tests).
CHANGELOG.md is exempt: it records what changed, and its old entries cite requirements.
"""
from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from chord_git.commands.help import subcommands
from chord_git.main import build_parser
from tests.conftest import REPO_ROOT

REQUIREMENT = re.compile(r"\bR[0-9]+\b")
USER_FILES = ["README.md", "man/git-memory.1", ".pre-commit-hooks.yaml", "action.yml",
              *sorted(str(p.relative_to(REPO_ROOT)) for p in (REPO_ROOT / "docs").rglob("*.md"))]


def _hits(text: str) -> list[str]:
    return [f"{number}: {line.strip()}" for number, line in enumerate(text.splitlines(), start=1)
            if REQUIREMENT.search(line)]


def _parsers(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield " ".join(("git memory", *words)), parser
    for name, child in subcommands(parser).items():
        yield from _parsers(child, (*words, name))


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)):
            found.add(id(body[0].value))
    return found


def _package_strings() -> Iterator[tuple[str, str]]:
    for path in sorted((REPO_ROOT / "chord_git").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                yield f"{path.relative_to(REPO_ROOT)}:{node.lineno}", node.value


def test_the_pattern_finds_what_it_must() -> None:
    assert _hits("shown (R26) here\nR14–R16\nfine") == ["1: shown (R26) here", "2: R14–R16"]
    assert _hits("FOR123 ARM64 r26 R2D2 R-5") == []


@pytest.mark.parametrize("name", USER_FILES)
def test_no_requirement_numbers_in_user_documents(name: str) -> None:
    path = REPO_ROOT / name
    assert path.is_file(), name
    assert _hits(path.read_text("utf-8")) == []


def test_no_requirement_numbers_in_any_commands_help() -> None:
    found = {name: _hits(parser.format_help()) for name, parser in _parsers(build_parser())}
    assert len(found) > 20  # every command and subcommand was reached
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_no_requirement_numbers_in_messages_the_package_prints() -> None:
    strings = list(_package_strings())
    assert len(strings) > 1000
    assert [f"{where}: {text[:80]}" for where, text in strings if REQUIREMENT.search(text)] == []
