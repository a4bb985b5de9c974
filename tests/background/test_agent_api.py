"""``git memory agent busy|idle|status``, the host API, and the post-session hook's edge cases."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chord_git import api
from chord_git.background import activity, queue
from chord_git.errors import InputError, UsageError
from chord_git.memory import project as project_mod
from chord_git.commands.agent import agent
from testing.commands import run
from testing.gitutil import cli_env, git, make_repo, run_cli

HOOK = Path(__file__).resolve().parents[2] / "hooks" / "post-session"


def test_agent_busy_and_idle_set_the_flag(repo: Path) -> None:
    state_dir = project_mod.discover(repo).state_dir
    busy = run_cli(repo, "agent", "busy")
    assert busy.returncode == 0, busy.stderr
    assert activity.is_busy(state_dir)
    idle = run_cli(repo / ".", "agent", "idle")
    assert idle.returncode == 0 and idle.stdout == ""
    assert not activity.is_busy(state_dir)
    assert git(repo, "status", "--porcelain") == ""  # the flag lives inside .git


def test_a_busy_flag_owned_by_a_dead_process_does_not_block(repo: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(proc.stdout)
    state_dir = project_mod.discover(repo).state_dir
    assert run(agent, repo, state="busy", owner_pid=os.getpid()).returncode == 0
    assert activity.is_busy(state_dir)
    assert run(agent, repo, state="busy", owner_pid=dead_pid).returncode == 0
    assert not activity.is_busy(state_dir)


def test_agent_status_and_bad_usage(repo: Path) -> None:
    run(agent, repo, state="busy")
    status = run_cli(repo, "agent", "status", "--json")
    assert status.returncode == 0, status.stderr
    data = json.loads(status.stdout)
    assert data == {"agent": "busy", "sessions_busy": 0, "pool": "main", "queued": 0, "failed": 0,
                    "worker_pid": None}
    assert "agent: busy" in run(agent, repo, state="status").stdout
    wrong = run_cli(repo, "agent", "sleepy")
    assert wrong.returncode == 2 and "agent: unknown command 'sleepy'" in wrong.stderr
    misplaced = run_cli(repo, "agent", "idle", "--pid", "12")
    assert misplaced.returncode == 2 and "unrecognized arguments: --pid 12" in misplaced.stderr


def test_agent_busy_with_a_session_counts_for_every_project(repo: Path, tmp_path: Path) -> None:
    other = project_mod.discover(make_repo(tmp_path / "other"))
    assert run_cli(repo, "agent", "busy", "--session", "s-1", "--pid", str(os.getpid())).returncode == 0
    assert not activity.is_busy(other.state_dir)  # the project flag of the other project is untouched
    assert activity.anyone_busy(other.state_dir)  # but its main-pool worker waits (a shared pool)
    assert json.loads(run_cli(repo, "agent", "status", "--json").stdout)["sessions_busy"] == 1
    assert run_cli(repo, "agent", "idle", "--session", "s-1").returncode == 0
    assert not activity.anyone_busy(other.state_dir)


def test_api_signal_and_session_memory(repo: Path) -> None:
    (repo / "MEMORY.md").write_text(
        "# Memory\n\n<!-- chord:memory:begin -->\n"
        "- [preference] Use pnpm, never npm. ([20261101-use-pnpm-ab12](.chord/memory/records/20261101-use-pnpm-ab12.md))\n"
        "<!-- chord:memory:end -->\n", encoding="utf-8")
    memory = api.open_session(repo / ".")
    assert "Use pnpm, never npm." in memory.text
    assert "Automatic memory extraction is on" not in memory.text
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "chord" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text("memory:\n  enabled: true\n", encoding="utf-8")
    # Not refreshed on an ordinary request (R10): the notice waits for a moment that rebuilds the prompt.
    assert "Automatic memory extraction is on" not in memory.text
    assert "Automatic memory extraction is on" in memory.on_event(api.RefreshEvent.COMPACTION)

    state_dir = project_mod.discover(repo).state_dir
    api.agent_busy(repo, owner_pid=os.getpid())
    assert activity.is_busy(state_dir)
    api.agent_idle(repo)
    assert not activity.is_busy(state_dir)


def test_api_session_ended_with_memory_off_and_bad_arguments(repo: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "s.jsonl"
    transcript.write_text('{"type":"session","id":"x","frozen":true}\n', encoding="utf-8")
    assert api.session_ended(repo, transcript) is None
    assert queue.pending(project_mod.discover(repo)) == []
    with pytest.raises(UsageError, match="unknown transcript format"):
        api.session_ended(repo, transcript, fmt="yaml")
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "chord" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text("memory:\n  enabled: true\n", encoding="utf-8")
    with pytest.raises(InputError, match="cannot read session file"):
        api.session_ended(repo, "no-such-file.jsonl")


def test_importing_the_api_does_not_import_openai() -> None:
    code = "import sys, chord_git.api; print('openai' in sys.modules, 'pydantic' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["False", "False"]


def test_hook_never_fails_the_host(repo: Path, tmp_path: Path) -> None:
    env = cli_env()
    no_usage = subprocess.run(["sh", str(HOOK)], cwd=repo, env=env, capture_output=True, text=True)
    assert no_usage.returncode == 0 and "usage: post-session TRANSCRIPT" in no_usage.stderr
    # Without git-memory on PATH (only a directory holding sh and git links).
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("git", "sh"):
        (bin_dir / tool).symlink_to(subprocess.run(["which", tool], capture_output=True, text=True,
                                                   check=True).stdout.strip())
    bare = dict(env, PATH=str(bin_dir))
    missing = subprocess.run([str(bin_dir / "sh"), str(HOOK), "s.jsonl"], cwd=repo, env=bare,
                             capture_output=True, text=True)
    assert missing.returncode == 0 and "git-memory is not installed" in missing.stderr
    # A transcript that does not exist: reported, still exit 0.
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "chord" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text("memory:\n  enabled: true\n", encoding="utf-8")
    gone = subprocess.run(["sh", str(HOOK), "gone.jsonl"], cwd=repo, env=env, capture_output=True, text=True)
    assert gone.returncode == 0 and gone.stdout == ""
    assert "gone.jsonl: cannot read session file" in gone.stderr and "session not queued" in gone.stderr
