"""Moving an index line (R28): line order is injection priority, and the user decides it.

The move is expressed against an anchor chosen when the user asked ("put X right above Y"), not as
"one step up", so applying it again to a version a concurrent writer left gives the same result:
``store.cas_rewrite`` may re-apply the change, and the change must be idempotent.
"""
from __future__ import annotations

from chord_git.support.dataclass_lazy import replace
from chord_git.errors import InputError
from chord_git.memory import index_file, store, view
from chord_git.memory.project import Project


def place(doc: index_file.MemoryDoc, rid: str, side: str, anchor: str | None) -> index_file.MemoryDoc:
    """``doc`` with entry ``rid`` placed ``side`` ("before"/"after") ``anchor``, or first when
    ``anchor`` is None. Unchanged when either entry is no longer listed (pure, idempotent)."""
    lines = list(doc.lines)
    at = next((i for i, line in enumerate(lines) if isinstance(line, index_file.Entry) and line.id == rid), None)
    if at is None:
        return doc
    moving = lines.pop(at)
    if anchor is None:
        spot = next((i for i, line in enumerate(lines) if isinstance(line, index_file.Entry)), len(lines))
    else:
        found = next((i for i, line in enumerate(lines) if isinstance(line, index_file.Entry) and line.id == anchor), None)
        if found is None:
            return doc
        spot = found if side == "before" else found + 1
    lines.insert(spot, moving)
    return replace(doc, lines=tuple(lines))


def plan_move(ids: list[str], rid: str, where: str) -> tuple[str, str | None] | None:
    """(side, anchor) for a move asked on this order, or None when the entry is already there."""
    at = ids.index(rid)
    if where == "top":
        return None if at == 0 else ("before", None)
    if where == "up":
        return None if at == 0 else ("before", ids[at - 1])
    if where == "down":
        return None if at == len(ids) - 1 else ("after", ids[at + 1])
    raise ValueError(f"unknown move {where!r}")


def move(project: Project, rid: str, where: str) -> bool:
    """Move an entry's line; False when it already is at the top/bottom. Working tree only."""
    state = view.read_index(project)
    rel = project.relative(project.memory_md)
    if state.exists and not state.usable:
        raise state.unusable_error()
    if rid in state.pending:
        raise InputError(rel, None, f"entry {rid} is pending (new on this branch): it takes its place in "
                                    f"{rel} when folded (git memory fold), and can be moved then")
    ids = [entry.id for entry in state.entries if entry.id not in state.pending]  # lines of the file only
    if rid not in ids:
        raise InputError(rel, None, f"no index entry with id {rid}")
    planned = plan_move(ids, rid, where)
    if planned is None:
        return False
    side, anchor = planned

    def change(current: bytes | None) -> bytes | None:
        if current is None:
            return None
        doc = index_file.parse_for_write(current, rel)
        moved = place(doc, rid, side, anchor)
        return None if moved == doc else index_file.encode(index_file.render(moved), moved.bom)

    with store.locked(project):
        before = project.memory_md.read_bytes()
        after = store.cas_rewrite(project, project.memory_md, change)
    return after != before
