"""Findings out: text for people, JSON for scripts, SARIF for code scanning.

Never a secret value, only kind and place: findings carry none, so no format can leak one.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.errors import InputError
from chord_git.findings import Finding
from chord_git.ui import Output

if TYPE_CHECKING:
    from chord_git.secrets.layer2.floor import Removal


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def summary(findings: list[Finding], *, checked: int, noun: str = "memory file") -> str:
    """The one-line outcome: ``ok: 3 commits checked, no findings`` or ``2 findings in memory files``."""
    if not findings:
        return f"ok: {_plural(checked, noun)} checked, no findings"
    return f"{_plural(len(findings), 'finding')} in memory files"


IGNORE_EXAMPLE_REASON = "# why this is not a secret"
IGNORE_COMMAND = 'git memory ignore --last --reason "why this is not a secret"'
MORE_WAYS = "other ways to allow a finding: git memory --help, section ALLOWING A FINDING"


def _ignore_lines(secrets: list[Finding], ignore_file: str, add_path: str, *, show_hashes: bool) -> list[str]:
    """How to accept a false positive for good: by the SHA-1 of its value, which holds wherever its
    line moves. The hash is printed only where ``show_hashes`` (the committer's own terminal): in a
    CI log a short password's hash could be cracked, so there the command that writes it is named."""
    first = secrets[0]
    if show_hashes and first.value_hashes:
        lines = [
            f"  A false positive: accept it by its value, wherever its line moves: add to {ignore_file}",
            "  this line (the SHA-1 of the value, never the value), with your reason after the '#':",
            *(f"      {digest}   {IGNORE_EXAMPLE_REASON}" for digest in first.value_hashes),
            f"  or let git memory write the lines for every secret above:  {IGNORE_COMMAND}",
        ]
    else:
        lines = [
            "  A false positive: accept it by its value, wherever its line moves; in your clone run",
            '      git memory ignore FINGERPRINT --reason "why this is not a secret"',
            "  with the fingerprint printed under the finding: it writes the SHA-1 of the value to",
            f"  {ignore_file} (a hash is never printed here).",
        ]
    return lines + [
        f"  Then commit that file with your change (git add {add_path}): the hooks and CI read it there.",
        f"  ({MORE_WAYS})",
    ]


def _secrets(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.is_secret and f.fingerprint is not None]


def commit_advice(findings: list[Finding], *, ignore_file: str, show_hashes: bool = True) -> list[str]:
    """What to do when ``check`` (the pre-commit hooks) reports ``findings``: said once, after them.
    ``show_hashes``: print the value-hash line (False under CI, where the log may be public)."""
    if not findings:
        return []
    secrets = _secrets(findings)
    lines = ["chord-git blocks a commit of memory files with these findings (git memory check)."]
    if len(secrets) < len(findings):
        lines.append("  A format finding: fix the line named above and stage the file again.")
    if secrets:
        lines.append("  A secret: delete it from the file, stage the file again (git add), and rotate the secret.")
        import shlex  # only when a commit is blocked for a secret

        lines += _ignore_lines(secrets, ignore_file, shlex.quote(ignore_file), show_hashes=show_hashes)
    return lines


def push_advice(findings: list[Finding], *, ignore_file: str, show_hashes: bool = False,
                published: bool = False) -> list[str]:
    """What to do when ``scan`` (the pre-push hook, CI) reports secrets added by commits: the
    commands rewrite the first one's commit (``~1``, quoted: zsh's extended globs read ``^``).
    ``show_hashes``: print the value-hash line (a pre-push run on the committer's terminal).
    ``published``: the commits are pushed already (a CI run on a pull request or a push)."""
    secrets = _secrets(findings)
    if not secrets:
        return []
    first = secrets[0]
    commit = (first.commit or "COMMIT")[:12]
    import shlex  # only when a push is blocked

    from chord_git.support.escape import has_unsafe

    # Quoted: a file name comes from the commits themselves, and the user pastes this line. A
    # name no quoting prints on one line is staged with every tracked change instead.
    staged = "-u" if has_unsafe(first.path) else shlex.quote(first.path)
    fix = f"git add {staged} && git commit --amend --no-edit"
    if published:
        return [
            "chord-git fails this check: pushed commits add a secret to memory files (git memory scan).",
            "  The secret is in the pushed history now: rotate it first. Then, in your clone, rewrite the",
            f"  branch's commit that added it ({commit}) so the secret never reaches the target branch:",
            f"    git rebase -i \"{commit}~1\"  (git rebase -i --root if it is the first commit);",
            "      change 'pick' to 'edit' on its line; where the rebase stops, delete the line, then",
            f"      {fix} && git rebase --continue",
            "    and push the branch again: git push --force-with-lease",
            *_ignore_lines(secrets, ignore_file, ".chord/secrets-ignore", show_hashes=show_hashes),
        ]
    return [
        "chord-git blocks a push of commits that add a secret to memory files (git memory scan).",
        "  Deleting the line in a new commit leaves the secret in the history: rotate it, then rewrite",
        f"  the commit that added it ({commit}) while it is not pushed:",
        f"    if it is the last commit:  delete the line, then  {fix}",
        f"    if it is older:  git rebase -i \"{commit}~1\"  (git rebase -i --root if it is the first commit);",
        "      change 'pick' to 'edit' on its line; where the rebase stops, delete the line, then",
        f"      {fix} && git rebase --continue",
        "  A commit already pushed needs a force-push after the rewrite; rotating the secret is what protects you.",
        *_ignore_lines(secrets, ignore_file, ".chord/secrets-ignore", show_hashes=show_hashes),
    ]


def rule_advice(findings: list[Finding]) -> list[str]:
    """What to do about ``memory-rule`` findings (``check.memory_rules``): said once, after them."""
    rules = [f for f in findings if f.is_memory_rule]
    if not rules:
        return []
    from chord_git.support.escape import printable

    return [
        "chord-git refuses memory text that grants permissions, turns safeguards off, leaks, runs downloads or",
        "  overrides instructions, whoever wrote it: it would reach every agent's prompt. Reword or remove the",
        "  text named above. A false positive: land its fingerprint in .chord/secrets-ignore on the base branch",
        "  first, with the reason after a '#' (a range never accepts its own findings):",
        f"      {printable(rules[0].fingerprint or '')}   # why memory may carry this text",
    ]


def render(findings: list[Finding], fmt: str, *, checked: int, noun: str = "memory file",
           uri_prefix: str = "", removed: Sequence[Removal] | None = None) -> str:
    """The whole report in ``fmt``; ``uri_prefix`` turns project-relative paths into
    repository-relative SARIF locations. ``removed`` (``--explain``): the detect-secrets findings
    a named verdict left out, with that verdict (SARIF has no place for them: text and JSON)."""
    if fmt in ("json", "sarif"):
        import json  # off the hook's start-up: the hook prints text

        if fmt == "sarif":
            from chord_git.check import sarif

            return json.dumps(sarif.render(findings, uri_prefix=uri_prefix), ensure_ascii=False, indent=2) + "\n"
        report: dict[str, object] = {"findings": [f.as_json() for f in findings]}
        if removed is not None:
            report["removed"] = [r.as_json() for r in removed]
        return json.dumps(report, ensure_ascii=False, indent=2) + "\n"
    lines = [finding.render() for finding in findings]
    lines.append(summary(findings, checked=checked, noun=noun))
    if removed is not None:
        lines.append(_removed_summary(removed))
        lines.extend(r.render() for r in removed)
    return "\n".join(lines) + "\n"


def _removed_summary(removed: Sequence[Removal]) -> str:
    if not removed:
        return "detect-secrets: every finding it made is reported"
    return f"detect-secrets: {_plural(len(removed), 'finding')} not reported, each for the reason shown"


def emit(out: Output, findings: list[Finding], fmt: str, *, checked: int, noun: str = "memory file",
         uri_prefix: str = "", output: Path | None = None, advice: list[str] | None = None,
         removed: Sequence[Removal] | None = None) -> None:
    """Print the report in ``fmt``; with ``output``, write it there and print the findings as text
    and the one-line summary instead (one run serves both the CI log and the uploaded file).

    ``advice`` (what to do about the findings) goes to stderr wherever findings are printed as
    text: the report on stdout stays what scripts parse."""
    report = render(findings, fmt, checked=checked, noun=noun, uri_prefix=uri_prefix, removed=removed)
    if output is None:
        out.write(report)
        if fmt == "text" and advice:
            out.stderr.write("\n".join(advice) + "\n")
        return
    try:
        output.write_text(report, encoding="utf-8")
    except OSError as exc:
        raise InputError(output, None, f"cannot write the report: {exc.strerror or exc}") from None
    for finding in findings:
        out.line(finding.render())
    out.line(f"{summary(findings, checked=checked, noun=noun)}; {fmt} report written to {output}")
    if removed is not None and fmt != "json":
        out.line(_removed_summary(removed))
        for removal in removed:
            out.line(removal.render())
    if advice:
        out.stderr.write("\n".join(advice) + "\n")
