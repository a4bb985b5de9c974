"""The ``git memory`` command in real repositories: end to end through git where the argument
parsing, the dispatch or the console script is the point, the command functions otherwise."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chord_git.commands.init import init
from chord_git.commands.status import status
from chord_git.commands.summary import summary
from chord_git.memory import records
from chord_git.memory.index_file import BEGIN, END, Entry
from testing.commands import run
from testing.gitutil import cli_env, git, index_digest, run_cli
from testing.memory_files import sample_record
from tests.conftest import needed


def seed_memory(repo: Path, count: int = 3) -> list[str]:
    ids = []
    (repo / ".chord/memory/records").mkdir(parents=True, exist_ok=True)
    lines = []
    for number in range(count):
        record = sample_record(id=f"20261129-item-{number:04d}", summary=f"Item {number} summary.")
        (repo / ".chord/memory/records" / f"{record.id}.md").write_text(records.render(record))
        lines.append(Entry(type=record.type, summary=record.summary, id=record.id).render())
        ids.append(record.id)
    (repo / "MEMORY.md").write_text("# Project memory\n\n" + BEGIN + "\n" + "\n".join(lines) + "\n" + END + "\n")
    return ids


def test_init_status_summary_check_forget_round(repo: Path) -> None:
    before = index_digest(repo)
    result = run_cli(repo, "init")
    assert result.returncode == 0, result.stderr
    assert (repo / "MEMORY.md").read_text() == f"# Project memory\n\n{BEGIN}\n{END}\n"
    assert (repo / ".chord/memory/records").is_dir() and (repo / ".chord/memory/promotions").is_dir()
    ids = seed_memory(repo)
    status = run_cli(repo, "status", "--json")
    assert json.loads(status.stdout) == {
        "badge": "off", "state": "off", "reason": None, "enabled": False, "entries": 3,
        "entries_beyond_budget": 0, "records": 3, "orphans": 0, "promotions": 0, "summary_budget": 4000,
        "stale": 0, "queue_pending": 0, "queue_failed": 0, "fold_entries": 0, "fold_removals": 0,
        "config": {"user": None, "project": None, "project_trusted": False, "ignored": [], "refused": False},
    }
    summary = run_cli(repo, "summary")
    assert summary.returncode == 0 and "Item 0 summary." in summary.stdout and summary.stderr == ""
    check = run_cli(repo, "check")
    assert check.returncode == 0, check.stdout
    forget = run_cli(repo, "forget", ids[1])
    assert forget.returncode == 0 and "orphan" in forget.stdout
    status = json.loads(run_cli(repo, "status", "--json").stdout)
    assert status["entries"] == 2 and status["orphans"] == 1 and status["records"] == 3
    assert (repo / ".chord/memory/records" / f"{ids[1]}.md").exists()
    assert index_digest(repo) == before
    assert not (repo / ".gitignore").exists()


def test_init_appends_markers_to_a_hand_written_file(repo: Path) -> None:
    (repo / "MEMORY.md").write_bytes(b"\xef\xbb\xbf# Mine\r\n\r\nkeep me\r\n")
    assert run(init, repo).returncode == 0
    assert (repo / "MEMORY.md").read_bytes() == b"\xef\xbb\xbf# Mine\r\n\r\nkeep me\r\n\r\n" + f"{BEGIN}\r\n{END}\r\n".encode()


def test_status_enabled_and_fail_badges(repo: Path) -> None:
    seed_memory(repo, 1)
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n")
    assert run(status, repo).stdout.splitlines()[0] == (
        "MEMORY-FAIL: no model pool configured (set model_pool or memory.model_pool)")
    (repo / ".chord/config.yaml").write_text("model_pool: [{model: m, api_key_env: K}]\nmemory:\n  enabled: true\n")
    assert run(status, repo).stdout.splitlines()[0].startswith("MEMORY-FAIL")  # a project pool needs trust
    assert run_cli(repo, "trust").returncode == 0
    assert run(status, repo).stdout.splitlines()[0] == "MEMORY"
    (repo / "MEMORY.md").write_text(f"{BEGIN}\nnot an entry\n{END}\n")
    line = run(status, repo).stdout.splitlines()[0]
    assert line == "MEMORY-FAIL: managed section unusable: MEMORY.md:2: not an index entry (expected '- [type] summary ([id](.chord/memory/records/id.md))')"


def test_dash_c_works_like_git(repo: Path, tmp_path: Path) -> None:
    seed_memory(repo, 2)
    result = run_cli(tmp_path, "-C", str(repo), "status", "--json")
    assert json.loads(result.stdout)["entries"] == 2
    sub = repo / "src" / "deep"
    sub.mkdir(parents=True)
    assert json.loads(run_cli(sub, "status", "--json").stdout)["entries"] == 2
    bad = run_cli(tmp_path, "-C", str(tmp_path / "missing"), "status")
    assert bad.returncode == 2 and bad.stderr.startswith("git memory: cannot change to")


def test_usage_errors_exit_2(repo: Path) -> None:
    result = run_cli(repo, "summary", "--budget", "lots")
    assert result.returncode == 2 and "invalid _positive value" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert run_cli(repo, "nonsense").returncode == 2
    assert run_cli(repo, "forget", "no-such-id").returncode == 2


def test_bad_config_is_one_line_exit_2(repo: Path) -> None:
    (repo / ".chord").mkdir()
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: sure\n")
    transcript = repo / "t.jsonl"
    transcript.write_text("")
    result = run_cli(repo, "extract", "--session", str(transcript))
    assert result.returncode == 2
    # The message says what the value is, never what it says (it may be a secret).
    problem = f"{repo / '.chord/config.yaml'}:2: memory.enabled must be true or false, not text"
    assert result.stderr == f"git memory: {problem}\n"
    # Commands that send nothing to a model run with the defaults and say why.
    status = run_cli(repo, "status")
    assert status.returncode == 2 and status.stdout.splitlines()[0] == f"MEMORY-FAIL: config: {problem}"
    assert status.stderr == f"git memory: {problem} (the config is not used)\n"


def test_summary_budget_flag(repo: Path) -> None:
    seed_memory(repo, 40)
    small = run(summary, repo, budget=200).stdout
    assert small.count("- [preference]") < 5
    assert "More index entries exist" in small


def test_bare_repository_is_a_clear_error(tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    result = run(status, bare)
    assert result.returncode == 2 and "bare repository" in result.stderr and "Traceback" not in result.stderr


def test_outside_git_uses_xdg_state(tmp_path: Path, isolated_home: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert run(init, plain).returncode == 0
    assert (plain / "MEMORY.md").exists()
    state_root = isolated_home / ".local/state/chord"
    assert state_root.is_dir() and any(state_root.iterdir())


def test_linked_worktree_keeps_its_own_state(repo: Path, tmp_path: Path) -> None:
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", str(worktree))
    before = index_digest(repo)
    assert run(init, worktree).returncode == 0
    assert (worktree / "MEMORY.md").exists() and not (repo / "MEMORY.md").exists()
    assert (repo / ".git/chord-memory/projects").is_dir()
    assert index_digest(repo) == before


def test_help_opens_the_man_page(repo: Path) -> None:
    bin_dir = Path(sys.executable).parent
    page = bin_dir.parent / "share/man/man1/git-memory.1"
    if not page.exists():
        needed("the package is installed in editable mode, which does not install data files; ./dev test installs it normally")
    env = dict(cli_env(), MANPAGER="cat", PAGER="cat", MANWIDTH="80")
    result = subprocess.run(["git", "memory", "--help"], cwd=repo, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert "git-memory - project memory for coding agents" in " ".join(result.stdout.split())
    direct = subprocess.run(["git", "memory", "-h"], cwd=repo, capture_output=True, text=True, env=env)
    assert direct.returncode == 0 and "usage: git memory" in direct.stdout
