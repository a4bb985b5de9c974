"""The pinned CLIs' installer: where its cache lives, and what happens without npm."""
from __future__ import annotations

from pathlib import Path

import pytest

from testing import agent_hosts


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
