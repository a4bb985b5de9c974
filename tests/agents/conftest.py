"""Fixtures for the agent-host tests: a repository with a canary memory entry, the hook as the
hosts run it (a ``git-memory`` process with a JSON payload on stdin), and clean-up that leaves no
watcher or worker running."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from chord_git.agents import watch
from chord_git.background import worker
from chord_git.memory import project as project_mod
from chord_git.memory.index_file import BEGIN, END
from testing import agent_hosts
from testing.fake_openai import FakeOpenAI, Reply
from testing import waiting
from testing.gitutil import cli_env
from tests.conftest import needed

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts"
CANARY = "zebra-quartz-7731"
CANARY_ID = "20261120-deploy-pipeline-7731"
CANARY_SUMMARY = f"Deploys go through the {CANARY} pipeline."
PNPM_WORDS = "We use pnpm, never npm, in this repo."
# The record as an instruction-following model writes it: category words added, not an echo.
PNPM_SUMMARY = "Use pnpm, never npm, for JS dependencies."
PNPM_STATEMENT = "All JS dependency commands in this repo use pnpm; npm is never used."
# How an agent's model answers it, restating it: an echo, never a reason to doubt who said it.
RESTATED = "Noted. I will use pnpm for every dependency command in this repo."


def canary_record() -> str:
    return (f"---\nid: {CANARY_ID}\ntype: fact\nsource: user\nstatus: stated\nsummary: {CANARY_SUMMARY}\n"
            f"statement: Every deploy runs through the {CANARY} pipeline.\n"
            f'evidence: "deploys go through {CANARY}"\ncreated: 2026-11-20\nsession: s0\nsupersedes: null\n---\n'
            "## Conclusion\nDeploy through the pipeline.\n## Why keep it\nThe user said so.\n"
            "## How to apply\nWhen deploying.\n")


def write_canary_memory(repo: Path) -> None:
    records = repo / ".chord" / "memory" / "records"
    records.mkdir(parents=True, exist_ok=True)
    (records / f"{CANARY_ID}.md").write_text(canary_record(), encoding="utf-8")
    line = f"- [fact] {CANARY_SUMMARY} ([{CANARY_ID}](.chord/memory/records/{CANARY_ID}.md))"
    (repo / "MEMORY.md").write_text(f"# Project memory\n\n{BEGIN}\n{line}\n{END}\n", encoding="utf-8")


def record(summary: str, evidence: str, statement: str | None = None) -> dict[str, Any]:
    return {"type": "preference", "summary": summary, "statement": statement or summary, "why": "The user said so.",
            "how_to_apply": "Check it before touching that part of the repository.", "source": "user", "status": "stated",
            "evidence": evidence, "supersedes": None}


def pnpm_reply() -> Reply:
    """The scripted extraction: one record quoting the user, one quoting the injected canary."""
    return Reply({"records": [record(PNPM_SUMMARY, PNPM_WORDS, PNPM_STATEMENT),
                              record("Deploys use the zebra pipeline.", CANARY_SUMMARY)],
                  "retire": [], "promotions": []})


def configure(base_url: str | None, **memory: Any) -> None:
    pool = [{"model": "extract-m", "base_url": base_url or "http://127.0.0.1:9/v1", "timeout": 30}]
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "chord" / "config.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"model_pool": pool, "memory": {"enabled": True, **memory}}), encoding="utf-8")


def git_memory() -> str:
    return str(Path(sys.executable).parent / "git-memory")


def run_hook(payload: dict[str, Any] | str | bytes, host: str | None = "claude-code", *,
             env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    data = payload if isinstance(payload, bytes) else (
        payload.encode() if isinstance(payload, str) else json.dumps(payload).encode())
    args = [git_memory(), "agent", "hook"] + (["--host", host] if host else [])
    return subprocess.run(args, input=data, capture_output=True, env=env or cli_env(), cwd=cwd, timeout=60)


def run_hook_then_exit(payload: dict[str, Any], host: str) -> subprocess.CompletedProcess[bytes]:
    """The hook run from a host process that exits right after it (``opencode run``, ``qwen -p``):
    the hook's parent is a short-lived interpreter, gone once this returns."""
    relay = "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:], input=sys.stdin.buffer.read()).returncode)"
    return subprocess.run([sys.executable, "-c", relay, git_memory(), "agent", "hook", "--host", host],
                          input=json.dumps(payload).encode(), capture_output=True, env=cli_env(), timeout=60)


def event(name: str, repo: Path, session: str, transcript: Path | None = None, **extra: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {"hook_event_name": name, "session_id": session, "cwd": str(repo), **extra}
    if transcript is not None:
        payload["transcript_path"] = str(transcript)
    return payload


def wait_for(check: Callable[[], bool], timeout: float = 60.0) -> bool:
    return waiting.wait_for(check, timeout=timeout)


def conversation_of(body: Any) -> str:
    """The ``<conversation>`` part of an extraction request: the only place user words go."""
    text = "\n".join(m.get("content") or "" for m in body["messages"] if m.get("role") == "user")
    start, end = text.find("<conversation"), text.find("</conversation>")
    assert start >= 0 and end > start, "no <conversation> section in the extraction request"
    return text[start:end]


def settled(repo: Path) -> bool:
    project = project_mod.discover(repo)
    return not watch.running(project) and worker.running_worker(project) is None


@pytest.fixture
def extraction() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        server.script("extract-m", pnpm_reply())
        yield server


@pytest.fixture
def memory_repo(repo: Path) -> Iterator[Path]:
    write_canary_memory(repo)
    yield repo
    # Leave nothing running: watchers and workers exit on their own once their work is done.
    project = project_mod.discover(repo)
    if not wait_for(lambda: settled(repo), timeout=30):
        for pid in (worker.running_worker(project), watch.running_pid(project)):
            if pid:
                os.kill(pid, signal.SIGTERM)
        pytest.fail("a watcher or worker was still running after the test")


# ---------------------------------------------------------------------------- the real agent CLIs
T = TypeVar("T")


def installed(install: Callable[[], T]) -> T:
    """An agent CLI installed into the user cache (``testing.agent_hosts``): the test is skipped
    where it cannot be installed, and fails instead under CI, where it must run."""
    try:
        return install()
    except agent_hosts.Unavailable as exc:
        needed(f"the real-CLI tests need the pinned agent CLIs: {exc}")


@pytest.fixture(scope="session")
def host_bins() -> agent_hosts.HostBins:
    return installed(agent_hosts.ensure)


@pytest.fixture(scope="session")
def plugin_host_bins() -> agent_hosts.PluginHostBins:
    return installed(agent_hosts.ensure_plugin_hosts)


@pytest.fixture(scope="session")
def qwen_bin() -> Path:
    return installed(lambda: agent_hosts.ensure_package(agent_hosts.QWEN))


@pytest.fixture(scope="session")
def gemini_bin() -> Path:
    return installed(lambda: agent_hosts.ensure_package(agent_hosts.GEMINI))


@pytest.fixture(scope="session")
def copilot_bin() -> Path:
    return installed(lambda: agent_hosts.ensure_package(agent_hosts.COPILOT))
