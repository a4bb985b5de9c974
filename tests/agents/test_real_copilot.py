"""End to end with the real GitHub Copilot CLI (pinned, installed from npm into the user cache),
offline and without a GitHub login: a custom provider pointed at a loopback Chat Completions API.

The proof of ``test_real_hosts.py`` (``prove``). Copilot puts the injected summary in a user
message of its own and records it in the session file as a hook's output: the canary shows that it
never comes back as the user's words.
"""
from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from testing import agent_hosts
from testing.fake_chat import FakeChat
from testing.fake_openai import FakeOpenAI
from testing.gitutil import cli_env
from testing.loopback import Seen
from tests.agents.conftest import CANARY, configure
from tests.agents.test_real_hosts import Host, install, prove

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


class Copilot(Host):
    name = "copilot"
    model_path = "/v1/chat/completions"

    def __init__(self, repo: Path, binary: Path, server: FakeChat, copilot_home: Path) -> None:
        super().__init__(repo, agent_hosts.copilot_env(cli_env(), copilot_home, server.base_url))
        self.binary, self.server, self.copilot_home = binary, server, copilot_home
        self.fake = server

    def model_requests(self) -> list[Seen]:
        return self.fake.chat_requests()

    def command(self, prompt: str, resume: str | None) -> list[str]:
        return [str(self.binary), "-p", prompt, *([f"--resume={resume}"] if resume else [])]

    def session_id(self, done: subprocess.CompletedProcess[str]) -> str:
        found = re.search(r"--resume=([0-9a-f-]{36})", done.stdout + done.stderr)
        assert found, done.stderr[-2000:]
        return found.group(1)


@pytest.fixture
def copilot(memory_repo: Path, copilot_bin: Path, tmp_path: Path) -> Iterator[Copilot]:
    with FakeChat(reply="Noted.") as server:
        yield Copilot(memory_repo, copilot_bin, server, tmp_path / "copilot-home")


def test_copilot_in_one_command(copilot: Copilot, extraction: FakeOpenAI) -> None:
    configure(extraction.base_url)
    install(copilot)
    prove(copilot, extraction)


def test_copilot_keeps_the_injected_summary_out_of_the_user_words(copilot: Copilot, extraction: FakeOpenAI) -> None:
    """The canary: the summary is a separate user message to the model and a hook output in the
    session file; the reader gives back the user's words alone."""
    from chord_git import transcripts

    configure(extraction.base_url)
    install(copilot)
    _, session, first = copilot.run("We use pnpm, never npm, in this repo.")
    [request] = copilot.model_requests()
    users = [m["content"] for m in request.body["messages"] if m.get("role") == "user"]
    assert any(CANARY in str(u) for u in users) and any("We use pnpm" in str(u) for u in users)
    events = copilot.copilot_home / "session-state" / session / "events.jsonl"
    assert CANARY in events.read_text(encoding="utf-8")
    read = transcripts.load(events)
    assert read.source_format == "copilot"
    assert [m.content for m in read.user_messages()] == ["We use pnpm, never npm, in this repo."]


def test_copilot_user_hooks_need_no_folder_trust(copilot: Copilot) -> None:
    """``--scope user`` writes ``$COPILOT_HOME/settings.json``, whose hooks run in a folder nobody
    trusted: the summary still reaches the first request."""
    from testing.gitutil import run_cli

    configure(None, enabled=False)
    env = dict(copilot.env)
    del env["COPILOT_ALLOW_ALL"]
    installed = run_cli(copilot.repo, "agent", "install", "copilot", "--scope", "user", env=env)
    assert installed.returncode == 0, installed.stderr
    assert (copilot.copilot_home / "settings.json").is_file() and not (copilot.repo / ".github").exists()
    done = subprocess.run([str(copilot.binary), "-p", "Hello."], cwd=copilot.repo, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-3000:]
    [request] = copilot.model_requests()
    assert CANARY in request.text()


def test_copilot_reports_a_compaction_before_it_happens(copilot: Copilot) -> None:
    """``/compact`` runs headless and fires PreCompact, and no SessionStart: the hook notes it for
    the session's next prompt (what that prompt then prints: ``test_hook_more_hosts.py``)."""
    from chord_git.agents import sessions
    from chord_git.background.activity import session_key
    from chord_git.memory import project as project_mod

    configure(None, enabled=False)
    install(copilot)
    _, session, _ = copilot.run("We start with the parser today.")
    marker = sessions.folder(project_mod.discover(copilot.repo)) / "compacted" / session_key("copilot", session)
    assert not marker.exists()
    done = subprocess.run(copilot.command("/compact", session), cwd=copilot.repo, env=copilot.env,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and "chord-git:" not in done.stderr, done.stderr[-3000:]
    assert marker.exists()
    copilot.run("Now the tokenizer.", resume=session)  # a resumed session starts with memory itself
    assert not marker.exists()
