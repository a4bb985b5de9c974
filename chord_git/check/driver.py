"""One driver for ``check`` and ``scan``: every input becomes ``FileChange`` objects, every change
goes through the same rules (``check.changes``), and one baseline lookup serves them all.

Three inputs:

* the working tree (``worktree``): the project's memory files, or the ``PATHS`` pre-commit
  passes; every line of a file counts as added, and format rules read the whole file;
* the staged blobs (``staged``, the plain git hook): format rules on each staged file's full
  content, secrets on its added lines only, dangling entries against the staged tree;
* a commit range or the whole history (``history``, CI): secrets on the lines each commit added,
  reported at the commit that introduced them.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.check import changes
from chord_git.errors import RepoError
from chord_git.findings import Finding, Problem, sort_findings
from chord_git.git.changes import FileChange
from chord_git.memory import paths as memory_paths
from chord_git.memory.project import Project

if TYPE_CHECKING:  # the secrets package loads only when there are lines to scan
    from chord_git.secrets.ignore import IgnoreList

BASELINE_FILE = ".secrets.baseline"
# Shorter runs end before a progress bar would tell anything.
PROGRESS_MIN_FILES = 100
PROGRESS_MIN_COMMITS = 200
CHUNK = 50  # files per call into the secret layers while a bar is shown

Step = Callable[[int], None]
Progress = Callable[[str, int], AbstractContextManager[Step]]  # (label, total) -> bar yielding advance(n)


def _no_step(_steps: int) -> None:
    pass
_REGULAR = 0o100644


@dataclass(frozen=True)
class Checked:
    """What one run found, and how many of what it looked at (for the text report)."""

    findings: tuple[Finding, ...]
    count: int
    noun: str


def baseline(root: Path | None) -> Path | None:
    """The detect-secrets baseline of the tree whose paths the findings name, when it has one."""
    if root is None:
        return None
    path = root / BASELINE_FILE
    return path if path.is_file() else None


def ignore_list(root: Path | None) -> IgnoreList:
    """The ``.chord/secrets-ignore`` entries of the tree whose paths the findings name.

    A malformed file is an ``InputError`` (exit 2): an entry silently dropped would turn an
    accepted finding back into a failure, and one read wrongly could hide another.
    """
    from chord_git.secrets import ignore

    return ignore.IgnoreList() if root is None else ignore.load(root)


def apply_rules(files: Iterable[FileChange], *, root: Path | None, schema: bool = True,
                contains: Callable[[str], bool] | None = None, noun: str = "record file",
                commit: str | None = None, ignore: IgnoreList | None = None) -> list[Finding]:
    """Every rule on every change, sorted: the file itself, its format (``schema``), entries
    whose record is missing from the tree ``contains`` describes, and secrets on its added lines
    (less those ``ignore`` lists; None reads the ignore file under ``root``)."""
    findings: list[Finding] = []
    added: dict[str, tuple[tuple[int, str], ...]] = {}
    for change in files:
        findings.extend(changes.file_findings(change))
        if schema:
            findings.extend(changes.schema_findings(change))
        if contains is not None:
            findings.extend(changes.dangling(change, contains, noun))
        lines = changes.secret_input(change)
        if lines:
            added[change.path] = lines
    if any(added.values()):
        from chord_git import secrets

        found = secrets.scan_added_lines(added, baseline=baseline(root), commit=commit,
                                         ignore=ignore_list(root) if ignore is None else ignore)
        # A config refused for a secret the secret layers report too: their finding says more.
        places = {(finding.path, finding.line) for finding in found}
        findings = [f for f in findings if f.kind != "config" or (f.path, f.line) not in places] + found
    if commit is not None:
        findings = [replace(finding, commit=commit) for finding in findings]
    return sort_findings(findings)


# ---------------------------------------------------------------------------- the working tree
def _memory_files(project: Project) -> list[Path]:
    """The memory files and the project config (scanned for secrets and read as the loader does)."""
    files = [path for path in (project.memory_md, project.root / changes.CONFIG_FILE)
             if path.exists() or path.is_symlink()]
    for folder in (project.records_dir, project.promotions_dir):
        if memory_paths.escape_reason(project.root, folder):
            files.append(folder)  # reported by _worktree_change; never walked
            continue
        if not folder.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames.sort()
            files.extend(Path(dirpath) / name for name in sorted(filenames))
            files.extend(Path(dirpath) / name for name in dirnames if (Path(dirpath) / name).is_symlink())
    return files


def _given_files(project: Project, paths: list[str]) -> list[Path]:
    candidates = []
    for raw in paths:
        path = Path(raw)
        path = path if path.is_absolute() else Path.cwd() / path
        rel = project.relative(Path(os.path.abspath(path)))
        if changes.is_checked_path(rel) and (path.exists() or path.is_symlink()):
            candidates.append(project.root / rel)
    return candidates


def _worktree_change(project: Project, path: Path) -> FileChange | Finding:
    """A working-tree file as a change whose every line is added, or why it cannot be read."""
    rel = project.relative(path)
    reason = memory_paths.escape_reason(project.root, path)
    if reason is not None:  # a symlink anywhere from the project root down, or outside it
        return Finding(rel, Problem(None, "symlink" if "symlink" in reason else "escape", f"refused: {reason}"))
    if path.is_dir():
        return Finding(rel, Problem(None, "layout", "unexpected directory among memory files"))
    try:
        data = memory_paths.read_inside(project.root, path)
    except memory_paths.UnsafePath as exc:
        return Finding(rel, Problem(None, "escape", exc.message))
    except OSError as exc:
        return Finding(rel, Problem(None, "io", f"cannot read: {exc.strerror}"))
    return FileChange(rel, _REGULAR, False, changes.text_lines(data), data)


def worktree(project: Project, paths: list[str] | None = None, progress: Progress | None = None) -> Checked:
    """The project's memory files (or the memory files among ``paths``) as they are on disk."""
    files = _given_files(project, paths) if paths else _memory_files(project)
    unreadable: list[Finding] = []
    readable: list[FileChange] = []
    for path in files:
        read = _worktree_change(project, path)
        if isinstance(read, Finding):
            unreadable.append(read)
        else:
            readable.append(read)

    def present(rel: str) -> bool:
        return os.path.lexists(project.root / rel)

    if progress is None or paths or len(readable) < PROGRESS_MIN_FILES:
        found = apply_rules(readable, root=project.root, contains=present)
    else:
        found = []
        with progress("checking memory files", len(readable)) as step:
            # In chunks, so the bar moves; each chunk is one call into the secret layers.
            for first in range(0, len(readable), CHUNK):
                chunk = readable[first:first + CHUNK]
                found.extend(apply_rules(chunk, root=project.root, contains=present))
                step(len(chunk))
    return Checked(tuple(sort_findings(unreadable + found)), len(readable), "memory file")


# ---------------------------------------------------------------------------- git
def staged(project: Project) -> Checked:
    """What the next commit will contain, read from the index git's hook means."""
    from chord_git.git import command

    if project.repo is None or project.repo.workdir is None:
        raise RepoError(f"{project.root}: not inside a git repository")
    index = command.staged_changes(project.repo.workdir, changes.is_checked_path)
    found = apply_rules(index.files, root=project.root, contains=index.contains, noun="staged record file")
    return Checked(tuple(found), len(index.files), "staged memory file")


def history(start: Path, spec: str | None, progress: Progress | None = None) -> Checked:
    """Secrets each commit of ``spec`` (``A..B``; None: all history) added, oldest commit first."""
    from chord_git.git import libgit2

    info = libgit2.discover(start)
    root = info.workdir if info is not None else None
    found: list[Finding] = []
    commits = 0
    total = libgit2.count_range(start, spec) if progress is not None else 0  # a walk without diffs
    bar = progress("scanning commits", total) if progress is not None and total >= PROGRESS_MIN_COMMITS else None
    accepted: IgnoreList | None = None  # read once, at the first commit with memory files
    with bar or nullcontext(_no_step) as step:
        for commit in libgit2.range_changes(start, spec, changes.is_checked_path):
            commits += 1
            if accepted is None and commit.files:
                accepted = ignore_list(root)
            found.extend(apply_rules(commit.files, root=root, schema=False, commit=commit.commit, ignore=accepted))
            step(1)
    return Checked(tuple(found), commits, "commit")


def uri_prefix(project: Project) -> str:
    """Where the project root sits in the repository: SARIF locations are repository-relative."""
    if project.repo is None or project.repo.workdir is None:
        return ""
    try:
        rel = project.root.relative_to(project.repo.workdir).as_posix()
    except ValueError:
        return ""
    return "" if rel == "." else rel + "/"
