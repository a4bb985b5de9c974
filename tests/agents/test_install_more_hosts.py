"""``git memory agent install|uninstall`` for Gemini CLI, Qwen Code and Copilot CLI: merged into the
host's own file in its own event names and units, every other key kept, twice changes nothing,
uninstall takes out only ours, nothing staged, and the host's trust step printed."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chord_git.agents import hosts
from testing.gitutil import git, index_digest, run_cli

# A file of the user's own, in each host's shape: other settings, and a hook of theirs on an event
# we use too.
THEIRS: dict[str, dict[str, Any]] = {
    "gemini": {"general": {"vimMode": True},
               "hooks": {"AfterAgent": [{"matcher": "*", "hooks": [{"name": "lint", "type": "command",
                                                                    "command": "./lint.sh", "timeout": 5000}]}]}},
    "qwen": {"$version": 4, "model": {"name": "qwen3-coder"},
             "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}]}},
    "copilot": {"version": 1, "hooks": {"Stop": [{"type": "command", "bash": "./notify.sh", "timeoutSec": 10}]}},
}
FILES = {"gemini": ".gemini/settings.json", "qwen": ".qwen/settings.json", "copilot": ".github/hooks/chord-git.json"}
EVENTS = {"gemini": ("SessionStart", "BeforeAgent", "AfterAgent", "SessionEnd"),
          "qwen": ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"),
          "copilot": ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd", "PreCompact")}
TRUST = {"gemini": "GEMINI_CLI_TRUST_WORKSPACE", "qwen": "folderTrust", "copilot": "--trust-folder"}


def ours(doc: dict[str, Any], event: str) -> list[dict[str, Any]]:
    return [e for g in doc["hooks"].get(event, []) if isinstance(g, dict) for e in g.get("hooks", [])
            if "git-memory agent hook" in str(e.get("command"))]


@pytest.mark.parametrize("host", sorted(FILES))
def test_install_merges_is_idempotent_and_uninstall_restores(repo: Path, host: str) -> None:
    path = repo / FILES[host]
    path.parent.mkdir(parents=True)
    original = json.dumps(THEIRS[host], indent=2) + "\n"
    path.write_text(original, encoding="utf-8")
    digest = index_digest(repo)
    done = run_cli(repo, "agent", "install", host)
    assert done.returncode == 0, done.stderr
    status_line = [".".join(hosts.get(host).statusline_at)] if hosts.get(host).statusline_in("project") else []  # Qwen Code
    assert done.stdout.startswith(f"{FILES[host]}: added {', '.join([*EVENTS[host], *status_line])}\n")
    assert TRUST[host] in done.stdout
    doc = json.loads(path.read_text(encoding="utf-8"))
    for key, value in THEIRS[host].items():
        if key != "hooks":
            assert doc[key] == value
    for event, theirs in THEIRS[host]["hooks"].items():
        assert doc["hooks"][event][0] == theirs[0]  # theirs first, untouched
    for event in EVENTS[host]:
        [entry] = ours(doc, event)
        assert entry["command"] == f"git-memory agent hook --host {host}"
    written = path.read_bytes()
    again = run_cli(repo, "agent", "install", host)
    assert "already installed; nothing changed" in again.stdout and path.read_bytes() == written
    removed = run_cli(repo, "agent", "uninstall", host)
    assert removed.returncode == 0 and "removed chord-git from" in removed.stdout
    assert path.read_text(encoding="utf-8") == original
    assert index_digest(repo) == digest and git(repo, "diff", "--cached", "--name-only") == ""


def test_gemini_counts_hook_time_limits_in_milliseconds(repo: Path) -> None:
    assert run_cli(repo, "agent", "install", "gemini").returncode == 0
    doc = json.loads((repo / ".gemini" / "settings.json").read_text(encoding="utf-8"))
    assert ours(doc, "SessionStart")[0]["timeout"] == 30_000 and ours(doc, "SessionEnd")[0]["timeout"] == 3_000


@pytest.mark.parametrize("host, key, value", [("qwen", "$version", 4), ("copilot", "version", 1)])
def test_a_new_file_carries_the_hosts_schema_version(repo: Path, host: str, key: str, value: int) -> None:
    """Qwen would add its version to the file itself (a change nobody made); Copilot's hook files
    are versioned."""
    assert run_cli(repo, "agent", "install", host).returncode == 0
    doc = json.loads((repo / FILES[host]).read_text(encoding="utf-8"))
    assert doc[key] == value and ours(doc, "SessionStart")[0]["timeout"] == 30


@pytest.mark.parametrize("host, variable, expected", [
    ("gemini", "GEMINI_CLI_HOME", "{moved}/.gemini/settings.json"),
    ("qwen", None, "{home}/.qwen/settings.json"),
    ("copilot", "COPILOT_HOME", "{moved}/settings.json"),
])
def test_user_scope_files(repo: Path, tmp_path: Path, host: str, variable: str | None, expected: str) -> None:
    home, moved = tmp_path / "home", tmp_path / "moved"
    env = {"HOME": str(home)} | ({variable: str(moved)} if variable else {})
    path = hosts.get(host).settings("user", repo, env)
    assert path == Path(expected.format(home=home, moved=moved))
    assert hosts.get(host).settings("user", repo, {"HOME": str(home)}).is_relative_to(home)
