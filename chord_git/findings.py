"""What every rule reports: a ``Problem`` in a file's format, a ``Finding`` in a report.

The format readers (MEMORY.md, records, promotions, front matter) say what is wrong and on which
line; they do not know under which path the caller shows the file. ``check``, ``scan`` and the
secret layers turn problems into findings: the path, the layer that found it and, in history
scans, the commit. Neither type ever carries a secret's value, so no report format can leak one.
"""
from __future__ import annotations

from collections.abc import Iterable

from chord_git.support.dataclass_lazy import dataclass, field


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a file; ``kind`` is a stable machine name, ``line`` 1-based or None."""

    line: int | None
    kind: str
    message: str

    def at(self, path: str) -> str:
        """``path:line: message``, the way every one-line error names its place."""
        where = path if self.line is None else f"{path}:{self.line}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Finding:
    """A problem at a path, with the rule layer that found it and, for history, the commit."""

    path: str
    problem: Problem
    layer: str = "schema"  # schema | sanitizer | detect-secrets | judge (the memory rules)
    commit: str | None = None
    # The SHA-1 of each value behind a secret finding (the ignore file's stable entry): kept for
    # ``git memory ignore``, never rendered in a report (a short password's hash can be cracked).
    # Not part of a finding's identity: the same place and kind is the same finding.
    value_hashes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def line(self) -> int | None:
        return self.problem.line

    @property
    def kind(self) -> str:
        return self.problem.kind

    @property
    def message(self) -> str:
        return self.problem.message

    @property
    def is_secret(self) -> bool:
        return self.layer in ("sanitizer", "detect-secrets")

    @property
    def is_memory_rule(self) -> bool:
        """What memory never carries, whoever wrote it (a grant, fetch-and-execute, a leak)."""
        return self.layer == "judge"

    @property
    def ignorable(self) -> bool:
        """Accepted by a fingerprint in ``.chord/secrets-ignore``: a judgement, not a format fact."""
        return self.layer != "schema"

    @property
    def fingerprint(self) -> str | None:
        """The ``.chord/secrets-ignore`` entry that accepts this secret (None for other findings).

        ``<commit>:<path>:<kind>:<line>`` in history, ``<path>:<kind>:<line>`` otherwise, as
        ``.gitleaksignore`` has it: place and kind only, nothing derived from the value.
        """
        if not self.ignorable or self.line is None:
            return None
        where = f"{self.commit}:" if self.commit else ""
        return f"{where}{self.path}:{self.kind}:{self.line}"

    def render(self) -> str:
        """One line (two with the fingerprint): a path or message a repository controls is shown
        with its control characters escaped, so it can never start a line of a CI log."""
        from chord_git.support.escape import printable

        prefix = f"{self.commit[:12]} " if self.commit else ""
        where = printable(self.path) if self.line is None else f"{printable(self.path)}:{self.line}"
        text = f"{prefix}{where}: {printable(self.message)} [{self.kind}]"
        fingerprint = self.fingerprint
        return text if fingerprint is None else f"{text}\n    fingerprint: {printable(fingerprint)}"

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {"path": self.path, "line": self.line, "kind": self.kind,
                                   "layer": self.layer, "message": self.message}
        if self.commit:
            data["commit"] = self.commit
        if self.fingerprint is not None:
            data["fingerprint"] = self.fingerprint
        return data


def at_path(path: str, problems: Iterable[Problem]) -> list[Finding]:
    """Format problems of the file shown as ``path``, as schema findings."""
    return [Finding(path, problem) for problem in problems]


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Report order: by commit, path, line and kind."""
    return sorted(findings, key=lambda f: (f.commit or "", f.path, f.line or 0, f.kind))
