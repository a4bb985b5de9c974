"""Background extraction timings (issue 4, R14–R16): how fast the post-session hook returns, and
how fast a ``busy`` signal cancels an in-flight main-pool model call.

Each trial builds a temporary git repository whose main pool points at the loopback
OpenAI-compatible server, which answers only after 10 s. It times:
- ``git memory extract --session FILE --background`` until it returns (Python start-up included);
- the flag write (``activity.set_busy``, what ``git memory agent busy`` does) until the worker logs
  the preemption: the cancellation itself (goal: within half a second);
- the same through a whole ``git memory agent busy`` process, start-up included;
then signals idle and waits for the retried call to write the record.

There is no reference tool to run beside it: the agents compared in BENCHMARKS.md extract in a
closed process (Claude Code) or at the next start (Codex), with no preemption to measure.

Usage: python bench/background_latency.py [--trials 5]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chord_git.background import (
    activity,  # noqa: E402
    worker,  # noqa: E402
)
from chord_git.memory import project as project_mod  # noqa: E402
from testing.fake_openai import FakeOpenAI, Reply, Slow  # noqa: E402

FACT = "Releases are always cut from a tag named like release-2024.06."


def wait_for(check: Callable[[], bool], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.01)
    return check()


def git_memory(root: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("git-memory", path=str(Path(sys.executable).parent)) or "git-memory"
    return subprocess.run([exe, "-C", str(root), *args], capture_output=True, text=True, env=env, check=True)


def preempted_at(project: project_mod.Project, skip: int) -> float | None:
    path = worker.log_path(project)
    lines = path.read_text("utf-8").splitlines() if path.exists() else []
    hits = [line for line in lines if "preempted" in line]
    if len(hits) <= skip:
        return None
    match = re.search(r" t=([0-9.]+) ", hits[skip])
    return float(match.group(1)) if match else None


def trial(base: Path, server: FakeOpenAI, number: int) -> tuple[float, float, float, float]:
    root = base / f"repo{number}"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    env = dict(os.environ, XDG_CONFIG_HOME=str(base / f"cfg{number}"), XDG_STATE_HOME=str(base / "state"))
    config = Path(env["XDG_CONFIG_HOME"]) / "chord" / "config.yaml"
    config.parent.mkdir(parents=True)
    model = f"main-{number}"
    config.write_text(json.dumps({"model_pool": [{"model": model, "base_url": server.base_url, "timeout": 30}],
                                  "memory": {"enabled": True}}))
    record = {"records": [{"type": "preference", "summary": FACT, "statement": FACT, "why": "Said.",
                           "how_to_apply": "Follow it.", "source": "user", "status": "stated",
                           "evidence": FACT, "supersedes": None}], "retire": [], "promotions": []}
    server.script(model, Slow(10, Reply(record)), Slow(10, Reply(record)), Reply(record))
    session = base / f"s{number}.jsonl"
    session.write_text(json.dumps({"type": "session", "id": f"s{number}", "frozen": True}) + "\n"
                       + json.dumps({"type": "message", "role": "user", "content": FACT, "complete": True}) + "\n")
    project = project_mod.discover(root)

    start = time.monotonic()
    git_memory(root, "extract", "--session", str(session), "--background", env=env)
    returned = time.monotonic() - start

    assert wait_for(lambda: server.hits(model) == 1), "the worker never called the model"
    flag = time.time()
    activity.set_busy(project.state_dir)
    assert wait_for(lambda: preempted_at(project, 0) is not None), "no preemption"
    in_process = preempted_at(project, 0) - flag  # type: ignore[operator]

    activity.set_idle(project.state_dir)
    assert wait_for(lambda: server.hits(model) == 2), "no retry after idle"
    start_wall = time.time()
    git_memory(root, "agent", "busy", env=env)
    assert wait_for(lambda: preempted_at(project, 1) is not None), "no second preemption"
    via_command = preempted_at(project, 1) - start_wall  # type: ignore[operator]

    start = time.monotonic()
    git_memory(root, "agent", "idle", env=env)
    assert wait_for(lambda: FACT in (root / "MEMORY.md").read_text() if (root / "MEMORY.md").exists() else False)
    written = time.monotonic() - start
    assert wait_for(lambda: worker.running_worker(project) is None)
    return returned, in_process, via_command, written


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="chord-bg-bench-"))
    rows = []
    try:
        with FakeOpenAI() as server:
            for number in range(args.trials):
                rows.append(trial(base, server, number))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    names = ("extract --background returns", "busy flag -> call cancelled (in process)",
             "`git memory agent busy` start -> call cancelled", "`agent idle` -> record written")
    print(f"{args.trials} trials, load average {os.getloadavg()[0]:.2f}")
    for i, name in enumerate(names):
        values = [row[i] * 1000 for row in rows]
        print(f"{name:<50} median {statistics.median(values):7.0f} ms   max {max(values):7.0f} ms")


if __name__ == "__main__":
    main()
