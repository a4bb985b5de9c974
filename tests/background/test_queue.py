"""The extraction queue: private copies, idempotent ids, backoff and giving up."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chord_git.background import queue
from chord_git.memory import project as project_mod
from chord_git.memory.project import Project


@pytest.fixture
def project(repo: Path) -> Project:
    return project_mod.discover(repo)


def session(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_enqueue_copies_the_transcript_so_the_original_may_vanish(project: Project, tmp_path: Path) -> None:
    original = session(tmp_path / "outside" / "s1.jsonl", '{"type":"session","id":"a"}\n')
    job_id = queue.enqueue(project, original, "native")
    original.unlink()
    [job] = queue.pending(project)
    assert job.id == job_id
    assert job.path.read_text(encoding="utf-8") == '{"type":"session","id":"a"}\n'
    assert job.fmt == "native" and job.attempts == 0
    assert project.state_dir in job.path.parents  # never in the working tree
    assert list((queue.queue_dir(project) / "tmp").iterdir()) == []


def test_same_bytes_are_one_job_and_different_bytes_queue_in_order(project: Project, tmp_path: Path) -> None:
    first = queue.enqueue(project, session(tmp_path / "a.jsonl", "one\n"), now=100.0)
    again = queue.enqueue(project, session(tmp_path / "copy-of-a.jsonl", "one\n"), now=200.0)
    second = queue.enqueue(project, session(tmp_path / "b.jsonl", "two\n"), now=150.0)
    assert first == again and first != second
    jobs = queue.pending(project)
    assert [j.id for j in jobs] == [first, second]
    assert jobs[0].created == 100.0  # re-queueing keeps the original age


def test_sidecar_never_holds_an_absolute_path(project: Project, tmp_path: Path) -> None:
    inside = queue.enqueue(project, session(project.root / "logs" / "in.jsonl", "inside\n"))
    outside = queue.enqueue(project, session(tmp_path / "elsewhere" / "out.jsonl", "outside\n"))
    sidecars = {p.stem: p.read_text(encoding="utf-8") for p in queue.queue_dir(project).glob("*.json")}
    assert json.loads(sidecars[inside])["origin"] == "logs/in.jsonl"
    assert json.loads(sidecars[outside])["origin"] == "out.jsonl"
    for text in sidecars.values():
        assert str(tmp_path) not in text


def test_unreadable_session_raises_and_queues_nothing(project: Project, tmp_path: Path) -> None:
    with pytest.raises(OSError):
        queue.enqueue(project, tmp_path / "missing.jsonl")
    with pytest.raises(OSError):
        queue.enqueue(project, tmp_path)  # a directory
    assert queue.pending(project) == []
    assert list((queue.queue_dir(project) / "tmp").iterdir()) == []


def test_take_skips_jobs_in_backoff_and_returns_the_oldest_ready(project: Project, tmp_path: Path) -> None:
    a = queue.enqueue(project, session(tmp_path / "a", "a\n"), now=1.0)
    b = queue.enqueue(project, session(tmp_path / "b", "b\n"), now=2.0)
    job = queue.take(project, now=10.0)
    assert job is not None and job.id == a
    later = queue.retry_later(project, job, "all 1 models failed: m1 error:timeout", base=30.0, now=10.0)
    assert later.attempts == 1 and later.not_before == 40.0
    taken = queue.take(project, now=11.0)
    assert taken is not None and taken.id == b
    queue.done(project, taken)
    assert queue.take(project, now=39.0) is None
    again = queue.take(project, now=40.0)
    assert again is not None and again.id == a and again.last_error == "all 1 models failed: m1 error:timeout"


def test_backoff_doubles_and_is_capped() -> None:
    assert [queue.backoff_seconds(n, 30.0, 200.0) for n in range(6)] == [0.0, 30.0, 60.0, 120.0, 200.0, 200.0]


def test_after_max_attempts_the_job_is_kept_in_failed_with_its_reason(project: Project, tmp_path: Path) -> None:
    queue.enqueue(project, session(tmp_path / "s", "s\n"))
    for attempt in range(1, queue.MAX_ATTEMPTS + 1):
        job = queue.take(project, now=1e12)
        assert job is not None
        queue.retry_later(project, job, f"failure\nnumber {attempt}", base=0.0)
    assert queue.pending(project) == []
    [gone] = queue.failed(project)
    assert gone.attempts == queue.MAX_ATTEMPTS
    assert gone.last_error == f"failure number {queue.MAX_ATTEMPTS}"  # one line
    assert gone.path.read_text(encoding="utf-8") == "s\n"
    # Asking again for the same session is an explicit retry: a fresh job, the failed copy gone.
    queue.enqueue(project, session(tmp_path / "s2", "s\n"))
    assert [j.attempts for j in queue.pending(project)] == [0]
    assert queue.failed(project) == []


def test_done_removes_the_job_and_a_sidecar_without_its_copy_is_dropped(project: Project, tmp_path: Path) -> None:
    a = queue.enqueue(project, session(tmp_path / "a", "a\n"))
    job = queue.take(project)
    assert job is not None and job.id == a
    queue.done(project, job)
    assert queue.pending(project) == [] and not job.path.exists()
    b = queue.enqueue(project, session(tmp_path / "b", "b\n"))
    (queue.queue_dir(project) / f"{b}{queue.SUFFIX}").unlink()
    assert queue.take(project) is None
    assert queue.pending(project) == []


def test_fail_moves_the_job_at_once(project: Project, tmp_path: Path) -> None:
    queue.enqueue(project, session(tmp_path / "bad", "not a transcript\n"))
    job = queue.take(project)
    assert job is not None
    gone = queue.fail(project, job, "bad.transcript:1: cannot tell the transcript format")
    assert queue.pending(project) == [] and gone.path.exists()
    assert queue.failed(project)[0].last_error == "bad.transcript:1: cannot tell the transcript format"
    assert queue.clear_failed(project) == 1 and queue.failed(project) == []


def test_the_copy_is_private_and_crash_litter_is_swept(project: Project, tmp_path: Path) -> None:
    tmp_dir = queue.queue_dir(project) / "tmp"
    tmp_dir.mkdir(parents=True)
    litter = tmp_dir / "123-456.transcript"
    litter.write_text("half a copy", encoding="utf-8")
    os.utime(litter, (1.0, 1.0))
    fresh = tmp_dir / "789-012.transcript"  # another process may be copying right now
    fresh.write_text("copying", encoding="utf-8")
    queue.enqueue(project, session(tmp_path / "s", "s\n"))
    [job] = queue.pending(project)
    assert job.path.stat().st_mode & 0o777 == 0o600
    assert not litter.exists() and fresh.exists()


def test_a_huge_transcript_is_refused_with_one_line(repo: Path) -> None:
    """``--background`` copies the session into .git: never without bound."""
    from testing.gitutil import run_cli

    (repo / ".chord").mkdir()
    (repo / ".chord" / "config.yaml").write_text("memory:\n  enabled: true\n")
    huge = repo.parent / "huge.jsonl"
    with open(huge, "wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # sparse: costs no disk
    result = run_cli(repo, "extract", "--session", str(huge), "--background", timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "larger than 256 MiB" in result.stderr and "huge.jsonl" in result.stderr
    assert not (repo / ".git" / "chord-memory" / "queue").exists() or not any(
        p.stat().st_size for p in (repo / ".git" / "chord-memory" / "queue").rglob("*") if p.is_file())


def test_an_endless_stream_is_cut_at_the_cap(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from chord_git.errors import InputError

    monkeypatch.setattr(queue, "MAX_TRANSCRIPT_BYTES", 4 * 1024 * 1024)
    project = project_mod.discover(repo)
    with pytest.raises(InputError, match="larger than 4 MiB"):
        queue.enqueue(project, Path("/dev/zero"))
    assert queue.pending(project) == [] and list((queue.queue_dir(project) / "tmp").iterdir()) == []


# A number JSON reads that no sidecar of ours holds: past float's range (inf), not a number, or
# out of any clock's range. Each is damaged state, as broken JSON is: the job is left out with one
# line saying so, and nothing stops on it (``time.localtime(inf)`` raised OverflowError: exit 3).
OUT_OF_RANGE = [("not_before", "1e400"), ("not_before", "-1e400"), ("not_before", "NaN"), ("not_before", "1e300"),
                ("not_before", "-1e300"), ("not_before", "-1"), ("created", "1e400"), ("created", "1e300"),
                ("attempts", "1e400"), ("attempts", "-3"), ("attempts", "1e12"), ("attempts", "true")]


def _damage(project: Project, tmp_path: Path, field: str, value: str) -> tuple[str, Path]:
    job_id = queue.enqueue(project, session(tmp_path / "s.jsonl", "one\n"), now=100.0)
    sidecar = queue.queue_dir(project) / f"{job_id}.json"
    data = json.loads(sidecar.read_text(encoding="utf-8"))
    data[field] = "@@"
    sidecar.write_text(json.dumps(data).replace('"@@"', value), encoding="utf-8")
    return job_id, sidecar


@pytest.mark.parametrize("field, value", OUT_OF_RANGE)
def test_an_out_of_range_number_in_a_sidecar_is_damaged_state(repo: Path, tmp_path: Path, field: str,
                                                               value: str) -> None:
    from testing.gitutil import run_cli

    project = project_mod.discover(repo)
    job_id, sidecar = _damage(project, tmp_path, field, value)
    constant = value in ("1e400", "-1e400", "NaN")  # what JSON reads as no finite number
    reason = f"{value} is not a number a state file holds" if constant else \
        f"{field} {json.dumps(json.loads(value))} is out of range"
    for args in (("queue",), ("queue", "list", "--json"), ("status",)):
        done = run_cli(repo, *args)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stderr)
        if args[0] == "queue":
            assert done.stderr == (f"warning: {sidecar}: damaged queue entry ({reason}); "
                                   f"ignored (delete it, and {job_id}{queue.SUFFIX} beside it)\n")
    assert queue.pending(project) == [] and queue.take(project) is None
    assert queue.damaged(project) == [(sidecar, reason)]
    assert sidecar.exists()  # damaged state is reported, not deleted behind the user's back


def test_backoff_never_overflows() -> None:
    assert queue.backoff_seconds(5000, 30.0, 3600.0) == 3600.0
    assert queue.backoff_seconds(2**40) == queue.BACKOFF_CAP
