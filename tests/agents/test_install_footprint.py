"""``git memory agent install|uninstall`` footprint: a warning when the hosts cannot find
``git-memory``, uninstall taking away exactly what install made, and ``--scope local`` files
hidden from git in ``.git/info/exclude`` (never ``.gitignore``, R37)."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chord_git.agents.hosts import BUILTIN
from chord_git.agents.host import Host
from chord_git.git import exclude
from testing.gitutil import cli_env, git, index_digest, run_cli

HOSTS = BUILTIN.hosts
EXCLUDE = Path(".git") / "info" / "exclude"


def ids(host: Host) -> str:
    return host.name


def tree(root: Path) -> dict[str, str]:
    """Every file (by content hash) and folder under ``root``, ``.git/`` reduced to the parts a
    command could change for the user: its index and ignore file."""
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel == ".git" or rel.startswith(".git/"):
            continue
        out[rel] = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    out["<index>"] = index_digest(root)
    exclude = root / EXCLUDE
    out["<exclude>"] = exclude.read_text(encoding="utf-8") if exclude.exists() else "<absent>"
    return out


def settings_file(host: Host, scope: str, repo: Path) -> Path:
    return host.settings(scope, repo, {"HOME": os.environ["HOME"]})


def their_settings(host: Host, path: Path) -> None:
    """A settings file of the user's own, before any install: a key and a hook of theirs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if host.shim is not None:  # plugin hosts: a plugin of theirs next to where ours goes
        (path.parent / f"their-own{path.suffix}").write_text("export default {}\n", encoding="utf-8")
        return
    doc: dict[str, object] = {"env": {"FOO": "1"},
                              "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "./mine.sh"}]}]}}
    if host.name == "qwen":
        doc = {"$version": 4, **doc}  # Qwen writes its schema version into every settings file it saves
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------- PATH
def path_without_git_memory(tmp_path: Path) -> str:
    """A PATH that finds git and nothing of chord-git's."""
    folder = tmp_path / "only-git"
    folder.mkdir()
    found = shutil.which("git")
    assert found is not None
    (folder / "git").symlink_to(found)
    return str(folder)


def test_install_warns_with_the_fix_when_git_memory_is_not_on_path(repo: Path, tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "git-memory"
    env = {**cli_env(), "PATH": path_without_git_memory(tmp_path)}
    done = subprocess.run([str(script), "agent", "install", "claude-code"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert ".claude/settings.json: added" in done.stdout
    [warning] = [line for line in done.stderr.splitlines() if line.startswith("warning: git-memory is not on PATH")]
    assert "Claude Code runs `git-memory agent hook --host claude-code` by name" in warning
    fix = warning.split("shell profile: ", 1)[1]
    assert fix.startswith("export PATH=") and str(script.parent) in fix
    # The printed line works as printed: a shell that runs it finds git-memory.
    shell = subprocess.run(["/bin/sh", "-c", f'{fix}\ncommand -v git-memory'], env=env, capture_output=True,
                           text=True, timeout=30)
    assert shell.returncode == 0 and shell.stdout.strip() == str(script)
    # On PATH: no warning; uninstall never warns.
    quiet = run_cli(repo, "agent", "install", "codex")
    assert quiet.returncode == 0 and "not on PATH" not in quiet.stderr
    removed = subprocess.run([str(script), "agent", "uninstall", "claude-code"], cwd=repo, env=env,
                             capture_output=True, text=True, timeout=120)
    assert removed.returncode == 0 and "not on PATH" not in removed.stderr


# ---------------------------------------------------------------------------- uninstall
@pytest.mark.parametrize("scope", ["project", "local"])
@pytest.mark.parametrize("host", HOSTS, ids=ids)
def test_uninstall_after_install_leaves_the_tree_as_it_was(repo: Path, host: Host, scope: str) -> None:
    before = tree(repo)
    installed = run_cli(repo, "agent", "install", host.name, "--scope", scope)
    assert installed.returncode == 0, installed.stderr
    assert settings_file(host, scope, repo).is_file()
    removed = run_cli(repo, "agent", "uninstall", host.name, "--scope", scope)
    assert removed.returncode == 0, removed.stderr
    assert tree(repo) == before  # no `{}` file, no empty folder, no exclude line left behind


@pytest.mark.parametrize("scope", ["project", "local"])
@pytest.mark.parametrize("host", HOSTS, ids=ids)
def test_uninstall_keeps_the_users_own_settings_byte_for_byte(repo: Path, host: Host, scope: str) -> None:
    path = settings_file(host, scope, repo)
    their_settings(host, path)
    (repo / ".gitignore").write_text("node_modules/\n", encoding="utf-8")
    before = tree(repo)
    assert run_cli(repo, "agent", "install", host.name, "--scope", scope).returncode == 0
    assert run_cli(repo, "agent", "uninstall", host.name, "--scope", scope).returncode == 0
    assert tree(repo) == before


def test_user_scope_uninstall_removes_the_folders_install_made(repo: Path) -> None:
    home = Path(os.environ["HOME"])
    (home / ".config").mkdir(exist_ok=True)
    before = sorted(p.relative_to(home).as_posix() for p in home.rglob("*"))
    for host in HOSTS:
        assert run_cli(repo, "agent", "install", host.name, "--scope", "user").returncode == 0
    assert (home / ".config" / "opencode" / "plugins" / "chord-git.js").is_file()
    for host in HOSTS:
        assert run_cli(repo, "agent", "uninstall", host.name, "--scope", "user").returncode == 0
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == before


def test_a_skeleton_left_by_an_older_uninstall_is_deleted(repo: Path) -> None:
    """Older versions left ``{"version": 1}`` behind; uninstall now takes it away."""
    path = repo / ".github" / "hooks" / "chord-git.json"
    path.parent.mkdir(parents=True)
    path.write_text('{\n  "version": 1\n}\n', encoding="utf-8")
    removed = run_cli(repo, "agent", "uninstall", "copilot")
    assert removed.returncode == 0, removed.stderr
    assert "deleted the file, which held nothing else" in removed.stdout
    assert not (repo / ".github").exists()


def test_a_file_with_anything_of_the_users_stays(repo: Path) -> None:
    path = repo / ".claude" / "settings.json"
    assert run_cli(repo, "agent", "install", "claude-code").returncode == 0
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["permissions"] = {"allow": ["Bash(make)"]}
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    assert run_cli(repo, "agent", "uninstall", "claude-code").returncode == 0
    assert json.loads(path.read_text(encoding="utf-8")) == {"permissions": {"allow": ["Bash(make)"]}}


# ---------------------------------------------------------------------------- --scope local
def test_local_scope_is_hidden_in_info_exclude_and_uninstall_takes_the_line_away(repo: Path) -> None:
    (repo / ".gitignore").write_text("build/\n", encoding="utf-8")
    gitignore = (repo / ".gitignore").read_bytes()
    exclude = repo / EXCLUDE
    exclude_before = exclude.read_bytes()
    index_before = index_digest(repo)
    done = run_cli(repo, "agent", "install", "claude-code", "--scope", "local")
    assert done.returncode == 0, done.stderr
    assert ".claude/settings.local.json: hidden from git in .git/info/exclude" in done.stdout
    assert "/.claude/settings.local.json\n" in exclude.read_text(encoding="utf-8")
    ignored = subprocess.run(["git", "check-ignore", "-v", ".claude/settings.local.json"], cwd=repo,
                             capture_output=True, text=True)
    assert ignored.returncode == 0 and ignored.stdout.startswith(".git/info/exclude:")
    assert ".claude" not in git(repo, "status", "--porcelain")
    written = exclude.read_bytes()
    again = run_cli(repo, "agent", "install", "claude-code", "--scope", "local")
    assert again.returncode == 0 and "hidden from git" not in again.stdout
    assert exclude.read_bytes() == written  # idempotent
    assert (repo / ".gitignore").read_bytes() == gitignore and index_digest(repo) == index_before
    removed = run_cli(repo, "agent", "uninstall", "claude-code", "--scope", "local")
    assert removed.returncode == 0, removed.stderr
    assert "removed its line from .git/info/exclude" in removed.stdout
    assert exclude.read_bytes() == exclude_before
    assert (repo / ".gitignore").read_bytes() == gitignore and index_digest(repo) == index_before


def test_a_users_own_line_and_an_ignored_file_are_left_alone(repo: Path) -> None:
    exclude = repo / EXCLUDE
    exclude.write_text(exclude.read_text(encoding="utf-8") + "/.claude/settings.local.json\n", encoding="utf-8")
    theirs = exclude.read_bytes()
    done = run_cli(repo, "agent", "install", "claude-code", "--scope", "local")
    assert done.returncode == 0 and "hidden from git" not in done.stdout
    assert exclude.read_bytes() == theirs  # already ignored: nothing added
    assert run_cli(repo, "agent", "uninstall", "claude-code", "--scope", "local").returncode == 0
    assert exclude.read_bytes() == theirs  # their line is theirs


def test_a_project_install_of_the_same_file_shares_it_again(repo: Path) -> None:
    """Copilot has no personal project file: ``local`` and ``project`` are one file, and a project
    install must not stay hidden by the local one's line."""
    assert run_cli(repo, "agent", "install", "copilot", "--scope", "local").returncode == 0
    assert ".github" not in git(repo, "status", "--porcelain")
    shared = run_cli(repo, "agent", "install", "copilot", "--scope", "project")
    assert shared.returncode == 0, shared.stderr
    assert "removed its line from .git/info/exclude" in shared.stdout
    assert "?? .github/" in git(repo, "status", "--porcelain")


@pytest.mark.parametrize("rel, folder, line", [
    (".claude/settings.local.json", False, "/.claude/settings.local.json"),
    (".chord", True, "/.chord/"),
])
def test_exclude_patterns_are_anchored(rel: str, folder: bool, line: str) -> None:
    assert exclude.pattern(rel, folder=folder) == line


def test_an_exclude_pattern_matches_that_path_and_no_other(repo: Path) -> None:
    odd = "sub dir/#x[1]*.md"
    (repo / "sub dir").mkdir()
    for name in (odd, "sub dir/#x1.md", "sub dir/#x[1]a.md"):
        (repo / name).write_text("x\n", encoding="utf-8")
    exclude_file = repo / EXCLUDE
    exclude_file.write_text(exclude.pattern(odd) + "\n", encoding="utf-8")
    said = subprocess.run(["git", "check-ignore", "--stdin"], cwd=repo, capture_output=True, text=True,
                          input=f"{odd}\nsub dir/#x1.md\nsub dir/#x[1]a.md\n")
    assert said.stdout.splitlines() == [odd]


def test_exclude_lines_come_in_pairs_and_only_ours_go() -> None:
    theirs = "# mine\n/.claude/settings.local.json\n*.log"
    ours = exclude.with_line(theirs, "/.claude/settings.local.json", "why")
    assert ours == theirs + "\n# chord-git: why\n/.claude/settings.local.json\n"
    assert exclude.with_line(ours, "/.claude/settings.local.json", "why") == ours
    assert exclude.without_line(ours, "/.claude/settings.local.json") == theirs + "\n"
    assert exclude.without_line(theirs, "/.claude/settings.local.json") == theirs
