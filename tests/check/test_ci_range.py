"""The commit range of a CI event: GitHub Actions and GitLab CI environments, as each system sets them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.check.ci_range import ZERO, EventRange, event_range

A, B, C = "a" * 40, "b" * 40, "c" * 40


def github(tmp_path: Path, name: str, event: dict[str, object]) -> dict[str, str]:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event))
    return {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": name, "GITHUB_EVENT_PATH": str(path), "GITHUB_SHA": C}


def known(*shas: str) -> object:
    return lambda rev: rev in shas


def test_outside_ci_there_is_no_event_range() -> None:
    assert event_range({}, known()) is None
    assert event_range({"CI": "true"}, known()) is None


@pytest.mark.parametrize("name, event, exists, expected", [
    ("pull_request", {"pull_request": {"base": {"sha": A}, "head": {"sha": B}}}, (), f"{A}..{B}"),
    ("pull_request_target", {"pull_request": {"base": {"sha": A}, "head": {"sha": B}}}, (), f"{A}..{B}"),
    ("merge_group", {"merge_group": {"base_sha": A, "head_sha": B}}, (), f"{A}..{B}"),
    ("push", {"before": A, "after": B, "ref": "refs/heads/main", "repository": {"default_branch": "main"}}, (A,),
     f"{A}..{B}"),
    # A new branch: "before" is all zeros; its commits since it left the default branch.
    ("push", {"before": ZERO, "after": B, "ref": "refs/heads/topic", "repository": {"default_branch": "main"}},
     ("origin/main",), f"origin/main..{B}"),
    # A force push whose old tip is gone: the same.
    ("push", {"before": A, "after": B, "ref": "refs/heads/topic", "repository": {"default_branch": "main"}},
     ("origin/main",), f"origin/main..{B}"),
    # ...but on the default branch itself there is nothing to compare with.
    ("push", {"before": A, "after": B, "ref": "refs/heads/main", "repository": {"default_branch": "main"}},
     ("origin/main",), None),
    ("push", {"before": ZERO, "after": B, "ref": "refs/heads/topic", "repository": {"default_branch": "main"}},
     (), None),
    ("schedule", {}, (), None),
    ("workflow_dispatch", {}, (), None),
])
def test_github_events(tmp_path: Path, name: str, event: dict[str, object], exists: tuple[str, ...],
                       expected: str | None) -> None:
    found = event_range(github(tmp_path, name, event), known(*exists))
    assert isinstance(found, EventRange) and found.spec == expected and found.why


def test_github_without_a_readable_event_file(tmp_path: Path) -> None:
    env = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(tmp_path / "none")}
    found = event_range(env, known())
    assert found is not None and found.spec is None


@pytest.mark.parametrize("env, exists, expected", [
    ({"CI_MERGE_REQUEST_DIFF_BASE_SHA": A, "CI_COMMIT_BEFORE_SHA": ZERO}, (), f"{A}..{C}"),
    ({"CI_COMMIT_BEFORE_SHA": A, "CI_COMMIT_BRANCH": "main", "CI_DEFAULT_BRANCH": "main"}, (A,), f"{A}..{C}"),
    ({"CI_COMMIT_BEFORE_SHA": ZERO, "CI_COMMIT_BRANCH": "topic", "CI_DEFAULT_BRANCH": "main"}, ("origin/main",),
     f"origin/main..{C}"),
    ({"CI_COMMIT_BEFORE_SHA": A, "CI_COMMIT_BRANCH": "main", "CI_DEFAULT_BRANCH": "main"}, (), None),
    ({"CI_COMMIT_BEFORE_SHA": ZERO, "CI_COMMIT_TAG": "v1"}, (), None),
])
def test_gitlab_pipelines(env: dict[str, str], exists: tuple[str, ...], expected: str | None) -> None:
    found = event_range({"GITLAB_CI": "true", "CI_COMMIT_SHA": C, **env}, known(*exists))
    assert found is not None and found.spec == expected and found.why
