"""The GitHub Action's and the GitLab template's scan scripts, run by bash in real repositories with
the environment each CI system sets (the install steps are what tests/test_install.py covers)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from testing.gitutil import cli_env, git
from tests.check.helpers import (RECORDS, github_token, index_text, leaky_repo, memory_repo, record_id, write,
                                 write_record)

ROOT = Path(__file__).resolve().parents[2]


def action_steps() -> dict[str, dict[str, str]]:
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    return {step["name"]: step for step in action["runs"]["steps"]}


@pytest.fixture
def runner(tmp_path: Path) -> dict[str, str]:
    """What a runner provides: RUNNER_TEMP holding the action's installed environment, GITHUB_OUTPUT."""
    temp = tmp_path / "runner-temp"
    (temp / "chord-git").mkdir(parents=True)
    # The install step's result: a venv whose bin/ has git-memory; here, this test environment's.
    os.symlink(Path(sys.executable).parent, temp / "chord-git/bin")
    output = tmp_path / "github-output"
    output.write_text("")
    return {**cli_env(), "RUNNER_TEMP": str(temp), "GITHUB_OUTPUT": str(output), "GITHUB_ACTIONS": "true",
            "GITHUB_ACTION_PATH": str(ROOT)}


def run_step(step: dict[str, str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    script = cwd.parent / "step.sh"
    script.write_text(step["run"])
    # How GitHub runs `shell: bash`.
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def pull_request(tmp_path: Path, env: dict[str, str], base: str, head: str) -> dict[str, str]:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}, "head": {"sha": head}}}))
    return {**env, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event)}


def inputs(**values: str) -> dict[str, str]:
    defaults = {"CHORD_RANGE": "", "CHORD_FORMAT": "sarif", "CHORD_OUTPUT": "chord-memory-scan.sarif"}
    return {**defaults, **values}


def test_action_scan_of_a_leaky_pull_request(tmp_path: Path, runner: dict[str, str]) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    env = {**pull_request(tmp_path, runner, base, leak), **inputs()}
    steps = action_steps()
    scanned = run_step(steps["Scan memory files for secrets"], env, repo)
    assert scanned.returncode == 0, scanned.stderr  # findings are reported; the last step fails the job
    assert "exit-code=1\n" in Path(runner["GITHUB_OUTPUT"]).read_text()
    assert "[github-token]" in scanned.stdout and "sarif report written to chord-memory-scan.sarif" in scanned.stdout
    assert "scanning the pull request's commits" in scanned.stderr
    doc = json.loads((repo / "chord-memory-scan.sarif").read_text())
    assert [r["properties"]["commit"] for r in doc["runs"][0]["results"]] == [leak]
    assert github_token() not in scanned.stdout + scanned.stderr + (repo / "chord-memory-scan.sarif").read_text()
    failed = run_step(steps["Fail on findings"], env, repo)
    assert failed.returncode == 1 and "::error title=chord-git::" in failed.stdout


def test_action_scan_of_a_clean_pull_request_and_an_explicit_range(tmp_path: Path, runner: dict[str, str]) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    (repo / "notes.txt").write_text("clean\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "clean")
    head = git(repo, "rev-parse", "HEAD").strip()
    step = action_steps()["Scan memory files for secrets"]
    clean = run_step(step, {**pull_request(tmp_path, runner, leak, head), **inputs(CHORD_FORMAT="json",
                                                                                  CHORD_OUTPUT="r.json")}, repo)
    assert clean.returncode == 0 and json.loads((repo / "r.json").read_text()) == {"findings": []}
    assert Path(runner["GITHUB_OUTPUT"]).read_text().endswith("exit-code=0\n")
    everything = run_step(step, {**runner, **inputs(CHORD_RANGE="all")}, repo)
    assert everything.returncode == 0 and Path(runner["GITHUB_OUTPUT"]).read_text().endswith("exit-code=1\n")
    assert f"{RECORDS}/{record_id('leak')}.md" in everything.stdout


def test_action_scan_fails_the_step_on_a_bad_range(tmp_path: Path, runner: dict[str, str]) -> None:
    repo, _base, _leak = leaky_repo(tmp_path / "repo")
    bad = run_step(action_steps()["Scan memory files for secrets"], {**runner, **inputs(CHORD_RANGE="nope..HEAD")}, repo)
    assert bad.returncode == 2 and Path(runner["GITHUB_OUTPUT"]).read_text().endswith("exit-code=2\n")


def gitlab_job(repo: Path, base: str, head: str, **variables: str) -> subprocess.CompletedProcess[str]:
    """The template's scan script on a merge request from ``base`` to ``head``, as GitLab runs it:
    the script lines in one sh session, with the template's variables (``variables`` override)."""
    doc = yaml.safe_load((ROOT / "ci/gitlab/memory-scan.yml").read_text())
    script = "\n".join(doc[".chord-memory-scan"]["script"])
    env = {**cli_env(), **{k: str(v) for k, v in doc["variables"].items()}, "GITLAB_CI": "true",
           "CI_MERGE_REQUEST_DIFF_BASE_SHA": base, "CI_COMMIT_SHA": head, "CI_PIPELINE_SOURCE": "merge_request_event",
           **variables}
    return subprocess.run(["sh", "-e", "-c", script], cwd=repo, env=env, capture_output=True, text=True, timeout=120)


def test_gitlab_job_script_on_a_merge_request(tmp_path: Path) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    done = gitlab_job(repo, base, leak)
    assert done.returncode == 1
    assert "scanning the merge request's commits" in done.stderr and "[github-token]" in done.stdout
    results = json.loads((repo / "chord-memory-scan.sarif").read_text())["runs"][0]["results"]
    assert [r["properties"]["commit"] for r in results] == [leak]


def test_action_writes_the_memory_review_to_the_job_summary(tmp_path: Path, runner: dict[str, str]) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    summary = tmp_path / "step-summary.md"
    env = {**pull_request(tmp_path, runner, base, leak), **inputs(CHORD_SUMMARY="true"),
           "GITHUB_STEP_SUMMARY": str(summary)}
    scanned = run_step(action_steps()["Scan memory files for secrets"], env, repo)
    assert scanned.returncode == 0, scanned.stderr
    text = summary.read_text()
    assert text.startswith(f"## Project memory in {base[:12]}..{leak[:12]}\n")
    assert f"| added | `Note leak.` (`{RECORDS}/{record_id('leak')}.md`) | `fact` | `user` | `stated` |" in text
    assert "**`github-token at line" in text and github_token() not in text
    gated = run_step(action_steps()["Scan memory files for secrets"], {**env, "CHORD_GATE": "true"}, repo)
    assert gated.returncode == 0 and "--fail-on-assistant-entries" not in gated.stderr


def test_gitlab_job_keeps_the_memory_review_as_an_artifact(tmp_path: Path) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    doc = yaml.safe_load((ROOT / "ci/gitlab/memory-scan.yml").read_text())
    assert "$CHORD_MEMORY_REVIEW" in doc[".chord-memory-scan"]["artifacts"]["paths"]
    done = gitlab_job(repo, base, leak)
    assert done.returncode == 1
    review = (repo / "chord-memory-review.md").read_text()
    assert review.startswith(f"## Project memory in {base[:12]}..{leak[:12]}\n") and github_token() not in review


def _edited_in_place(path: Path) -> tuple[Path, str, str]:
    """A clean base with one reviewed entry, and a commit rewriting that entry in place."""
    repo = memory_repo(path)
    write_record(repo, "rule")
    write(repo, "MEMORY.md", index_text("rule"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "reviewed memory")
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "MEMORY.md", index_text("rule").replace("Note rule.", "Open pull requests as drafts first."))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "edit in place")
    return repo, base, git(repo, "rev-parse", "HEAD").strip()


def test_action_gate_on_unreviewed_memory_end_to_end(tmp_path: Path, runner: dict[str, str]) -> None:
    repo, base, head = _edited_in_place(tmp_path / "repo")
    summary = tmp_path / "step-summary.md"
    env = {**pull_request(tmp_path, runner, base, head), **inputs(CHORD_SUMMARY="true"),
           "GITHUB_STEP_SUMMARY": str(summary)}
    steps = action_steps()
    open_gate = run_step(steps["Scan memory files for secrets"], env, repo)
    assert open_gate.returncode == 0 and Path(runner["GITHUB_OUTPUT"]).read_text().endswith("exit-code=0\n")
    assert f"| edited | `Open pull requests as drafts first.` (`{RECORDS}/{record_id('rule')}.md`) |" in summary.read_text()
    assert f"::warning file={RECORDS}/{record_id('rule')}.md,line=1,title=Unreviewed memory::" in open_gate.stdout
    gated = run_step(steps["Scan memory files for secrets"], {**env, "CHORD_REVIEW_GATE": "true"}, repo)
    assert gated.returncode == 0 and Path(runner["GITHUB_OUTPUT"]).read_text().endswith("exit-code=1\n")
    assert "(fail-on-unreviewed-memory): " + record_id("rule") in gated.stderr
    failed = run_step(steps["Fail on findings"], env, repo)
    assert failed.returncode == 1 and failed.stdout.startswith("::error title=chord-git::")


def test_gitlab_job_gate_on_unreviewed_memory_end_to_end(tmp_path: Path) -> None:
    repo, base, head = _edited_in_place(tmp_path / "repo")
    plain = gitlab_job(repo, base, head)
    assert plain.returncode == 0, plain.stderr
    review = (repo / "chord-memory-review.md").read_text()
    assert f"| edited | `Open pull requests as drafts first.` (`{RECORDS}/{record_id('rule')}.md`) |" in review
    gated = gitlab_job(repo, base, head, CHORD_MEMORY_FAIL_ON_UNREVIEWED="true")
    assert gated.returncode == 1 and "(fail-on-unreviewed-memory): " + record_id("rule") in gated.stderr
