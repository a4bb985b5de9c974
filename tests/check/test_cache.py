"""The result cache: what was checked once is answered again without running the rules, and
anything the answer depends on (bytes, baseline, the rules themselves) makes it check again."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from chord_git.check import cache as cache_mod
from chord_git.check import driver, pool
from chord_git.findings import Finding
from chord_git.git import libgit2
from chord_git.memory.project import discover
from testing.gitutil import git
from tests.check.helpers import github_token, index_text, memory_repo, write, write_record


@pytest.fixture
def mrepo(tmp_path: Path) -> Path:
    repo = memory_repo(tmp_path / "repo")
    for name in ("alpha", "beta", "gamma"):
        write_record(repo, name)
    write_record(repo, "leak", f"Deploys use export GITHUB_TOKEN={github_token()} from the runner.")
    write(repo, "MEMORY.md", index_text("alpha", "beta", "gamma", "leak"))
    return repo


class Counter:
    """Counts the units the rules really run on (``driver._compute``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.units: list[str] = []
        real = driver._compute

        def counting(units: list[Any], schema: bool, data: Any, hashes: frozenset[str], *rest: Any) -> list[list[Finding]]:
            self.units.extend(unit.path for unit in units)
            return real(units, schema, data, hashes, *rest)

        monkeypatch.setattr(driver, "_compute", counting)

    def take(self) -> list[str]:
        seen, self.units = self.units, []
        return seen


def test_a_second_check_runs_no_rule(mrepo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counter = Counter(monkeypatch)
    first = driver.worktree(discover(mrepo))
    assert len(counter.take()) == 5 and any(f.kind == "github-token" for f in first.findings)
    second = driver.worktree(discover(mrepo))
    assert counter.take() == [] and second == first
    assert (discover(mrepo).state_dir / cache_mod.FILE_NAME).is_file()
    assert "cache" not in git(mrepo, "status", "--porcelain", "--ignored")  # never in the working tree


def test_a_small_staged_commit_is_checked_without_the_store(mrepo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git(mrepo, "add", "-A")
    counter = Counter(monkeypatch)
    first = driver.staged(discover(mrepo))
    assert len(counter.take()) == 5 and any(f.kind == "github-token" for f in first.findings)
    assert not (discover(mrepo).state_dir / cache_mod.FILE_NAME).exists()
    assert driver.staged(discover(mrepo)) == first and len(counter.take()) == 5
    # Above the size where the store pays, the hook answers a second run from it.
    monkeypatch.setattr(driver, "STAGED_CACHE_MIN_BYTES", 1)
    assert driver.staged(discover(mrepo)) == first and len(counter.take()) == 5
    assert driver.staged(discover(mrepo)) == first and counter.take() == []


def test_what_changed_is_checked_again(mrepo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counter = Counter(monkeypatch)
    driver.worktree(discover(mrepo))
    counter.take()
    rel = write_record(mrepo, "beta", "Run make lint before asking for review.")
    driver.worktree(discover(mrepo))
    assert counter.take() == [rel]
    write(mrepo, ".secrets.baseline", '{"version": "1.5.0", "plugins_used": [], "filters_used": [], "results": {}}')
    driver.worktree(discover(mrepo))
    assert len(counter.take()) == 5  # another baseline: every answer may differ


def test_a_change_to_the_rules_changes_every_key() -> None:
    before = cache_mod.rules_version()
    source = Path(cache_mod.__file__).with_name("changes.py")
    stat = source.stat()
    try:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        assert cache_mod.rules_version() != before
    finally:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert cache_mod.rules_version() == before


def test_a_broken_cache_file_costs_nothing_but_time(mrepo: Path) -> None:
    expected = driver.worktree(discover(mrepo))
    state = discover(mrepo).state_dir
    for name in os.listdir(state):
        if name.startswith(cache_mod.FILE_NAME):
            (state / name).write_bytes(b"this is not a database" * 100)
    assert driver.worktree(discover(mrepo)) == expected
    assert driver.worktree(discover(mrepo)) == expected


def test_a_store_damaged_inside_is_set_aside_and_made_again(mrepo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store whose header opens but whose table pages are garbage (a torn disk write): the run
    checks without it, sets it aside, and the next run answers from a fresh store."""
    import sqlite3

    expected = driver.worktree(discover(mrepo))
    path = discover(mrepo).state_dir / cache_mod.FILE_NAME
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=DELETE")  # everything in the main file, pages at fixed places
    connection.executemany("INSERT OR REPLACE INTO results VALUES (?, ?, 0)",
                           ((f"filler-{n:06d}", "x" * 200) for n in range(2000)))
    connection.commit()
    connection.close()
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page:] = b"\xff" * (len(data) - page)  # every page after the schema page
    path.write_bytes(bytes(data))
    counter = Counter(monkeypatch)
    assert driver.worktree(discover(mrepo)) == expected
    assert len(counter.take()) == 5
    assert (path.parent / (cache_mod.FILE_NAME + ".broken")).exists()
    assert driver.worktree(discover(mrepo)) == expected  # a fresh store, filled by this run
    counter.take()
    assert driver.worktree(discover(mrepo)) == expected and counter.take() == []


def test_a_store_left_without_its_table_is_made_whole(mrepo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store is created unsynced: a crash then can leave a database with no table in it."""
    import sqlite3

    state = discover(mrepo).state_dir
    state.mkdir(parents=True)
    connection = sqlite3.connect(state / cache_mod.FILE_NAME)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.close()
    counter = Counter(monkeypatch)
    first = driver.worktree(discover(mrepo))
    assert len(counter.take()) == 5
    assert driver.worktree(discover(mrepo)) == first and counter.take() == []


def test_an_unwritable_state_dir_still_checks(mrepo: Path) -> None:
    expected = driver.worktree(discover(mrepo))
    state = discover(mrepo).state_dir
    for name in os.listdir(state):
        if name.startswith(cache_mod.FILE_NAME):
            os.remove(state / name)
    (state / cache_mod.FILE_NAME).mkdir()  # a folder where the file should be
    assert driver.worktree(discover(mrepo)) == expected


def test_a_second_history_scan_reads_no_diff(mrepo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git(mrepo, "add", "-A")
    git(mrepo, "commit", "-q", "--no-verify", "-m", "records")
    write_record(mrepo, "delta")
    git(mrepo, "add", "-A")
    git(mrepo, "commit", "-q", "--no-verify", "-m", "one more")
    read: list[str] = []
    real = libgit2.commit_batches

    def counting(start: Path, commits: Any, wanted: Any, size: int) -> Any:
        commits = list(commits)
        read.extend(commits)
        return real(start, commits, wanted, size)

    monkeypatch.setattr(libgit2, "commit_batches", counting)
    first = driver.history(mrepo, None)
    assert len(read) == 4 and [f.kind for f in first.findings] == ["github-token"]
    read.clear()
    assert driver.history(mrepo, None) == first and read == []


def test_the_pool_gives_the_same_answers(mrepo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = discover(mrepo)
    files = [driver._worktree_change(project, path) for path in driver._memory_files(project)]
    units = [f for f in files if not isinstance(f, Finding)]
    alone = driver.content_findings(units, root=mrepo, schema=True, cache=None)
    monkeypatch.setattr(driver, "POOL_MIN_BYTES", 0)
    monkeypatch.setenv(pool.WORKERS_ENV, "3")
    parent, computed_here = os.getpid(), []
    compute = driver._compute

    def noting(chunk: list[Any], *args: Any) -> list[list[Finding]]:
        if os.getpid() == parent:
            computed_here.append(len(chunk))
        return compute(chunk, *args)

    monkeypatch.setattr(driver, "_compute", noting)
    assert driver.content_findings(units, root=mrepo, schema=True, cache=None) == alone
    assert any(alone)
    # The children's findings came back pickled: the parent redid no chunk of theirs.
    assert len(computed_here) == 1 and computed_here[0] < len(units)


def test_a_failing_worker_is_redone_by_the_parent() -> None:
    parent = os.getpid()

    def work(chunk: list[int]) -> list[int]:
        if os.getpid() != parent:
            raise RuntimeError("worker died")
        return [n * n for n in chunk]

    assert pool.map_chunks(work, [[1, 2], [3], [4, 5]]) == [1, 4, 9, 16, 25]
    assert pool.split(list(range(10)), 3, lambda n: 1) == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
