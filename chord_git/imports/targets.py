"""The export targets' writes (``git memory export``), named by ``registry.EXPORTS``; what they
write is rendered by ``export``. Nothing is staged; files outside the working tree are written
only with ``--write``, and an instruction file only with ``--write`` and only between the markers.
"""
from __future__ import annotations

import os
from pathlib import Path

from chord_git.errors import InputError, UsageError
from chord_git.imports import export
from chord_git.memory import paths, store
from chord_git.memory.project import Project
from chord_git.ui import Output


def _count(n: int) -> str:
    return f"{n} entr{'y' if n == 1 else 'ies'}"


def _entries(project: Project, out: Output) -> list[export.Exported]:
    items, excluded = export.entries(project)
    if excluded:
        out.warn(f"{_count(excluded)} left out: a secret in the entry or its record")
    return items


def as_json(project: Project, out: Output, write: str | None) -> int:
    items, excluded = export.entries(project)
    if excluded:
        out.warn(f"{_count(excluded)} left out: a secret in the entry or its record")
    if write is not None:
        raise UsageError("git memory export json prints to standard output; --write is for the file targets")
    out.json({"entries": [item.as_json() for item in items], "excluded": excluded})
    return 0


def _instruction_file(project: Project, name: str) -> Path:
    if name not in export.INSTRUCTION_FILES:
        raise UsageError(f"git memory export --write: expected one of {', '.join(export.INSTRUCTION_FILES)}")
    target = project.root / name
    why = paths.escape_reason(project.root, target)
    if why:
        raise InputError(name, None, f"{why}; refused")
    return target


def agents_md(project: Project, out: Output, write: str | None) -> int:
    """The marked block: printed, or with ``--write [FILE]`` (AGENTS.md by default) put in place of
    the file's block, or after its text; the user's lines are kept byte for byte."""
    items = _entries(project, out)
    block = export.agents_block(items)
    if write is None:
        out.write(block)
        return 0
    name = write or export.INSTRUCTION_FILES[0]
    path = _instruction_file(project, name)

    def change(current: bytes | None) -> bytes | None:
        old = (current or b"").decode("utf-8", "surrogateescape")
        new = export.with_block(old, block)
        return None if new == old else new.encode("utf-8", "surrogateescape")

    with store.locked(project):
        store.cas_rewrite(project, path, change)
    out.line(f"wrote {_count(len(items))} into the marked block of {name}; nothing was staged")
    return 0


def _claude_folder(project: Project) -> Path:
    from chord_git.imports.registry import Where
    from chord_git.imports.sources import claude_code

    return claude_code.stores(Where(project.root, Path.home(), dict(os.environ)))[0]


def claude(project: Project, out: Output, write: str | None) -> int:
    """Claude Code's auto-memory files for this project: listed, or written with ``--write``."""
    if write:
        raise UsageError("git memory export: --write takes no file name for Claude Code's memory folder")
    items = _entries(project, out)
    folder = _claude_folder(project)
    index = folder / export.CLAUDE_INDEX
    current = index.read_text("utf-8", "replace") if index.is_file() and not index.is_symlink() else ""
    files = export.claude_files(items, current)
    stale = export.stale_topics(folder, files)
    if write is None:
        for name in files:
            out.line(f"would write {folder / name}")
        for path in stale:
            out.line(f"would delete {path} (an earlier export's entry, no longer in the index)")
        out.note("run it again with --write to write them")
        return 0
    from chord_git.memory.atomic import replace_atomically

    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        if (folder / name).is_symlink():
            raise InputError(str(folder / name), None, "a symlink; refused")
        replace_atomically(folder / name, text.encode("utf-8"), folder, mode=0o600)
    for path in stale:
        path.unlink(missing_ok=True)
    out.line(f"wrote {_count(len(items))} to {folder}")
    return 0
