"""The pinned CLIs' installer: where its cache lives, what happens without npm, and two test processes at once."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from testing import agent_hosts
from testing.waiting import wait_for
from tests.conftest import needed

REPO = Path(__file__).resolve().parents[2]


def test_the_cache_lives_outside_the_work_tree_and_names_the_versions() -> None:
    env = {"HOME": "/home/dev"}
    assert agent_hosts.default_cache(env) == Path(
        f"/home/dev/.cache/chord-git/agent-hosts/claude-code-{agent_hosts.CLAUDE_CODE_VERSION}"
        f"_codex-{agent_hosts.CODEX_VERSION}")
    assert agent_hosts.default_cache({"HOME": "/h", "XDG_CACHE_HOME": "/c"}).parent == Path("/c/chord-git/agent-hosts")
    assert agent_hosts.default_cache({"HOME": "/h", agent_hosts.CACHE_ENV: "/x/y"}) == Path("/x/y")
    repo = Path(__file__).resolve().parents[2]
    assert repo not in agent_hosts.CACHE.parents  # never inside the checkout


def test_without_npm_the_installer_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(agent_hosts._INSTALL_ENV, "PATH", str(tmp_path / "no-bin"))
    with pytest.raises(agent_hosts.Unavailable, match="npm is not installed"):
        agent_hosts.ensure(cache=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


FAKE_NPM = """#!/bin/sh
# `npm install --prefix DIR ...`: note the call, wait for the test's go-ahead, then lay out both CLIs.
echo "$$" >> "$NPM_CALLS"
while [ ! -e "$NPM_GO" ]; do sleep 0.02; done
mkdir -p "$3/node_modules/.bin"
printf '#!/bin/sh\\necho "{claude} (Claude Code)"\\n' > "$3/node_modules/.bin/claude"
printf '#!/bin/sh\\necho "codex-cli {codex}"\\n' > "$3/node_modules/.bin/codex"
chmod +x "$3/node_modules/.bin/claude" "$3/node_modules/.bin/codex"
"""
ENSURE = "import sys; from pathlib import Path; from testing import agent_hosts; print(agent_hosts.ensure(Path(sys.argv[1])).claude)"


def blocked_on(lock: Path, pid: int) -> bool:
    """Whether ``pid`` waits for the flock on ``lock`` (a ``->`` line of /proc/locks)."""
    inode = lock.stat().st_ino
    text = Path("/proc/locks").read_text()
    return re.search(rf"^\d+: -> FLOCK\s+\S+\s+WRITE\s+{pid}\s+\S+:{inode}\s", text, re.M) is not None


def test_two_test_processes_install_the_clis_once(tmp_path: Path) -> None:
    """Parallel test workers share one cache: the second waits for the first's install and uses it."""
    if not Path("/proc/locks").exists():
        needed("needs /proc/locks to see the second process wait")
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "npm").write_text(FAKE_NPM.format(claude=agent_hosts.CLAUDE_CODE_VERSION, codex=agent_hosts.CODEX_VERSION))
    (tools / "npm").chmod(0o755)
    calls, go, cache = tmp_path / "npm-calls", tmp_path / "npm-go", tmp_path / "cache" / "hosts"
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}/usr/bin{os.pathsep}/bin", "NPM_CALLS": str(calls),
           "NPM_GO": str(go), "PYTHONPATH": str(REPO)}

    def start() -> subprocess.Popen[str]:
        return subprocess.Popen([sys.executable, "-c", ENSURE, str(cache)], cwd=REPO, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    first = start()
    try:
        assert wait_for(lambda: calls.exists() or first.poll() is not None, timeout=60, poll=0.02), "the first never ran npm"
        second = start()
        try:
            lock = cache.parent / f".{cache.name}.lock"
            # Deterministic: the first holds the lock inside npm until the go-ahead below.
            assert wait_for(lambda: blocked_on(lock, second.pid) or len(calls.read_text().split()) > 1
                            or second.poll() is not None, timeout=60, poll=0.02)
            assert len(calls.read_text().split()) == 1, "the second process ran npm too"
            go.touch()
            outputs = [p.communicate(timeout=60) for p in (first, second)]
        finally:
            second.kill()
    finally:
        go.touch()
        first.kill()
    assert [p.returncode for p in (first, second)] == [0, 0], outputs
    assert outputs[0][0] == outputs[1][0] == f"{agent_hosts.bins(cache).claude}\n"
    assert len(calls.read_text().split()) == 1
    assert sorted(p.name for p in cache.parent.iterdir()) == [f".{cache.name}.lock", cache.name]  # no partial install left



def test_pi_and_opencode_have_their_own_cache_next_to_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = agent_hosts.plugin_hosts_cache({"HOME": "/home/dev"})
    assert cache == Path(f"/home/dev/.cache/chord-git/agent-hosts/pi-{agent_hosts.PI_VERSION}"
                         f"_opencode-{agent_hosts.OPENCODE_VERSION}")
    assert REPO not in agent_hosts.PLUGIN_HOSTS_CACHE.parents
    monkeypatch.setitem(agent_hosts._INSTALL_ENV, "PATH", str(tmp_path / "no-bin"))
    with pytest.raises(agent_hosts.Unavailable, match="npm is not installed"):
        agent_hosts.ensure_plugin_hosts(cache=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()
# ---------------------------------------------------------------------------- the hosts added later
PACKAGE_NPM = """#!/bin/sh
# `npm install --prefix DIR ... SPEC`: note the call; lay out the package (or fail when told to).
echo "$@" >> "$NPM_CALLS"
[ -n "$NPM_FAIL" ] && {{ echo "npm ERR! 404" >&2; exit 1; }}
mkdir -p "$3/node_modules/{npm}" "$3/node_modules/.bin"
printf '{{"name": "{npm}", "version": "{version}"}}' > "$3/node_modules/{npm}/package.json"
printf '#!/bin/sh\\necho ok\\n' > "$3/node_modules/.bin/{bin}"
chmod +x "$3/node_modules/.bin/{bin}"
"""


def test_each_added_host_is_installed_once_into_its_own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = agent_hosts.GEMINI
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "npm").write_text(PACKAGE_NPM.format(npm=package.npm, version=package.version, bin=package.bin))
    (tools / "npm").chmod(0o755)
    calls = tmp_path / "npm-calls"
    monkeypatch.setitem(agent_hosts._INSTALL_ENV, "PATH", f"{tools}{os.pathsep}/usr/bin{os.pathsep}/bin")
    monkeypatch.setitem(agent_hosts._INSTALL_ENV, "NPM_CALLS", str(calls))
    cache = tmp_path / "cache" / "claude-code-x_codex-y"
    binary = agent_hosts.ensure_package(package, cache)
    target = cache.parent / f"gemini-cli-{package.version}"
    assert binary == target / "node_modules" / ".bin" / "gemini" and binary.exists()
    assert calls.read_text().split()[-1] == f"@google/gemini-cli@{package.version}"  # pinned
    assert agent_hosts.ensure_package(package, cache) == binary
    assert len(calls.read_text().splitlines()) == 1  # the second call found it installed
    assert sorted(p.name for p in cache.parent.iterdir()) == [f".{target.name}.lock", target.name]


def test_a_failed_install_of_an_added_host_says_why_and_leaves_nothing(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    package = agent_hosts.QWEN
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "npm").write_text(PACKAGE_NPM.format(npm=package.npm, version=package.version, bin=package.bin))
    (tools / "npm").chmod(0o755)
    monkeypatch.setitem(agent_hosts._INSTALL_ENV, "PATH", f"{tools}{os.pathsep}/usr/bin{os.pathsep}/bin")
    monkeypatch.setitem(agent_hosts._INSTALL_ENV, "NPM_CALLS", str(tmp_path / "npm-calls"))
    monkeypatch.setitem(agent_hosts._INSTALL_ENV, "NPM_FAIL", "1")
    cache = tmp_path / "cache" / "hosts"
    with pytest.raises(agent_hosts.Unavailable, match=r"npm install @qwen-code/qwen-code@\S+ failed \(1\): npm ERR! 404"):
        agent_hosts.ensure_package(package, cache)
    assert [p.name for p in cache.parent.iterdir()] == [f".qwen-code-{package.version}.lock"]
    monkeypatch.setitem(agent_hosts._INSTALL_ENV, "PATH", str(tmp_path / "no-bin"))
    with pytest.raises(agent_hosts.Unavailable, match="npm is not installed"):
        agent_hosts.ensure_package(package, cache)
