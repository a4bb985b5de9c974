"""Findings out: text for people, JSON for scripts, SARIF for code scanning.

Never a secret value, only kind and place: findings carry none, so no format can leak one.
"""
from __future__ import annotations

from chord_git.findings import Finding
from chord_git.ui import Output


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def emit(out: Output, findings: list[Finding], fmt: str, *, checked: int, noun: str = "memory file",
         uri_prefix: str = "") -> None:
    """Print ``findings`` in ``fmt``; ``checked`` counts the ``noun``s looked at (text only).

    ``uri_prefix`` turns project-relative paths into repository-relative SARIF locations.
    """
    if fmt == "json":
        out.json({"findings": [f.as_json() for f in findings]})
        return
    if fmt == "sarif":
        from chord_git.check import sarif

        out.json(sarif.render(findings, uri_prefix=uri_prefix))
        return
    for finding in findings:
        out.line(finding.render())
    if not findings:
        out.line(f"ok: {_plural(checked, noun)} checked, no findings")
    else:
        out.line(f"{_plural(len(findings), 'finding')} in memory files")
