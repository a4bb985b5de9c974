"""Codex's memories: one store for every project, ``$CODEX_HOME/memories_v2/`` (and the older
``memories/``), default ``~/.codex``; only what belongs to this project is read.

* ``rollout_summaries/*.md``: a summary of one session, whose header (``cwd: …``, written by Codex)
  names the project it ran in; read when that is this project or a folder inside it.
* ``memory_summary.md``: the consolidated summary every session is given; its sections of general
  preferences are read, its index of summaries (``What's in Memory``) is not.
* ``MEMORY.md`` (the older layout): ``# Task Group`` blocks, each read when its ``applies_to:
  cwd=…`` is this project; their lists of files and keywords are not read.
* ``extensions/ad_hoc/notes/*.md``: what the user asked Codex to remember.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from chord_git.imports import markdown, reading
from chord_git.imports.registry import Read, Where

SUMMARY = "memory_summary.md"
OLD_INDEX = "MEMORY.md"
ROLLOUTS = "rollout_summaries"
NOTES = ("extensions", "ad_hoc", "notes")
_INDEX_SECTION = re.compile(r"^##\s+what'?s in memory\s*$", re.IGNORECASE)
_SECTION = re.compile(r"^##\s")
_TASK_GROUP = re.compile(r"^#\s+task group\b", re.IGNORECASE)
_APPLIES = re.compile(r"^\s*applies_to:\s*cwd=([^;\n]+)", re.IGNORECASE | re.MULTILINE)
_LISTS = re.compile(r"^###\s+(rollout_summary_files|keywords)\s*$", re.IGNORECASE)
_HEADER = re.compile(r"^([a-z_]+):\s?(.*)$")


def codex_home(where: Where) -> Path:
    configured = where.env.get("CODEX_HOME")
    return Path(configured).expanduser() if configured else where.home / ".codex"


def stores(where: Where) -> list[Path]:
    home = codex_home(where)
    return [home / "memories_v2", home / "memories"]


def belongs(cwd: str, project: Path) -> bool:
    """A session's folder is the project or a folder inside it."""
    folder = cwd.strip().rstrip("/")
    root = str(project).rstrip("/")
    return folder == root or folder.startswith(root + "/")


def _blank(lines: list[str], keep: list[bool]) -> str:
    """The text with the lines not kept blanked, so items keep their line numbers."""
    return "\n".join(line if kept else "" for line, kept in zip(lines, keep))


def summary_items(text: str) -> list[markdown.Item]:
    lines = text.split("\n")
    keep, inside = [], False
    for line in lines:
        if _SECTION.match(line):
            inside = bool(_INDEX_SECTION.match(line))
        keep.append(not inside and line.strip() != "v1")
    return markdown.items(_blank(lines, keep))


def rollout_items(text: str, project: Path) -> list[markdown.Item]:
    lines = text.split("\n")
    header: dict[str, str] = {}
    end = 0
    for number, line in enumerate(lines):
        match = _HEADER.match(line)
        if not match:
            end = number
            break
        header[match.group(1)] = match.group(2)
    if not belongs(header.get("cwd", ""), project):
        return []
    return markdown.items(_blank(lines, [number >= end for number in range(len(lines))]))


def task_group_items(text: str, project: Path) -> list[markdown.Item]:
    lines = text.split("\n")
    keep: list[bool] = []
    group_ok = listing = False
    for number, line in enumerate(lines):
        if _TASK_GROUP.match(line):
            block_end = next((n for n in range(number + 1, len(lines)) if _TASK_GROUP.match(lines[n])), len(lines))
            applies = _APPLIES.search("\n".join(lines[number:block_end]))
            group_ok, listing = bool(applies and belongs(applies.group(1), project)), False
            keep.append(False)
            continue
        if line.startswith("###"):
            listing = bool(_LISTS.match(line))
        keep.append(group_ok and not listing and not _APPLIES.match(line) and not line.lower().startswith("scope:"))
    return markdown.items(_blank(lines, keep))


def read(root: Path, where: Where, problems: list[reading.Problem]) -> Iterator[Read]:
    project = where.project.resolve()
    files = reading.files(root, problems=problems)
    for file in files:
        parts = tuple(file.rel.split("/"))
        if parts == (SUMMARY,):
            reader = summary_items
        elif parts == (OLD_INDEX,):
            def reader(text: str) -> list[markdown.Item]:
                return task_group_items(text, project)
        elif len(parts) == 2 and parts[0] == ROLLOUTS:
            def reader(text: str) -> list[markdown.Item]:
                return rollout_items(text, project)
        elif parts[:3] == NOTES and len(parts) == 4:
            reader = markdown.items
        else:
            continue  # raw memories, skills, the consolidation's own files: not memory to import
        text = reading.read_text(file, problems)
        if text is not None:
            yield from (Read(file.rel, item) for item in reader(text))
