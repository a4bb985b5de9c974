"""Background extraction end to end: real ``git memory`` processes, the detached worker, the real
pipeline and openai client against the loopback fake server (R7, R14–R16, R35, R37)."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chord_git.background import queue, worker
from chord_git.memory import project as project_mod
from chord_git.memory.project import Project
from testing.fake_openai import FakeOpenAI, Held, Reply, Slow
from testing.gitutil import cli_env, git, index_digest, run_cli
from testing.waiting import wait_for

HOOK = Path(__file__).resolve().parents[2] / "hooks" / "post-session"
FACTS = [
    "Releases are always cut from a tag named like release-2024.06.",
    "We keep CHANGELOG.md edited by hand, so never regenerate it.",
    "All JS dependency commands use pnpm, this repo only uses pnpm.",
    "Integration tests need the staging database snapshot from Monday.",
    "Public API names follow the snake_case style guide.",
    "Benchmarks run on the quiet machine, never on laptops.",
]


def reply_for(k: int) -> Reply:
    fact = FACTS[k]
    return Reply({"records": [{
        "type": "preference", "summary": fact, "statement": fact,
        "why": "The user said so.", "how_to_apply": "Check it before touching that part of the repository.",
        "source": "user", "status": "stated", "evidence": fact, "supersedes": None,
    }], "retire": [], "promotions": []})


def write_session(path: Path, session_id: str, messages: list[str]) -> Path:
    lines = [{"type": "session", "id": session_id, "frozen": True}]
    for text in messages:
        lines.append({"type": "message", "role": "user", "content": text, "complete": True})
        lines.append({"type": "message", "role": "assistant", "content": "Noted.", "complete": True})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def configure(base_url: str, *, enabled: bool = True, dedicated: bool = False) -> None:
    pool = [{"model": "main-m", "base_url": base_url, "timeout": 30}]
    memory: dict[str, Any] = {"enabled": enabled}
    if dedicated:
        memory["model_pool"] = [{"model": "mem-m", "base_url": base_url, "timeout": 30}]
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "chord" / "config.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"model_pool": pool, "memory": memory}), encoding="utf-8")


def record_files(project: Project) -> list[Path]:
    return sorted(project.records_dir.glob("*.md")) if project.records_dir.exists() else []


def indexed(project: Project, *facts: str) -> bool:
    """Every fact has its line in MEMORY.md (record files are written first, the index last)."""
    try:
        text = project.memory_md.read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    return all(fact in text for fact in facts)


def log_lines(project: Project) -> list[str]:
    path = worker.log_path(project)
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def lock_events(project: Project) -> list[tuple[float, str, str]]:
    """(time, pid, acquired|released) from the worker log, in time order."""
    found = (re.search(r" t=(?P<t>[0-9.]+) pid=(?P<pid>\d+) lock (?P<what>acquired|released)", line)
             for line in log_lines(project))
    return sorted((float(m["t"]), m["pid"], m["what"]) for m in found if m)


def worker_idle(project: Project) -> bool:
    """No worker holds the queue (checked without taking the lock)."""
    return worker.running_worker(project) is None


def only_memory_changes(repo: Path) -> None:
    for line in git(repo, "status", "--porcelain", "--untracked-files=all").splitlines():
        path = line[3:]
        assert line.startswith("??") and (path == "MEMORY.md" or path.startswith(".chord/")), line


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def project(repo: Path) -> Iterator[Project]:
    proj = project_mod.discover(repo)
    yield proj
    # Leave no worker behind: let it finish, and stop the one this test started if it will not.
    from chord_git.background import activity
    activity.set_idle(proj.state_dir)
    if not wait_for(lambda: worker_idle(proj), timeout=15):
        pid = worker.running_worker(proj)
        if pid:
            os.kill(pid, signal.SIGTERM)
        pytest.fail("a worker was still running after the test")


def submit(repo: Path, session: Path, *extra: str) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    proc = run_cli(repo, "extract", "--session", str(session), "--background", *extra)
    return proc, time.monotonic() - start


def test_background_returns_at_once_and_the_record_appears_later(
        repo: Path, project: Project, server: FakeOpenAI, tmp_path: Path) -> None:
    configure(server.base_url)
    answer = threading.Event()
    server.script("main-m", Held(answer, reply_for(0)))
    session = write_session(tmp_path / "s.jsonl", "s-bg", [FACTS[0]])
    digest = index_digest(repo)
    proc, elapsed = submit(repo, session)  # returns although the model cannot have answered yet
    assert proc.returncode == 0, proc.stderr
    job_id = proc.stdout.strip()
    assert re.fullmatch(r"[0-9a-f]{16}", job_id)
    assert record_files(project) == []
    session.unlink()  # the host may delete its transcript at once
    answer.set()
    assert wait_for(lambda: indexed(project, FACTS[0]))
    assert len(record_files(project)) == 1
    assert wait_for(lambda: worker_idle(project))
    assert queue.pending(project) == [] and queue.failed(project) == []
    assert server.hits("main-m") == 1
    assert index_digest(repo) == digest
    only_memory_changes(repo)
    print(f"\nbackground return: {elapsed * 1000:.0f} ms (including python start-up)")


def test_busy_preempts_the_call_and_idle_retries_it(
        repo: Path, project: Project, server: FakeOpenAI, tmp_path: Path) -> None:
    configure(server.base_url)
    # The first call is never answered: only the busy signal can end it. Ordered events, no clocks.
    never = threading.Event()
    server.script("main-m", Held(never, reply_for(1)), reply_for(1))
    session = write_session(tmp_path / "s.jsonl", "s-preempt", [FACTS[1]])
    proc, _ = submit(repo, session)
    assert proc.returncode == 0, proc.stderr
    assert wait_for(lambda: server.hits("main-m") == 1)
    flag_written = time.time()
    busy = run_cli(repo, "agent", "busy")
    assert busy.returncode == 0, busy.stderr
    # The worker logs that it was preempted, then that it waits for idle, and only then waits: from
    # here until `agent idle` it is parked, so what it did so far is all it did while busy.
    assert wait_for(lambda: _logged(project, "preempted", "waiting for the agent sessions to be idle"))
    assert server.hits("main-m") == 1 and record_files(project) == []
    assert len(queue.pending(project)) == 1
    idle = run_cli(repo, "agent", "idle")
    assert idle.returncode == 0
    assert wait_for(lambda: indexed(project, FACTS[1]))
    assert server.hits("main-m") == 2 and len(record_files(project)) == 1
    assert wait_for(lambda: worker_idle(project)) and queue.pending(project) == []
    events = [line for line in log_lines(project) if "job " in line]
    assert [_event(line) for line in events][:4] == ["extracting", "preempted", "waiting", "extracting"]
    [preempted] = [line for line in events if "preempted" in line]
    latency = float(re.search(r" t=([0-9.]+) ", preempted).group(1)) - flag_written  # type: ignore[union-attr]
    print(f"\npreemption: {latency * 1000:.0f} ms from `agent busy` start to the worker's Preempted")


def _logged(project: Project, *phrases: str) -> bool:
    """Every phrase is in the worker log, each on a later line than the one before."""
    at = 0
    lines = log_lines(project)
    for phrase in phrases:
        found = next((i for i in range(at, len(lines)) if phrase in lines[i]), None)
        if found is None:
            return False
        at = found + 1
    return True


def _event(line: str) -> str:
    for word in ("extracting", "preempted", "waiting", "done", "failed", "retry"):
        if f": {word}" in line:
            return word
    return line


def test_dedicated_pool_is_not_preempted(repo: Path, project: Project, server: FakeOpenAI, tmp_path: Path) -> None:
    configure(server.base_url, dedicated=True)
    server.script("mem-m", Slow(1.0, reply_for(2)))
    server.script("main-m", reply_for(3))
    assert run_cli(repo, "agent", "busy").returncode == 0  # busy before, and during, the call
    session = write_session(tmp_path / "s.jsonl", "s-dedicated", [FACTS[2]])
    proc, _ = submit(repo, session)
    assert proc.returncode == 0, proc.stderr
    assert wait_for(lambda: server.hits("mem-m") == 1)
    assert run_cli(repo, "agent", "busy").returncode == 0
    assert wait_for(lambda: indexed(project, FACTS[2]))
    assert len(record_files(project)) == 1 and server.hits("mem-m") == 1 and server.hits("main-m") == 0
    assert not any("preempted" in line or "waiting" in line for line in log_lines(project))


def test_concurrent_sessions_all_land_with_one_worker_at_a_time(
        repo: Path, project: Project, server: FakeOpenAI, tmp_path: Path) -> None:
    configure(server.base_url)
    server.script("main-m", *[reply_for(k) for k in range(len(FACTS))])
    sessions = [write_session(tmp_path / f"s{k}.jsonl", f"s-{k}", [*FACTS, f"Session number {k}."])
                for k in range(len(FACTS))]
    env = cli_env()
    procs = [subprocess.Popen(["git", "memory", "extract", "--session", str(s), "--background"],
                              cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for s in sessions]
    outputs = [p.communicate(timeout=30) for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    assert len({out.strip() for out, _ in outputs}) == len(FACTS)
    assert wait_for(lambda: indexed(project, *FACTS), timeout=30)
    assert wait_for(lambda: worker_idle(project) and not queue.pending(project))
    assert len(record_files(project)) == len(FACTS)
    assert server.hits("main-m") == len(FACTS) and queue.failed(project) == []
    # Lock intervals of different worker processes never overlap.
    assert wait_for(lambda: lock_events(project)[-1][2] == "released")
    events = lock_events(project)
    holder: str | None = None
    for _, pid, what in events:
        if what == "acquired":
            assert holder is None, f"worker {pid} took the lock while {holder} held it"
            holder = pid
        else:
            assert holder == pid
            holder = None
    assert holder is None and sum(1 for e in events if e[2] == "acquired") >= 1


def test_extraction_off_queues_and_sends_nothing(
        repo: Path, project: Project, server: FakeOpenAI, tmp_path: Path) -> None:
    configure(server.base_url, enabled=False)
    server.script("main-m", reply_for(0))
    session = write_session(tmp_path / "s.jsonl", "s-off", [FACTS[0]])
    proc, _ = submit(repo, session)
    assert proc.returncode == 0 and "off" in proc.stdout
    # The queue is the only way from a command to the worker, and the command wrote it before it
    # returned: nothing is queued, and no worker started.
    assert queue.pending(project) == [] and not worker.log_path(project).exists()
    assert git(repo, "status", "--porcelain") == ""
    # Then a barrier: with extraction on, a second session goes through the same queue and worker.
    # Once its record is written, anything the first command could have started would have run.
    configure(server.base_url)
    later = write_session(tmp_path / "later.jsonl", "s-on", [FACTS[1]])
    server.script("main-m", reply_for(1))
    assert submit(repo, later)[0].returncode == 0
    assert wait_for(lambda: indexed(project, FACTS[1])) and wait_for(lambda: worker_idle(project))
    [request] = server.requests
    assert FACTS[1] in json.dumps(request.body) and FACTS[0] not in json.dumps(request.body)
    assert len(record_files(project)) == 1 and not indexed(project, FACTS[0])


def test_bad_usage_queues_nothing(repo: Path, project: Project, server: FakeOpenAI, tmp_path: Path) -> None:
    configure(server.base_url)
    proc, _ = submit(repo, Path("no-such-session.jsonl"))
    assert proc.returncode == 2 and "no-such-session.jsonl: cannot read session file" in proc.stderr
    session = write_session(tmp_path / "s.jsonl", "s-usage", [FACTS[0]])
    dry, _ = submit(repo, session, "--dry-run")
    assert dry.returncode == 2 and "--dry-run cannot be combined with --background" in dry.stderr
    assert queue.pending(project) == [] and server.requests == []


def test_api_session_ended_runs_the_worker_from_a_host_process(
        repo: Path, project: Project, server: FakeOpenAI, tmp_path: Path) -> None:
    from chord_git import api

    configure(server.base_url)
    server.script("main-m", reply_for(5))
    session = write_session(tmp_path / "s.jsonl", "s-api", [FACTS[5]])
    memory = api.open_session(repo)
    job_id = api.session_ended(repo, session, fmt="native")
    assert job_id is not None and re.fullmatch(r"[0-9a-f]{16}", job_id)
    assert wait_for(lambda: indexed(project, FACTS[5]))
    assert FACTS[5] not in memory.text  # R10: not on the next request
    assert FACTS[5] in memory.on_event(api.RefreshEvent.NEW_SESSION)
    assert wait_for(lambda: worker_idle(project))


def test_post_session_hook_end_to_end(repo: Path, project: Project, server: FakeOpenAI, tmp_path: Path) -> None:
    configure(server.base_url)
    server.script("main-m", reply_for(4))
    session = write_session(tmp_path / "s.jsonl", "s-hook", [FACTS[4]])
    digest = index_digest(repo)
    hook = subprocess.run(["sh", str(HOOK), str(session), "native"], cwd=repo, env=cli_env(),
                          capture_output=True, text=True, timeout=30)
    assert hook.returncode == 0 and hook.stdout == "" and hook.stderr == ""
    session.unlink()
    assert wait_for(lambda: indexed(project, FACTS[4]))
    assert len(record_files(project)) == 1
    assert wait_for(lambda: worker_idle(project))
    assert index_digest(repo) == digest
    only_memory_changes(repo)
