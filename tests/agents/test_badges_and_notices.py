"""What the person at each agent host sees of memory: the MEMORY / MEMORY-FAIL badge in a status line
where the host has one, and one line at session start where the host can show one (what memory the
session was given, led by MEMORY-FAIL on a host without a status line), never sent to the model.

The hook runs as the hosts run it (``git-memory`` with the host's own SessionStart payload on
stdin, the fields as the real CLIs send them: tests/data/transcripts and AGENT-HOSTS*.md).
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from chord_git.agents import hosts
from chord_git.memory import project as project_mod
from chord_git.memory import store
from testing.gitutil import cli_env, index_digest, run_cli
from tests.agents.conftest import CANARY_SUMMARY, configure, event, git_memory, run_hook

LOADED = "memory: 1 entry loaded — git memory why"
CLEAR = "git memory status --clear-failure"
FAILED = f"MEMORY-FAIL: model reply not JSON (m1, m2) — clear: {CLEAR}"

# Each host's SessionStart payload, with the fields its CLI sends (besides hook_event_name,
# session_id and cwd): Claude Code 2.1.197, Codex 0.169.0 (turn fields), Gemini CLI 0.61.0,
# Qwen Code 0.24.4, Copilot CLI 1.0.102 (PascalCase hooks get snake_case payloads), and the pi and
# OpenCode shims as shipped (chord_git/data/).
STARTS: dict[str, dict[str, Any]] = {
    "claude-code": {"source": "startup", "transcript_path": "/h/.claude/projects/p/s.jsonl"},
    "codex": {"source": "startup", "model": "m", "transcript_path": "/h/.codex/sessions/2026/12/01/rollout-x.jsonl"},
    "gemini": {"source": "startup", "timestamp": "2026-12-01T14:34:17.000Z",
               "transcript_path": "/h/.gemini/tmp/proj/chats/session-2026-12-01T14-34-174dad03.jsonl"},
    "qwen": {"source": "startup", "model": "fake-model", "permission_mode": "default",
             "timestamp": "2026-12-01T14:34:17.000Z", "transcript_path": "/h/.qwen/projects/p/chats/s.jsonl"},
    "copilot": {"source": "new", "timestamp": "2026-12-01T14:34:17.000Z", "initial_prompt": "hello there"},
    "pi": {"source": "startup", "transcript_path": "/h/.pi/agent/sessions/--p--/s.jsonl", "reply": "json"},
    "opencode": {"source": "startup", "reply": "json"},
}


def start(repo: Path, host: str, **extra: Any) -> subprocess.CompletedProcess[bytes]:
    own = hosts.get(host)
    done = run_hook(event(own.host_event("SessionStart"), repo, "s-" + host, **{**STARTS[host], **extra}), host=host)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    return done


def seen(host: str, stdout: bytes) -> tuple[str, str | None]:
    """(what goes to the model, what the person is shown) from the hook's stdout in the host's form;
    None where the host has no way to show a line."""
    text = stdout.decode()
    if host in ("claude-code", "codex", "gemini", "qwen"):
        data = json.loads(text)
        return str(data.get("hookSpecificOutput", {}).get("additionalContext", "")), data.get("systemMessage")
    if host == "copilot":
        return str(json.loads(text)["additionalContext"]), None
    if host in ("pi", "opencode"):
        data = json.loads(text)
        return str(data["context"]), str(data["notice"])
    return text, None


def fail_in_background(repo: Path) -> None:
    """The state a failed background run leaves (pipeline: reason in full, and its cause)."""
    store.write_status(project_mod.discover(repo), False,
                       "unparseable reply, and the resample failed too: m1 at http://127.0.0.1:9/v1: unparseable "
                       "reply (not JSON (Expecting value: line 1 column 1)); m2 at http://127.0.0.1:9/v1: …",
                       cause="model reply not JSON (m1, m2)")


def statusline(repo: Path, payload: dict[str, Any]) -> str:
    done = subprocess.run([git_memory(), "agent", "statusline"], input=json.dumps(payload).encode(),
                          capture_output=True, env=cli_env(), cwd="/", timeout=60)
    assert done.returncode == 0 and done.stderr == b""
    return done.stdout.decode().rstrip("\n")


def test_every_host_is_listed() -> None:
    assert set(STARTS) == set(hosts.BUILTIN.names())


@pytest.mark.parametrize("host", sorted(STARTS))
def test_a_session_start_shows_what_memory_was_loaded(memory_repo: Path, host: str) -> None:
    context, notice = seen(host, start(memory_repo, host).stdout)
    assert CANARY_SUMMARY in context and "git memory why" not in context  # the model never gets it
    if hosts.get(host).render_notice is None:
        assert notice is None  # Copilot CLI: no way for a hook to show a line (docs/agent-hosts.md)
    else:
        assert notice == LOADED


@pytest.mark.parametrize("host", sorted(STARTS))
def test_memory_fail_goes_to_the_status_line_or_else_to_the_notice(memory_repo: Path, host: str) -> None:
    configure(None)
    fail_in_background(memory_repo)
    context, notice = seen(host, start(memory_repo, host).stdout)
    assert "MEMORY-FAIL" not in context
    own = hosts.get(host)
    if own.render_notice is None:
        assert notice is None
    elif own.has_statusline:
        assert notice == LOADED  # the badge is in the status line already
    else:
        assert notice == f"{FAILED} · {LOADED}"


def test_a_compaction_repeats_the_memory_and_not_the_notice(memory_repo: Path) -> None:
    context, notice = seen("claude-code", start(memory_repo, "claude-code", source="compact").stdout)
    assert CANARY_SUMMARY in context and notice is None


def test_codex_gets_the_same_context_with_or_without_the_line(memory_repo: Path) -> None:
    """Codex takes plain stdout and ``hookSpecificOutput.additionalContext`` alike, as a developer
    message: the line only changes the form, never what the model reads."""
    context, notice = seen("codex", start(memory_repo, "codex").stdout)
    plain = start(memory_repo, "codex", source="compact").stdout.decode()  # no line after a compaction
    assert notice == LOADED and not plain.startswith("{") and plain == context + "\n"


def test_a_shim_from_an_older_version_still_gets_plain_context(memory_repo: Path) -> None:
    for host in ("pi", "opencode"):
        text = start(memory_repo, host, reply=None).stdout.decode()
        assert CANARY_SUMMARY in text and not text.startswith("{")  # what it pushes into the prompt, whole


def test_the_status_line_badge_for_claude_code_qwen_and_copilot_payloads(memory_repo: Path) -> None:
    """The hosts' status line commands get a JSON payload with ``workspace.current_dir``."""
    claude = {"session_id": "s", "workspace": {"current_dir": str(memory_repo)}, "model": {"id": "m"}}
    qwen = {"session_id": "s", "version": "0.24.4", "model": {"display_name": "fake-model"},
            "workspace": {"current_dir": str(memory_repo)}, "git": {"branch": "main"}}
    copilot = {"cwd": str(memory_repo), "session_id": "s", "session_name": None,  # 1.0.102, seen on its stdin
               "transcript_path": "/h/.copilot/session-state/s", "model": {"id": "fake-model"},
               "workspace": {"current_dir": str(memory_repo)}, "version": "1.0.102", "allow_all_enabled": False}
    configure(None)
    for payload in (claude, qwen, copilot):
        assert statusline(memory_repo, payload) == "MEMORY"
    fail_in_background(memory_repo)
    for payload in (claude, qwen, copilot):
        assert statusline(memory_repo, payload) == FAILED
    cleared = run_cli(memory_repo, *CLEAR.split()[2:])
    assert cleared.returncode == 0 and cleared.stdout.startswith("cleared: MEMORY-FAIL: model reply not JSON")
    assert statusline(memory_repo, qwen) == "MEMORY"


def test_qwen_gets_a_status_line_and_uninstall_takes_it_away(memory_repo: Path) -> None:
    digest = index_digest(memory_repo)
    installed = run_cli(memory_repo, "agent", "install", "qwen")
    assert installed.returncode == 0, installed.stderr
    settings = json.loads((memory_repo / ".qwen" / "settings.json").read_text(encoding="utf-8"))
    assert settings["ui"]["statusLine"] == {"type": "command", "command": "git-memory agent statusline"}
    assert "statusLine" not in settings  # Qwen reads it under "ui" only
    # A user's own status line is kept, and install says how to add the badge to it.
    own = {"$version": 4, "ui": {"statusLine": {"type": "command", "command": "my-line"}, "theme": "x"}}
    (memory_repo / ".qwen" / "settings.json").write_text(json.dumps(own), encoding="utf-8")
    again = run_cli(memory_repo, "agent", "install", "qwen")
    assert again.returncode == 0 and "already has one (my-line)" in again.stdout
    kept = json.loads((memory_repo / ".qwen" / "settings.json").read_text(encoding="utf-8"))
    assert kept["ui"] == own["ui"]
    (memory_repo / ".qwen" / "settings.json").unlink()
    run_cli(memory_repo, "agent", "install", "qwen")
    removed = run_cli(memory_repo, "agent", "uninstall", "qwen")
    assert removed.returncode == 0, removed.stderr
    left = memory_repo / ".qwen" / "settings.json"
    assert not left.exists() or "ui" not in json.loads(left.read_text(encoding="utf-8"))
    assert index_digest(memory_repo) == digest


def test_copilot_gets_a_status_line_in_its_user_settings_only(memory_repo: Path, tmp_path: Path) -> None:
    """Copilot CLI reads ``statusLine`` from $COPILOT_HOME/settings.json alone: a project install
    leaves it out of the hooks file, a user install adds it, and uninstall takes it away."""
    digest = index_digest(memory_repo)
    env = {**cli_env(), "COPILOT_HOME": str(tmp_path / "copilot-home")}
    project = run_cli(memory_repo, "agent", "install", "copilot", env=env)
    assert project.returncode == 0, project.stderr
    assert "statusLine" not in json.loads((memory_repo / ".github" / "hooks" / "chord-git.json").read_text("utf-8"))
    assert "statusLine" not in project.stdout.splitlines()[0] and "--scope user" in project.stdout
    user = run_cli(memory_repo, "agent", "install", "copilot", "--scope", "user", env=env)
    assert user.returncode == 0 and user.stdout.splitlines()[0].endswith(", statusLine"), user.stdout
    path = tmp_path / "copilot-home" / "settings.json"
    assert json.loads(path.read_text("utf-8"))["statusLine"] == {"type": "command",
                                                                 "command": "git-memory agent statusline"}
    own = {"statusLine": {"type": "command", "command": "my-line"}, "theme": "dark"}
    path.write_text(json.dumps(own), encoding="utf-8")
    again = run_cli(memory_repo, "agent", "install", "copilot", "--scope", "user", env=env)
    assert again.returncode == 0 and "already has one (my-line)" in again.stdout
    assert json.loads(path.read_text("utf-8"))["statusLine"] == own["statusLine"]
    path.unlink()
    assert run_cli(memory_repo, "agent", "install", "copilot", "--scope", "user", env=env).returncode == 0
    removed = run_cli(memory_repo, "agent", "uninstall", "copilot", "--scope", "user", env=env)
    assert removed.returncode == 0 and "statusLine" in removed.stdout and not path.exists()
    assert index_digest(memory_repo) == digest
