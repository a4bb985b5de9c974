"""The pre-commit framework for real: it builds a venv from a copy of this checkout and runs our hook.

One framework cache (``PRE_COMMIT_HOME``) serves the whole run, so the venv is built once
(pip install from PyPI, some seconds); later runs reuse it. Under pytest-xdist the test processes
share it too: the snapshot repository is made once, under a lock, in the run's common temporary
folder, and the framework takes its own lock while it builds a hook's venv.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from testing.gitutil import cli_env, git
from tests.check.helpers import (
    RECORDS,
    github_token,
    head,
    index_text,
    memory_repo,
    record_id,
    record_text,
    write,
)

CHECKOUT = Path(__file__).resolve().parents[2]
# What ``pip install .`` needs, plus the hook manifest.
SHIPPED = ("pyproject.toml", "README.md", "chord_git", "man", "hooks", ".pre-commit-hooks.yaml")
IDENTITY = ("-c", "user.name=Test", "-c", "user.email=test@example.invalid")
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of the whole run: under pytest-xdist, the parent of every worker's own."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A git repository holding the current tree of this checkout, committed: (path, sha).

    One per run, so that every test process points the framework at the same repository and
    revision, and the framework builds the hook's venv once."""
    shared = run_folder(tmp_path_factory)
    repo = shared / "chord-git-hooks"
    env = {**os.environ, **GIT_ENV}
    with open(shared / "chord-git-hooks.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not repo.exists():
            building = shared / f"chord-git-hooks.partial-{os.getpid()}"
            building.mkdir()
            for name in SHIPPED:
                source = CHECKOUT / name
                if source.is_dir():
                    shutil.copytree(source, building / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.tmp"))
                elif source.exists():
                    shutil.copy2(source, building / name)
            for args in (("init", "-q", "-b", "main"), ("add", "-A"), (*IDENTITY, "commit", "-q", "-m", "snapshot")):
                subprocess.run(["git", *args], cwd=building, env=env, check=True, capture_output=True)
            os.rename(building, repo)  # complete or absent: a process that finds it may use it
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, env=env, check=True, capture_output=True,
                         text=True).stdout.strip()
    return repo, sha


@pytest.fixture(scope="session")
def framework_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The framework's cache, one per run; the framework locks it while it installs a hook."""
    home = run_folder(tmp_path_factory) / "pre-commit-home"
    home.mkdir(exist_ok=True)
    return home


@pytest.fixture
def project(tmp_path: Path, hooks_repo: tuple[Path, str], framework_home: Path) -> Path:
    repo = memory_repo(tmp_path / "project")
    path, sha = hooks_repo
    write(repo, ".pre-commit-config.yaml",
          f"repos:\n-   repo: {path}\n    rev: {sha}\n    hooks:\n    -   id: chord-memory-check\n")
    git(repo, "add", ".pre-commit-config.yaml")
    git(repo, "commit", "-q", "-m", "pre-commit config")
    return repo


def framework_env(home: Path) -> dict[str, str]:
    return {**cli_env(), "PRE_COMMIT_HOME": str(home), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def pre_commit(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=repo, capture_output=True,
                          text=True, env=framework_env(home), timeout=280)


def test_manifest_is_valid() -> None:
    done = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest",
                           str(CHECKOUT / ".pre-commit-hooks.yaml")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_pre_commit_run_on_files(project: Path, framework_home: Path) -> None:
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(project, rel, record_text("leak", f"export GITHUB_TOKEN={github_token()}"))
    write(project, "MEMORY.md", index_text("leak"))
    blocked = pre_commit(project, framework_home, "run", "--files", rel, "MEMORY.md")
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert f"{rel}:" in blocked.stdout and "[github-token]" in blocked.stdout
    assert github_token() not in blocked.stdout + blocked.stderr

    write(project, rel, record_text("leak"))
    passed = pre_commit(project, framework_home, "run", "--files", rel, "MEMORY.md")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    skipped = pre_commit(project, framework_home, "run", "--files", "README.md")
    assert skipped.returncode == 0 and "no files to check" in skipped.stdout.lower()

    link = f"{RECORDS}/{record_id('link')}.md"
    os.symlink(f"{record_id('leak')}.md", project / link)
    refused = pre_commit(project, framework_home, "run", "--files", link)
    assert refused.returncode == 1 and f"{link}: " in refused.stdout and "[symlink]" in refused.stdout


def test_git_commit_through_the_framework(project: Path, framework_home: Path) -> None:
    installed = pre_commit(project, framework_home, "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    before = head(project)
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(project, rel, record_text("leak", f"export GITHUB_TOKEN={github_token()}"))
    write(project, "MEMORY.md", index_text("leak"))
    git(project, "add", "-A")
    write(project, rel, record_text("leak"))  # the framework stashes this unstaged fix away

    env = framework_env(framework_home)
    blocked = subprocess.run(["git", "commit", "-q", "-m", "leak"], cwd=project, capture_output=True, text=True,
                             env=env, timeout=280)
    assert blocked.returncode != 0 and "[github-token]" in blocked.stdout + blocked.stderr
    assert head(project) == before

    git(project, "add", "-A")
    passed = subprocess.run(["git", "commit", "-q", "-m", "clean"], cwd=project, capture_output=True, text=True,
                            env=env, timeout=280)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert head(project) != before


def test_check_hook_runs_at_commit_and_manual_stages_only(project: Path, framework_home: Path) -> None:
    """``stages: [pre-commit, manual]``: a pre-push run leaves it to ``chord-memory-scan``."""
    write(project, "MEMORY.md", "<!-- chord:memory:begin -->\nnot an entry\n<!-- chord:memory:end -->\n")
    pushed = pre_commit(project, framework_home, "run", "--hook-stage", "pre-push", "--files", "MEMORY.md")
    assert pushed.returncode == 0 and "chord memory check" not in pushed.stdout, pushed.stdout
    manual = pre_commit(project, framework_home, "run", "--hook-stage", "manual", "--files", "MEMORY.md")
    assert manual.returncode == 1 and "chord memory check" in manual.stdout and "MEMORY.md:2:" in manual.stdout
    commit = pre_commit(project, framework_home, "run", "--hook-stage", "pre-commit", "--files", "MEMORY.md")
    assert commit.returncode == 1 and "MEMORY.md:2:" in commit.stdout
