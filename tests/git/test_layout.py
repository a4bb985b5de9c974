"""The plain-filesystem repository reader agrees with git itself wherever it answers at all."""
from __future__ import annotations

from pathlib import Path

import pytest

from chord_git.git import layout
from testing.gitutil import git as run_git


def agree(start: Path) -> layout.RepoInfo:
    fast = layout.find(start.resolve())
    assert isinstance(fast, layout.RepoInfo)
    top, git_dir, common = run_git(start, "rev-parse", "--show-toplevel", "--absolute-git-dir",
                                   "--git-common-dir").splitlines()
    assert fast.workdir == Path(top).resolve()
    assert fast.git_dir == Path(git_dir).resolve()
    assert fast.common_dir == (start / common).resolve()
    return fast


def test_plain_repo_and_subdirectory(repo: Path) -> None:
    sub = repo / "a" / "b"
    sub.mkdir(parents=True)
    info = agree(sub)
    assert info.workdir == repo.resolve() and info.git_dir == repo.resolve() / ".git"


def test_linked_worktree(repo: Path, tmp_path: Path) -> None:
    run_git(repo, "worktree", "add", "-q", str(tmp_path / "wt"))
    info = agree(tmp_path / "wt")
    assert info.common_dir == (repo / ".git").resolve() and info.git_dir != info.common_dir


def test_gitfile_separate_git_dir(tmp_path: Path) -> None:
    run_git(tmp_path, "init", "-q", "--separate-git-dir", str(tmp_path / "store.git"), str(tmp_path / "work"))
    info = agree(tmp_path / "work")
    assert info.git_dir == (tmp_path / "store.git").resolve()


def test_outside_git(tmp_path: Path) -> None:
    assert layout.find(tmp_path.resolve()) is None or layout.find(tmp_path.resolve()) is layout.UNSURE


def test_unsure_cases_fall_back(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_git(tmp_path, "init", "-q", "--bare", str(tmp_path / "bare.git"))
    assert layout.find((tmp_path / "bare.git").resolve()) is layout.UNSURE
    run_git(repo, "config", "core.worktree", str(repo))
    assert layout.find(repo.resolve()) is layout.UNSURE
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    assert layout.find(repo.resolve()) is layout.UNSURE
