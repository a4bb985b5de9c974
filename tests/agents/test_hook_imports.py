"""The hook and the status line run on every turn: they must not load the heavy libraries.

The speed figures are in ``bench/agent_hooks_bench.py``; this test pins the reason they hold.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from testing.gitutil import cli_env
from tests.agents.conftest import configure, event

HEAVY = ("openai", "pydantic", "pygit2", "detect_secrets", "httpx2", "rich", "mcp", "anyio", "chord_git.mcp")
PROBE = (
    "import sys\n"
    "from chord_git.main import main\n"
    "rc = main(sys.argv[1:])\n"
    f"sys.stderr.write('LOADED=' + ','.join(m for m in {HEAVY!r} if m in sys.modules) + '\\n')\n"
    "sys.exit(rc)\n"
)


def loaded(args: list[str], payload: dict[str, object], cwd: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], input=json.dumps(payload).encode(),
                          capture_output=True, env=cli_env(), cwd=cwd, timeout=60)
    assert done.returncode == 0
    [line] = [x for x in done.stderr.decode().splitlines() if x.startswith("LOADED=")]
    return [m for m in line[len("LOADED="):].split(",") if m]


@pytest.mark.parametrize("name", ["SessionStart", "UserPromptSubmit", "Stop"])
def test_hook_events_load_no_heavy_library(memory_repo: Path, name: str) -> None:
    configure(None)
    payload = event(name, memory_repo, "s1", source="startup", prompt="hi")
    assert loaded(["agent", "hook", "--host", "claude-code"], payload, memory_repo) == []


@pytest.mark.parametrize("host", ["pi", "opencode"])
@pytest.mark.parametrize("name", ["SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"])
def test_plugin_host_events_load_no_heavy_library(memory_repo: Path, host: str, name: str) -> None:
    """Their plugin files run these on every turn; OpenCode's turn end carries the conversation."""
    configure(None)
    messages = [{"info": {"id": "m1", "sessionID": "s1", "role": "user"}, "parts": [{"type": "text", "text": "hi"}]}]
    payload = event(name, memory_repo, "s1", source="startup", reason="idle", messages=messages)
    assert loaded(["agent", "hook", "--host", host], payload, memory_repo) == []


def test_statusline_loads_no_heavy_library(memory_repo: Path) -> None:
    configure(None)
    assert loaded(["agent", "statusline"], {"workspace": {"current_dir": str(memory_repo)}}, memory_repo) == []


def test_the_probe_sees_the_mcp_sdk_where_it_is_used(memory_repo: Path) -> None:
    """Control for the pin above: the server's module does load the SDK, and the probe notices."""
    probe = ("import sys\nimport chord_git.mcp.server as s\nfrom chord_git.memory.project import discover\n"
             "s.build(discover())\nprint('mcp' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=cli_env(),
                          cwd=memory_repo, timeout=60)
    assert done.stdout.strip() == "True", done.stderr


def test_the_probe_sees_a_heavy_import(memory_repo: Path) -> None:
    """Control: a command that reads git history does load pygit2, and the probe notices."""
    assert "pygit2" in loaded(["scan", "--all"], {}, memory_repo)
