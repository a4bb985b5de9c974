"""Windsurf's rules: the project's ``.windsurf/rules/*.md``, the older ``.windsurfrules``, and the
global rules file in ``~/.codeium/windsurf/memories/``. The memories Windsurf generates itself are
not kept as text files, so they are not read."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from chord_git.imports.reading import Problem
from chord_git.imports.registry import Read, Where
from chord_git.imports.sources.markdown_store import read_markdown


def stores(where: Where) -> list[Path]:
    return [where.project / ".windsurf" / "rules", where.project / ".windsurfrules",
            where.home / ".codeium" / "windsurf" / "memories" / "global_rules.md"]


def read(root: Path, where: Where, problems: list[Problem]) -> Iterator[Read]:
    return read_markdown(root, problems)
