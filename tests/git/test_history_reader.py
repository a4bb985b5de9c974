"""The history reader: added lines by blob contents, binary blobs, one ``diff-tree`` for many commits."""
from __future__ import annotations

import subprocess
from pathlib import Path

from chord_git.check import changes
from chord_git.git import command, libgit2


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def test_added_lines_are_what_the_new_blob_holds_that_the_old_does_not() -> None:
    assert command.added_lines(None, b"a\nb\n") == ((1, "a"), (2, "b"))
    # A moved line is not new; a second copy of a line is, from its later copy on.
    assert command.added_lines(b"a\nb\nc\n", b"c\na\nb\nb\r\nnew\n") == ((4, "b"), (5, "new"))
    assert command.added_lines(b"x\n", b"x") == ()
    assert command.added_lines(b"", b"\xff\n") == ((1, "\ufffd"),)


def test_added_lines_are_linear_by_construction() -> None:
    # Every line distinct on both sides (the worst case of a line diff): one pass each, no pairs.
    old = b"".join(b"%d\n" % n for n in range(200_000))
    new = b"".join(b"%d\n" % n for n in range(200_000, 0, -1))
    assert command.added_lines(old, new) == ((1, "200000"),)


def test_commits_are_read_in_one_pass_with_binary_and_non_regular_files(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.invalid")
    _git(repo, "config", "user.name", "t")
    records = repo / ".chord" / "memory" / "records"
    records.mkdir(parents=True)
    (repo / "MEMORY.md").write_text("# Memory\n- one\n")
    (records / "a.md").write_text("alpha\n")
    (repo / "src.py").write_text("print(1)\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "one")
    (repo / "MEMORY.md").write_text("# Memory\n- two\n- one\n")
    (records / "b.md").write_bytes(b"bin\0ary")
    (records / "link.md").symlink_to("a.md")
    (repo / "src.py").write_text("print(2)\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "two")
    (repo / "src.py").write_text("print(3)\n")
    _git(repo, "commit", "-q", "-am", "three")
    ids = _git(repo, "rev-list", "--reverse", "HEAD").split()
    found = {c.commit: c.files for c in libgit2.commit_changes(repo, ids, changes.is_checked_path)}
    first, second, third = (found[oid] for oid in ids)
    assert [(f.path, f.added) for f in first] == [
        (".chord/memory/records/a.md", ((1, "alpha"),)), ("MEMORY.md", ((1, "# Memory"), (2, "- one")))]
    binary, link, index = second
    assert (binary.path, binary.binary, binary.data) == (".chord/memory/records/b.md", True, b"bin\0ary")
    assert (link.path, link.is_regular, link.added) == (".chord/memory/records/link.md", False, ())
    assert (index.path, index.added) == ("MEMORY.md", ((2, "- two"),))
    assert third == ()
