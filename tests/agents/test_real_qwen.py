"""End to end with the real Qwen Code CLI (pinned, installed from npm into the user cache), offline.

The proof of ``test_real_hosts.py`` (``prove``), with one difference in how a session ends:
``qwen -p`` never reports the end of a session, and a turn's end only registers it (R14: a
working session never adds entries), so the session is handed off once Qwen's process has exited;
the register's digests keep a resumed session from sending it again. The CLI's model is a
loopback Chat Completions API.
"""
from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from testing import agent_hosts
from testing.fake_chat import FakeChat
from testing.fake_openai import FakeOpenAI
from testing.gitutil import cli_env
from testing.loopback import Seen
from tests.agents.conftest import configure
from tests.agents.test_real_hosts import Host, install, prove

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


class Qwen(Host):
    name = "qwen"
    model_path = "/v1/chat/completions"

    def __init__(self, repo: Path, binary: Path, server: FakeChat, home: Path) -> None:
        super().__init__(repo, agent_hosts.qwen_env(cli_env(), home, server.base_url))
        self.binary, self.server, self.home = binary, server, home
        self.fake = server

    def model_requests(self) -> list[Seen]:
        return self.fake.chat_requests()

    def command(self, prompt: str, resume: str | None) -> list[str]:
        return [str(self.binary), "-p", prompt, "--output-format", "json", *(["--resume", resume] if resume else [])]

    def session_id(self, done: subprocess.CompletedProcess[str]) -> str:
        events = json.loads(done.stdout)
        return str(next(e["session_id"] for e in events if isinstance(e, dict) and e.get("session_id")))


@pytest.fixture
def qwen(memory_repo: Path, qwen_bin: Path, tmp_path: Path) -> Iterator[Qwen]:
    with FakeChat(reply="Noted.") as server:
        yield Qwen(memory_repo, qwen_bin, server, tmp_path / "qwen-home")


def test_qwen_in_one_command(qwen: Qwen, extraction: FakeOpenAI) -> None:
    configure(extraction.base_url)
    install(qwen)
    settings = qwen.repo / ".qwen" / "settings.json"
    installed = settings.read_bytes()
    prove(qwen, extraction)
    assert settings.read_bytes() == installed  # Qwen found nothing to add: no change nobody made
    log = (qwen.repo / ".git" / "chord-memory" / "agents" / "watch.log").read_text(encoding="utf-8")
    assert "has exited" in log  # each session was frozen by Qwen's exit, not at a turn's end
