"""``git memory agent install|uninstall`` for hosts that load a plugin file instead of running
command hooks: the file is written as shipped, never over one of the user's, and it runs nothing
but ``git-memory agent hook``."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from chord_git.agents.host import Host
from chord_git.agents.hosts import BUILTIN
from chord_git.agents.install import SHIM_MARK, shim_text
from chord_git.commands.agent import install
from testing.commands import run
from testing.gitutil import cli_env, git, index_digest, run_cli

SHIM_HOSTS = [host for host in BUILTIN.hosts if host.shim is not None]
ids = [host.name for host in SHIM_HOSTS]


def shim_path(host: Host, repo: Path) -> Path:
    return host.settings("project", repo, os.environ)


@pytest.mark.parametrize("host", SHIM_HOSTS, ids=ids)
def test_install_writes_the_shim_once_and_uninstall_removes_only_it(repo: Path, host: Host) -> None:
    path = shim_path(host, repo)
    path.parent.mkdir(parents=True)
    theirs = path.parent / "their-own.ts"
    theirs.write_text("export default function () {}\n", encoding="utf-8")
    before_index = index_digest(repo)
    first = run_cli(repo, "agent", "install", host.name)
    assert first.returncode == 0, first.stderr
    shown = path.relative_to(repo).as_posix()
    assert first.stdout.startswith(f"{shown}: added {host.shim_label}\n")
    assert "without asking" in first.stdout and "is a project file" in first.stdout
    assert path.read_text(encoding="utf-8") == shim_text(host)
    written = path.read_bytes()
    again = run(install, repo, host_name=host.name)
    assert "already installed; nothing changed" in again.stdout and path.read_bytes() == written
    assert index_digest(repo) == before_index and git(repo, "diff", "--cached", "--name-only") == ""
    removed = run_cli(repo, "agent", "uninstall", host.name)
    assert removed.returncode == 0 and f"{shown}: removed chord-git from {host.shim_label}" in removed.stdout
    assert not path.exists() and theirs.read_text(encoding="utf-8") == "export default function () {}\n"
    assert "nothing changed" in run(install, repo, host_name=host.name, remove=True).stdout


@pytest.mark.parametrize("host", SHIM_HOSTS, ids=ids)
def test_a_file_of_the_users_is_never_replaced_nor_removed(repo: Path, host: Host) -> None:
    path = shim_path(host, repo)
    path.parent.mkdir(parents=True)
    path.write_text("// my own plugin\n", encoding="utf-8")
    result = run(install, repo, host_name=host.name)
    assert result.returncode == 2
    assert f"{path.relative_to(repo).as_posix()}: exists and was not written by chord-git" in result.stderr
    assert "nothing changed" in run(install, repo, host_name=host.name, remove=True).stdout
    assert path.read_text(encoding="utf-8") == "// my own plugin\n"


@pytest.mark.parametrize("host", SHIM_HOSTS, ids=ids)
def test_an_older_shim_is_updated_and_dry_run_writes_nothing(repo: Path, host: Host) -> None:
    path = shim_path(host, repo)
    dry = run(install, repo, host_name=host.name, dry_run=True)
    assert dry.stdout.startswith(f"--- /dev/null\n+++ b/{path.relative_to(repo).as_posix()}\n") and not path.exists()
    path.parent.mkdir(parents=True)
    path.write_text(f"// {SHIM_MARK} (an older version)\n", encoding="utf-8")
    result = run(install, repo, host_name=host.name)
    assert result.returncode == 0 and f"updated {host.shim_label}" in result.stdout
    assert path.read_text(encoding="utf-8") == shim_text(host)


def test_pi_user_scope_follows_its_agent_dir(repo: Path, tmp_path: Path) -> None:
    env = {**cli_env(), "PI_CODING_AGENT_DIR": str(tmp_path / "pi-agent")}
    result = run_cli(repo, "agent", "install", "pi", "--scope", "user", env=env)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "pi-agent" / "extensions" / "chord-git.ts").is_file()
    assert not (repo / ".pi").exists() and "is a project file" not in result.stdout


@pytest.mark.parametrize("host", SHIM_HOSTS, ids=ids)
def test_the_shim_runs_nothing_but_the_hook(host: Host) -> None:
    """The host runs the file without asking anyone: it imports only Node's process module and
    starts one program, ``git-memory agent hook --host <name>`` (and, for pi's footer, ``git-memory
    agent statusline``), with an argument list (no shell)."""
    text = shim_text(host)
    assert SHIM_MARK in "\n".join(text.splitlines()[:3])
    imports = re.findall(r'^\s*import\b.*?from\s+"([^"]+)"', text, re.M)
    assert imports == ["node:child_process"]
    assert re.findall(r"\b(spawn|spawnSync|exec|execSync|execFile|fork|require|eval|Function|fetch)\s*\(", text) == ["spawn"]
    [call] = re.findall(r"\bspawn\(([^)]*)\)", text)
    hook = f'["agent", "hook", "--host", "{host.name}"]'
    assert call.startswith(f'"git-memory", {hook}') or call.startswith('"git-memory", args,')
    # Every argument list in the file is one of the two commands.
    assert set(re.findall(r'\["agent"[^\]]*\]', text)) <= {hook, '["agent", "statusline"]'}
    assert hook in text and "shell" not in call


def test_opencode_user_scope_follows_xdg_config_home(repo: Path, tmp_path: Path) -> None:
    env = {**cli_env(), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    result = run_cli(repo, "agent", "install", "opencode", "--scope", "user", env=env)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "config" / "opencode" / "plugins" / "chord-git.js").is_file()
    assert not (repo / ".opencode").exists() and "is a project file" not in result.stdout
