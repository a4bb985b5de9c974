"""Test support: real git repositories and the installed ``git memory`` command."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def make_repo(path: Path) -> Path:
    """A real git repository with one commit."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("demo\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


def index_digest(repo_path: Path) -> str:
    """Hash of .git/index: commands must leave it byte-identical (R37)."""
    index = repo_path / ".git" / "index"
    return hashlib.sha256(index.read_bytes()).hexdigest() if index.exists() else "absent"


def cli_env() -> dict[str, str]:
    """Environment for running the installed ``git memory`` as git runs it."""
    env = dict(os.environ)
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    return env


def run_cli(cwd: Path, *args: str, input: str | None = None, env: dict[str, str] | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``git memory ARGS`` through git itself, as a user would."""
    return subprocess.run(["git", "memory", *args], cwd=cwd, capture_output=True, text=True,
                          input=input, env=env or cli_env(), timeout=timeout)
