"""Index writes that know about pending entries (R33): fold them on the default branch, write new
ones on any other.

Every automatic change to the index goes through ``write``. On the default branch (or when the
caller folds explicitly) the pending entries go into MEMORY.md first, where the readers showed them,
and their files are deleted once MEMORY.md holds them; then the run's own change is applied as
today. On a side branch MEMORY.md is left alone for what a run adds: each new entry and each
revision becomes a pending file, so two branches never edit the same lines. Removals (retirement,
promotion, ``forget``) of a pending entry delete its file; of an entry in MEMORY.md, its line on the
default branch, and on a side branch a pending removal file (readers hide the entry, the fold
deletes the line): two branches that forget or retire neighbouring lines then never conflict.
"""
from __future__ import annotations

from collections.abc import Sequence

from chord_git.support.dataclass_lazy import dataclass
from chord_git.git import branches
from chord_git.memory import index_file, paths, pending, store, view
from chord_git.memory.project import Project


@dataclass(frozen=True)
class Written:
    state: view.IndexState  # the index as readers see it now, pending entries included
    changed: bool
    pended: tuple[str, ...] = ()  # ids written as pending entries
    folded: tuple[str, ...] = ()  # pending ids now in MEMORY.md
    dropped: tuple[str, ...] = ()  # pending files deleted by a removal or a revision
    hidden: tuple[str, ...] = ()  # entries a new pending removal file hides until the fold
    removed: tuple[str, ...] = ()  # pending removals the fold carried out (their files deleted)


def side_branch(project: Project) -> str | None:
    """The branch name when new memory must wait in pending files (``branches.pending_branch``:
    a side branch, and memory shared through git rather than private to this clone)."""
    return branches.pending_branch(project.repo, project.memory_md)


def write(project: Project, deltas: Sequence[index_file.IndexDelta], *, read: store.IndexRead | None = None,
          fold: bool | None = None, ensure_markers: bool = False) -> Written:
    """Apply ``deltas`` in order; ``fold`` None decides by the branch. The caller holds the lock."""
    if read is None:
        with store.read_index_locked(project) as fresh:
            return write(project, deltas, read=fresh, fold=fold, ensure_markers=ensure_markers)
    found = pending.read_all(project.root)
    folding = fold if fold is not None else side_branch(project) is None
    rel = read.state.rel
    if folding:
        listed = read.state.doc.ids() if read.state.doc is not None else []
        todo = [d for d in (pending.fold_delta(found.items, listed, found.hidden()), *deltas) if not d.is_empty()]
        if not todo and not ensure_markers:
            return Written(view.overlaid(project, read.state, found), False)
        if found and read.state.exists and not read.state.usable:
            raise read.state.unusable_error()
        result = store.write_index(project, todo, read=read, ensure_markers=ensure_markers)
        # Only once MEMORY.md holds them: a failed write leaves every pending file in place.
        gone = _remove(project, [item.id for item in found.items])
        carried = _remove(project, [item.id for item in found.removals], suffix=".removed.md")
        return Written(result.state(rel), result.changed or bool(gone) or bool(carried), folded=tuple(gone),
                       removed=tuple(carried))
    # fold None reached here: a side branch. fold=False (forget, review) asks the branch.
    defer = fold is None or side_branch(project) is not None
    return _pend(project, deltas, read, found, defer)


def _pend(project: Project, deltas: Sequence[index_file.IndexDelta], read: store.IndexRead,
          found: pending.PendingSet, defer: bool) -> Written:
    waiting = {item.id: item for item in found.items}
    at = pending.timestamp()
    new: list[pending.Pending] = []
    drop: set[str] = set()
    remove_lines: set[str] = set()
    for delta in deltas:
        for rid in delta.remove:
            (drop if rid in waiting else remove_lines).add(rid)
        # As ``index_file.apply`` places them: revisions first, then new entries in reply order.
        for old, entry in delta.replace.items():
            earlier = waiting.get(old)
            replaces = earlier.replaces if earlier is not None else old
            if earlier is not None:
                drop.add(old)
            new.append(pending.Pending(entry, at, len(new), replaces))
        for entry in delta.insert:
            new.append(pending.Pending(entry, at, len(new)))
    pended: list[str] = []
    for item in new:
        if item.id in drop or item.id in waiting:
            continue
        target = pending.pending_dir(project.root) / f"{item.id}.md"
        if store.create_exclusive(project, target, pending.render(item).encode("utf-8")):
            pended.append(item.id)
    dropped = _remove(project, sorted(drop))
    state = read.state
    changed = bool(pended or dropped)
    if remove_lines and not defer:
        result = store.write_index(project, [index_file.IndexDelta(remove=frozenset(remove_lines))], read=read)
        state, changed = result.state(read.state.rel), changed or result.changed
        remove_lines = set()
    # On a side branch a line MEMORY.md lists stays until the fold; a removal file hides it meanwhile.
    listed = set(read.state.doc.ids()) if read.state.doc is not None else set()
    hidden: list[str] = []
    for rid in sorted(remove_lines & listed - found.hidden()):
        removal = pending.Removal(rid)
        target = pending.pending_dir(project.root) / removal.file_name()
        if store.create_exclusive(project, target, pending.render_removal(removal).encode("utf-8")):
            hidden.append(rid)
    return Written(view.overlaid(project, state), changed or bool(hidden), pended=tuple(pended),
                   dropped=tuple(dropped), hidden=tuple(hidden))


def _remove(project: Project, ids: Sequence[str], suffix: str = ".md") -> list[str]:
    """Delete the pending files (``suffix`` ".removed.md": the removal files) of ``ids``; returns
    those that were there."""
    gone: list[str] = []
    for rid in ids:
        target = pending.pending_dir(project.root) / f"{rid}{suffix}"
        paths.require_inside(project.root, target)
        try:
            target.unlink()
        except FileNotFoundError:
            continue
        gone.append(rid)
    return gone


def apply_delta(project: Project, delta: index_file.IndexDelta, *, fold: bool | None = None,
                timeout: float = store.LOCK_TIMEOUT) -> Written:
    """Take the lock and apply one delta (``write``)."""
    with store.locked(project, timeout):
        return write(project, [delta], fold=fold)


def fold_now(project: Project, timeout: float = store.LOCK_TIMEOUT) -> Written:
    """``git memory fold``: put every pending entry into MEMORY.md, wherever it runs."""
    with store.locked(project, timeout):
        return write(project, [], fold=True)


__all__ = ["Written", "apply_delta", "fold_now", "side_branch", "write"]
