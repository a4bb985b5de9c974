"""The GitHub Action, the GitLab CI template, the documented workflows and our shell scripts are
linted here: JSON schemas of GitHub Actions and GitLab CI (vendored in check-jsonschema, so no
network) and shellcheck. Each linter is also shown to fail on a broken copy."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml


ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
GITLAB = ROOT / "ci/gitlab/memory-scan.yml"
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    found = BIN / name
    assert found.exists(), f"{name} comes with the test extras (pip install '.[test]')"
    return str(found)


def schema_check(schema: str, path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([tool("check-jsonschema"), "--builtin-schema", schema, *extra, str(path)],
                          capture_output=True, text=True, timeout=120)


def shellcheck(path: Path, shell: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([tool("shellcheck"), "--shell", shell, "--severity", "style", str(path)],
                          capture_output=True, text=True, timeout=120)


def doc_block(marker: str) -> str:
    """The YAML code block of docs/ci.md whose first line is ``marker``."""
    text = (ROOT / "docs/ci.md").read_text()
    for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
        if block.startswith(marker):
            return str(block)
    raise AssertionError(f"no yaml block starting with {marker!r} in docs/ci.md")


def resolve_extends(doc: dict[str, Any]) -> dict[str, Any]:
    """GitLab's ``extends``: the hidden job's keys deep-merged under the job's own, so the schema
    checks the job GitLab will really run (hidden jobs are validated loosely)."""
    def merge(base: Any, over: Any) -> Any:
        if isinstance(base, dict) and isinstance(over, dict):
            return {**base, **{k: merge(base.get(k), v) for k, v in over.items()}}
        return over

    resolved = {}
    for name, job in doc.items():
        if isinstance(job, dict) and "extends" in job:
            parents = job["extends"] if isinstance(job["extends"], list) else [job["extends"]]
            merged: Any = {}
            for parent in parents:
                merged = merge(merged, doc[parent])
            job = merge(merged, {k: v for k, v in job.items() if k != "extends"})
        resolved[name] = job
    return resolved


# --------------------------------------------------------------------------- GitHub Action
def test_action_matches_the_github_action_schema() -> None:
    done = schema_check("vendor.github-actions", ACTION)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("old, new", [
    ("using: composite", "using: compost"),
    ("      shell: bash\n      env:\n        PYTHON:", "      env:\n        PYTHON:"),  # a run step needs a shell
    ("    description: Report format", "    descripton: Report format"),
])
def test_action_schema_check_fails_on_a_broken_action(tmp_path: Path, old: str, new: str) -> None:
    text = ACTION.read_text()
    assert old in text
    broken = tmp_path / "action.yml"
    broken.write_text(text.replace(old, new, 1))
    assert schema_check("vendor.github-actions", broken).returncode == 1


def test_action_references_only_what_it_declares() -> None:
    action = yaml.safe_load(ACTION.read_text())
    text = ACTION.read_text()
    declared = set(action["inputs"])
    used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", text))
    assert used and used <= declared, used - declared
    step_ids = {step.get("id") for step in action["runs"]["steps"]}
    assert set(re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs", text)) <= step_ids
    uses = [step["uses"] for step in action["runs"]["steps"] if "uses" in step]
    assert uses == ["github/codeql-action/upload-sarif@v4"]
    # Untrusted event data reaches scripts only through env, never spliced into the script text.
    for step in action["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), step["name"]
    install = action["runs"]["steps"][0]["run"]
    assert '"$GITHUB_ACTION_PATH"' in install  # chord-git from the action's own ref


def test_documented_workflow_is_valid_and_uses_a_ref_every_clone_has(tmp_path: Path) -> None:
    workflow = doc_block("# .github/workflows/")
    assert "uses: OWNER/chord-git@main " in workflow
    assert "upload-sarif@v3" not in (ROOT / "docs/ci.md").read_text()
    path = tmp_path / "memory-secrets.yml"
    path.write_text(workflow)
    done = schema_check("vendor.github-workflows", path)
    assert done.returncode == 0, done.stdout + done.stderr
    path.write_text(workflow.replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest"))
    assert schema_check("vendor.github-workflows", path).returncode == 1


def test_action_scripts_pass_shellcheck(tmp_path: Path) -> None:
    action = yaml.safe_load(ACTION.read_text())
    for number, step in enumerate(action["runs"]["steps"]):
        if "run" in step:
            script = tmp_path / f"step-{number}.sh"
            script.write_text(step["run"])
            done = shellcheck(script, step["shell"])
            assert done.returncode == 0, (step["name"], done.stdout)


# --------------------------------------------------------------------------- GitLab template
def test_gitlab_template_matches_the_gitlab_ci_schema(tmp_path: Path) -> None:
    done = schema_check("vendor.gitlab-ci", GITLAB, "--data-transform", "gitlab-ci")
    assert done.returncode == 0, done.stdout + done.stderr
    resolved = tmp_path / "resolved.yml"
    resolved.write_text(yaml.safe_dump(resolve_extends(yaml.safe_load(GITLAB.read_text())), sort_keys=False))
    done = schema_check("vendor.gitlab-ci", resolved, "--data-transform", "gitlab-ci")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("old, new", [
    ("  script:\n", "  scirpt:\n"),
    ("    when: always\n", "    when: sometimes\n"),
    ("    - if: $CI_COMMIT_BRANCH\n", "    - iff: $CI_COMMIT_BRANCH\n"),
])
def test_gitlab_schema_check_fails_on_a_broken_template(tmp_path: Path, old: str, new: str) -> None:
    text = GITLAB.read_text()
    assert old in text
    broken = tmp_path / "broken.yml"
    broken.write_text(yaml.safe_dump(resolve_extends(yaml.safe_load(text.replace(old, new, 1))), sort_keys=False))
    assert schema_check("vendor.gitlab-ci", broken, "--data-transform", "gitlab-ci").returncode == 1


def test_gitlab_template_installs_the_default_branch_and_scripts_pass_shellcheck(tmp_path: Path) -> None:
    doc = yaml.safe_load(GITLAB.read_text())
    assert doc["variables"]["CHORD_GIT_REF"] == ""
    job = resolve_extends(doc)["chord-memory-scan"]
    script = tmp_path / "job.sh"
    script.write_text("\n".join([*job["before_script"], *job["script"]]) + "\n")
    done = shellcheck(script, "sh")
    assert done.returncode == 0, done.stdout


def test_documented_gitlab_include_is_valid(tmp_path: Path) -> None:
    block = doc_block("# .gitlab-ci.yml")
    assert "/OWNER/chord-git/main/ci/gitlab/memory-scan.yml" in block
    path = tmp_path / "gitlab-ci.yml"
    path.write_text(block)
    done = schema_check("vendor.gitlab-ci", path, "--data-transform", "gitlab-ci")
    assert done.returncode == 0, done.stdout + done.stderr


# --------------------------------------------------------------------------- shell scripts
@pytest.mark.parametrize("name", ["hooks/pre-commit", "hooks/post-session"])
def test_hook_scripts_pass_shellcheck(name: str) -> None:
    done = shellcheck(ROOT / name, "sh")
    assert done.returncode == 0, done.stdout


def test_shellcheck_fails_on_a_broken_script(tmp_path: Path) -> None:
    broken = tmp_path / "broken.sh"
    broken.write_text('#!/bin/sh\nif [ -n "$1" ]\n  echo $1\nfi\n')
    assert shellcheck(broken, "sh").returncode != 0
    unquoted = tmp_path / "unquoted.sh"
    unquoted.write_text("#!/bin/sh\nrm -rf $1/tmp\n")
    assert shellcheck(unquoted, "sh").returncode != 0

