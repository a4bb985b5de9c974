"""Findings out: text for people, JSON for scripts, SARIF for code scanning.

Never a secret value, only kind and place: findings carry none, so no format can leak one.
"""
from __future__ import annotations

import json
from pathlib import Path

from chord_git.errors import InputError
from chord_git.findings import Finding
from chord_git.ui import Output


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def summary(findings: list[Finding], *, checked: int, noun: str = "memory file") -> str:
    """The one-line outcome: ``ok: 3 commits checked, no findings`` or ``2 findings in memory files``."""
    if not findings:
        return f"ok: {_plural(checked, noun)} checked, no findings"
    return f"{_plural(len(findings), 'finding')} in memory files"


def render(findings: list[Finding], fmt: str, *, checked: int, noun: str = "memory file",
           uri_prefix: str = "") -> str:
    """The whole report in ``fmt``; ``uri_prefix`` turns project-relative paths into
    repository-relative SARIF locations."""
    if fmt in ("json", "sarif"):
        if fmt == "sarif":
            from chord_git.check import sarif

            return json.dumps(sarif.render(findings, uri_prefix=uri_prefix), ensure_ascii=False, indent=2) + "\n"
        return json.dumps({"findings": [f.as_json() for f in findings]}, ensure_ascii=False, indent=2) + "\n"
    lines = [finding.render() for finding in findings]
    return "\n".join([*lines, summary(findings, checked=checked, noun=noun)]) + "\n"


def emit(out: Output, findings: list[Finding], fmt: str, *, checked: int, noun: str = "memory file",
         uri_prefix: str = "", output: Path | None = None) -> None:
    """Print the report in ``fmt``; with ``output``, write it there and print the findings as text
    and the one-line summary instead (one run serves both the CI log and the uploaded file)."""
    report = render(findings, fmt, checked=checked, noun=noun, uri_prefix=uri_prefix)
    if output is None:
        out.write(report)
        return
    try:
        output.write_text(report, encoding="utf-8")
    except OSError as exc:
        raise InputError(output, None, f"cannot write the report: {exc.strerror or exc}") from None
    for finding in findings:
        out.line(finding.render())
    out.line(f"{summary(findings, checked=checked, noun=noun)}; {fmt} report written to {output}")
