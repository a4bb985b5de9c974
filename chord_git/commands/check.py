"""``git memory check``: index syntax, record schema and caps, and secrets in memory files.

The whole project (no arguments), the files pre-commit passes (``PATHS``), or the staged blobs
(``--staged``, the plain git hook); ``check.driver`` holds the rules for all three.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from chord_git.check import driver
from chord_git.check.report import commit_advice, emit
from chord_git.memory.project import Project
from chord_git.ui import Output


def check(project: Project, out: Output, *, paths: list[str] | None = None, fmt: str = "text",
          staged: bool = False, output: Path | None = None, quiet: bool = False, explain: bool = False) -> int:
    if staged:
        result = driver.staged(project)
        prefix = ""  # staged paths are repository-relative already
    else:
        progress = out.progress if not quiet and out.on_terminal() else None
        result = driver.worktree(project, paths, progress=progress)
        prefix = driver.uri_prefix(project)
    findings = list(result.findings)
    # The ignore file is read where the paths shown are relative to: the work tree for staged blobs.
    tree = project.repo.workdir if staged and project.repo is not None and project.repo.workdir else project.root
    advice = commit_advice(findings, ignore_file=ignore_file_shown(tree),
                           show_hashes=not under_ci(os.environ)) if findings else []
    if findings:  # what `git memory ignore --last` accepts: fingerprints and hashes, never a value
        from chord_git.check import blocked

        blocked.record(project.state_dir, findings)
    # The floor's removals are worked out again on request: the hook's cached findings never hold them.
    removed = driver.removals(project, paths, staged=staged) if explain else None
    emit(out, findings, fmt, checked=result.count, noun=result.noun, uri_prefix=prefix, output=output,
         advice=advice, removed=removed)
    if not staged and fmt == "text":
        # R21's substance floor, as a warning: a hand-written record is the user's to word.
        for warning in thin_sections(project, paths):
            out.warn(warning)
    return 1 if result.findings else 0


SECTIONS = ("Why keep it", "How to apply")


def thin_sections(project: Project, paths: list[str] | None = None) -> list[str]:
    """``path:line: section '## Why keep it' says nothing of its own`` for each record section that
    holds text but no content word or CJK character beyond the filler list (``claims.has_substance``)."""
    from chord_git.judge.claims import has_substance
    from chord_git.memory.project import RECORDS_DIR

    folder = project.root / RECORDS_DIR
    if paths:
        files = [project.root / p for p in paths if p.replace("\\", "/").startswith(RECORDS_DIR + "/")]
    else:
        try:
            files = sorted(folder.glob("*.md"))
        except OSError:
            return []
    out = []
    for path in files:
        try:
            if path.is_symlink() or path.stat().st_size > 64 * 1024:
                continue
            lines = path.read_text("utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for name in SECTIONS:
            try:
                start = lines.index(f"## {name}")
            except ValueError:
                continue
            body = []
            for line in lines[start + 1:]:
                if line.startswith("## "):
                    break
                body.append(line)
            text = "\n".join(body).strip()
            if text and not has_substance(text):
                out.append(f"{project.relative(path)}:{start + 1}: section '## {name}' says nothing of "
                           "its own (only filler words): say why the entry is worth keeping, and when to use it")
    return out


def under_ci(env: Mapping[str, str]) -> bool:
    """A CI job, whose log may be public: the block message names no value's hash there."""
    from chord_git.config import ci_detected

    return ci_detected(env)


def ignore_file_shown(tree: Path, cwd: Path | None = None) -> str:
    """``.chord/secrets-ignore`` of ``tree`` as the user would type it from here."""
    try:
        return os.path.relpath(tree / driver.IGNORE_FILE, cwd or Path.cwd())
    except ValueError:  # another drive (Windows)
        return str(tree / driver.IGNORE_FILE)
