"""Staleness hints: missing project paths and old records (never a deletion)."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from chord_git.commands.status import status
from chord_git.review import staleness
from testing.commands import run
from testing.gitutil import index_digest
from testing.memory_files import listed, make_record, project_of, write_index


@pytest.mark.parametrize("text, expected", [
    ("Edit `src/foo.py` first.", ["src/foo.py"]),
    ("Generated code lives in api/gen/ now.", ["api/gen/"]),
    ("Config is in `pyproject.toml`.", ["pyproject.toml"]),
    ("See docs/setup.md:12, then run ./tools/run.sh.", ["docs/setup.md", "tools/run.sh"]),
    ("Use pnpm and/or yarn; CI/CD runs nightly.", []),
    ("Call `os.path` helpers, or `make check`.", []),
    ("Docs at https://example.org/a/b.py and `src/*.py`.", []),
    ("Never `../outside.py` nor `/etc/hosts.conf`.", []),
    ("代码在 `后端/服务.py` 里", ["后端/服务.py"]),
])
def test_paths_named(text: str, expected: list[str]) -> None:
    assert staleness.paths_named(text) == expected


def test_missing_path_and_age_make_entries_stale(repo: Path) -> None:
    (repo / "src").mkdir()
    (repo / "src" / "here.py").write_text("x = 1\n")
    today = dt.date.today()
    fresh = today.isoformat()
    recs = [
        make_record(repo, "20260110-present-path-aa01", statement="Edit `src/here.py` only.", created=fresh),
        make_record(repo, "20260110-missing-path-aa02", statement="Edit `src/gone.py` only.", created=fresh),
        make_record(repo, "20260110-old-entry-aa03", source="user", created=(today - dt.timedelta(days=400)).isoformat()),
    ]
    write_index(repo, recs)
    hints = staleness.stale_entries(project_of(repo), stale_after_days=180)
    assert set(hints) == {"20260110-missing-path-aa02", "20260110-old-entry-aa03"}
    assert hints["20260110-missing-path-aa02"].reasons() == ["names src/gone.py, which no longer exists"]
    assert hints["20260110-old-entry-aa03"].age_days == 400
    before = index_digest(repo)
    result = run(status, repo)
    assert "2 stale entries among those sessions see" in result.stdout
    data = json.loads(run(status, repo, as_json=True).stdout)
    assert data["stale"] == 2 and data["entries"] == 3
    assert len(listed(repo)) == 3  # hints never delete
    assert index_digest(repo) == before


def test_stale_after_days_comes_from_config(repo: Path) -> None:
    created = (dt.date.today() - dt.timedelta(days=20)).isoformat()
    write_index(repo, [make_record(repo, "20260110-entry-aa01", created=created)])
    assert json.loads(run(status, repo, as_json=True).stdout)["stale"] == 0
    (repo / ".chord" / "config.yaml").write_text("memory:\n  stale_after_days: 10\n")
    assert json.loads(run(status, repo, as_json=True).stdout)["stale"] == 1


def test_symlinked_record_is_not_followed(repo: Path, tmp_path: Path) -> None:
    rec = make_record(repo, "20260110-linked-aa01", statement="Edit `src/gone.py`.")
    write_index(repo, [rec])
    path = repo / ".chord/memory/records" / f"{rec.id}.md"
    outside = tmp_path / "outside.md"
    outside.write_text(path.read_text())
    path.unlink()
    path.symlink_to(outside)
    assert staleness.stale_entries(project_of(repo), stale_after_days=180) == {}


def test_status_reads_only_the_records_sessions_see(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Staleness in ``status`` is bounded by the summary budget, not by the size of the index."""
    recs = [make_record(repo, f"20260110-entry-{n:04d}", statement="Edit `src/gone.py`.") for n in range(60)]
    write_index(repo, recs)
    (repo / ".chord" / "config.yaml").write_text("memory:\n  summary_budget: 400\n")
    read: list[str] = []
    real = staleness._read_record

    def counting(records_dir: Path, rid: str) -> str | None:
        read.append(rid)
        return real(records_dir, rid)

    monkeypatch.setattr(staleness, "_read_record", counting)
    data = json.loads(run(status, repo, as_json=True).stdout)
    shown = data["entries"] - data["entries_beyond_budget"]
    assert 0 < shown < 60 and data["stale"] == shown and len(read) == shown
    assert len(staleness.stale_entries(project_of(repo), stale_after_days=180)) == 60  # review sees all
