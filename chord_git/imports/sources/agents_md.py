"""Instruction files written by hand: their bullet points, as suggestions only.

These files are instructions every session of their host reads already; an item is proposed only
to reach the hosts that do not read that file. Only bullet points are items: an instruction
file's paragraphs are prose around the rules. ``git memory export agents-md`` writes its block as
bullets, so a block exported and pasted here reads back as the entries it came from.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from chord_git.imports import markdown
from chord_git.imports.reading import Problem
from chord_git.imports.registry import Read, Where
from chord_git.imports.sources.markdown_store import read_markdown

FILES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md", "QWEN.md", ".github/copilot-instructions.md")


def stores(where: Where) -> list[Path]:
    return [where.project / name for name in FILES]


def bullets(rel: str, text: str) -> list[markdown.Item]:
    front = markdown.front_matter(text)
    lines = front.body.split("\n")
    return [item for item in markdown.items(front.body, front.body_line)
            if markdown.is_bullet(lines[item.line - front.body_line])]


def read(root: Path, where: Where, problems: list[Problem]) -> Iterator[Read]:
    return read_markdown(root, problems, file_items=bullets)
