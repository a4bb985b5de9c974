"""``git memory import SOURCE [--path P] [--dry-run] [--json]``: an agent's own memory, for review.

Each item of the store passes the judge's refusals and both secret layers; what is left waits as a
pending import (state dir, never the working tree) until ``git memory review`` accepts, edits or
rejects it. Nothing is staged and no entry is written here.
"""
from __future__ import annotations

import os
from pathlib import Path

from chord_git.imports import judging
from chord_git.imports.registry import BUILTIN, Sources, Where
from chord_git.imports.run import DECIDED, IN_AGENTS_MD, IN_MEMORY, run_import
from chord_git.memory.project import Project
from chord_git.ui import Output

SKIPPED = {DECIDED: "decided before", IN_MEMORY: "already in memory", IN_AGENTS_MD: "already in AGENTS.md"}


def import_cmd(project: Project, out: Output, source_name: str, *, path: Path | None = None,
               dry_run: bool = False, as_json: bool = False, sources: Sources = BUILTIN) -> int:
    source = sources.get(source_name)
    where = Where(project.root, Path.home(), dict(os.environ))
    report = run_import(project, source, where, path=path.expanduser().absolute() if path else None,
                        dry_run=dry_run)
    if as_json:
        out.json(report.as_json())
        return 0
    for problem in report.problems:
        out.warn(f"{problem.file}: {problem.message}")
    out.line(f"{source.title}: {report.read} item(s) read from {', '.join(report.stores)}")
    verb = "would propose" if dry_run else "proposed"
    out.line(f"  {verb} {len(report.proposed)}")
    for item in report.proposed[:20]:
        out.line(f"    {item.id}  {item.text if len(item.text) <= 100 else item.text[:99] + '…'}")
    if len(report.proposed) > 20:
        out.line(f"    … and {len(report.proposed) - 20} more")
    if report.merged:
        out.line(f"  already pending {report.merged} (each kept once, with every place it was read)")
    for reason, count in report.skipped.items():
        out.line(f"  skipped {count}: {SKIPPED.get(reason, reason)}")
    for reason, count in sorted(report.dropped.items()):
        out.line(f"  dropped {count}: {reason} (it {judging.description(reason)})")
    if report.proposed and not dry_run:
        out.line("review them with git memory review (accept, edit or reject); nothing was staged")
    return 0
