"""``git memory setup pre-commit|github|gitlab``: configuration pinned to the installed commit.

Where the commit comes from (pip's ``direct_url.json`` for a ``git+URL`` install, else the commit
the build read from its checkout) is tested here on its parts and on this test environment's own
install; ``tests/test_install.py`` runs the printed configuration for real from a tagless clone.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from chord_git.commands.setup import FALLBACK_REF, github_slug, render_snippet
from chord_git.distribution.source import Source, source_from_direct_url
from testing.gitutil import git, run_cli
from tests.conftest import needed

ROOT = Path(__file__).resolve().parents[2]
SHA = "0123456789abcdef0123456789abcdef01234567"


def test_pip_vcs_record_gives_url_and_commit() -> None:
    text = json.dumps({"url": "https://github.com/acme/chord-git",
                       "vcs_info": {"vcs": "git", "commit_id": SHA, "requested_revision": "main"}})
    assert source_from_direct_url(text) == Source("https://github.com/acme/chord-git", SHA)


@pytest.mark.parametrize(("recorded", "shown"), [
    ("https://ghp_0123456789abcdefghijABCDEFGHIJ012345@github.com/acme/chord-git", "https://github.com/acme/chord-git"),
    ("https://me:s3cret-Pa55@git.example.org/acme/chord-git.git", "https://git.example.org/acme/chord-git.git"),
    ("ssh://git:hunter2@github.com/acme/chord-git.git", "ssh://git@github.com/acme/chord-git.git"),
    ("file:///home/me/chord-git", "file:///home/me/chord-git"),
])
def test_a_recorded_url_is_shown_without_credentials(recorded: str, shown: str) -> None:
    text = json.dumps({"url": recorded, "vcs_info": {"vcs": "git", "commit_id": SHA}})
    assert source_from_direct_url(text) == Source(shown, SHA)


def test_a_folder_install_gives_its_folder() -> None:
    text = json.dumps({"url": "file:///home/me/chord%20git", "dir_info": {"editable": True}})
    assert source_from_direct_url(text) == Source(None, None, "/home/me/chord git")


@pytest.mark.parametrize("text", [
    json.dumps({"url": "file:///home/me/chord-git", "dir_info": {}}),  # pip install . : no commit
    json.dumps({"url": "https://x/y", "vcs_info": {"vcs": "hg", "commit_id": SHA}}),
    json.dumps({"url": "https://x/y", "vcs_info": {"vcs": "git", "commit_id": "main; rm -rf /"}}),
    "not json", "[]",
])
def test_other_records_give_nothing(text: str) -> None:
    found = source_from_direct_url(text)
    assert found.commit is None


@pytest.mark.parametrize("url, slug", [
    ("https://github.com/acme/chord-git", "acme/chord-git"),
    ("https://github.com/acme/chord-git.git", "acme/chord-git"),
    ("git@github.com:acme/chord-git.git", "acme/chord-git"),
    ("https://gitlab.com/acme/chord-git", None),
    ("file://localhost/tmp/chord-git", None),
])
def test_github_slug(url: str, slug: str | None) -> None:
    assert github_slug(url) == slug


def test_snippets_are_yaml_pinned_to_the_commit() -> None:
    source = Source("https://github.com/acme/chord-git", SHA)
    pre_commit = yaml.safe_load("\n".join(render_snippet("pre-commit", source)))
    assert pre_commit["repos"][0] == {"repo": "https://github.com/acme/chord-git", "rev": SHA,
                                      "hooks": [{"id": "chord-memory-check"}, {"id": "chord-memory-scan"}]}
    github = yaml.safe_load("\n".join(render_snippet("github", source)))
    assert github["jobs"]["scan-memory"]["steps"][-1] == {"uses": f"acme/chord-git@{SHA}"}
    gitlab = yaml.safe_load("\n".join(render_snippet("gitlab", source)))
    assert gitlab["include"][0]["remote"] == f"https://raw.githubusercontent.com/acme/chord-git/{SHA}/ci/gitlab/memory-scan.yml"
    assert gitlab["variables"] == {"CHORD_GIT_URL": "https://github.com/acme/chord-git", "CHORD_GIT_REF": SHA}


def test_unknown_commit_follows_the_default_branch() -> None:
    pre_commit = yaml.safe_load("\n".join(render_snippet("pre-commit", Source(None, None))))
    assert pre_commit["repos"][0]["rev"] == FALLBACK_REF == "main"
    assert pre_commit["repos"][0]["repo"] == "https://github.com/OWNER/chord-git"


def test_this_install_prints_the_commit_its_build_read(repo: Path) -> None:
    # `./dev test` installed this environment from the checkout with `pip install .`: pip records
    # no commit for a folder, so the one shown is what the build read from the checkout's HEAD
    # then (HEAD may have moved on since, until the next install).
    # Asked of the installed package (-I: not the checkout on sys.path): an editable install's
    # package is the checkout, where no build wrote the commit.
    where = subprocess.run([sys.executable, "-I", "-c", "import chord_git; print(chord_git.__file__)"],
                           capture_output=True, text=True, cwd=repo, check=True).stdout.strip()
    if not (Path(where).parent / "data" / "source-commit").is_file():
        needed("the package is installed in editable mode, whose build records no commit; ./dev test installs it normally")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    done = run_cli(repo, "setup", "pre-commit")
    assert done.returncode == 0, done.stderr
    rev = yaml.safe_load(done.stdout)["repos"][0]["rev"]
    if head.returncode == 0:
        assert re.fullmatch(r"[0-9a-f]{40}", rev), rev
        ancestor = subprocess.run(["git", "merge-base", "--is-ancestor", rev, "HEAD"], cwd=ROOT, capture_output=True)
        assert ancestor.returncode == 0, f"{rev} is not a commit of this checkout's history"
        assert "unknown" not in done.stderr
    else:
        assert rev == "main" and "git ls-remote https://github.com/OWNER/chord-git HEAD" in done.stderr
    assert "OWNER/chord-git stands for the repository" in done.stderr


def test_setup_needs_no_repository(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "setup", "gitlab")
    assert done.returncode == 0 and "CHORD_GIT_REF:" in done.stdout


def _workflow_branch(repo: Path) -> tuple[list[str], str]:
    done = run_cli(repo, "setup", "github")
    assert done.returncode == 0, done.stderr
    return yaml.safe_load(done.stdout)[True]["push"]["branches"], done.stderr  # YAML 1.1 reads `on` as True


def test_github_workflow_runs_on_the_default_branch_origin_head_names(repo: Path) -> None:
    git(repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
    git(repo, "config", "branch.main.merge", "refs/heads/develop")  # origin/HEAD comes first
    branches, said = _workflow_branch(repo)
    assert branches == ["trunk"] and "note: the workflow runs on pushes to 'trunk': the branch origin/HEAD names" in said


def test_without_origin_head_the_upstream_then_init_default_branch_then_the_current_one(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature/x")
    assert _workflow_branch(repo)[0] == ["feature/x"]
    git(repo, "config", "init.defaultBranch", "stable")
    branches, said = _workflow_branch(repo)
    assert branches == ["stable"] and "init.defaultBranch" in said
    git(repo, "config", "branch.feature/x.merge", "refs/heads/develop")
    branches, said = _workflow_branch(repo)
    assert branches == ["develop"] and "the upstream of the current branch 'feature/x'" in said


def test_a_branch_name_yaml_would_misread_is_quoted() -> None:
    for name in ("on", "1.0", "a:b", "#x", "release/1.x"):
        workflow = yaml.safe_load("\n".join(render_snippet("github", Source(None, None), name)))
        assert workflow[True]["push"]["branches"] == [name]


def test_outside_a_repository_the_workflow_says_what_it_assumed(tmp_path: Path) -> None:
    branches, said = _workflow_branch(tmp_path)
    assert branches == ["main"] and "no repository, origin/HEAD or init.defaultBranch says" in said
