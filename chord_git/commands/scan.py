"""``git memory scan``: secrets added to memory files over a commit range or the whole history.

For CI, where hooks may have been skipped (``--no-verify``, a web edit, a tool that never ran
them). Each commit is compared with its parents and only the lines it added are scanned, so a
leak is reported once, at the commit that introduced it, even after a later commit removed it:
the value is still in the history and must be rotated. Works in bare repositories.

Which commits:
- ``--range A..B``: commits reachable from B and not from A (``git log A..B``). ``A...B`` is
  read as ``git diff A...B`` reads it, B's side since the merge base, which is the same set.
- ``--all``: every commit reachable from HEAD or from any ref (``git rev-list --all``).
- neither: the pre-push range pre-commit exports (``PRE_COMMIT_FROM_REF``..``PRE_COMMIT_TO_REF``)
  when set, else ``--all``.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from chord_git.check import changes, schema
from chord_git.check.report import emit
from chord_git.check.schema import Finding
from chord_git.ui import Output

BASELINE_FILE = ".secrets.baseline"


def default_range(env: Mapping[str, str]) -> str | None:
    """The range a pre-push hook run by pre-commit is about, or None (the whole history)."""
    old, new = env.get("PRE_COMMIT_FROM_REF"), env.get("PRE_COMMIT_TO_REF")
    if old and new:
        return f"{old}..{new}"
    return None


def _baseline(start: Path) -> Path | None:
    from chord_git.git import libgit2

    info = libgit2.discover(start)
    if info is None or info.workdir is None:
        return None
    path = info.workdir / BASELINE_FILE
    return path if path.is_file() else None


def scan(start: Path, out: Output, *, range_spec: str | None = None, all_history: bool = False,
         fmt: str = "text", env: Mapping[str, str] | None = None) -> int:
    from chord_git.git import libgit2

    if range_spec is None and not all_history:
        range_spec = default_range(os.environ if env is None else env)
    baseline = _baseline(start)
    findings: list[Finding] = []
    commits = 0
    for commit in libgit2.range_changes(start, range_spec, changes.is_memory_path):
        commits += 1
        added = {change.path: lines for change in commit.files if (lines := changes.secret_input(change))}
        # Oldest commit first, as the history reads; by path and line within a commit.
        findings.extend(schema.sort_findings(changes.scan_secrets(added, baseline=baseline, commit=commit.commit)))
    emit(out, findings, fmt, checked=commits, noun="commit")
    return 1 if findings else 0
