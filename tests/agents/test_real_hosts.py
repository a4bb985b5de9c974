"""End to end with the real CLIs: Claude Code, Codex, pi and OpenCode, installed from npm (pinned), offline.

Each host runs in a temporary repository whose MEMORY.md holds a canary entry, with chord-git
installed by ``git memory agent install <host>`` and extraction pointed at the loopback
chat-completions server. The host's own model is a loopback server too (Messages API for Claude
Code, Responses API for Codex, streamed Chat Completions for pi and OpenCode). Proven for each host:

1. the agent's first model request carries the canary entry and the memory-discipline text;
2. the session is busy while the agent waits for its model, and idle afterwards;
3. after the session ends (or, for Codex without an end event, goes quiet; for OpenCode, which has
   none, after each turn) a record quoting the user is in the working tree; nothing is staged and
   ``.git/index`` is byte-identical;
4. the next session's first request carries the new entry, and so does a resumed session's, whose
   extraction then sees only what it added;
5. the canary never reaches the extraction request as the user's words, nor becomes evidence;
6. with the extraction server down the agent still works, the queue shows the failed job with its
   reason, the status line says MEMORY-FAIL, and ``git memory queue retry`` writes the record once
   the server is back.

For pi and OpenCode also: memory written during a session is not injected mid-session, and is after
a compaction (pi's RPC mode and ``opencode serve`` compact on request).

No assertion depends on timing: every wait is for a condition, with a generous bound.
"""
from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import socket
import subprocess
import threading
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from chord_git.background import activity
from chord_git.memory.index_file import END
from chord_git.memory.summary import MEMORY_DISCIPLINE
from testing import agent_hosts
from testing.fake_anthropic import FakeAnthropic
from testing.fake_chat import FakeChat
from testing.fake_openai import FakeOpenAI, Reply
from testing.fake_responses import FakeResponses
from testing.gitutil import cli_env, git, index_digest, run_cli
from testing.hook_recorder import HookRecorder
from testing.loopback import LoopbackServer, Seen
from tests.agents.conftest import (
    CANARY,
    CANARY_ID,
    CANARY_SUMMARY,
    PNPM_SUMMARY,
    PNPM_WORDS,
    RESTATED,
    canary_record,
    configure,
    conversation_of,
    git_memory,
    record,
    wait_for,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

CHECK_WORDS = "Always run make check before asking for review."
CHECK_SUMMARY = "Run make check before asking for a review."
RESUME_WORDS = "Also, the generated client under api/gen is never edited by hand."
RUN_TIMEOUT = 180


def strings(value: Any) -> str:
    """Every string inside a JSON body, one per line: what the model is shown, unescaped."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(strings(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(strings(v) for v in value)
    return ""


def records_with_evidence(repo: Path, words: str) -> list[Path]:
    folder = repo / ".chord" / "memory" / "records"
    return [p for p in folder.glob("*.md") if words in p.read_text(encoding="utf-8")]


def indexed(repo: Path, summary: str) -> bool:
    return summary in (repo / "MEMORY.md").read_text(encoding="utf-8")


def queue_jobs(repo: Path) -> list[dict[str, Any]]:
    done = run_cli(repo, "queue", "list", "--json")
    assert done.returncode == 0, done.stderr
    jobs: list[dict[str, Any]] = json.loads(done.stdout)["jobs"]
    return jobs


def statusline(repo: Path) -> str:
    done = subprocess.run(["git", "memory", "agent", "statusline"], cwd="/", capture_output=True, text=True,
                          input=json.dumps({"workspace": {"current_dir": str(repo)}}), env=cli_env(), timeout=60)
    assert done.returncode == 0
    return done.stdout.strip()


class Host:
    """One CLI against its loopback model: ``run`` returns (process, session id, first request)."""

    name = ""
    model_path = ""
    server: LoopbackServer

    def model_requests(self) -> list[Seen]:
        raise NotImplementedError

    def command(self, prompt: str, resume: str | None) -> list[str]:
        raise NotImplementedError

    def session_id(self, done: subprocess.CompletedProcess[str]) -> str:
        raise NotImplementedError

    def __init__(self, repo: Path, env: dict[str, str]) -> None:
        self.repo, self.env = repo, env
        self.busy_during_calls: list[int] = []

    def watch_busy(self) -> None:
        def observe(seen: Seen) -> None:
            if seen.method == "POST" and seen.path.split("?")[0].rstrip("/") == self.model_path:
                self.busy_during_calls.append(activity.busy_sessions())
        self.server.observers.append(observe)

    def run(self, prompt: str, resume: str | None = None) -> tuple[subprocess.CompletedProcess[str], str, str]:
        self.server.clear()
        done = subprocess.run(self.command(prompt, resume), cwd=self.repo, env=self.env, capture_output=True,
                              text=True, timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"{self.name} failed ({done.returncode}):\n{done.stdout}\n{done.stderr[-3000:]}"
        assert "chord-git:" not in done.stderr, done.stderr  # no hook complained
        requests = self.model_requests()
        assert requests, f"{self.name} sent no model request"
        return done, self.session_id(done), strings(requests[0].body)


class ClaudeCode(Host):
    name = "claude-code"
    model_path = "/v1/messages"

    def __init__(self, repo: Path, bins: agent_hosts.HostBins, server: FakeAnthropic) -> None:
        super().__init__(repo, agent_hosts.claude_env(cli_env(), server.base_url))
        self.bins, self.server = bins, server
        self.fake = server

    def model_requests(self) -> list[Seen]:
        return self.fake.message_requests()

    def command(self, prompt: str, resume: str | None) -> list[str]:
        return [str(self.bins.claude), "-p", prompt, "--output-format", "json",
                *(["--resume", resume] if resume else [])]

    def session_id(self, done: subprocess.CompletedProcess[str]) -> str:
        return str(json.loads(done.stdout)["session_id"])


class Codex(Host):
    name = "codex"
    model_path = "/v1/responses"

    def __init__(self, repo: Path, bins: agent_hosts.HostBins, server: FakeResponses, codex_home: Path) -> None:
        super().__init__(repo, agent_hosts.codex_env(cli_env(), codex_home, server.base_url, repo))
        self.bins, self.server = bins, server
        self.fake = server

    def model_requests(self) -> list[Seen]:
        return self.fake.response_requests()

    def command(self, prompt: str, resume: str | None) -> list[str]:
        # Hook trust is a person's decision (the installer says so); the project is trusted in
        # the test's config.toml, and this flag stands in for the person approving the hooks.
        base = [str(self.bins.codex), "exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check"]
        return base + (["resume", resume, prompt] if resume else [prompt])

    def session_id(self, done: subprocess.CompletedProcess[str]) -> str:
        found = re.search(r"session id: (\S+)", done.stdout + done.stderr)
        assert found, done.stderr[-2000:]
        return found.group(1)


@pytest.fixture
def claude(memory_repo: Path, host_bins: agent_hosts.HostBins) -> Iterator[ClaudeCode]:
    with FakeAnthropic(reply=RESTATED) as server:
        yield ClaudeCode(memory_repo, host_bins, server)


@pytest.fixture
def codex(memory_repo: Path, host_bins: agent_hosts.HostBins, tmp_path: Path) -> Iterator[Codex]:
    with FakeResponses(reply=RESTATED) as server:
        yield Codex(memory_repo, host_bins, server, tmp_path / "codex-home")


def install(host: Host) -> None:
    installed = run_cli(host.repo, "agent", "install", host.name)
    assert installed.returncode == 0, installed.stderr


def prove(host: Host, extraction: FakeOpenAI, *, frozen_by_end_event: bool = True) -> None:
    repo = host.repo
    digest = index_digest(repo)
    host.watch_busy()

    # 1. The first request carries the canary entry and the discipline text.
    _, session, first = host.run(PNPM_WORDS)
    assert CANARY_SUMMARY in first and MEMORY_DISCIPLINE in first
    # 2. Busy while the agent waited for its model; idle once the turn was over.
    assert host.busy_during_calls and all(n == 1 for n in host.busy_during_calls)
    assert activity.busy_sessions() == 0
    # 3. The record quoting the user lands in the working tree, as the user's (the agent's model
    # restated it: an echo); nothing is staged.
    assert wait_for(lambda: bool(records_with_evidence(repo, PNPM_WORDS)), timeout=120), _logs(repo)
    assert all("\nsource: user\n" in p.read_text(encoding="utf-8") for p in records_with_evidence(repo, PNPM_WORDS))
    assert wait_for(lambda: indexed(repo, PNPM_SUMMARY), timeout=60)
    assert index_digest(repo) == digest and git(repo, "diff", "--cached", "--name-only") == ""
    # 5. The canary reached the transcript (as the host's injected context) but not extraction as user words.
    [request] = extraction.requests
    said = conversation_of(request.body)
    assert PNPM_WORDS in said and CANARY not in said and "Project memory (background" not in said
    assert not any(CANARY in p.read_text(encoding="utf-8") for p in records_with_evidence(repo, PNPM_WORDS))
    assert not records_with_evidence(repo, "Deploys use the zebra pipeline.")  # dropped: not the user's words
    if not frozen_by_end_event:
        return

    # 4. The next session, and a resumed one, start with the new entry.
    _, _, second = host.run("Hello again.")
    assert PNPM_SUMMARY in second
    assert wait_for(lambda: len(extraction.requests) == 2, timeout=120), _logs(repo)
    _, resumed_id, resumed = host.run(RESUME_WORDS, resume=session)
    assert resumed_id == session and PNPM_SUMMARY in resumed
    assert wait_for(lambda: len(extraction.requests) == 3, timeout=120), _logs(repo)
    again = conversation_of(extraction.requests[2].body)
    assert RESUME_WORDS in again and PNPM_WORDS not in again  # only what the resumed session added

    # 6. Extraction server down: the agent still works, the failure is visible, retry repairs it.
    port = extraction.port
    extraction.close()
    with held(port):
        host.run(CHECK_WORDS)
        assert wait_for(lambda: any(j["state"] == "failed" and j["reason"] for j in queue_jobs(repo)), timeout=120), _logs(repo)
        [failed] = [j for j in queue_jobs(repo) if j["state"] == "failed"]
        assert "extract-m" in failed["reason"]
        assert statusline(repo).startswith("MEMORY-FAIL: ")
        assert "1 failed" in run_cli(repo, "status").stdout
    with FakeOpenAI(port=port) as back:
        back.script("extract-m", Reply({"records": [record(CHECK_SUMMARY, CHECK_WORDS)], "retire": [], "promotions": []}))
        retried = run_cli(repo, "queue", "retry")
        assert retried.returncode == 0, retried.stdout + retried.stderr
        assert f"{failed['id']}: done" in retried.stdout
    assert records_with_evidence(repo, CHECK_WORDS) and indexed(repo, CHECK_SUMMARY)
    assert statusline(repo) == "MEMORY" and queue_jobs(repo) == []
    assert index_digest(repo) == digest and git(repo, "diff", "--cached", "--name-only") == ""


@contextlib.contextmanager
def held(port: int) -> Iterator[None]:
    """The server is down: its port refuses connections, and stays bound (never listening) so that
    no other server, such as another test worker's, takes it before the server comes back on it."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the closed server's connections may linger
        sock.bind(("127.0.0.1", port))
        yield


def _logs(repo: Path) -> str:
    state = repo / ".git" / "chord-memory"
    parts = []
    for name in ("agents/watch.log", "worker.log"):
        path = state / name
        if path.exists():
            parts.append(f"--- {name}\n" + path.read_text(encoding="utf-8")[-3000:])
    return "\n".join(parts)


def test_claude_code_in_one_command(claude: ClaudeCode, extraction: FakeOpenAI) -> None:
    configure(extraction.base_url)
    install(claude)
    prove(claude, extraction)


def test_codex_in_one_command(codex: Codex, extraction: FakeOpenAI) -> None:
    configure(extraction.base_url)
    install(codex)
    prove(codex, extraction)


def test_codex_without_an_end_event_is_frozen_when_quiet(codex: Codex, extraction: FakeOpenAI) -> None:
    """Codex versions without SessionEnd, or a closed terminal: the session freezes once quiet."""
    configure(extraction.base_url, freeze_after_seconds=1)
    install(codex)
    hooks = codex.repo / ".codex" / "hooks.json"
    doc = json.loads(hooks.read_text(encoding="utf-8"))
    del doc["hooks"]["SessionEnd"]
    hooks.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    prove(codex, extraction, frozen_by_end_event=False)
    log = (codex.repo / ".git" / "chord-memory" / "agents" / "watch.log").read_text(encoding="utf-8")
    assert "frozen after 1s without change" in log


# ---------------------------------------------------------------------------- pi
class Pi(Host):
    """pi 0.73.1: the extension chord-git installs forwards its events to the hook; its model
    speaks Chat Completions."""

    name = "pi"
    model_path = "/v1/chat/completions"

    def __init__(self, repo: Path, bins: agent_hosts.PluginHostBins, server: FakeChat,
                 agent_dir: Path) -> None:
        super().__init__(repo, agent_hosts.pi_env(cli_env(), agent_dir, server.base_url))
        self.bins, self.server, self.fake, self.agent_dir = bins, server, server, agent_dir

    def model_requests(self) -> list[Seen]:
        return self.fake.chat_requests()

    def command(self, prompt: str, resume: str | None) -> list[str]:
        return [str(self.bins.pi), "-p", *(["--session", resume] if resume else []), prompt]

    def session_id(self, done: subprocess.CompletedProcess[str]) -> str:
        """The session the run wrote last: pi's session file names end in its id."""
        files = sorted((self.agent_dir / "sessions").rglob("*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
        assert files, "pi wrote no session file"
        return str(json.loads(files[-1].read_text(encoding="utf-8").splitlines()[0])["id"])


@pytest.fixture
def pi(memory_repo: Path, plugin_host_bins: agent_hosts.PluginHostBins, tmp_path: Path) -> Iterator[Pi]:
    with FakeChat(reply="Noted.") as server:
        yield Pi(memory_repo, plugin_host_bins, server, tmp_path / "pi-agent")


def test_pi_in_one_command(pi: Pi, extraction: FakeOpenAI) -> None:
    configure(extraction.base_url)
    install(pi)
    shim = pi.repo / ".pi" / "extensions" / "chord-git.ts"
    assert "git-memory" in shim.read_text(encoding="utf-8")
    prove(pi, extraction)


# ---------------------------------------------------------------------------- OpenCode
class OpenCode(Host):
    """OpenCode 1.18.33: the plugin chord-git installs forwards its events to the hook, and the
    conversation at the end of each turn; its model speaks Chat Completions. Each run also asks
    the model for a title, with the same system prompt."""

    name = "opencode"
    model_path = "/v1/chat/completions"

    def __init__(self, repo: Path, bins: agent_hosts.PluginHostBins, server: FakeChat,
                 data_home: Path) -> None:
        env = agent_hosts.opencode_env(cli_env(), repo, data_home, server.base_url)
        super().__init__(repo, env)
        self.bins, self.server, self.fake = bins, server, server
        # OpenCode installs its plugin package into each config folder before the first turn.
        agent_hosts.seed_opencode_deps(Path(env["XDG_CONFIG_HOME"]) / "opencode", bins)
        agent_hosts.seed_opencode_deps(repo / ".opencode", bins)

    def model_requests(self) -> list[Seen]:
        return self.fake.chat_requests()

    def command(self, prompt: str, resume: str | None) -> list[str]:
        return [str(self.bins.opencode), "run", "--format", "json", *(["--session", resume] if resume else []), prompt]

    def session_id(self, done: subprocess.CompletedProcess[str]) -> str:
        found = re.search(r'"sessionID"\s*:\s*"(ses_[A-Za-z0-9]+)"', done.stdout)
        assert found, done.stdout[-2000:]
        return found.group(1)


@pytest.fixture
def opencode(memory_repo: Path, plugin_host_bins: agent_hosts.PluginHostBins, tmp_path: Path) -> Iterator[OpenCode]:
    with FakeChat(reply="Noted.") as server:
        yield OpenCode(memory_repo, plugin_host_bins, server, tmp_path / "opencode-xdg")


def test_opencode_in_one_command(opencode: OpenCode, extraction: FakeOpenAI) -> None:
    """No session end in OpenCode: a turn's end only registers the session (R14); it is handed off
    once OpenCode's process has exited, with only what it added since the last hand-off."""
    configure(extraction.base_url)
    install(opencode)
    assert "git-memory" in (opencode.repo / ".opencode" / "plugins" / "chord-git.js").read_text(encoding="utf-8")
    prove(opencode, extraction)
    log = (opencode.repo / ".git" / "chord-memory" / "agents" / "watch.log").read_text(encoding="utf-8")
    assert "has exited" in log


FRESH = "Releases are cut from the release branch only."
FRESH_ID = "20261201-release-branch-aa11"


def add_fresh_entry(repo: Path) -> None:
    """An entry written while a session runs, as background extraction would write it."""
    record = canary_record().replace(CANARY_ID, FRESH_ID).replace(CANARY_SUMMARY, FRESH)
    (repo / ".chord" / "memory" / "records" / f"{FRESH_ID}.md").write_text(record, encoding="utf-8")
    line = f"- [fact] {FRESH} ([{FRESH_ID}](.chord/memory/records/{FRESH_ID}.md))\n"
    text = (repo / "MEMORY.md").read_text(encoding="utf-8")
    (repo / "MEMORY.md").write_text(text.replace(END, line + END), encoding="utf-8")


class Rpc:
    """pi in RPC mode (``--mode rpc``): JSON commands on stdin, responses and events on stdout."""

    def __init__(self, pi: Pi) -> None:
        self.process = subprocess.Popen([str(pi.bins.pi), "--mode", "rpc"], cwd=pi.repo, env=pi.env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def send(self, command: dict[str, Any], until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command).encode() + b"\n")
        self.process.stdin.flush()
        while True:
            line = self.lines.get(timeout=RUN_TIMEOUT)
            assert line, f"pi exited: {self.process.stderr.read().decode()[-2000:] if self.process.stderr else ''}"
            message = json.loads(line)
            assert not (message.get("type") == "response" and message.get("success") is False), message
            if until(message):
                return message

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=RUN_TIMEOUT)


def test_pi_reads_memory_again_after_a_compaction(pi: Pi) -> None:
    """Memory written while a pi session runs is not injected mid-session, and is after a compaction
    (pi's RPC mode compacts on command, headless)."""
    install(pi)
    rpc = Rpc(pi)
    try:
        ended = lambda m: m.get("type") == "agent_end"  # noqa: E731
        rpc.send({"type": "prompt", "message": PNPM_WORDS}, ended)
        first = strings(pi.fake.chat_requests()[-1].body)
        assert CANARY_SUMMARY in first and FRESH not in first
        add_fresh_entry(pi.repo)
        rpc.send({"type": "prompt", "message": "Hello again."}, ended)
        mid = strings(pi.fake.chat_requests()[-1].body)
        assert CANARY_SUMMARY in mid and FRESH not in mid            # R10: never mid-session
        done = rpc.send({"id": "c1", "type": "compact"}, lambda m: m.get("id") == "c1")
        assert done["success"] is True
        rpc.send({"type": "prompt", "message": "And now?"}, ended)
        after = strings(pi.fake.chat_requests()[-1].body)
        assert CANARY_SUMMARY in after and FRESH in after              # read again at the compaction
    finally:
        assert rpc.close() == 0


def opencode_call(port: int, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=RUN_TIMEOUT) as response:
        text = response.read().decode()
    return json.loads(text) if text.strip() else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_opencode_reads_memory_again_after_a_compaction(opencode: OpenCode, tmp_path: Path) -> None:
    """Memory written while an OpenCode session runs is not injected mid-session, and is after a
    compaction (``opencode serve`` compacts on request, headless)."""
    install(opencode)
    calls = HookRecorder(tmp_path / "bin", git_memory())
    env = {**opencode.env, "PATH": f"{calls.bin_dir}{os.pathsep}{opencode.env['PATH']}"}
    port = free_port()
    server = subprocess.Popen([str(opencode.bins.opencode), "serve", "--port", str(port)], cwd=opencode.repo,
                              env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    model = {"providerID": "loopback", "modelID": "fake-model"}

    def main_request() -> str:
        """The agent's own last model call (not the title or the summary request)."""
        own = [r for r in opencode.fake.chat_requests() if "You are opencode" in strings(r.body)]
        return strings(own[-1].body)

    def say(session: str, words: str) -> str:
        opencode_call(port, "POST", f"/session/{session}/message", {"parts": [{"type": "text", "text": words}], "model": model})
        return main_request()

    try:
        assert wait_for(lambda: _answers(port), timeout=RUN_TIMEOUT), "opencode serve did not start"
        session = opencode_call(port, "POST", "/session", {})["id"]
        first = say(session, PNPM_WORDS)
        assert CANARY_SUMMARY in first and FRESH not in first
        add_fresh_entry(opencode.repo)
        mid = say(session, "Hello again.")
        assert CANARY_SUMMARY in mid and FRESH not in mid                  # R10: never mid-session
        assert opencode_call(port, "POST", f"/session/{session}/summarize", model) is True
        compacted = lambda: any(c["payload"].get("source") == "compact" for c in calls.calls())  # noqa: E731
        assert wait_for(compacted, timeout=RUN_TIMEOUT)   # the plugin has read memory again
        after = say(session, "And now?")
        assert CANARY_SUMMARY in after and FRESH in after                  # read again at the compaction
    finally:
        server.terminate()
        server.wait(timeout=RUN_TIMEOUT)
    first_call = calls.calls()[0]["payload"]
    assert (first_call["hook_event_name"], first_call["source"], first_call["session_id"]) == ("SessionStart", "startup", session)


def _answers(port: int) -> bool:
    try:
        opencode_call(port, "GET", "/session")
    except OSError:
        return False
    return True
