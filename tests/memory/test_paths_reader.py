"""``paths.Reader``: many files read with each directory opened once, and the same refusals as
``read_inside`` (no link followed anywhere, regular files only)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from chord_git.memory import paths


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    records = project / ".chord" / "memory" / "records"
    records.mkdir(parents=True)
    for name in ("a.md", "b.md"):
        (records / name).write_text(f"record {name}\n")
    (project / "MEMORY.md").write_text("index\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("not ours\n")
    os.symlink(outside / "secret.md", records / "link.md")
    os.symlink(outside, project / ".chord" / "memory" / "promotions")
    os.mkfifo(records / "pipe.md")
    return project


def _outcome(read: object) -> object:
    try:
        return read()  # type: ignore[operator]
    except paths.UnsafePath as exc:
        return ("refused", exc.message)
    except OSError as exc:
        return ("oserror", exc.errno)


@pytest.mark.parametrize("rel", [".chord/memory/records/a.md", ".chord/memory/records/b.md", "MEMORY.md",
                                 ".chord/memory/records/link.md", ".chord/memory/promotions/secret.md",
                                 ".chord/memory/records/pipe.md", ".chord/memory/records/missing.md",
                                 ".chord/memory/records"])
def test_reader_answers_as_read_inside(root: Path, rel: str) -> None:
    with paths.Reader(root) as reader:
        fast = _outcome(lambda: reader.read(root / rel))
        again = _outcome(lambda: reader.read(root / rel))
    assert fast == again == _outcome(lambda: paths.read_inside(root, root / rel))
    if rel.endswith(("a.md", "b.md")) or rel == "MEMORY.md":
        assert isinstance(fast, bytes)
    else:
        assert not isinstance(fast, bytes)


def test_a_directory_swapped_for_a_link_after_opening_is_not_followed(root: Path, tmp_path: Path) -> None:
    records = root / ".chord" / "memory" / "records"
    with paths.Reader(root) as reader:
        assert reader.read(records / "a.md") == b"record a.md\n"
        os.rename(records, tmp_path / "moved")
        os.symlink(tmp_path / "outside", records)
        # The open directory is the real one, wherever it now lives: the link is never used.
        assert reader.read(records / "b.md") == b"record b.md\n"
        assert _outcome(lambda: reader.read(records / "secret.md"))[0] == "oserror"
