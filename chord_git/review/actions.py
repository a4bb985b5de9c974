"""What a review decision changes: working-tree files only, never the git index (R30, R34, R37).

Accepting a promotion is the one place the tool writes AGENTS.md or docs, and only because the
user asked for that one suggestion. The target is checked again at accept time: promotion files
are ordinary project files, and one arriving through a pull request must not be able to point
``accept`` at ``.git/hooks`` or outside the project.
"""
from __future__ import annotations

import difflib
import time
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import InputError
from chord_git.findings import Problem
from chord_git.memory import decisions, folding, index_file, promotions, records, store, view
from chord_git.memory.project import Project

PRUNE_GRACE_SECONDS = 60.0  # a record this new may belong to an extraction still writing its index line


@dataclass(frozen=True)
class Accepted:
    promotion: promotions.PromotionFile
    target: str  # project-relative
    created: bool  # the target file did not exist before
    changed: bool  # False when the text was already there (a repeated accept)
    diff: str
    entry_removed: bool


def _promotion(project: Project, pid: str) -> tuple[Path, promotions.PromotionFile | None, list[str]]:
    path = promotions.safe_promotion_path(project.promotions_dir, pid)
    if not path.is_file():
        raise InputError(project.relative(project.promotions_dir), None, f"no pending promotion {pid}")
    parsed, problems = promotions.read(path)
    return path, parsed, [p.message if p.line is None else f"line {p.line}: {p.message}" for p in problems]


def appended(current: bytes | None, text: str) -> bytes | None:
    """``current`` with ``text`` appended as its own paragraph; None when the text is already there.

    Keeps the file's bytes (and CRLF line endings) as they are; idempotent for ``cas_rewrite``.
    """
    old = "" if current is None else current.decode("utf-8", "surrogateescape")
    if text.strip() and text.strip() in old.replace("\r\n", "\n"):
        return None
    newline = "\r\n" if "\r\n" in old else "\n"
    if old and not old.endswith("\n"):
        old += newline
    if old.strip() and not old.endswith(newline * 2):
        old += newline
    body = text.strip("\n").replace("\r\n", "\n").replace("\n", newline) + newline
    return (old + body).encode("utf-8", "surrogateescape")


def _diff(rel: str, before: bytes | None, after: bytes | None) -> str:
    old = [] if before is None else before.decode("utf-8", "replace").splitlines(keepends=True)
    new = [] if after is None else after.decode("utf-8", "replace").splitlines(keepends=True)
    lines = difflib.unified_diff(old, new, "/dev/null" if before is None else f"a/{rel}", f"b/{rel}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _listed(project: Project, rid: str) -> bool:
    return rid in {entry.id for entry in view.read_index(project).entries}


def accept(project: Project, pid: str) -> Accepted:
    """Append the proposed text to its target, then drop the entry's line and the promotion file."""
    path, parsed, problems = _promotion(project, pid)
    rel_file = project.relative(path)
    if parsed is None:
        raise InputError(rel_file, None, f"cannot accept: {problems[0] if problems else 'unreadable'}")
    from chord_git.secrets import find

    if find(parsed.text):
        raise InputError(rel_file, None, "cannot accept: the proposed text holds a secret; edit or reject it")
    target = promotions.resolve_target(project.root, parsed.path)
    with store.locked(project):
        before = target.read_bytes() if target.is_file() else None
        target.parent.mkdir(parents=True, exist_ok=True)
        promotions.resolve_target(project.root, parsed.path)  # the folders now exist: check again
        after = store.cas_rewrite(project, target, lambda current: appended(current, parsed.text))
    entry_removed = False
    if parsed.entry and _listed(project, parsed.entry):
        folding.apply_delta(project, index_file.IndexDelta(remove=frozenset({parsed.entry})), fold=False)
        entry_removed = True
    decisions.write(project, decisions.promotion("accepted", parsed.id, parsed.entry, parsed.path, parsed.text))
    path.unlink()
    return Accepted(promotion=parsed, target=parsed.path, created=before is None, changed=after != before,
                    diff=_diff(parsed.path, before, after), entry_removed=entry_removed)


def reject(project: Project, pid: str) -> promotions.PromotionFile | None:
    """Delete the promotion file. An entry that left the index for it stays out (R29)."""
    path, parsed, _problems = _promotion(project, pid)
    if parsed is not None:  # the decision sticks: the same suggestion is not made again
        decisions.write(project, decisions.promotion("rejected", parsed.id, parsed.entry, parsed.path, parsed.text))
    path.unlink()
    return parsed


def forget(project: Project, rid: str) -> folding.Written:
    """Remove an entry's index line; its record file becomes an orphan (R25, R34). A pending entry
    loses its file; on a side branch a line MEMORY.md lists gets a removal file (R33)."""
    entries = view.read_index(project).entries
    if rid not in {entry.id for entry in entries}:
        raise InputError(project.relative(project.memory_md), None, f"no index entry with id {rid}")
    summary = next((e.summary for e in entries if e.id == rid), "")
    # The decision sticks: a later extraction does not write this conclusion again (unless the
    # user says it again in that session).
    decisions.write(project, decisions.forgotten(view.load_record(project, rid), rid, [summary]))
    return folding.apply_delta(project, index_file.IndexDelta(remove=frozenset({rid})), fold=False)


def record_text(project: Project, rid: str) -> tuple[Path, str]:
    path = records.safe_record_path(project.records_dir, rid)
    data = records.read_file(path)
    if isinstance(data, Problem):
        message = "no such record file" if not path.exists() else data.message
        raise InputError(project.relative(path), None, message)
    return path, data.decode("utf-8", "replace")


def _promoted_entries(project: Project) -> set[str]:
    out = set()
    for path in view.promotion_files(project):
        parsed, _ = promotions.read(path)
        if parsed is not None and parsed.entry:
            out.add(parsed.entry)
    return out


def prune_orphans(project: Project, ids: list[str] | None = None, *,
                  grace_seconds: float = PRUNE_GRACE_SECONDS) -> tuple[list[str], list[tuple[str, str]]]:
    """Delete orphan record files: the ones named, or every orphan (R34). (deleted, skipped with why).

    Without ids, records written in the last ``grace_seconds`` and records a pending promotion
    points to are kept: the first may be an extraction's new record whose index line is a moment
    away, the second is the source of a suggestion still waiting for review.
    """
    deleted: list[str] = []
    skipped: list[tuple[str, str]] = []
    with store.locked(project):
        state = view.read_index(project)
        if state.exists and not state.usable:
            raise InputError(project.relative(project.memory_md), None,
                             "managed section unusable: cannot tell which records are orphans")
        orphans = view.orphan_ids(project, state)
        listed = {entry.id for entry in state.entries}
        pending = _promoted_entries(project) if not ids else set()
        now = time.time()
        for rid in ids or orphans:
            if rid in listed:
                skipped.append((rid, "listed in the index; forget it first"))
                continue
            if rid not in orphans:
                skipped.append((rid, "no such record file"))
                continue
            try:
                path = records.safe_record_path(project.records_dir, rid)
            except InputError as exc:
                skipped.append((rid, exc.message))
                continue
            if not ids and rid in pending:
                skipped.append((rid, "a pending promotion points to it"))
                continue
            if not ids and now - path.stat().st_mtime < grace_seconds:
                skipped.append((rid, "written moments ago; an extraction may still be linking it"))
                continue
            path.unlink()
            deleted.append(rid)
    return deleted, skipped
