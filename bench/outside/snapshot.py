"""Files of a fetched repository: a bare git directory (read with git) or a checkout."""
from __future__ import annotations

import subprocess
from pathlib import Path


def is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir()


def commit(path: Path) -> str:
    """The snapshot's commit, or "" for a checkout without git metadata."""
    git_dir = path if is_git_dir(path) else path / ".git"
    if not git_dir.exists():
        return ""
    done = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else ""


def read_files(path: Path, under: str, suffixes: tuple[str, ...]) -> dict[str, str]:
    """Repository-relative path -> text for the files below ``under`` that end in ``suffixes``."""
    if is_git_dir(path):
        listed = subprocess.run(["git", "--git-dir", str(path), "ls-tree", "-r", "--name-only", "HEAD", "--", under],
                                capture_output=True, text=True, check=True).stdout.split("\n")
        wanted = sorted(name for name in listed if name.endswith(suffixes))
        return {name: _git_show(path, name) for name in wanted}
    root = path / under
    return {str(file.relative_to(path)): file.read_text(encoding="utf-8", errors="replace")
            for file in sorted(root.rglob("*")) if file.is_file() and file.name.endswith(suffixes)}


def _git_show(git_dir: Path, name: str) -> str:
    blob = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"HEAD:{name}"],
                          capture_output=True, check=True).stdout
    return blob.decode("utf-8", errors="replace")
