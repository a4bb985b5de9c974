"""``git memory init``: MEMORY.md with markers (or markers added) and the memory folders."""
from __future__ import annotations

from chord_git.memory import index_file, store
from chord_git.memory.project import Project
from chord_git.ui import Output


def init(project: Project, out: Output) -> int:
    existed = project.memory_md.exists()
    for folder in (project.records_dir, project.promotions_dir):
        folder.mkdir(parents=True, exist_ok=True)
    result = store.apply_delta(project, index_file.IndexDelta(), ensure_markers=True)
    rel = project.relative(project.memory_md)
    if not existed:
        out.line(f"created {rel} with a managed section")
    elif result.changed:
        out.line(f"added the managed section markers at the end of {rel}")
    else:
        out.line(f"{rel} already has a managed section")
    out.line(f"memory folders: {project.relative(project.records_dir)}/, {project.relative(project.promotions_dir)}/")
    out.line("nothing was staged; memory files are ordinary working-tree changes")
    return 0
