"""Cursor's project rules: ``.cursor/rules/**/*.mdc`` (front matter: description, globs,
alwaysApply; the body is the rule) and the older single ``.cursorrules`` file."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from chord_git.imports.reading import Problem
from chord_git.imports.registry import Read, Where
from chord_git.imports.sources.markdown_store import read_markdown


def stores(where: Where) -> list[Path]:
    return [where.project / ".cursor" / "rules", where.project / ".cursorrules"]


def read(root: Path, where: Where, problems: list[Problem]) -> Iterator[Read]:
    return read_markdown(root, problems, suffixes=(".mdc", ".md"))
