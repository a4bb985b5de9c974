"""The hook's staged reader: two calls to git for any number of files, the same answer as asking
git for each file's two sides and comparing their lines."""
from __future__ import annotations

import os
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from chord_git.git import command
from chord_git.git.changes import FileChange
from chord_git.check.changes import is_memory_path
from testing.gitutil import git, make_repo

RECORDS = ".chord/memory/records"


def _raw(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True).stdout


def _added(old: bytes | None, new: bytes) -> tuple[tuple[int, str], ...]:
    """The documented meaning of added lines: those of ``new`` that ``old`` does not hold (as many
    times), line ends and a CR before them aside."""
    before = Counter(line.rstrip(b"\r") for line in old.split(b"\n")) if old is not None else Counter()
    added = []
    for number, line in enumerate(new.split(b"\n")[:-1] if new.endswith(b"\n") else new.split(b"\n"), start=1):
        key = line.rstrip(b"\r")
        if before[key] > 0:
            before[key] -= 1
        else:
            added.append((number, key.decode("utf-8", "replace")))
    return tuple(added) if new else ()


def reference(repo: Path) -> list[FileChange]:
    """What the commit adds to memory files, asked of git one file at a time."""
    out = _raw(repo, "diff", "--cached", "--raw", "-z", "--no-abbrev", "--no-renames")
    fields = out.split(b"\0")
    files = []
    for head, raw_path in zip(fields[0::2], fields[1::2]):
        old_mode, mode_text, old_id, oid, status = head[1:].decode().split(" ")
        path = raw_path.decode("utf-8", "surrogateescape")
        mode = int(mode_text, 8)
        if status.startswith("D") or not is_memory_path(path):
            continue
        if mode & 0o170000 != 0o100000:
            files.append(FileChange(path, mode, False, ()))
            continue
        data = _raw(repo, "cat-file", "blob", oid)
        if b"\0" in data[:8000]:
            files.append(FileChange(path, mode, True, (), data))
            continue
        old = _raw(repo, "cat-file", "blob", old_id) if int(old_mode, 8) & 0o170000 == 0o100000 else None
        files.append(FileChange(path, mode, False, _added(old, data), data))
    return sorted(files, key=lambda f: f.path)


def write(repo: Path, rel: str, data: bytes) -> None:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


@pytest.fixture
def staged_repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo, "MEMORY.md", b"# Project memory\n\nold line\nkept\n")
    write(repo, f"{RECORDS}/changed.md", b"one\ntwo\nthree\n")
    write(repo, f"{RECORDS}/gone.md", b"bye\n")
    write(repo, f"{RECORDS}/becomes-file.md", b"")
    os.remove(repo / RECORDS / "becomes-file.md")
    os.symlink("changed.md", repo / RECORDS / "becomes-file.md")
    write(repo, f"{RECORDS}/becomes-link.md", b"plain\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")

    write(repo, "MEMORY.md", b"# Project memory\n\nnew line\nkept\nand one more")  # no final newline
    write(repo, f"{RECORDS}/changed.md", b"one\r\n2\nthree\nfour\n")
    os.remove(repo / RECORDS / "gone.md")
    os.remove(repo / RECORDS / "becomes-file.md")
    write(repo, f"{RECORDS}/becomes-file.md", b"now a file\n")
    os.remove(repo / RECORDS / "becomes-link.md")
    os.symlink("changed.md", repo / RECORDS / "becomes-link.md")
    write(repo, f"{RECORDS}/with space.md", b"a b\n")
    write(repo, f"{RECORDS}/caf\xc3\xa9 \"q\".md".encode().decode("utf-8", "surrogateescape"), b"unicode name\n")
    write(repo, f"{RECORDS}/tab\there.md", b"tab in the name\n")
    write(repo, f"{RECORDS}/empty.md", b"")
    write(repo, f"{RECORDS}/binary.md", b"\x00\x01\x02 not text\n")
    write(repo, f"{RECORDS}/latin1.md", b"caf\xe9 au lait\n")
    write(repo, "sub/MEMORY.md", b"# sub-project memory\n")
    write(repo, "sub/.chord/memory/records/x.md", b"sub record\n")
    write(repo, "src/app.py", b"print('not memory')\n")
    git(repo, "add", "-A")
    return repo


def test_batched_reader_matches_one_file_at_a_time(staged_repo: Path) -> None:
    staged = command.staged_changes(staged_repo, is_memory_path)
    expected = reference(staged_repo)
    assert [f.path for f in staged.files] == [f.path for f in expected]
    assert list(staged.files) == expected
    assert len(expected) >= 12 and any(f.binary for f in expected) and any(f.mode == 0o120000 for f in expected)
    assert staged.contains(f"{RECORDS}/changed.md") and not staged.contains(f"{RECORDS}/gone.md")


def test_the_temporary_index_of_commit_a_is_read(staged_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git(staged_repo, "commit", "-q", "-m", "all of it")
    write(staged_repo, f"{RECORDS}/changed.md", b"edited only in the work tree\n")
    other = staged_repo / ".git" / "other-index"
    env = {**os.environ, "GIT_INDEX_FILE": str(other)}
    subprocess.run(["git", "read-tree", "HEAD"], cwd=staged_repo, env=env, check=True)
    subprocess.run(["git", "add", f"{RECORDS}/changed.md"], cwd=staged_repo, env=env, check=True)
    assert command.staged_changes(staged_repo, is_memory_path).files == ()  # the default index: nothing staged
    monkeypatch.chdir(staged_repo)
    monkeypatch.setenv("GIT_INDEX_FILE", ".git/other-index")  # relative, as git's hooks set it
    files = command.staged_changes(staged_repo, is_memory_path).files
    assert [(f.path, f.added) for f in files] == [(f"{RECORDS}/changed.md", ((1, "edited only in the work tree"),))]


def test_no_memory_file_staged_is_one_call(staged_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git(staged_repo, "commit", "-q", "-m", "all of it")
    write(staged_repo, "src/app.py", b"print('changed')\n")
    git(staged_repo, "add", "src/app.py")
    calls: list[tuple[str, ...]] = []
    real = command._run

    def counting(workdir: Path, *args: str, stdin: bytes | None = None) -> bytes:
        calls.append(args)
        return real(workdir, *args, stdin=stdin)

    monkeypatch.setattr(command, "_run", counting)
    assert command.staged_changes(staged_repo, is_memory_path).files == ()
    assert len(calls) == 1


@pytest.mark.parametrize("quoted, plain", [
    (b'"b/caf\\303\\251 \\"q\\".md"', "b/café \"q\".md".encode()),
    (b'"b/tab\\there.md"', b"b/tab\there.md"),
    (b"b/plain.md", b"b/plain.md"),
])
def test_unquote(quoted: bytes, plain: bytes) -> None:
    assert command.unquote(quoted) == plain
