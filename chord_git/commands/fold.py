"""``git memory fold``: pending entries into MEMORY.md (R33), for the default branch and CI."""
from __future__ import annotations

from chord_git.memory import folding, pending
from chord_git.memory.project import Project
from chord_git.ui import Output


def fold(project: Project, out: Output, *, as_json: bool = False) -> int:
    found = pending.read_all(project.root)
    rel = project.relative(project.memory_md)
    for name, problem in found.problems:
        out.line(f"skipped {problem.at(name)}")
    branch = folding.side_branch(project)
    written = folding.fold_now(project) if found else None
    folded = list(written.folded) if written is not None else []
    removed = list(written.removed) if written is not None else []
    promoted = _take_promoted(project) if branch is None else {}
    if as_json:
        out.json({"folded": folded, "removed": removed, "skipped": [name for name, _ in found.problems],
                  "branch": branch, "promoted": [{"id": rid, "in": place} for rid, place in promoted.items()]})
        return 0
    for rid, place in promoted.items():
        out.line(f"took {rid} out of {rel}: its text stands in {place} (promoted by hand; the record stays)")
    if not folded and not removed:
        if not promoted:
            out.line("nothing to fold: no pending entries or removals")
        return 0
    done = []
    if folded:
        done.append(f"folded {len(folded)} pending entr{'y' if len(folded) == 1 else 'ies'} into {rel}")
    if removed:
        done.append(f"took {len(removed)} removed entr{'y' if len(removed) == 1 else 'ies'} out of {rel}")
    out.line(f"{'; '.join(done)}; their files under {pending.PENDING_DIR}/ were deleted")
    if branch is not None:
        out.line(f"note: {branch} is not the default branch; a fold here edits {rel}'s lines, "
                 "which other branches may edit too")
    return 0


def _take_promoted(project: Project) -> dict[str, str]:
    """Take the index lines of entries promoted by hand out of MEMORY.md (``review.promoted``);
    on the default branch only, where the fold edits the index. The records stay."""
    from chord_git.memory import index_file, store, view
    from chord_git.review import promoted

    found = promoted.read_standing(project.root)
    if not any(known.keys for known in found.values()):
        return {}
    snapshot = view.snapshot(project)
    taken = promoted.promoted(((entry.id, snapshot.facts(entry.id).texts or (entry.summary,))
                               for entry in snapshot.index.entries), found)
    if taken:
        with store.locked(project):
            folding.write(project, [index_file.IndexDelta(remove=frozenset(taken))], fold=True)
    return taken
