"""A scan in CI is about commits already pushed (a pull request's, a push's): its advice says so and
gives the rewrite plus the force-push, never "while it is not pushed"; the pre-push scan keeps that
advice. The commands it prints, run as printed, take the secret out of the branch."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from testing.gitutil import cli_env, git, run_cli
from tests.check.helpers import RECORDS, leaky_repo, record_id

CI = ("CI", "GITHUB_ACTIONS", "GITLAB_CI")


def local_env() -> dict[str, str]:
    return {k: v for k, v in cli_env().items() if k not in CI and not k.startswith(("GITHUB_", "CI_"))}


def pull_request_env(tmp_path: Path, base: str, head: str) -> dict[str, str]:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}, "head": {"sha": head}}}))
    return {**local_env(), "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_EVENT_PATH": str(event)}


def test_a_pull_request_scan_says_the_commit_is_pushed_and_how_to_rewrite_it(tmp_path: Path) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    done = run_cli(repo, "scan", env=pull_request_env(tmp_path, base, leak))
    assert done.returncode == 1
    advice = done.stderr
    assert "note: scanning the pull request's commits" in advice
    assert "while it is not pushed" not in advice and "blocks a push" not in advice
    assert "pushed commits add a secret to memory files" in advice and "rotate it first" in advice
    assert f'git rebase -i "{leak[:12]}~1"' in advice
    rel = f"{RECORDS}/{record_id('leak')}.md"
    assert f"git add {rel} && git commit --amend --no-edit && git rebase --continue" in advice
    assert "git push --force-with-lease" in advice

    # As printed: edit the commit in a rebase, drop the line, amend, continue; the range is clean.
    editor = {**os.environ, "GIT_SEQUENCE_EDITOR": f"sed -i -e 's/^pick {leak[:7]}/edit {leak[:7]}/'",
              "GIT_EDITOR": "true"}
    subprocess.run(["git", "rebase", "-q", "-i", f"{leak[:12]}~1"], cwd=repo, env=editor, check=True,
                   capture_output=True)
    record = repo / rel
    record.write_text("".join(line for line in record.read_text().splitlines(keepends=True)
                              if "GITHUB_TOKEN" not in line))
    subprocess.run(["sh", "-c", f"git add {rel} && git commit -q --amend --no-edit && git rebase --continue"],
                   cwd=repo, env=editor, check=True, capture_output=True)
    head = git(repo, "rev-parse", "HEAD").strip()
    assert run_cli(repo, "scan", env=pull_request_env(tmp_path, base, head)).returncode == 0


def test_the_pre_push_scan_keeps_the_not_yet_pushed_advice(tmp_path: Path) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    env = {**local_env(), "PRE_COMMIT_FROM_REF": base, "PRE_COMMIT_TO_REF": leak}
    done = run_cli(repo, "scan", env=env)
    assert done.returncode == 1
    assert "blocks a push of commits" in done.stderr and "while it is not pushed" in done.stderr
    assert "--force-with-lease" not in done.stderr
