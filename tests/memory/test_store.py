from __future__ import annotations

import os
import random
import re
import select
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from chord_git.errors import InputError
from chord_git.memory import index_file, quiet, records, store
from chord_git.memory.index_file import BEGIN, END, Entry, IndexDelta
from chord_git.memory.project import discover
from testing import memory_writers
from testing.gitutil import git, index_digest
from testing.waiting import wait_for
from tests.conftest import REPO_ROOT


def entry(rid: str) -> Entry:
    return Entry(type="fact", summary=f"About {rid}.", id=rid)


def parse_file(path: Path) -> index_file.MemoryDoc:
    text, bom = index_file.decode(path.read_bytes())
    doc, problems = index_file.parse(text, bom=bom)
    assert doc is not None and not [p for p in problems if p.kind != "encoding-outside"], problems
    return doc


def test_state_dir_is_inside_git_and_never_in_status(repo: Path) -> None:
    project = discover(repo)
    assert project.state_dir == repo / ".git" / "chord-memory"
    before = index_digest(repo)
    store.apply_delta(project, IndexDelta(insert=(entry("abc-1"),)))
    assert (project.state_dir / "lock").exists()
    assert git(repo, "status", "--porcelain") == "?? MEMORY.md\n"
    assert index_digest(repo) == before


def test_delta_keeps_user_reordering_and_deletions(repo: Path) -> None:
    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=(entry("a-1"), entry("b-1"), entry("c-1"))))
    path = project.memory_md
    # The user reorders, deletes one line and edits text outside the markers meanwhile.
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    a, b, c = (next(line for line in lines if f"[{rid}]" in line) for rid in ("a-1", "b-1", "c-1"))
    text = text.replace(a + b + c, c + a).replace("# Project memory", "# Our memory\n\nhand note")
    path.write_text(text)
    store.apply_delta(project, IndexDelta(insert=(entry("d-1"),), replace={"a-1": entry("a-2")}))
    doc = parse_file(path)
    assert doc.ids() == ["d-1", "c-1", "a-2"]  # b-1 stays deleted, user order kept, a revised in place
    assert "hand note" in doc.prefix
    # Re-inserting the deleted id through a stale delta does not resurrect anything else.
    store.apply_delta(project, IndexDelta(remove=frozenset({"zzz-1"})))
    assert parse_file(path).ids() == ["d-1", "c-1", "a-2"]


def test_broken_managed_section_is_never_rewritten(repo: Path) -> None:
    project = discover(repo)
    broken = f"mine\n{BEGIN}\nnot an entry\n{END}\n"
    project.memory_md.write_text(broken)
    with pytest.raises(InputError, match=r"MEMORY.md:3: managed section unusable"):
        store.apply_delta(project, IndexDelta(insert=(entry("a-1"),)))
    assert project.memory_md.read_text() == broken


def test_create_exclusive_never_overwrites(repo: Path) -> None:
    project = discover(repo)
    target = project.records_dir / "abc-1.md"
    assert store.create_exclusive(project, target, b"first")
    assert not store.create_exclusive(project, target, b"second")
    assert target.read_bytes() == b"first"
    assert list((project.state_dir / "tmp").iterdir()) == []


def test_temp_files_never_land_in_the_working_tree(repo: Path) -> None:
    project = discover(repo)
    for number in range(20):
        store.apply_delta(project, IndexDelta(insert=(entry(f"n-{number:03d}"),)))
    assert sorted(p.name for p in repo.iterdir()) == [".git", "MEMORY.md", "README.md"]


def _spawn(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    return subprocess.Popen([sys.executable, "-m", "testing.memory_writers", *args], cwd=REPO_ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_eight_writers_and_an_editor_lose_nothing(repo: Path) -> None:
    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=(entry("seed-1"), entry("seed-2"))))
    before = index_digest(repo)
    stop = repo.parent / "stop-editor"
    editor = _spawn("edit", str(repo), str(stop))
    writers = [_spawn("insert", str(repo), str(tag), "25") for tag in range(8)]
    for proc in writers:
        _out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
    stop.touch()
    out, err = editor.communicate(timeout=60)
    assert editor.returncode == 0, err
    notes = int(out.strip())
    assert notes > 0
    doc = parse_file(project.memory_md)
    ids = set(doc.ids())
    expected = {f"w{tag}-{n:03d}" for tag in range(8) for n in range(25)} | {"seed-1", "seed-2"}
    assert ids == expected and len(doc.ids()) == 202
    for number in range(notes):
        assert f"user note {number}\n" in doc.prefix
    assert index_digest(repo) == before


def test_an_uncoordinated_save_is_never_lost(repo: Path) -> None:
    """A person's editor saves without our lock while writers run: their edit always survives."""
    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=(entry("seed-1"),)))
    rng = random.Random(11)
    stop = repo.parent / "stop-writers"

    def written() -> list[str]:
        return re.findall(r"\[ws([01])-\d+\]", project.memory_md.read_text())

    writers = [_spawn("insert-until", str(repo), f"s{tag}", str(stop)) for tag in range(2)]
    try:
        # Every save falls while both writers are writing, and both write on after the last one.
        assert wait_for(lambda: set(written()) == {"0", "1"}, timeout=120)
        for number in range(12):
            # The save is plain reads and a rename, without our lock: this process can make it.
            memory_writers.save(repo, f"person note {number}", rng.uniform(0, 0.004))
        after_saves = Counter(written())
        assert wait_for(lambda: all(Counter(written())[tag] > after_saves[tag] for tag in "01"), timeout=120)
    finally:
        stop.touch()
    for proc in writers:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0 and int(out) > 0, err
    doc = parse_file(project.memory_md)
    for number in range(12):
        assert f"person note {number}\n" in doc.prefix


def _writer_loop(root: Path) -> None:
    project = discover(root)
    number = 0
    while True:
        number += 1
        store.apply_delta(project, IndexDelta(insert=(entry(f"k-{os.getpid()}-{number}"),)))
        rid = f"rec-{os.getpid()}-{number}"
        store.create_exclusive(project, project.records_dir / f"{rid}.md", ("x" * 5000).encode())


def _stop_at(point: str, occurrence: int, signal_fd: int) -> None:
    """In the forked writer: at the ``occurrence``-th pass through ``point``, tell the parent
    and wait there to be killed. The points are the steps of an atomic write."""
    real_write, real_exchange, real_link, real_fsync_dir = os.write, store._exchange, os.link, store.fsync_dir
    seen = {"count": 0}

    def reached() -> None:
        seen["count"] += 1
        if seen["count"] == occurrence:
            real_write(signal_fd, b"!")
            while True:
                signal.pause()

    def write(fd: int, data: bytes | memoryview) -> int:  # a file half written
        if point == "mid-write" and len(data) > 1:
            done = real_write(fd, bytes(data[: len(data) // 2]))
            reached()
            return done + real_write(fd, bytes(data[len(data) // 2:]))
        return real_write(fd, data)

    def exchange(tmp: Path, target: Path) -> bool:
        if point == "before-swap":
            reached()
        swapped = real_exchange(tmp, target)
        if point == "after-swap":
            reached()
        return swapped

    def link(source: Any, target: Any) -> None:
        if point == "before-link":
            reached()
        real_link(source, target)
        if point == "after-link":
            reached()

    def fsync_dir(path: Path) -> None:
        if point == "before-dir-sync":
            reached()
        real_fsync_dir(path)

    os.write, os.link = write, link  # type: ignore[assignment]
    store._exchange, store.fsync_dir = exchange, fsync_dir  # type: ignore[assignment]


POINTS = [(point, occurrence) for point in ("mid-write", "before-swap", "after-swap", "before-link", "after-link",
                                            "before-dir-sync") for occurrence in (1, 2, 3)]


def test_sigkill_never_leaves_a_half_written_file(repo: Path) -> None:
    """A writer killed at each step of an atomic write (a file half written, before and after the
    swap, before and after a record's link, before the directory sync) leaves every file whole."""
    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=tuple(entry(f"base-{n:03d}") for n in range(200))))
    for point, occurrence in POINTS:
        ready, signal_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            try:
                os.close(ready)
                _stop_at(point, occurrence, signal_fd)
                _writer_loop(repo)
            finally:
                os._exit(0)
        os.close(signal_fd)
        # Generous: the writer gets there in milliseconds; this only stops a broken test hanging.
        arrived, _, _ = select.select([ready], [], [], 120)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        assert arrived and os.read(ready, 1) == b"!", f"the writer never reached {point} #{occurrence}"
        os.close(ready)
        doc = parse_file(project.memory_md)
        assert {f"base-{n:03d}" for n in range(200)} <= set(doc.ids()), (point, occurrence)
        assert project.memory_md.read_bytes().endswith(f"{END}\n".encode())
        for path in project.records_dir.glob("*") if project.records_dir.exists() else []:
            assert path.suffix == ".md" and path.stat().st_size == 5000, (point, occurrence, path.name)
    assert sorted(p.name for p in repo.iterdir()) == [".chord", ".git", "MEMORY.md", "README.md"]
    assert git(repo, "status", "--porcelain").splitlines() == ["?? .chord/", "?? MEMORY.md"]


def test_lock_is_exclusive(repo: Path) -> None:
    project = discover(repo)
    from chord_git.errors import LockTimeout
    with store.locked(project):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            try:
                with store.locked(project, timeout=0.2):
                    os._exit(3)
            except LockTimeout:
                os._exit(7)
            os._exit(1)
        _pid, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 7


def test_record_written_by_store_is_read_back(repo: Path) -> None:
    from testing.memory_files import sample_record
    project = discover(repo)
    record = sample_record()
    path = records.safe_record_path(project.records_dir, record.id) if project.records_dir.exists() else project.records_dir / f"{record.id}.md"
    assert store.create_exclusive(project, path, records.render(record).encode())
    assert records.read(path) == (record, [])


@pytest.mark.parametrize("writers", [3, 8])
def test_in_place_saves_lose_no_user_text(repo: Path, writers: int) -> None:
    """R35 with editors that truncate and write the same inode: the user's notes always survive,
    and the only entries that may go are those the editor's stale buffer overwrote."""
    result = memory_writers.inplace_stress(repo, writers, inserts=12, seed=writers)
    assert result["notes"] > 0
    assert result["notes_lost"] == 0 and result["header_lost"] == 0, result
    assert result["lost_unexplained"] == 0 and result["refused"] == 0, result


def test_an_in_place_save_begun_after_the_locked_read_is_merged(repo: Path) -> None:
    """The read under the lock keeps its lease until the write's swap (one open for both): an
    editor that begins an in-place save in between waits for the swap, and its text is merged
    with the write rather than lost (R35)."""
    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=(entry("seed-1"),)))
    buffer = project.memory_md.read_text().replace(BEGIN, f"my note\n{BEGIN}").encode()
    with store.locked(project), store.read_index_locked(project) as read:
        assert read.held.leased is not None
        editor = memory_writers.saving_in_place(repo, buffer)
        store.write_index(project, [IndexDelta(insert=(entry("ours-1"),))], read=read)
    memory_writers.finish(editor)
    doc = parse_file(project.memory_md)
    assert "my note\n" in doc.prefix and list(doc.ids()) == ["ours-1", "seed-1"]
    assert list((project.state_dir / "tmp").iterdir()) == []


def test_a_failed_re_merge_swaps_the_users_version_back(repo: Path) -> None:
    """If the version a swap displaced cannot take the change, it goes back in place untouched."""
    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=(entry("seed-1"),)))
    path = project.memory_md
    broken = f"# mine\n{BEGIN}\nnot an entry\n{END}\n".encode()
    editors: list[subprocess.Popen[str]] = []

    def change(current: bytes | None) -> bytes | None:
        if not editors:
            editors.append(memory_writers.saving_in_place(repo, broken))  # a hand edit lands between the read and the swap
            return (current or b"") + b"ours\n"
        raise InputError(path, 3, "managed section unusable")

    with pytest.raises(InputError):
        store.cas_rewrite(project, path, change)
    memory_writers.finish(editors[0])
    assert path.read_bytes() == broken
    assert list((project.state_dir / "tmp").iterdir()) == []


def test_without_leases_a_save_after_the_locked_read_is_merged(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where leases cannot be used (another owner's file, a network file system), the read under
    the lock is what the exchange expects to displace; a save landing in between is found in the
    displaced file and the write is built again on top of it."""
    monkeypatch.setattr(quiet, "lease", lambda fd: None)
    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=(entry("seed-1"),)))
    path = project.memory_md
    with store.locked(project), store.read_index_locked(project) as read:
        assert read.held.leased is None and read.data == path.read_bytes()
        path.write_text(path.read_text().replace(BEGIN, f"my note\n{BEGIN}"))  # saved in place
        store.write_index(project, [IndexDelta(insert=(entry("ours-1"),))], read=read)
    doc = parse_file(path)
    assert "my note\n" in doc.prefix and list(doc.ids()) == ["ours-1", "seed-1"]


def test_without_leases_a_failed_re_merge_swaps_the_users_version_back(repo: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quiet, "lease", lambda fd: None)
    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=(entry("seed-1"),)))
    path = project.memory_md
    broken = f"# mine\n{BEGIN}\nnot an entry\n{END}\n".encode()

    def change(current: bytes | None) -> bytes | None:
        if current != broken:
            path.write_bytes(broken)  # a hand edit lands between the read and the swap
            return (current or b"") + b"ours\n"
        raise InputError(path, 3, "managed section unusable")

    with pytest.raises(InputError):
        store.cas_rewrite(project, path, change)
    assert path.read_bytes() == broken


class StalledEditor:
    """An editor saving MEMORY.md in place that stalls between its truncate and its write: it
    holds the file open (same inode) from ``truncate`` on, and writes its buffer only when
    ``write`` is called; the test decides when, by a hook in the write path."""

    def __init__(self, path: Path, buffer: bytes) -> None:
        self.path, self.buffer, self.fd = path, buffer, -1

    def truncate(self) -> None:
        self.fd = os.open(self.path, os.O_WRONLY)
        os.ftruncate(self.fd, 0)

    def write(self) -> None:
        if self.fd >= 0:
            os.pwrite(self.fd, self.buffer, 0)
            os.close(self.fd)
            self.fd = -1


def test_without_leases_a_save_stalled_between_truncate_and_write_is_never_lost(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No leases (another owner's file, a network file system): an editor truncates MEMORY.md
    after the write's read, a background write swaps its file in, and the editor's write comes
    only after that swap's displaced copy has settled, empty. The displaced inode is the one the
    editor writes into: it goes back in place rather than being merged from (empty) and unlinked,
    and the write is built again on the editor's save. The editor's write is driven by a hook on
    the second swap, not by time."""
    monkeypatch.setattr(quiet, "lease", lambda fd: None)
    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=(entry("seed-1"),)))
    path = project.memory_md
    editor = StalledEditor(path, path.read_bytes().replace(BEGIN.encode(), f"my note\n{BEGIN}".encode()))
    real_exchange = store._exchange
    swaps: list[bool] = []

    def exchange(tmp: Path, target: Path) -> bool:
        done = real_exchange(tmp, target)
        swaps.append(done)
        if len(swaps) == 2:
            editor.write()  # the stalled save resumes, into the inode it opened
        return done

    monkeypatch.setattr(store, "_exchange", exchange)
    with store.locked(project), store.read_index_locked(project) as read:
        assert read.held.leased is None
        editor.truncate()
        store.write_index(project, [IndexDelta(insert=(entry("ours-1"),))], read=read)
    editor.write()  # if the write path never reached a second swap
    doc = parse_file(path)
    assert doc.prefix.startswith("# Project memory") and "my note\n" in doc.prefix
    assert list(doc.ids()) == ["ours-1", "seed-1"]
    assert list((project.state_dir / "tmp").iterdir()) == []


def test_status_says_when_a_save_can_still_be_lost(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where leases cannot be used, ``status`` names the one case left: a save paused half way
    for longer than the settle window while a memory write runs."""
    from chord_git import config as config_mod
    from chord_git.commands.status import collect

    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=(entry("seed-1"),)))
    cfg = config_mod.load(project.root)
    assert collect(project, cfg).in_place_saves is None  # leases work here
    monkeypatch.setattr(quiet, "lease", lambda fd: None)
    line = collect(project, cfg).in_place_saves
    assert line is not None and f"more than {quiet.STALL_SECONDS:g} s" in line
    assert line in collect(project, cfg).lines()
