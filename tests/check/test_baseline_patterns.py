"""A baseline pattern that would hang the scan or allow everything, in the hook, ``check`` and
``scan``: the hook and ``check --staged`` finish, and a match-everything pattern is exit 2 with one
line naming the baseline and the pattern's line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.commands.check import check
from chord_git.commands.scan import scan
from testing.commands import run
from testing.gitutil import git
from tests.check.helpers import (
    RECORDS,
    commit,
    github_token,
    index_text,
    install_hook,
    memory_repo,
    record_id,
    record_text,
    write,
)

LINES = "detect_secrets.filters.regex.should_exclude_line"


def baseline(repo: Path, pattern: str) -> int:
    """A baseline with ``pattern`` under exclude-lines; the line the pattern is on."""
    data = {"version": "1.5.0", "plugins_used": [{"name": "GitHubTokenDetector"}],
            "filters_used": [{"path": LINES, "pattern": ["^ACCEPTED:", pattern]}],
            "results": {}, "generated_at": "2026-12-01T00:00:00Z"}
    text = json.dumps(data, indent=2) + "\n"
    write(repo, ".secrets.baseline", text)
    return next(n for n, line in enumerate(text.splitlines(), 1) if json.dumps(pattern) in line)


def leak(repo: Path, sentence: str) -> str:
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(repo, rel, record_text("leak", f"{sentence} GITHUB_TOKEN={github_token()}"))
    write(repo, "MEMORY.md", index_text("leak"))
    git(repo, "add", "-A")
    return rel


@pytest.fixture
def mrepo(tmp_path: Path) -> Path:
    return memory_repo(tmp_path / "repo")


# 60 words then "!": 2**60 steps for a backtracking engine on ^(\w+\s?)*$; the run ends, so it is linear.
SENTENCE = " ".join(["deploy"] * 60) + "!"


def test_a_catastrophic_pattern_neither_hangs_the_hook_nor_hides_the_token(mrepo: Path) -> None:
    baseline(mrepo, r"^(\w+\s?)*$")
    rel = leak(mrepo, SENTENCE)
    install_hook(mrepo)
    blocked = commit(mrepo, "-m", "leak")
    assert blocked.returncode == 1 and rel in blocked.stdout + blocked.stderr
    staged = run(check, mrepo, staged=True, fmt="json")
    assert staged.returncode == 1 and [x["kind"] for x in staged.json()["findings"]] == ["github-token"]
    git(mrepo, "commit", "-q", "--no-verify", "-m", "leak")
    history = run(scan, mrepo, all_history=True, fmt="json")
    assert history.returncode == 1 and [x["kind"] for x in history.json()["findings"]] == ["github-token"]


@pytest.mark.parametrize("pattern", [".*", "^", r"[\s\S]*"])
def test_a_match_everything_pattern_is_exit_2_in_the_hook_check_and_scan(mrepo: Path, pattern: str) -> None:
    line = baseline(mrepo, pattern)
    leak(mrepo, "Deploy from the runner.")
    where = f".secrets.baseline:{line}: exclude-lines pattern"
    install_hook(mrepo)
    hooked = commit(mrepo, "-m", "leak")
    # git reports any failing hook as 1; the hook itself printed one line naming the file and line.
    assert hooked.returncode == 1 and where in hooked.stderr and len(hooked.stderr.strip().splitlines()) == 1
    staged = run(check, mrepo, staged=True)
    assert staged.returncode == 2 and where in staged.stderr and "switch secret scanning off" in staged.stderr
    git(mrepo, "commit", "-q", "--no-verify", "-m", "leak")
    history = run(scan, mrepo, all_history=True)
    assert history.returncode == 2 and where in history.stderr
    assert github_token() not in hooked.stderr + staged.stderr + history.stderr
