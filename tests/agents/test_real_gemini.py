"""End to end with the real Gemini CLI (pinned, installed from npm into the user cache), offline.

The same proof as ``test_real_hosts.py`` gives Claude Code and Codex (``prove``): memory in the
first model request, busy while the model is asked, a record from the user's words after the
session, the new entry in the next and in a resumed session, the injected summary never extracted
as the user's words (Gemini stores it inside the user's message), ``.git/index`` unchanged, and a
failed extraction that is visible and retried. The CLI's model is a loopback Gemini API.
"""
from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from testing import agent_hosts
from testing.fake_gemini import FakeGemini
from testing.fake_openai import FakeOpenAI
from testing.gitutil import cli_env
from testing.loopback import Seen
from tests.agents.conftest import CANARY, configure
from tests.agents.test_real_hosts import Host, install, prove

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]
MODEL = "gemini-2.5-flash"  # a fixed model: no router request before the turn


class Gemini(Host):
    name = "gemini"
    model_path = f"/v1beta/models/{MODEL}:streamGenerateContent"

    def __init__(self, repo: Path, binary: Path, server: FakeGemini, home: Path) -> None:
        super().__init__(repo, agent_hosts.gemini_env(cli_env(), home, server.base_url))
        self.binary, self.server, self.home = binary, server, home
        self.fake = server

    def model_requests(self) -> list[Seen]:
        return self.fake.generate_requests()

    def command(self, prompt: str, resume: str | None) -> list[str]:
        return [str(self.binary), "-p", prompt, "-m", MODEL, "--output-format", "json",
                *(["--resume", resume] if resume else [])]

    def session_id(self, done: subprocess.CompletedProcess[str]) -> str:
        return str(json.loads(done.stdout)["session_id"])


@pytest.fixture
def gemini(memory_repo: Path, gemini_bin: Path, tmp_path: Path) -> Iterator[Gemini]:
    with FakeGemini(reply="Noted.") as server:
        yield Gemini(memory_repo, gemini_bin, server, tmp_path / "gemini-home")


def test_gemini_in_one_command(gemini: Gemini, extraction: FakeOpenAI) -> None:
    configure(extraction.base_url)
    install(gemini)
    prove(gemini, extraction)


def test_gemini_stores_the_injected_summary_in_the_user_message(gemini: Gemini, extraction: FakeOpenAI) -> None:
    """The canary: the summary is inside the user's message of the session file, and the reader
    gives back the user's words alone."""
    from chord_git import transcripts

    configure(extraction.base_url)
    install(gemini)
    gemini.run("We use pnpm, never npm, in this repo.")
    [session_file] = (gemini.home / ".gemini" / "tmp").glob("*/chats/session-*.jsonl")
    assert CANARY in session_file.read_text(encoding="utf-8")
    read = transcripts.load(session_file)
    assert read.source_format == "gemini"
    assert [m.content for m in read.user_messages()] == ["We use pnpm, never npm, in this repo."]
