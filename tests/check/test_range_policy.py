"""A range cannot approve itself: ``scan --range`` reads the ignore file, the baseline and the
project config from BASE, and the allowances a range adds apply only after it is merged."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from testing.gitutil import git, run_cli
from tests.check.helpers import RECORDS, github_token, index_text, memory_repo, record_id, record_text, write

IGNORE = ".chord/secrets-ignore"


@pytest.fixture
def mrepo(tmp_path: Path) -> Path:
    return memory_repo(tmp_path / "repo")


def _commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def _leak(repo: Path, *, pragma: bool = False) -> tuple[str, int]:
    """A record whose statement holds a token (with a pragma on its line if asked): path, line."""
    statement = f"Deploy with GITHUB_TOKEN={github_token()}" + (" <!-- pragma: allowlist secret -->" if pragma else "")
    text = record_text("leak", statement)
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(repo, rel, text)
    write(repo, "MEMORY.md", index_text("leak"))
    line = next(n for n, row in enumerate(text.split("\n"), 1) if github_token() in row)
    return rel, line


def _value_entry() -> str:
    return hashlib.sha1(github_token().encode()).hexdigest() + "  # a test fixture, not a live token\n"


def _scan(repo: Path, spec: str) -> tuple[int, str]:
    result = run_cli(repo, "scan", "--range", spec)
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, result.stdout


def _policy_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("policy: ")]


def test_value_hash_entry_added_with_the_secret_does_not_suppress_it(mrepo: Path) -> None:
    git(mrepo, "switch", "-q", "-c", "pr")
    _leak(mrepo)
    write(mrepo, IGNORE, _value_entry())
    _commit(mrepo, "leak and its ignore entry")
    code, out = _scan(mrepo, "main..pr")
    assert code == 1 and "github-token" in out
    assert _policy_lines(out) == ["policy: this range adds 1 ignore entry to .chord/secrets-ignore; it applies after merge"]
    # The working tree has the entry too: only BASE's policy counts for the range.
    assert (mrepo / IGNORE).is_file()


@pytest.mark.parametrize("with_commit", [True, False])
def test_fingerprint_entry_added_in_the_range_does_not_suppress_it(mrepo: Path, with_commit: bool) -> None:
    git(mrepo, "switch", "-q", "-c", "pr")
    rel, line = _leak(mrepo)
    leak = _commit(mrepo, "leak")
    where = f"{leak}:{rel}" if with_commit else rel
    write(mrepo, IGNORE, f"{where}:github-token:{line}  # reviewed\n")
    _commit(mrepo, "ignore it")
    code, out = _scan(mrepo, "main..pr")
    assert code == 1 and f"{rel}:{line}" in out
    assert _policy_lines(out) == ["policy: this range adds 1 ignore entry to .chord/secrets-ignore; it applies after merge"]


def test_pragma_on_the_secret_line_does_not_allow_it_in_its_own_range(mrepo: Path) -> None:
    git(mrepo, "switch", "-q", "-c", "pr")
    rel, line = _leak(mrepo, pragma=True)
    _commit(mrepo, "leak with a pragma")
    code, out = _scan(mrepo, "main..pr")
    assert code == 1 and f"{rel}:{line}" in out
    assert _policy_lines(out) == [f"policy: this range adds 1 allowance pragma ({rel}:{line}); "
                                  "a pragma does not allow a secret in the range that adds it"]
    # As JSON, the report stays JSON; the note goes to stderr.
    result = run_cli(mrepo, "scan", "--range", "main..pr", "--format", "json")
    assert json.loads(result.stdout)["findings"] and "note: this range adds 1 allowance pragma" in result.stderr


def test_baseline_and_config_changes_are_named(mrepo: Path) -> None:
    git(mrepo, "switch", "-q", "-c", "pr")
    write(mrepo, ".secrets.baseline", json.dumps({"version": "1.5.0", "results": {}}))
    write(mrepo, ".chord/config.yaml", "memory:\n  enabled: false\n")
    _commit(mrepo, "policy only")
    code, out = _scan(mrepo, "main..pr")
    assert code == 0
    assert _policy_lines(out) == [
        "policy: this range changes .secrets.baseline; the change applies after merge",
        "policy: this range changes .chord/config.yaml; the range is judged by the config it is merged into"]


def test_value_hash_entry_landed_first_on_base_suppresses(mrepo: Path) -> None:
    write(mrepo, IGNORE, _value_entry())
    _commit(mrepo, "accept a fixture value")
    git(mrepo, "switch", "-q", "-c", "pr")
    _leak(mrepo)
    _commit(mrepo, "leak")
    code, out = _scan(mrepo, "main..pr")
    assert code == 0 and _policy_lines(out) == []


def test_fingerprint_entry_landed_on_base_afterwards_suppresses(mrepo: Path) -> None:
    git(mrepo, "switch", "-q", "-c", "pr")
    rel, line = _leak(mrepo)
    leak = _commit(mrepo, "leak")
    assert _scan(mrepo, "main..pr")[0] == 1
    # A maintainer lands the policy change on its own; the range is judged by it from then on.
    git(mrepo, "switch", "-q", "main")
    write(mrepo, IGNORE, f"{leak}:{rel}:github-token:{line}  # reviewed: a test fixture\n")
    _commit(mrepo, "accept the fixture")
    code, out = _scan(mrepo, "main..pr")
    assert code == 0 and _policy_lines(out) == []
    assert _scan(mrepo, "main...pr")[0] == 1  # the merge base has no entry yet


def test_check_staged_still_honours_the_working_policy(mrepo: Path) -> None:
    _leak(mrepo)
    write(mrepo, IGNORE, _value_entry())
    git(mrepo, "add", "-A")
    assert run_cli(mrepo, "check", "--staged").returncode == 0
