"""``git memory agent install|uninstall``: merging into real settings files, idempotent, never staged.

The command function runs directly; a few runs go through git to prove the argument parsing."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from chord_git.agents import settings
from chord_git.commands.agent import install
from testing.commands import run
from testing.gitutil import cli_env, git, index_digest, run_cli

HOOK = "git-memory agent hook --host claude-code"
THEIRS = {
    "permissions": {"allow": ["Bash(npm run lint)"]},
    "env": {"FOO": "1"},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}


def commands(doc: dict[str, Any], event: str) -> list[str]:
    return [e["command"] for g in doc.get("hooks", {}).get(event, []) for e in g["hooks"]]


def test_install_merges_keeps_everything_else_and_is_idempotent(repo: Path) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(THEIRS, indent=4) + "\n", encoding="utf-8")
    before_index = index_digest(repo)
    first = run_cli(repo, "agent", "install", "claude-code")
    assert first.returncode == 0, first.stderr
    assert ".claude/settings.json: added SessionStart, UserPromptSubmit, Stop, SessionEnd, statusLine" in first.stdout
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["permissions"] == THEIRS["permissions"] and doc["env"] == THEIRS["env"]
    assert commands(doc, "PreToolUse") == ["./guard.sh"]
    assert commands(doc, "Stop") == ["notify-send done", HOOK]  # theirs first, ours added
    for event in ("SessionStart", "UserPromptSubmit", "SessionEnd"):
        assert commands(doc, event) == [HOOK]
    assert doc["statusLine"] == {"type": "command", "command": "git-memory agent statusline"}
    assert list(doc) == ["permissions", "env", "hooks", "statusLine"]  # key order kept
    assert path.read_text(encoding="utf-8").startswith('{\n    "permissions"')  # their indentation kept
    written = path.read_bytes()
    second = run(install, repo, host_name="claude-code")
    assert second.returncode == 0 and "already installed; nothing changed" in second.stdout
    assert path.read_bytes() == written  # twice = the same bytes
    assert index_digest(repo) == before_index and git(repo, "diff", "--cached", "--name-only") == ""


def test_dry_run_prints_only_the_diff_and_writes_nothing(repo: Path) -> None:
    result = run(install, repo, host_name="claude-code", dry_run=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("--- /dev/null\n+++ b/.claude/settings.json\n")
    assert f'+            "command": "{HOOK}",' in result.stdout
    assert "added" not in result.stdout and not (repo / ".claude").exists()
    run(install, repo, host_name="claude-code")
    assert run(install, repo, host_name="claude-code", dry_run=True).stdout == ""


def test_uninstall_removes_only_ours(repo: Path) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    original = json.dumps(THEIRS, indent=2) + "\n"
    path.write_text(original, encoding="utf-8")
    assert run_cli(repo, "agent", "install", "claude-code").returncode == 0
    removed = run_cli(repo, "agent", "uninstall", "claude-code")
    assert removed.returncode == 0 and "removed chord-git from" in removed.stdout
    assert path.read_text(encoding="utf-8") == original
    again = run(install, repo, host_name="claude-code", remove=True)
    assert "nothing changed" in again.stdout and path.read_text(encoding="utf-8") == original


def test_a_status_line_of_the_user_is_left_alone(repo: Path) -> None:
    path = repo / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_text('{"statusLine": {"type": "command", "command": "~/bin/my-line"}}', encoding="utf-8")
    os.chmod(path, 0o600)
    result = run(install, repo, host_name="claude-code", scope="local")
    assert result.returncode == 0, result.stderr
    assert "already has one (~/bin/my-line)" in result.stdout and "git-memory agent statusline" in result.stdout
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["statusLine"]["command"] == "~/bin/my-line" and commands(doc, "SessionStart") == [HOOK]
    assert oct(path.stat().st_mode & 0o777) == oct(0o600)  # a personal file stays personal
    assert "is a project file" not in result.stdout


def test_codex_install_says_how_trust_works_and_user_scope_uses_codex_home(repo: Path, tmp_path: Path) -> None:
    project = run_cli(repo, "agent", "install", "codex")
    assert project.returncode == 0, project.stderr
    assert "trust" in project.stdout and "/hooks" in project.stdout
    doc = json.loads((repo / ".codex" / "hooks.json").read_text(encoding="utf-8"))
    assert commands(doc, "Stop") == ["git-memory agent hook --host codex"] and "statusLine" not in doc
    assert doc["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"] == 3  # Codex clamps SessionEnd to 3 s
    env = {**cli_env(), "CODEX_HOME": str(tmp_path / "codex-home")}
    user = run_cli(repo, "agent", "install", "codex", "--scope", "user", env=env)
    assert user.returncode == 0 and (tmp_path / "codex-home" / "hooks.json").is_file()
    assert str(tmp_path / "codex-home" / "hooks.json") in user.stdout


def test_claude_user_scope_goes_to_the_home_folder(repo: Path) -> None:
    result = run(install, repo, host_name="claude-code", scope="user")
    assert result.returncode == 0, result.stderr
    assert (Path(os.environ["HOME"]) / ".claude" / "settings.json").is_file()
    assert not (repo / ".claude").exists()


@pytest.mark.parametrize("content, line, message", [
    ('{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n', 3, "not valid JSON"),
    ('["not", "an", "object"]', None, "settings must be a JSON object"),
    ('{"hooks": []}', None, '"hooks" must be an object'),
    ('{"hooks": {"Stop": {"command": "x"}}}', None, '"hooks.Stop" must be a list'),
])
def test_bad_settings_are_refused_with_file_and_line(repo: Path, content: str, line: int | None,
                                                     message: str) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(content, encoding="utf-8")
    result = run(install, repo, host_name="claude-code")
    assert result.returncode == 2
    where = ".claude/settings.json" + (f":{line}" if line else "")
    assert f"git memory: {where}: {message}" in result.stderr
    assert path.read_text(encoding="utf-8") == content


@pytest.mark.parametrize("depth", [500, 100_000])
def test_a_deeply_nested_settings_file_is_one_clean_line(repo: Path, depth: int) -> None:
    """500 levels still parse but would not render back; 100,000 do not parse: both exit 2."""
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    content = '{"env": ' + '{"a": ' * depth + "1" + "}" * depth + "}"
    path.write_text(content, encoding="utf-8")
    result = run_cli(repo, "agent", "install", "claude-code")
    assert result.returncode == 2, result.stderr
    assert result.stderr == "git memory: .claude/settings.json: nested deeper than 64 levels; not a settings file\n"
    assert path.read_text(encoding="utf-8") == content


def test_symlinked_settings_are_not_written_through(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.json"
    outside.write_text("{}", encoding="utf-8")
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").symlink_to(outside)
    result = run_cli(repo, "agent", "install", "claude-code")
    assert result.returncode == 2 and "refusing to write through a symlink" in result.stderr
    assert outside.read_text(encoding="utf-8") == "{}"
    (repo / ".claude" / "settings.json").unlink()
    (repo / ".claude").rmdir()
    (repo / ".claude").symlink_to(tmp_path)
    assert run_cli(repo, "agent", "install", "claude-code").returncode == 2


def test_merge_repairs_our_entry_and_drops_duplicates() -> None:
    doc = {"hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "git memory agent hook", "timeout": 5}]},
        {"hooks": [{"type": "command", "command": "/opt/bin/git-memory agent hook --host codex"}]},
        {"matcher": "x", "hooks": [{"type": "command", "command": "mine"}]},
    ]}}
    changes = settings.Changes()
    out = settings.add_hooks(doc, {"Stop": 30}, HOOK, changes)
    assert out["hooks"]["Stop"] == [
        {"hooks": [{"type": "command", "command": HOOK, "timeout": 30}]},
        {"matcher": "x", "hooks": [{"type": "command", "command": "mine"}]},
    ]
    assert changes.updated == ["Stop", "Stop"] and doc["hooks"]["Stop"][0]["hooks"][0]["timeout"] == 5
    again = settings.Changes()
    assert settings.add_hooks(out, {"Stop": 30}, HOOK, again) == out and not again.any


@pytest.mark.parametrize("command, ours", [
    ("git-memory agent hook --host codex", True),
    ("git memory agent hook", True),
    ("/home/u/.venv/bin/git-memory agent hook", True),
    ("my-git-memory agent hook", False),
    ("echo git-memory agent hooked", False),
    ("git-memory agent statusline", False),
])
def test_which_entries_are_ours(command: str, ours: bool) -> None:
    assert settings.ours(command) is ours
