"""The way in, end to end with the real CLIs, offline: a host writes its own memory (its own tools,
driven by its loopback model), ``git memory import`` finds it by the host's own path rule,
``review accept`` sends it to extraction as the user's statement, and the next session of
*another* host starts with the entry.

Claude Code writes topic files with its Write tool (auto memory, on by default); Codex's memory
pipeline writes a rollout summary and its memory summary; Gemini CLI writes its private project
memory with ``write_file``; Qwen Code's extraction subagent writes its managed memory. The recipes,
and what could not be left to the CLI itself (Codex extracts only sessions idle for an hour: the
session's time is moved back in its state database), are in ``testing/host_memory_*.py``.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from testing import agent_hosts
from testing.fake_anthropic import FakeAnthropic
from testing.fake_openai import FakeOpenAI, Reply
from testing.fake_responses import FakeResponses
from testing.gitutil import index_digest, run_cli
from testing.host_memory_claude_codex import claude_write_memory, codex_write_memory
from testing.host_memory_gemini_qwen import QwenMemory, gemini_write_memory, qwen_write_memory
from tests.agents.conftest import configure, record, settled, wait_for
from tests.agents.test_real_hosts import ClaudeCode, Codex, Host, install

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

FACT = "Preview deploys are built from the staging branch, never from main."
# What extraction writes from it: other words, so only chord-git's injection can bring them.
SUMMARY = "Build preview deploys from the staging branch only."


def _write(host: str, repo: Path, home: Path, bins: agent_hosts.HostBins, request: pytest.FixtureRequest) -> None:
    """The host writes its own memory; a missing CLI skips (fails under CI) as every real-host test."""
    if host == "claude-code":
        claude_write_memory(bins, home, repo, [("preview-deploys", FACT)])
    elif host == "codex":
        codex_write_memory(bins, home, repo, [("preview-deploys", FACT)])
    elif host == "gemini":
        gemini_write_memory(home, repo, [FACT], binary=request.getfixturevalue("gemini_bin"))
    else:
        qwen_write_memory(home, repo, [QwenMemory("Preview deploys", "where previews build from", FACT)],
                          binary=request.getfixturevalue("qwen_bin"))


def _next_session(host: str, repo: Path, bins: agent_hosts.HostBins, tmp_path: Path) -> str:
    """The first model request of a session of another host, as text."""
    def run(make: Callable[[Any], Host], server: Any) -> str:
        with server:
            other = make(server)
            install(other)
            _done, _session, first = other.run("Hello.")
            return first

    if host == "claude-code":
        return run(lambda s: Codex(repo, bins, s, tmp_path / "codex-home-next"), FakeResponses(reply="Hi."))
    return run(lambda s: ClaudeCode(repo, bins, s), FakeAnthropic(reply="Hi."))


@pytest.mark.parametrize("host", ["claude-code", "codex", "gemini", "qwen"])
def test_a_hosts_own_memory_reaches_another_hosts_next_session(host: str, repo: Path, tmp_path: Path,
                                                                host_bins: agent_hosts.HostBins,
                                                                request: pytest.FixtureRequest) -> None:
    home = Path(os.environ["HOME"])
    _write(host, repo, home, host_bins, request)
    before = index_digest(repo)
    done = run_cli(repo, "import", host, "--json")
    assert done.returncode == 0, done.stderr
    proposed = [item for item in json.loads(done.stdout)["proposed"] if FACT in item["text"]]
    assert len(proposed) == 1, done.stdout
    with FakeOpenAI() as extraction:
        configure(extraction.base_url)
        extraction.script("extract-m", Reply({"records": [record(SUMMARY, FACT)], "retire": [], "promotions": []}))
        accepted = run_cli(repo, "review", "accept", proposed[0]["id"])
        assert accepted.returncode == 0, accepted.stderr
        assert wait_for(lambda: SUMMARY in (repo / "MEMORY.md").read_text("utf-8") if (repo / "MEMORY.md").exists()
                        else False, timeout=120)
        assert wait_for(lambda: settled(repo), timeout=60)
        [sent] = extraction.requests
        said = "\n".join(m["content"] for m in sent.body["messages"] if m["role"] == "user")
        assert FACT in said  # sent as the user's statement
    assert index_digest(repo) == before
    first = _next_session(host, repo, host_bins, tmp_path)
    assert SUMMARY in first
