"""A Cline-style memory bank: the project's `memory-bank/*.md` (project brief, product and tech context, progress)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from chord_git.imports.reading import Problem
from chord_git.imports.registry import Read, Where
from chord_git.imports.sources.markdown_store import read_markdown


def stores(where: Where) -> list[Path]:
    return [where.project / "memory-bank"]


def read(root: Path, where: Where, problems: list[Problem]) -> Iterator[Read]:
    return read_markdown(root, problems)
