"""A SHA-256 repository (``git init --object-format=sha256``): pygit2 (libgit2) cannot open one,
git can. What reads through git works; what needs pygit2 (the history walk of ``scan``) says so in
one line naming the repository once, exit 2, never a traceback."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from testing.gitutil import git, index_digest, run_cli
from testing.memory_files import make_record, write_index


def sha256_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    made = subprocess.run(["git", "init", "-q", "-b", "main", "--object-format=sha256", str(path)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"this git makes no SHA-256 repository: {made.stderr.strip()}")
    rec = make_record(path, "20261129-use-pnpm-3f9a", source="user", summary="Use pnpm.")
    write_index(path, [rec])
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "memory")
    return path


def test_commands_that_read_through_git_work(tmp_path: Path) -> None:
    repo = sha256_repo(tmp_path / "repo")
    before = index_digest(repo)
    for args in (("status",), ("check",), ("check", "--staged"), ("summary",), ("init",)):
        done = run_cli(repo, *args)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stdout, done.stderr)
    assert "Use pnpm." in run_cli(repo, "summary").stdout
    assert index_digest(repo) == before
    # The pre-commit hook (git memory check --staged) lets a clean commit through.
    assert run_cli(repo, "init", "--hooks").returncode == 0
    (repo / "notes.txt").write_text("x\n")
    git(repo, "add", "notes.txt")
    git(repo, "commit", "-q", "-m", "notes")


@pytest.mark.parametrize("args", [("scan", "--all"), ("scan", "--range", "HEAD~1..HEAD")])
def test_a_history_scan_says_in_one_line_that_it_cannot_read_it(tmp_path: Path, args: tuple[str, ...]) -> None:
    repo = sha256_repo(tmp_path / "repo")
    (repo / "notes.txt").write_text("x\n")
    git(repo, "add", "notes.txt")
    git(repo, "commit", "-q", "-m", "notes")
    done = run_cli(repo, *args)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.count(str(repo)) == 1, done.stderr
    assert "SHA-256 repositories" in done.stderr and "not supported" in done.stderr
