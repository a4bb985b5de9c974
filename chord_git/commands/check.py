"""``git memory check``: index syntax, record schema and caps, and secrets in memory files.

Three inputs, one set of rules: the whole project (no arguments), the files pre-commit passes
(``PATHS``, whole content), and the staged blobs (``--staged``, the plain git hook: schema rules
on each staged file's full content, secrets on its added lines only).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.check import changes
from chord_git.check.report import emit
from chord_git.memory.project import MEMORY_FILE, Project
from chord_git.ui import Output

if TYPE_CHECKING:
    from chord_git.check.schema import Finding

# The schema modules (validate, index, records, memory) are imported where they are used: the
# hook's common case, a commit without memory files, then never loads them.

BASELINE_FILE = ".secrets.baseline"


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
    from chord_git.check.schema import Finding

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
            if changes.is_memory_path(rel) and (path.exists() or path.is_symlink()):
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
    from chord_git.check.schema import Finding
    from chord_git.memory import view

    state = view.read_index(project)
    present = set(view.record_ids(project))
    rel = project.relative(project.memory_md)
    return [
        Finding(rel, entry.line, "dangling", f"index entry {entry.id} has no record file")
        for entry in state.entries
        if entry.id not in present
    ]


def _schema(rel: str, data: bytes) -> list[Finding]:
    # A sub-project's memory file (``sub/MEMORY.md``) follows the rules of its own root.
    from chord_git.check import schema
    from chord_git.check.schema import Finding

    prefix, inner = changes.memory_split(rel) or ("", rel)
    return [Finding(prefix + f.path, f.line, f.kind, f.message, f.layer) for f in schema.check_blob(inner, data)]


def baseline_path(project: Project) -> Path | None:
    """The project's detect-secrets baseline, honoured by layer 2 when present."""
    path = project.root / BASELINE_FILE
    return path if path.is_file() else None


def uri_prefix(project: Project) -> str:
    """Where the project root sits in the repository: SARIF locations are repository-relative."""
    if project.repo is None or project.repo.workdir is None:
        return ""
    try:
        rel = project.root.relative_to(project.repo.workdir).as_posix()
    except ValueError:
        return ""
    return "" if rel == "." else rel + "/"


def check(project: Project, out: Output, *, paths: list[str] | None = None, fmt: str = "text",
          staged: bool = False) -> int:
    if staged:
        return check_staged(project, out, fmt=fmt)
    blobs, findings = worktree_blobs(project, paths)
    for rel, data in blobs:
        findings.extend(_schema(rel, data))
    findings.extend(changes.scan_secrets({rel: changes.text_lines(data) for rel, data in blobs},
                                         baseline=baseline_path(project)))
    if not paths or any(Path(p).name == MEMORY_FILE for p in paths):
        findings.extend(dangling_entries(project))
    from chord_git.check import schema

    findings = schema.sort_findings(findings)
    emit(out, findings, fmt, checked=len(blobs), uri_prefix=uri_prefix(project))
    return 1 if findings else 0


def check_staged(project: Project, out: Output, *, fmt: str = "text") -> int:
    """The pre-commit check on what the commit will contain, read from the index git means."""
    from chord_git.git import libgit2

    staged = libgit2.staged_changes(project.root, changes.is_memory_path)
    findings: list[Finding] = []
    added: dict[str, list[tuple[int, str]]] = {}
    for change in staged.files:
        findings.extend(changes.file_findings(change))
        findings.extend(changes.schema_findings(change))
        findings.extend(changes.staged_dangling(change, staged.contains))
        lines = changes.secret_input(change)
        if lines:
            added[change.path] = lines
    findings.extend(changes.scan_secrets(added, baseline=baseline_path(project)))
    if findings:
        from chord_git.check import schema

        findings = schema.sort_findings(findings)
    emit(out, findings, fmt, checked=len(staged.files), noun="staged memory file")
    return 1 if findings else 0
