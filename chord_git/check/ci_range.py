"""Which commits a CI run is about, read from the CI system's own environment.

``scan`` without ``--range``/``--all`` asks here before falling back to the whole history, so a
CI job scans only what the pull request or push brings (GitHub Actions, GitLab CI) instead of
rescanning every commit on every push. Pure over the environment and a "does this commit exist
here" question, so every event shape is testable without a CI service.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from chord_git.support.dataclass_lazy import dataclass

ZERO = "0" * 40


@dataclass(frozen=True)
class EventRange:
    spec: str | None  # ``A..B``, or None for the whole history
    why: str  # for the log: what the range is


def _null(sha: object) -> bool:
    return not isinstance(sha, str) or not sha or set(sha) == {"0"}


def _from_default_branch(default: str | None, head: str, exists: Callable[[str], bool], what: str) -> EventRange:
    """A push without a usable "before": its commits since it left the default branch."""
    if default and exists(f"origin/{default}"):
        return EventRange(f"origin/{default}..{head}", f"{what}, since it left {default}")
    return EventRange(None, f"{what} with no base to compare with: the whole history")


def _github(env: Mapping[str, str], exists: Callable[[str], bool]) -> EventRange | None:
    event_name = env.get("GITHUB_EVENT_NAME", "")
    path = env.get("GITHUB_EVENT_PATH")
    event: dict[str, Any] = {}
    if path:
        try:
            with open(path, encoding="utf-8") as handle:
                loaded = json.load(handle)
            event = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            event = {}
    if event_name in ("pull_request", "pull_request_target"):
        pull = event.get("pull_request") or {}
        base, head = (pull.get("base") or {}).get("sha"), (pull.get("head") or {}).get("sha")
        if not _null(base) and not _null(head):
            return EventRange(f"{base}..{head}", "the pull request's commits")
    if event_name == "merge_group":
        group = event.get("merge_group") or {}
        base, head = group.get("base_sha"), group.get("head_sha")
        if not _null(base) and not _null(head):
            return EventRange(f"{base}..{head}", "the merge group's commits")
    if event_name == "push":
        before, after = event.get("before"), event.get("after") or env.get("GITHUB_SHA")
        if _null(after):
            return None
        if not _null(before) and exists(str(before)):
            return EventRange(f"{before}..{after}", "the pushed commits")
        default = (event.get("repository") or {}).get("default_branch")
        default = default if isinstance(default, str) else None
        if event.get("ref") == f"refs/heads/{default}":
            return EventRange(None, f"a push to {default} with no base to compare with: the whole history")
        return _from_default_branch(default, str(after), exists, "a new branch")
    return EventRange(None, f"a {event_name or 'GitHub'} event: the whole history")


def _gitlab(env: Mapping[str, str], exists: Callable[[str], bool]) -> EventRange | None:
    head = env.get("CI_COMMIT_SHA", "")
    if _null(head):
        return None
    base = env.get("CI_MERGE_REQUEST_DIFF_BASE_SHA", "")
    if not _null(base):
        return EventRange(f"{base}..{head}", "the merge request's commits")
    before = env.get("CI_COMMIT_BEFORE_SHA", "")
    if not _null(before) and exists(before):
        return EventRange(f"{before}..{head}", "the pushed commits")
    branch, default = env.get("CI_COMMIT_BRANCH"), env.get("CI_DEFAULT_BRANCH")
    if branch and branch != default:
        return _from_default_branch(default, head, exists, "a new branch")
    return EventRange(None, "a pipeline with no base to compare with: the whole history")


def event_range(env: Mapping[str, str], exists: Callable[[str], bool]) -> EventRange | None:
    """The range of the CI event being run, or None outside a CI system we know."""
    if env.get("GITHUB_ACTIONS") == "true":
        return _github(env, exists)
    if env.get("GITLAB_CI") == "true":
        return _gitlab(env, exists)
    return None
