"""``git memory check``: index syntax, record schema and caps, and secrets in memory files."""
from __future__ import annotations

import os
from pathlib import Path

from chord_git import memory, validate
from chord_git.project import MEMORY_FILE, Project
from chord_git.report import emit
from chord_git.ui import Output
from chord_git.validate import Finding


def _memory_files(project: Project) -> list[Path]:
    files = [project.memory_md] if project.memory_md.exists() or project.memory_md.is_symlink() else []
    for folder in (project.records_dir, project.promotions_dir):
        if not folder.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames.sort()
            files.extend(Path(dirpath) / name for name in sorted(filenames))
            files.extend(Path(dirpath) / name for name in dirnames if (Path(dirpath) / name).is_symlink())
    return files


def _read_worktree(project: Project, path: Path) -> tuple[str, bytes | None, list[Finding]]:
    rel = project.relative(path)
    if path.is_symlink():
        return rel, None, [Finding(rel, None, "symlink", "memory file is a symlink; refused")]
    try:
        resolved = path.resolve()
        resolved.relative_to(project.root)
    except ValueError:
        return rel, None, [Finding(rel, None, "escape", "path resolves outside the project; refused")]
    if path.is_dir():
        return rel, None, [Finding(rel, None, "layout", "unexpected directory among memory files")]
    try:
        return rel, path.read_bytes(), []
    except OSError as exc:
        return rel, None, [Finding(rel, None, "io", f"cannot read: {exc.strerror}")]


def worktree_blobs(project: Project, paths: list[str] | None) -> tuple[list[tuple[str, bytes]], list[Finding]]:
    """(relative path, bytes) of the memory files to check, plus findings about unreadable ones."""
    if paths:
        candidates = []
        for raw in paths:
            path = Path(raw)
            path = path if path.is_absolute() else Path.cwd() / path
            rel = project.relative(Path(os.path.abspath(path)))
            if validate.memory_kind(rel) is not None and (path.exists() or path.is_symlink()):
                candidates.append(project.root / rel)
    else:
        candidates = _memory_files(project)
    blobs: list[tuple[str, bytes]] = []
    findings: list[Finding] = []
    for path in candidates:
        rel, data, problems = _read_worktree(project, path)
        findings.extend(problems)
        if data is not None:
            blobs.append((rel, data))
    return blobs, findings


def dangling_entries(project: Project) -> list[Finding]:
    """Index lines whose record file is missing: the entry points at nothing."""
    state = memory.read_index(project)
    present = set(memory.record_ids(project))
    rel = project.relative(project.memory_md)
    return [
        Finding(rel, entry.line, "dangling", f"index entry {entry.id} has no record file")
        for entry in state.entries
        if entry.id not in present
    ]


def check(project: Project, out: Output, *, paths: list[str] | None = None, fmt: str = "text") -> int:
    blobs, findings = worktree_blobs(project, paths)
    for rel, data in blobs:
        findings.extend(validate.check_blob(rel, data))
    if not paths or any(Path(p).name == MEMORY_FILE for p in paths):
        findings.extend(dangling_entries(project))
    findings = validate.sort_findings(findings)
    emit(out, findings, fmt, checked=len(blobs))
    return 1 if findings else 0
