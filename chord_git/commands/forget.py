"""``git memory forget ID``: remove the index line; the record file becomes an orphan (R34)."""
from __future__ import annotations

from chord_git.errors import InputError
from chord_git.memory import index_file, store, view
from chord_git.memory.project import Project
from chord_git.ui import Output


def forget(project: Project, rid: str, out: Output) -> int:
    state = view.read_index(project)
    rel = project.relative(project.memory_md)
    if rid not in {entry.id for entry in state.entries}:
        raise InputError(rel, None, f"no index entry with id {rid}")
    store.apply_delta(project, index_file.IndexDelta(remove=frozenset({rid})))
    out.line(f"forgot {rid}: its line left {rel}; the record file stays as an orphan")
    return 0
