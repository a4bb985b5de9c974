"""Which branch is the default one: the remote's HEAD, else init.defaultBranch, else main/master."""
from __future__ import annotations

from pathlib import Path

from chord_git.git import branches, layout
from testing.gitutil import git, make_repo


def _side(repo: Path) -> str | None:
    info = layout.find(repo)
    assert isinstance(info, layout.RepoInfo)
    return branches.on_side_branch(info)


def test_main_and_master_without_a_remote(repo: Path) -> None:
    assert _side(repo) is None
    git(repo, "switch", "-q", "-c", "feature")
    assert _side(repo) == "feature"
    git(repo, "switch", "-q", "-c", "master")
    assert _side(repo) is None
    git(repo, "switch", "-q", "--detach")
    assert _side(repo) is None  # a CI checkout, a rebase: not a side branch


def test_the_remotes_head_names_the_default_branch(tmp_path: Path) -> None:
    origin = make_repo(tmp_path / "origin")
    git(origin, "switch", "-q", "-c", "develop")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))  # origin/HEAD -> develop
    assert _side(clone) is None
    git(clone, "switch", "-q", "main")
    assert _side(clone) == "main"


def test_init_default_branch_when_the_remote_does_not_say(repo: Path) -> None:
    git(repo, "config", "--local", "init.defaultBranch", "trunk")
    assert _side(repo) == "main"
    git(repo, "switch", "-q", "-c", "trunk")
    assert _side(repo) is None
