"""``git memory queue list|retry|drop`` and the queue counts in ``status``."""
from __future__ import annotations

import json
from pathlib import Path

from chord_git.background import queue
from chord_git.memory import project as project_mod
from testing.fake_openai import FakeOpenAI
from testing.gitutil import index_digest, run_cli
from tests.background.test_background import FACTS, configure, reply_for, write_session


def jobs(repo: Path) -> list[dict[str, object]]:
    done = run_cli(repo, "queue", "list", "--json")
    assert done.returncode == 0, done.stderr
    found: list[dict[str, object]] = json.loads(done.stdout)["jobs"]
    return found


def test_list_retry_and_drop(repo: Path, tmp_path: Path) -> None:
    project = project_mod.discover(repo)
    digest = index_digest(repo)
    with FakeOpenAI() as server:
        configure(server.base_url)
        server.script("main-m", reply_for(0))
        assert run_cli(repo, "queue").stdout == "no background jobs\n"
        waiting = queue.enqueue(project, write_session(tmp_path / "a.jsonl", "s-a", [FACTS[0]]))
        failing = queue.enqueue(project, write_session(tmp_path / "b.jsonl", "s-b", [FACTS[1]]))
        [job_b] = [j for j in queue.pending(project) if j.id == failing]
        queue.retry_later(project, job_b, "pool failed: main-m: connection refused")
        given_up = queue.enqueue(project, write_session(tmp_path / "c.jsonl", "s-c", [FACTS[2]]))
        [job_c] = [j for j in queue.pending(project) if j.id == given_up]
        queue.fail(project, job_c, "bad transcript")

        listed = {j["id"]: j for j in jobs(repo)}
        assert listed[waiting]["state"] == "pending" and listed[waiting]["reason"] is None
        assert listed[failing]["state"] == "failed" and listed[failing]["given_up"] is False
        assert listed[failing]["reason"] == "pool failed: main-m: connection refused"
        assert listed[given_up]["state"] == "failed" and listed[given_up]["given_up"] is True
        text = run_cli(repo, "queue", "list").stdout
        assert "connection refused" in text and "given up" in text
        assert "queue: 1 pending, 2 failed" in run_cli(repo, "status").stdout
        status = json.loads(run_cli(repo, "status", "--json").stdout)
        assert (status["queue_pending"], status["queue_failed"]) == (1, 2)

        dropped = run_cli(repo, "queue", "drop", given_up[:6])
        assert dropped.returncode == 0 and dropped.stdout == f"dropped {given_up}\n"
        assert given_up not in {j["id"] for j in jobs(repo)}
        assert not list(queue.failed_dir(project).glob(f"{given_up}*"))

        server.script("main-m", reply_for(0), reply_for(1))  # oldest job first
        retried = run_cli(repo, "queue", "retry")
        assert retried.returncode == 0, retried.stdout + retried.stderr
        assert f"{failing}: done" in retried.stdout
        assert jobs(repo) == []  # the pending job ran too: the worker takes every due job
        text = (repo / "MEMORY.md").read_text(encoding="utf-8")
        assert FACTS[1] in text and FACTS[0] in text
    assert index_digest(repo) == digest


def test_retry_of_a_job_given_up_on_and_a_failure_again(repo: Path, tmp_path: Path) -> None:
    project = project_mod.discover(repo)
    with FakeOpenAI() as server:
        configure(server.base_url)  # main-m has no script: 404, the pool fails
        job_id = queue.enqueue(project, write_session(tmp_path / "a.jsonl", "s-a", [FACTS[3]]))
        queue.fail(project, queue.pending(project)[0], "earlier failure")
        again = run_cli(repo, "queue", "retry", job_id)
        assert again.returncode == 1 and f"{job_id}: failed again: " in again.stdout
        [job] = jobs(repo)
        assert job["state"] == "failed" and "main-m" in str(job["reason"])
        server.script("main-m", reply_for(3))
        assert run_cli(repo, "queue", "retry", job_id).returncode == 0
        assert FACTS[3] in (repo / "MEMORY.md").read_text(encoding="utf-8")


def test_queue_usage_errors(repo: Path) -> None:
    assert run_cli(repo, "queue", "drop").returncode == 2
    unknown = run_cli(repo, "queue", "drop", "abcdef")
    assert unknown.returncode == 2 and "no job 'abcdef'" in unknown.stderr
    off = run_cli(repo, "queue", "retry")
    assert off.returncode == 2 and "memory extraction is off" in off.stderr
    configure("http://127.0.0.1:9/v1")
    assert run_cli(repo, "queue", "retry").stdout == "no failed jobs\n"


def test_retry_waits_for_a_running_worker_and_reports_what_became_of_the_jobs(repo: Path, tmp_path: Path) -> None:
    import fcntl
    import os
    import subprocess

    from chord_git.background import worker
    from testing.gitutil import cli_env

    project = project_mod.discover(repo)
    with FakeOpenAI() as server:
        configure(server.base_url, dedicated=True)
        server.script("mem-m", reply_for(4))
        job_id = queue.enqueue(project, write_session(tmp_path / "a.jsonl", "s-a", [FACTS[4]]))
        queue.retry_later(project, queue.pending(project)[0], "earlier failure")
        fd = os.open(worker.lock_path(project), os.O_RDWR | os.O_CREAT)
        fcntl.flock(fd, fcntl.LOCK_EX)  # a worker holds the queue
        try:
            proc = subprocess.Popen(["git", "memory", "queue", "retry"], cwd=repo, env=cli_env(),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            assert proc.stderr is not None
            assert "a background worker is running; waiting for it" in proc.stderr.readline()
            assert server.hits("mem-m") == 0
        finally:
            os.close(fd)  # the worker lets go
        out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0 and out == f"{job_id}: done\n"
    assert FACTS[4] in (repo / "MEMORY.md").read_text(encoding="utf-8")
