"""The plain git pre-commit hook and ``git memory init --hooks``, run by real ``git commit``s."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from chord_git.distribution import hints
from chord_git.distribution.source import Source
from chord_git.git import hooks as hooks_mod
from testing.gitutil import cli_env, git, index_digest, run_cli

CHECKOUT = Path(__file__).resolve().parents[2]
BAD_INDEX = "<!-- chord:memory:begin -->\nnot an entry\n<!-- chord:memory:end -->\n"


def bare_path_env(tmp_path: Path, *extra: Path) -> dict[str, str]:
    """A PATH with git and the shell tools but no git-memory, as GUI git clients often have."""
    tools = tmp_path / "tools"
    tools.mkdir(exist_ok=True)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([*(str(p) for p in extra), str(tools), "/usr/bin", "/bin"])
    return env


def commit(repo: Path, env: dict[str, str], message: str = "change") -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "commit", "-q", "-m", message], cwd=repo, capture_output=True, text=True,
                          env=env, timeout=120)


def probe(folder: Path) -> Path:
    """A ``git-memory`` on PATH that only records that it was looked up and run."""
    folder.mkdir(exist_ok=True)
    script = folder / "git-memory"
    script.write_text(f"#!/bin/sh\necho ran >> {folder / 'calls'}\nexit 1\n")
    script.chmod(0o755)
    return folder / "calls"


@pytest.fixture
def plain_hook(repo: Path) -> Path:
    hook = Path(git(repo, "rev-parse", "--git-path", "hooks").strip())
    hook = (repo / hook / "pre-commit")
    hook.write_bytes((CHECKOUT / "hooks/pre-commit").read_bytes())
    hook.chmod(0o755)
    return hook


def test_repository_hook_is_the_installed_template() -> None:
    assert (CHECKOUT / "hooks/pre-commit").read_bytes() == hooks_mod.template().encode()
    assert os.access(CHECKOUT / "hooks/pre-commit", os.X_OK)


def test_commit_without_memory_files_never_looks_for_git_memory(repo: Path, plain_hook: Path, tmp_path: Path) -> None:
    calls = probe(tmp_path / "probe")
    (repo / "app.py").write_text("print('hi')\n")
    (repo / "docs").mkdir()
    (repo / "docs/MEMORY.md.txt").write_text("not a memory file\n")
    git(repo, "add", "-A")
    done = commit(repo, bare_path_env(tmp_path, calls.parent))
    assert done.returncode == 0, done.stderr
    assert not calls.exists()


def test_staged_memory_without_git_memory_gives_one_install_line(repo: Path, plain_hook: Path, tmp_path: Path) -> None:
    (repo / "sub").mkdir()
    (repo / "sub/MEMORY.md").write_text(BAD_INDEX)
    git(repo, "add", "-A")
    before = git(repo, "rev-parse", "HEAD")
    done = commit(repo, bare_path_env(tmp_path))
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "git-memory is not on PATH" in lines[0]
    # No release tag: tags are not in every copy of the repository, the default branch is.
    assert hints.tool_hint(Source(None, None)) in lines[0]  # a copied hook: the placeholder, noted
    assert git(repo, "rev-parse", "HEAD") == before


def test_staged_memory_is_checked_with_git_memory_on_path(repo: Path, plain_hook: Path) -> None:
    (repo / ".chord/memory/records").mkdir(parents=True)
    (repo / "MEMORY.md").write_text(BAD_INDEX)
    git(repo, "add", "-A")
    refused = commit(repo, cli_env())
    assert refused.returncode == 1 and "MEMORY.md:2: not an index entry" in refused.stdout + refused.stderr
    (repo / "MEMORY.md").write_text("<!-- chord:memory:begin -->\n<!-- chord:memory:end -->\n")
    git(repo, "add", "-A")
    assert commit(repo, cli_env()).returncode == 0


def test_a_staged_project_config_is_checked_too(repo: Path, plain_hook: Path) -> None:
    (repo / ".chord").mkdir()
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n# staging password: Tr0ub4dor-3x-stg\n")
    git(repo, "add", "-A")
    refused = commit(repo, cli_env())
    said = refused.stdout + refused.stderr
    assert refused.returncode == 1 and ".chord/config.yaml:3:" in said and "Tr0ub4dor" not in said
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n")
    git(repo, "add", "-A")
    assert commit(repo, cli_env()).returncode == 0


def test_a_deleted_memory_file_is_checked_too(repo: Path, plain_hook: Path, tmp_path: Path) -> None:
    (repo / "MEMORY.md").write_text("<!-- chord:memory:begin -->\n<!-- chord:memory:end -->\n")
    git(repo, "add", "-A")
    assert commit(repo, cli_env()).returncode == 0
    git(repo, "rm", "-q", "MEMORY.md")
    calls = probe(tmp_path / "probe")
    assert commit(repo, bare_path_env(tmp_path, calls.parent)).returncode == 1
    assert calls.read_text() == "ran\n"


def hooks_dir(repo: Path) -> Path:
    return (repo / git(repo, "rev-parse", "--git-path", "hooks").strip()).resolve()


def test_init_hooks_chains_an_existing_hook(repo: Path, tmp_path: Path) -> None:
    folder = hooks_dir(repo)
    folder.mkdir(exist_ok=True)
    theirs = "#!/bin/sh\necho \"their hook ran with $#\" >> \"$(git rev-parse --git-dir)/their-log\"\nexit ${THEIRS_EXIT:-0}\n"
    (folder / "pre-commit").write_text(theirs)
    (folder / "pre-commit").chmod(0o755)
    before = index_digest(repo)
    result = run_cli(repo, "init", "--hooks")
    assert result.returncode == 0, result.stderr
    assert "kept your existing hook" in result.stdout and "installed the pre-commit hook" in result.stdout
    assert (folder / "pre-commit.before-chord").read_text() == theirs
    assert hooks_mod.is_ours(folder / "pre-commit") and os.access(folder / "pre-commit", os.X_OK)
    assert index_digest(repo) == before

    # GUI client: no git-memory on PATH, the installed path is used.
    (repo / "MEMORY.md").write_text(BAD_INDEX)
    git(repo, "add", "-A")
    env = bare_path_env(tmp_path)
    refused = commit(repo, env)
    assert refused.returncode == 1 and "MEMORY.md:2: not an index entry" in refused.stdout + refused.stderr
    assert (repo / ".git/their-log").read_text() == "their hook ran with 0\n"

    # Their hook failing stops the commit before ours runs.
    env["THEIRS_EXIT"] = "3"
    stopped = commit(repo, env)
    assert stopped.returncode == 1 and "MEMORY.md:2" not in stopped.stdout + stopped.stderr

    # Installing again updates ours in place and keeps theirs chained once.
    (repo / "MEMORY.md").write_text("<!-- chord:memory:begin -->\n<!-- chord:memory:end -->\n")
    again = run_cli(repo, "init", "--hooks")
    assert again.returncode == 0 and "updated the pre-commit hook" in again.stdout
    assert "kept your existing hook" not in again.stdout
    assert (folder / "pre-commit.before-chord").read_text() == theirs
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith("pre-commit") and not p.name.endswith(".sample")) == [
        "pre-commit", "pre-commit.before-chord"]


def test_init_hooks_honours_core_hooks_path(repo: Path) -> None:
    git(repo, "config", "core.hooksPath", ".githooks")
    assert run_cli(repo, "init", "--hooks").returncode == 0
    assert hooks_mod.is_ours(repo / ".githooks/pre-commit")
    assert not (repo / ".git/hooks/pre-commit").exists()


def test_init_hooks_refuses_to_overwrite_two_foreign_hooks(repo: Path) -> None:
    folder = hooks_dir(repo)
    for name in ("pre-commit", "pre-commit.before-chord"):
        (folder / name).write_text("#!/bin/sh\nexit 0\n")
    result = run_cli(repo, "init", "--hooks")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "merge them by hand" in result.stderr
    assert (folder / "pre-commit").read_text() == "#!/bin/sh\nexit 0\n"


def test_init_hooks_needs_a_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    result = run_cli(plain, "init", "--hooks")
    assert result.returncode == 2 and "--hooks needs a git repository" in result.stderr
