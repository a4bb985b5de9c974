"""Findings out: text for people, JSON for scripts. Never a secret value, only kind and place."""
from __future__ import annotations

from chord_git.ui import Output
from chord_git.validate import Finding


def emit(out: Output, findings: list[Finding], fmt: str, *, checked: int) -> None:
    if fmt == "json":
        out.json({"findings": [f.as_json() for f in findings]})
        return
    for finding in findings:
        out.line(finding.render())
    if not findings:
        out.line(f"ok: {checked} memory file{'s' if checked != 1 else ''} checked, no findings")
    else:
        out.line(f"{len(findings)} finding{'s' if len(findings) != 1 else ''} in memory files")
