"""``git memory init``: the one line on sharing memory or keeping it private (``--private``, through
``.git/info/exclude``, never ``.gitignore``), and the way out of the plain hook (``--remove-hooks``)."""
from __future__ import annotations

import subprocess
from pathlib import Path

from chord_git.git import hooks
from testing.gitutil import cli_env, git, index_digest, run_cli
from tests.conftest import REPO_ROOT

PRIVATE_HINT = "to keep it to this clone instead, run: "


def shell(repo: Path, command: str) -> subprocess.CompletedProcess[str]:
    """A command exactly as a message printed it, run by a shell as the user would."""
    return subprocess.run(["/bin/sh", "-c", command], cwd=repo, env=cli_env(), capture_output=True, text=True,
                          timeout=120)


def ignored(repo: Path, *paths: str) -> bool:
    return all(subprocess.run(["git", "check-ignore", "-q", "--", path], cwd=repo).returncode == 0 for path in paths)


def test_init_says_how_to_share_or_keep_private_and_the_command_works_as_printed(repo: Path) -> None:
    index = index_digest(repo)
    first = run_cli(repo, "init")
    assert first.returncode == 0, first.stderr
    [line] = [text for text in first.stdout.splitlines() if PRIVATE_HINT in text]
    assert line.startswith("to share memory, commit MEMORY.md and .chord/; ")
    command = line.split(PRIVATE_HINT, 1)[1]
    assert command == "git memory init --private"
    done = shell(repo, command)
    assert done.returncode == 0, done.stderr
    exclude = repo / ".git" / "info" / "exclude"
    text = exclude.read_text(encoding="utf-8")
    assert "\n/MEMORY.md\n" in text and "\n/.chord/\n" in text
    assert ignored(repo, "MEMORY.md", ".chord", ".chord/memory/records")
    assert git(repo, "status", "--porcelain") == ""  # memory no longer shows as a change
    assert not (repo / ".gitignore").exists() and index_digest(repo) == index
    assert "memory is private to this clone" in done.stdout
    written = exclude.read_bytes()
    again = run_cli(repo, "init", "--private")
    assert again.returncode == 0 and "git already ignores the memory files" in again.stdout
    assert exclude.read_bytes() == written  # idempotent


def test_committed_memory_is_called_shared(repo: Path) -> None:
    assert run_cli(repo, "init").returncode == 0
    git(repo, "add", "MEMORY.md")
    git(repo, "commit", "-q", "-m", "memory")
    again = run_cli(repo, "init")
    assert "memory is shared: MEMORY.md is committed" in again.stdout
    assert PRIVATE_HINT not in again.stdout


def test_private_on_committed_memory_names_the_command_that_stops_sharing(repo: Path) -> None:
    assert run_cli(repo, "init").returncode == 0
    git(repo, "add", "MEMORY.md")
    git(repo, "commit", "-q", "-m", "memory")
    index = index_digest(repo)
    sub = repo / "src"
    sub.mkdir()
    done = run_cli(sub, "init", "--private")  # from a subfolder: the printed command must still work
    assert done.returncode == 0, done.stderr
    assert index_digest(repo) == index  # the tool itself never stages
    [note] = [line for line in done.stderr.splitlines() if line.startswith("note: MEMORY.md is committed")]
    command = note.split("to stop sharing memory, run ", 1)[1].split(" and commit", 1)[0]
    assert shell(sub, command).returncode == 0
    assert git(repo, "ls-files", "MEMORY.md") == ""
    assert (repo / "MEMORY.md").is_file() and ignored(repo, "MEMORY.md")


def test_remove_hooks_takes_out_only_our_hook_and_puts_theirs_back(repo: Path) -> None:
    hooks_dir = repo / ".git" / "hooks"
    theirs = hooks_dir / "pre-commit"
    theirs.write_text("#!/bin/sh\necho their hook\n", encoding="utf-8")
    theirs.chmod(0o755)
    original = theirs.read_bytes()
    assert run_cli(repo, "init", "--hooks").returncode == 0
    assert hooks.is_ours(theirs) and (hooks_dir / hooks.CHAINED).exists()
    removed = run_cli(repo, "init", "--remove-hooks")
    assert removed.returncode == 0, removed.stderr
    assert "your earlier hook is back" in removed.stdout
    assert theirs.read_bytes() == original and not (hooks_dir / hooks.CHAINED).exists()
    assert theirs.stat().st_mode & 0o111
    again = run_cli(repo, "init", "--remove-hooks")
    assert again.returncode == 0 and "is not chord-git's hook; left alone" in again.stdout
    assert theirs.read_bytes() == original


def test_remove_hooks_alone_deletes_our_hook_and_creates_nothing(repo: Path) -> None:
    assert run_cli(repo, "init", "--hooks").returncode == 0
    hook = repo / ".git" / "hooks" / "pre-commit"
    assert hook.exists()
    (repo / "MEMORY.md").unlink()
    removed = run_cli(repo, "init", "--remove-hooks")
    assert removed.returncode == 0, removed.stderr
    assert "removed the pre-commit hook" in removed.stdout
    assert not hook.exists() and not (repo / "MEMORY.md").exists()
    assert "nothing changed" in run_cli(repo, "init", "--remove-hooks").stdout
    mixed = run_cli(repo, "init", "--hooks", "--remove-hooks")
    assert mixed.returncode == 2 and mixed.stderr.count("\n") == 1


def test_the_way_out_is_documented_in_help_and_the_manual() -> None:
    helped = run_cli(REPO_ROOT, "help", "init")
    assert helped.returncode == 0 and "--remove-hooks" in helped.stdout and "--private" in helped.stdout
    manual = (REPO_ROOT / "man" / "git-memory.1").read_text(encoding="utf-8")
    assert "remove\\-hooks" in manual and "\\-\\-private" in manual
    assert "# Remove:   git memory init --remove-hooks" in hooks.template()  # the hook names its way out
