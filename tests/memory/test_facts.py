"""Whole-index counts kept between ``status`` runs: reused while nothing changed, recounted on any change."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.commands.status import status
from chord_git.memory import index_file, view
from testing.commands import run
from testing.gitutil import index_digest
from testing.memory_files import make_record, write_index


def _counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    real = view.read_clean_section

    def counting(project: object) -> index_file.CleanSection | view.IndexState:
        reads.append(1)
        return real(project)  # type: ignore[arg-type]

    monkeypatch.setattr(view, "read_clean_section", counting)
    return reads


def _status(repo: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(run(status, repo, as_json=True).stdout)
    return data


def test_status_counts_once_while_nothing_changes(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recs = [make_record(repo, f"20260110-entry-number-{n:04d}") for n in range(3)]
    write_index(repo, recs[:2])
    reads = _counting_reads(monkeypatch)
    before = index_digest(repo)
    first = _status(repo)
    assert (first["entries"], first["records"], first["orphans"]) == (2, 3, 1) and len(reads) == 1
    assert _status(repo) == first and len(reads) == 1  # answered from the state dir
    assert index_digest(repo) == before  # the state dir is not in the index

    # An in-place edit of the same size (same inode, possibly the same clock tick) is seen.
    memory = repo / "MEMORY.md"
    text = memory.read_text(encoding="utf-8")
    memory.write_text(text.replace("My notes.", "My nates."), encoding="utf-8")
    assert _status(repo)["entries"] == 2 and len(reads) == 2
    # So is a record file added or removed.
    make_record(repo, "20260110-entry-number-0009")
    assert _status(repo)["orphans"] == 2 and len(reads) == 3
    (repo / ".chord" / "memory" / "records" / "20260110-entry-number-0009.md").unlink()
    assert _status(repo)["orphans"] == 1 and len(reads) == 4


def test_a_corrupt_store_is_counted_again(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recs = [make_record(repo, "20260110-only-entry-aa01")]
    write_index(repo, recs)
    first = _status(repo)
    stores = list(repo.joinpath(".git").rglob("index-facts.json"))
    assert len(stores) == 1
    stores[0].write_text("{not json", encoding="utf-8")
    reads = _counting_reads(monkeypatch)
    assert _status(repo) == first and len(reads) == 1
