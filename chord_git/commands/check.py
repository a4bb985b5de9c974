"""``git memory check``: index syntax, record schema and caps, and secrets in memory files.

The whole project (no arguments), the files pre-commit passes (``PATHS``), or the staged blobs
(``--staged``, the plain git hook); ``check.driver`` holds the rules for all three.
"""
from __future__ import annotations

from pathlib import Path

from chord_git.check import driver
from chord_git.check.report import emit
from chord_git.memory.project import Project
from chord_git.ui import Output


def check(project: Project, out: Output, *, paths: list[str] | None = None, fmt: str = "text",
          staged: bool = False, output: Path | None = None, quiet: bool = False) -> int:
    if staged:
        result = driver.staged(project)
        prefix = ""  # staged paths are repository-relative already
    else:
        progress = out.progress if not quiet and out.on_terminal() else None
        result = driver.worktree(project, paths, progress=progress)
        prefix = driver.uri_prefix(project)
    emit(out, list(result.findings), fmt, checked=result.count, noun=result.noun, uri_prefix=prefix,
         output=output)
    return 1 if result.findings else 0
