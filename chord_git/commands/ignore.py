"""``git memory ignore [--last | FINGERPRINT...] --reason TEXT``: accept false positives for good.

Writes, for each finding named, the SHA-1 of its value(s) to ``.chord/secrets-ignore`` with the
reason: unlike a positional entry (``MEMORY.md:password-in-text:5``), a hash holds wherever the
line moves, so a later extraction adding entries above it does not block the next commit again.
The findings come from the last blocked check or scan (``check.blocked``, kept in the state dir:
fingerprints and hashes, never a value), or are named by the fingerprint a report printed (a
hash from the block message works too): looked up in that record, then in a fresh check of the
memory files, then, for ``commit:path:kind:line``, in the commit named. The file is rewritten
under the project lock, atomically, with every line already there kept byte for byte. Nothing is
staged: committing the file is the user's step, and the output says so.
"""
from __future__ import annotations

import re
from pathlib import Path

from chord_git.check import blocked
from chord_git.errors import UsageError
from chord_git.findings import Finding
from chord_git.memory.project import Project
from chord_git.secrets.verdicts import ignore as ignore_file
from chord_git.support.escape import has_unsafe, printable
from chord_git.ui import Output

_HASH = re.compile(r"[0-9a-f]{40}")
_COMMIT_FORM = re.compile(r"[0-9a-f]{7,40}:")
_MAX_REASON = 300


def _reason(text: str | None) -> str:
    """The reason, one printable line: it becomes the entry's comment."""
    reason = (text or "").strip()
    if not reason:
        raise UsageError('ignore: a reason is required: --reason "why this is not a secret" (it is kept '
                         f"as the comment of each line in {ignore_file.IGNORE_FILE})")
    if has_unsafe(reason) or len(reason) > _MAX_REASON:
        raise UsageError(f"ignore: --reason must be one line of printable text, at most {_MAX_REASON} characters")
    return reason


def _matches(wanted: str, finding: Finding) -> bool:
    """Is ``finding`` the one a fingerprint (or a value hash) names? A commit may be abbreviated."""
    fingerprint = finding.fingerprint
    if fingerprint is None:
        return False
    if wanted == fingerprint or (_HASH.fullmatch(wanted) is not None and wanted in finding.value_hashes):
        return True
    if finding.commit and _COMMIT_FORM.match(wanted):
        prefix, _, rest = wanted.partition(":")
        return finding.commit.startswith(prefix) and fingerprint.partition(":")[2] == rest
    return False


def _first(name: str, findings: list[Finding]) -> Finding | None:
    return next((f for f in findings if _matches(name, f)), None)


def resolve(project: Project, wanted: list[str]) -> list[Finding]:
    """The findings the fingerprints name: from the last blocked run's record, else a fresh check
    of the memory files, else (``commit:path:kind:line``) the commit named. An unknown one is a
    UsageError naming it."""
    recorded = blocked.read(project.state_dir)
    now: list[Finding] | None = None  # checked once, when the record does not hold a name
    found: list[Finding] = []
    for name in wanted:
        hit = _first(name, recorded)
        if hit is None:
            if now is None:
                from chord_git.check import driver

                now = blocked.acceptable(driver.worktree(project).findings)
            hit = _first(name, now)
        if hit is None and _COMMIT_FORM.match(name) and project.repo is not None:
            from chord_git.check import driver

            hit = _first(name, blocked.acceptable(driver.commit_findings(project.root, name.partition(":")[0])))
        if hit is None:
            raise UsageError(f"ignore: no secret finding has the fingerprint {printable(name)} (not in the last "
                             "blocked check, nor in the memory files now: git memory check lists them)")
        if hit not in found:
            found.append(hit)
    return found


def _write(project: Project, entries: list[tuple[str, str]]) -> tuple[bool, str]:
    """Append ``entries`` to the ignore file under the lock; (changed, the file as shown)."""
    from chord_git.memory import paths, store

    target = project.root / ignore_file.IGNORE_FILE
    rel = project.relative(target)
    ignore_file.load(project.root)  # a malformed file is refused before anything is added to it
    with store.locked(project):
        paths.require_inside(project.root, target)
        target.parent.mkdir(parents=True, exist_ok=True)
        paths.require_inside(project.root, target)  # the folder now exists: check again
        before = target.read_bytes() if target.is_file() else None
        after = store.cas_rewrite(project, target, lambda current: ignore_file.with_entries(current, entries))
    return after is not None and after != before, rel


def ignore(project: Project, out: Output, *, fingerprints: list[str], last: bool, reason: str | None,
           as_json: bool = False) -> int:
    text = _reason(reason)
    if last and fingerprints:
        raise UsageError("ignore: give --last or FINGERPRINTs, not both")
    if not last and not fingerprints:
        raise UsageError("ignore: name the findings: --last (those of the last blocked check) or their FINGERPRINTs")
    if last:
        findings = blocked.read(project.state_dir)
        if not findings:
            raise UsageError("ignore: no blocked check is recorded here: --last takes the secrets the last blocked "
                             "commit or push showed; name a FINGERPRINT instead (git memory check lists them)")
    else:
        findings = resolve(project, fingerprints)
    entries = [(digest, ignore_file.hash_entry(digest, text, f.kind, f.path)) for f in findings
               for digest in f.value_hashes]
    target = project.root / ignore_file.IGNORE_FILE
    try:
        had = ignore_file.listed_hashes(target.read_text("utf-8", "surrogateescape"))
    except OSError:
        had = frozenset()
    changed, rel = _write(project, entries)
    new_lines = len({digest for digest, _line in entries} - had) if changed else 0
    if as_json:
        import json

        out.write(json.dumps({
            "ignore_file": rel, "lines_added": new_lines,
            "accepted": [{"fingerprint": f.fingerprint, "path": f.path, "line": f.line, "kind": f.kind,
                          "commit": f.commit, "entries": list(f.value_hashes),
                          "already": all(d in had for d in f.value_hashes)} for f in findings],
        }, ensure_ascii=False, indent=2) + "\n")
        return 0
    for finding in findings:
        state = "already accepted" if all(d in had for d in finding.value_hashes) else "accepted"
        out.line(f"{state}: {printable(finding.fingerprint or finding.path)} (by the SHA-1 of its value, "
                 "wherever its line moves)")
    if changed:
        import shlex

        out.line(f"{rel}: {new_lines} line{'s' if new_lines != 1 else ''} added, every other line kept as it was")
        out.line(f"commit it with your change: git add {shlex.quote(_shown(project, rel))}")
    else:
        out.line(f"{rel}: already lists every value; nothing written")
    return 0


def _shown(project: Project, rel: str) -> str:
    """The ignore file as the user types it from the current folder."""
    import os

    try:
        return os.path.relpath(project.root / rel, Path.cwd())
    except ValueError:
        return str(project.root / rel)


__all__ = ["ignore", "resolve"]
