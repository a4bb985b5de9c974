"""Test support: this checkout as the public sees it, a clone with no release tags.

Release tags do not travel with every copy of the repository, so the route and walk-through tests
run against a ``git clone`` of this checkout whose tags were deleted, with the working tree's
uncommitted changes committed on ``main`` (so a developer's edits are what gets tested). Commands
run with a private home and git config; pip downloads are cached beside the test environment
(``PIP_CACHE``), never in the isolated home directory.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
PIP_CACHE = Path(sys.prefix) / ".cache" / "pip"
IDENTITY = {"GIT_AUTHOR_NAME": "Route", "GIT_AUTHOR_EMAIL": "route@example.invalid",
            "GIT_COMMITTER_NAME": "Route", "GIT_COMMITTER_EMAIL": "route@example.invalid"}


def base_env(home: Path) -> dict[str, str]:
    """The caller's environment with a private home and git config, the shared pip cache, no CI variables."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GIT_", "GITHUB_", "CI_", "PRE_COMMIT", "CHORD_", "PIPX_"))
           and k not in ("CI", "GITLAB_CI", "GITHUB_ACTIONS", "VIRTUAL_ENV")}
    home.mkdir(parents=True, exist_ok=True)
    env.update(IDENTITY, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_STATE_HOME=str(home / ".state"),
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
               PIP_CACHE_DIR=str(PIP_CACHE), PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def run(args: list[str], env: Mapping[str, str], cwd: Path, ok: bool = True,
        timeout: float = 600) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=dict(env), capture_output=True, text=True, timeout=timeout)
    if ok:
        assert done.returncode == 0, f"{shlex.join(args)}\n{done.stdout}\n{done.stderr}"
    return done


def git(repo: Path, env: Mapping[str, str], *args: str) -> str:
    return run(["git", *args], env, repo).stdout.strip()


def file_url(repo: Path) -> str:
    # ``file://localhost/…``: pip's requirement parser wants a host in a ``name @ git+…`` URL.
    return f"file://localhost{repo}"


def clone_without_tags(dest: Path, env: Mapping[str, str]) -> Path:
    """A ``git clone`` of this checkout, its working tree's changes committed, on ``main``, no tags."""
    run(["git", "clone", "-q", "--no-hardlinks", str(CHECKOUT), str(dest)], env, dest.parent)
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=CHECKOUT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    tracked = set(filter(None, subprocess.run(["git", "ls-files", "-z"], cwd=dest, capture_output=True,
                                              check=True).stdout.decode().split("\0")))
    present = set()
    for rel in filter(None, listed):
        source = CHECKOUT / rel
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree, not yet committed
        present.add(rel)
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).unlink(missing_ok=True)
        shutil.copy2(source, dest / rel, follow_symlinks=False)
    for rel in tracked - present:
        (dest / rel).unlink(missing_ok=True)
    git(dest, env, "checkout", "-q", "-B", "main")
    git(dest, env, "add", "-A")
    if git(dest, env, "status", "--porcelain"):
        git(dest, env, "commit", "-q", "-m", "working tree")
    for tag in git(dest, env, "tag", "--list").split():
        git(dest, env, "tag", "-d", tag)
    assert git(dest, env, "tag", "--list") == ""
    return dest
