"""The secrets of the last blocked check or scan, kept for ``git memory ignore --last``.

When the hook blocks a commit (or ``scan`` a push) for a secret, what the user may accept next
is exactly what was just shown. One JSON file in the state dir (never in the working tree)
records it: per finding its fingerprint (path, kind, line, commit) and the SHA-1 of its
value(s), the ignore file's stable entry. Never a value. Parsing and rendering are pure;
``record`` and ``read`` are the I/O at the edges. A record that cannot be written costs
``--last`` only, never the check.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from chord_git.findings import Finding, Problem

FILE_NAME = "last-blocked.json"
VERSION = 1
_HASH = re.compile(r"[0-9a-f]{40}")


def acceptable(findings: Iterable[Finding]) -> list[Finding]:
    """The findings an ignore entry by value accepts: secrets with a line and their values' hashes."""
    return [f for f in findings if f.is_secret and f.fingerprint is not None and f.value_hashes]


def render(findings: Iterable[Finding]) -> bytes:
    """The record of ``findings`` (the acceptable ones), as stored."""
    rows = [{"fingerprint": f.fingerprint, "path": f.path, "line": f.line, "kind": f.kind, "layer": f.layer,
             "commit": f.commit, "value_hashes": list(f.value_hashes)} for f in acceptable(findings)]
    return (json.dumps({"version": VERSION, "findings": rows}, ensure_ascii=False, indent=1) + "\n").encode()


def parse(data: bytes) -> list[Finding]:
    """The findings of a record; anything malformed reads as nothing recorded (it is our own
    state file: damaged, it only means ``--last`` has nothing to take)."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return []
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("findings"), list):
        return []
    found = []
    for row in doc["findings"]:
        if not isinstance(row, dict):
            continue
        path, line, kind, layer, commit = (row.get(k) for k in ("path", "line", "kind", "layer", "commit"))
        hashes = row.get("value_hashes")
        if not (isinstance(path, str) and isinstance(line, int) and isinstance(kind, str)
                and layer in ("sanitizer", "detect-secrets") and (commit is None or isinstance(commit, str))
                and isinstance(hashes, list) and hashes and all(isinstance(h, str) and _HASH.fullmatch(h)
                                                                 for h in hashes)):
            continue
        found.append(Finding(path, Problem(line, kind, "possible secret"), layer, commit or None, tuple(hashes)))
    return found


def record(state_dir: Path, findings: Iterable[Finding]) -> None:
    """Keep the acceptable ``findings`` of a blocked run; none: the previous record stays."""
    found = acceptable(findings)
    if not found:
        return
    from chord_git.memory import atomic

    try:
        if state_dir.is_symlink():
            return
        atomic.replace_atomically(state_dir / FILE_NAME, render(found), state_dir / "tmp")
    except OSError:
        pass  # a read-only .git: the check's answer stands; only --last has nothing to take


def read(state_dir: Path) -> list[Finding]:
    """The findings of the last blocked run, or none."""
    try:
        return parse((state_dir / FILE_NAME).read_bytes())
    except OSError:
        return []


__all__ = ["FILE_NAME", "acceptable", "parse", "read", "record", "render"]
