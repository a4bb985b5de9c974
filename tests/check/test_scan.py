"""``git memory scan``: leaks in history, reported once at the commit that added them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chord_git.commands.scan import default_range
from testing.gitutil import git, run_cli
from tests.check.helpers import (
    RECORDS,
    aws_key_id,
    github_token,
    head,
    index_text,
    json_findings,
    memory_repo,
    record_id,
    record_text,
    token_line_number,
    write,
)

LEAK = f"Deploy with GITHUB_TOKEN={github_token()} until the vault is set up."


class History:
    """clean record → token added → token removed: the leak lives on in the middle commit."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.rel = f"{RECORDS}/{record_id('deploy')}.md"
        self.base = head(repo)
        self.clean = self._commit(record_text("deploy"), "clean record")
        self.leak = self._commit(record_text("deploy", LEAK), "record gets a token")
        self.fixed = self._commit(record_text("deploy", "Deploy with the token from the vault."), "token removed")
        self.line = token_line_number(record_text("deploy", LEAK), github_token())

    def _commit(self, text: str, message: str) -> str:
        write(self.repo, self.rel, text)
        write(self.repo, "MEMORY.md", index_text("deploy"))
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-q", "-m", message)
        return head(self.repo)


@pytest.fixture
def history(tmp_path: Path) -> History:
    return History(memory_repo(tmp_path / "repo"))


def located(findings: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return [(f.get("commit"), f["path"], f["line"], f["kind"]) for f in findings]


def test_all_reports_a_fixed_leak_with_its_commit(history: History) -> None:
    code, findings, stdout = json_findings(history.repo, "scan", "--all")
    assert code == 1
    assert located(findings) == [(history.leak, history.rel, history.line, "github-token")]
    assert github_token() not in stdout
    text = run_cli(history.repo, "scan", "--all")
    assert text.returncode == 1 and text.stdout.startswith(f"{history.leak[:12]} {history.rel}:{history.line}: ")


@pytest.mark.parametrize("spec, found", [
    ("{base}..HEAD", True), ("{clean}..{fixed}", True), ("{clean}...HEAD", True), ("{base}..", True),
    ("{leak}..HEAD", False), ("{fixed}..HEAD", False), ("HEAD..{base}", False),
])
def test_range(history: History, spec: str, found: bool) -> None:
    spec = spec.format(base=history.base, clean=history.clean, leak=history.leak, fixed=history.fixed)
    code, findings, _ = json_findings(history.repo, "scan", "--range", spec)
    assert code == (1 if found else 0)
    assert located(findings) == ([(history.leak, history.rel, history.line, "github-token")] if found else [])


@pytest.mark.parametrize("spec", ["nope..HEAD", "HEAD..nope", "HEAD", "HEAD~99..HEAD"])
def test_bad_range_exits_2(history: History, spec: str) -> None:
    result = run_cli(history.repo, "scan", "--range", spec)
    assert result.returncode == 2 and result.stderr.startswith("git memory: ") and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_range_and_all_together_is_a_usage_error(history: History) -> None:
    result = run_cli(history.repo, "scan", "--all", "--range", "HEAD~1..HEAD")
    assert result.returncode == 2 and "not allowed with" in result.stderr


def test_all_covers_other_branches(history: History) -> None:
    git(history.repo, "checkout", "-q", "-b", "side", history.clean)
    rel = f"{RECORDS}/{record_id('side')}.md"
    write(history.repo, rel, record_text("side", f"The bucket key is AWS_ACCESS_KEY_ID={aws_key_id()}"))
    git(history.repo, "add", "-A")
    git(history.repo, "commit", "-q", "-m", "side leak")
    side = head(history.repo)
    git(history.repo, "checkout", "-q", "main")
    code, findings, _ = json_findings(history.repo, "scan", "--all")
    assert code == 1 and {(f["commit"], f["path"]) for f in findings} == {(history.leak, history.rel), (side, rel)}


def test_merge_reports_only_what_the_merge_itself_adds(history: History) -> None:
    repo = history.repo
    git(repo, "checkout", "-q", "-b", "topic", history.fixed)
    topic_rel = f"{RECORDS}/{record_id('topic')}.md"
    write(repo, topic_rel, record_text("topic", f"export GITHUB_TOKEN={github_token()}"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "topic leak")
    topic = head(repo)
    git(repo, "checkout", "-q", "main")
    write(repo, "README.md", "main moved on\n")
    git(repo, "commit", "-q", "-am", "main work")
    git(repo, "merge", "-q", "--no-ff", "--no-commit", "topic")
    evil_rel = f"{RECORDS}/{record_id('evil')}.md"
    write(repo, evil_rel, record_text("evil", f"AWS_ACCESS_KEY_ID={aws_key_id()}"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "merge topic, with an extra record")
    merge = head(repo)
    code, findings, _ = json_findings(repo, "scan", "--range", f"{history.fixed}..HEAD")
    assert code == 1
    assert {(f["commit"], f["path"]) for f in findings} == {(topic, topic_rel), (merge, evil_rel)}


def test_shallow_clone_names_the_missing_history(history: History, tmp_path: Path) -> None:
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{history.repo}", str(shallow))
    result = run_cli(shallow, "scan", "--range", f"{history.clean}..HEAD")
    assert result.returncode == 2 and "shallow clone" in result.stderr and "fetch" in result.stderr
    code, findings, _ = json_findings(shallow, "scan", "--all")  # what is there is scanned
    assert code == 0 and findings == []


def test_deep_enough_shallow_clone_scans_the_range(history: History, tmp_path: Path) -> None:
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "3", f"file://{history.repo}", str(shallow))
    code, findings, _ = json_findings(shallow, "scan", "--range", f"{history.clean}..HEAD")
    assert code == 1 and located(findings) == [(history.leak, history.rel, history.line, "github-token")]


def test_secrets_baseline_is_honoured_by_layer_2(history: History) -> None:
    """A ``.secrets.baseline`` entry silences detect-secrets (layer 2) for that value."""
    repo = history.repo
    value = "q8Zr4TnW2x" + "Lp7VbK9sYd" + "3HfM6jGc1Q" + "aE5uRo0Ii"
    rel = f"{RECORDS}/{record_id('entropy')}.md"
    write(repo, rel, record_text("entropy", f'The deploy value is "{value}" on staging.'))
    git(repo, "add", "-A")
    code, findings, _ = json_findings(repo, "check", "--staged")
    assert code == 1 and [(f["path"], f["layer"]) for f in findings] == [(rel, "detect-secrets")]
    git(repo, "commit", "-q", "--no-verify", "-m", "entropy")
    assert [f["path"] for f in json_findings(repo, "scan", "--all")[1]] == [history.rel, rel]

    made = subprocess.run([sys.executable, "-m", "detect_secrets", "scan", rel], cwd=repo,
                          capture_output=True, text=True, check=True)
    assert rel in json.loads(made.stdout)["results"]
    write(repo, ".secrets.baseline", made.stdout)
    assert [f["path"] for f in json_findings(repo, "scan", "--all")[1]] == [history.rel]
    write(repo, rel, record_text("entropy", f'The deploy value is "{value}" on staging, still.'))
    git(repo, "add", "-A")
    assert json_findings(repo, "check", "--staged")[:2] == (0, [])


def test_pre_push_range_from_the_framework_environment() -> None:
    assert default_range({"PRE_COMMIT_FROM_REF": "abc", "PRE_COMMIT_TO_REF": "def"}) == "abc..def"
    assert default_range({"PRE_COMMIT_TO_REF": "def"}) is None
    assert default_range({}) is None


def test_scan_without_arguments_uses_the_pre_push_range(history: History) -> None:
    from testing.gitutil import cli_env

    env = {**cli_env(), "PRE_COMMIT_FROM_REF": history.leak, "PRE_COMMIT_TO_REF": history.fixed}
    assert run_cli(history.repo, "scan", env=env).returncode == 0
    env["PRE_COMMIT_FROM_REF"] = history.clean
    assert run_cli(history.repo, "scan", env=env).returncode == 1
    assert run_cli(history.repo, "scan").returncode == 1  # no range: the whole history
