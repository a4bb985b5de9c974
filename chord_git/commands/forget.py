"""``git memory forget ID``: remove the index line; the record file becomes an orphan (R34)."""
from __future__ import annotations

from chord_git.commands.ids import resolve
from chord_git.errors import InputError
from chord_git.memory import pending, view
from chord_git.memory.project import Project
from chord_git.review import actions
from chord_git.ui import Output


def forget(project: Project, rid: str, out: Output) -> int:
    state = view.read_index(project)
    rel = project.relative(project.memory_md)
    if state.unusable_reason:
        raise InputError(rel, None, f"no index entry with id {rid}")
    # Any unique prefix of an id names the entry, as git takes abbreviated commits.
    rid = resolve(rid, [entry.id for entry in state.entries], noun="index entry", listing="git memory review list")
    written = actions.forget(project, rid)
    if written.dropped:  # R33: a pending entry is forgotten by deleting its file
        out.line(f"forgot {rid}: its pending entry file was deleted; the record file stays as an orphan")
    elif written.hidden:
        out.line(f"forgot {rid}: hidden from sessions now; {pending.PENDING_DIR}/{rid}.removed.md takes its line "
                 f"out of {rel} at the next fold on the default branch (so branches never conflict on it); "
                 "the record file stays as an orphan")
    else:
        out.line(f"forgot {rid}: its line left {rel}; the record file stays as an orphan")
    return 0
