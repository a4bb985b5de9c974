"""Memory is injected again after a compaction or a ``/clear``, with the real CLIs.

Where a host takes commands headless, one running session gets a first prompt, the host's
compaction command (Qwen Code ``/compress``, Claude Code ``/compact``) or ``/clear``, over
stream-json input, and a prompt after it; Codex compacts on its own before a turn once its token
limit is passed (a resumed ``codex exec``). While the model answers the
first prompt, a new entry lands in MEMORY.md (as a background extraction would write it). Proven:

* the requests before the compaction do not carry the new entry (R10: memory is not refreshed on
  the next request, which would bill the whole conversation as uncached input);
* the first request after the compaction carries it: the host reported the compaction
  (SessionStart with source ``compact``, or ``clear``) and the hook's summary replaced the old one.

The new entry is written from the loopback model's request observer, before the reply is sent, so
the order is fixed by the protocol and no assertion depends on timing.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from chord_git.memory.index_file import BEGIN
from testing import agent_hosts
from testing.fake_chat import FakeChat
from testing.gitutil import cli_env, index_digest, run_cli
from testing.fake_anthropic import FakeAnthropic
from testing.fake_responses import FakeResponses
from testing.loopback import LoopbackServer, Seen
from tests.agents.conftest import CANARY_SUMMARY, configure
from tests.agents.test_real_hosts import strings

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]
RUN_TIMEOUT = 300

LATE_ID = "20261201-late-entry-5150"
LATE_SUMMARY = "Release notes are written in docs/changes, one file per release."
FIRST, AFTER = "We start with the parser today.", "Now the tokenizer."


def add_entry(repo: Path) -> None:
    """A new top entry with its record, as extraction writes it (the session is still running)."""
    record = (f"---\nid: {LATE_ID}\ntype: workflow\nsource: user\nstatus: stated\nsummary: {LATE_SUMMARY}\n"
              f"statement: {LATE_SUMMARY}\nevidence: \"release notes go in docs/changes\"\ncreated: 2026-12-01\n"
              "session: s1\nsupersedes: null\n---\n## Conclusion\nSo.\n## Why keep it\nSaid.\n## How to apply\nAlways.\n")
    (repo / ".chord" / "memory" / "records" / f"{LATE_ID}.md").write_text(record, encoding="utf-8")
    index = repo / "MEMORY.md"
    line = f"- [workflow] {LATE_SUMMARY} ([{LATE_ID}](.chord/memory/records/{LATE_ID}.md))"
    index.write_text(index.read_text(encoding="utf-8").replace(f"{BEGIN}\n", f"{BEGIN}\n{line}\n"), encoding="utf-8")


def add_entry_when_asked(server: LoopbackServer, repo: Path, words: str) -> None:
    def observe(seen: Seen) -> None:
        if seen.method == "POST" and words in strings(seen.body) and LATE_SUMMARY not in (repo / "MEMORY.md").read_text():
            add_entry(repo)
    server.observers.append(observe)


def converse(command: list[str], cwd: Path, env: dict[str, str], texts: list[str]) -> str:
    """Send each message as stream-json once the previous one has its ``result`` event (a message
    sent earlier would join the running turn); returns stderr."""
    process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    try:
        for text in texts:
            process.stdin.write(json.dumps({"type": "user", "message": {"role": "user", "content": text}}) + "\n")
            process.stdin.flush()
            for line in process.stdout:
                if line.startswith("{") and json.loads(line).get("type") == "result":
                    break
            else:
                raise AssertionError(f"the CLI ended before answering {text!r}")
        process.stdin.close()
        process.stdout.read()
        err = process.stderr.read() if process.stderr is not None else ""
        process.wait(timeout=RUN_TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err[-3000:]
    return err


@pytest.mark.parametrize("command", ["/compress", "/clear"])
def test_qwen_injects_memory_again_after_compress_and_clear(memory_repo: Path, qwen_bin: Path, tmp_path: Path,
                                                            command: str) -> None:
    configure(None, enabled=False)  # loading does not depend on extraction (R7)
    assert run_cli(memory_repo, "agent", "install", "qwen").returncode == 0
    digest = index_digest(memory_repo)
    # A large prompt size in the replies: Qwen keeps a compaction only when it made the history smaller.
    with FakeChat(reply="Noted.", prompt_tokens=60000) as server:
        add_entry_when_asked(server, memory_repo, FIRST)
        env = agent_hosts.qwen_env(cli_env(), tmp_path / "qwen-home", server.base_url)
        done = converse([str(qwen_bin), "--input-format", "stream-json", "--output-format", "stream-json"],
                        memory_repo, env, [FIRST, command, AFTER])
        assert "chord-git:" not in done, done
        bodies = [strings(r.body) for r in server.chat_requests()]
    before = [b for b in bodies if AFTER not in b and CANARY_SUMMARY in b]  # the compaction request has no system prompt
    after = next(b for b in bodies if AFTER in b)
    assert before and all(FIRST in b and LATE_SUMMARY not in b for b in before)
    if command == "/clear":
        assert FIRST not in after  # the history is gone, memory is not
    assert LATE_SUMMARY in after and CANARY_SUMMARY in after
    assert after.count(LATE_SUMMARY) == 1  # the summary was replaced, not added a second time
    assert index_digest(memory_repo) == digest


@pytest.mark.parametrize("command", ["/compact", "/clear"])
def test_claude_code_injects_memory_again_after_compact_and_clear(memory_repo: Path, host_bins: agent_hosts.HostBins,
                                                                  command: str) -> None:
    """Claude Code compacts only a conversation with some turns: three before ``/compact``."""
    configure(None, enabled=False)
    assert run_cli(memory_repo, "agent", "install", "claude-code").returncode == 0
    digest = index_digest(memory_repo)
    with FakeAnthropic(reply="Noted.") as server:
        add_entry_when_asked(server, memory_repo, FIRST)
        env = agent_hosts.claude_env(cli_env(), server.base_url)
        done = converse([str(host_bins.claude), "-p", "--input-format", "stream-json", "--output-format", "stream-json",
                         "--verbose"], memory_repo, env, [FIRST, "Then the lexer.", "And the printer.", command, AFTER])
        assert "chord-git:" not in done, done
        bodies = [strings(r.body) for r in server.message_requests()]
    before = [b for b in bodies if AFTER not in b]
    after = next(b for b in bodies if AFTER in b)
    assert len(before) >= 3 and all(CANARY_SUMMARY in b and LATE_SUMMARY not in b for b in before)
    assert LATE_SUMMARY in after and CANARY_SUMMARY in after and after.count(LATE_SUMMARY) == 1
    assert index_digest(memory_repo) == digest


def test_codex_injects_memory_again_after_an_automatic_compaction(memory_repo: Path, host_bins: agent_hosts.HostBins,
                                                                   tmp_path: Path) -> None:
    """Codex compacts before a turn once the last reply reported more tokens than
    ``model_auto_compact_token_limit``, then sends SessionStart with source ``compact``. The resumed
    run's first request is that compaction; the entry lands while it is answered, after the
    resume's own SessionStart, so only the compaction's SessionStart can bring it."""
    configure(None, enabled=False)
    assert run_cli(memory_repo, "agent", "install", "codex").returncode == 0
    digest = index_digest(memory_repo)
    codex = host_bins.codex
    armed: list[bool] = []
    with FakeResponses(reply="Noted.", input_tokens=90_000) as server:
        def observe(seen: Seen) -> None:
            if armed and seen.method == "POST" and seen.path.startswith("/v1/responses") and len(armed) == 1:
                armed.append(True)
                add_entry(memory_repo)
        server.observers.append(observe)
        home = tmp_path / "codex-home"
        env = agent_hosts.codex_env(cli_env(), home, server.base_url, memory_repo)
        config = home / "config.toml"
        config.write_text("model_auto_compact_token_limit = 20000\nmodel_context_window = 100000\n"
                          + config.read_text(encoding="utf-8"), encoding="utf-8")
        base = [str(codex), "exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check"]
        first = subprocess.run([*base, FIRST], cwd=memory_repo, env=env, capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT)
        assert first.returncode == 0, first.stderr[-3000:]
        found = re.search(r"session id: (\S+)", first.stdout + first.stderr)
        assert found, first.stderr[-2000:]
        armed.append(True)
        resumed = subprocess.run([*base, "resume", found.group(1), AFTER], cwd=memory_repo, env=env,
                                 capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT)
        assert resumed.returncode == 0, resumed.stderr[-3000:]
        assert "chord-git:" not in first.stderr + resumed.stderr
        bodies = [strings(r.body) for r in server.response_requests()]
    assert len(armed) == 2  # the entry was written while Codex waited for a model reply
    turn = [b for b in bodies if AFTER in b]
    assert turn and all(LATE_SUMMARY not in b for b in bodies[:2])  # the first turn, the compaction
    assert LATE_SUMMARY in turn[-1] and CANARY_SUMMARY in turn[-1]
    assert index_digest(memory_repo) == digest
