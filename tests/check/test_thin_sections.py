"""``check`` warns about hand-written records whose why or how says nothing (R21): a warning on
stderr naming file and line, never a finding, so the exit code is unchanged."""
from __future__ import annotations

from pathlib import Path

import pytest

from chord_git.commands.check import check
from chord_git.memory import records
from testing.commands import run
from testing.gitutil import make_repo


def _record(root: Path, rid: str, why: str, how: str) -> Path:
    rec = records.Record(rid, "preference", "user", "stated", "Use pnpm, never npm.", "All JS dependency commands use pnpm.",
                         "this repo only uses pnpm", "2026-11-01", "s1", None, "All JS dependency commands use pnpm.",
                         why, how)
    path = root / ".chord" / "memory" / "records" / f"{rid}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(records.render(rec), encoding="utf-8")
    return path


@pytest.mark.parametrize(("why", "how", "warned"), [
    ("Important.", "Always.", ["Why keep it", "How to apply"]),
    ("很重要。", "A second lockfile breaks the CI install step.", ["Why keep it"]),
    ("A second lockfile breaks CI.", "Run pnpm install, never npm install.", []),
    ("两个锁文件会让 CI 失败。", "安装依赖一律用 pnpm。", []),
])
def test_thin_why_or_how_is_a_warning(tmp_path: Path, why: str, how: str, warned: list[str]) -> None:
    root = make_repo(tmp_path / "repo")
    rid = "20261101-use-pnpm-aa01"
    _record(root, rid, why, how)
    result = run(check, root)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if "says nothing of its own" in line]
    assert [line.split("'## ")[1].split("'")[0] for line in lines] == warned
    for line in lines:
        assert f".chord/memory/records/{rid}.md:" in line


def test_the_answer_is_kept_for_unchanged_bytes_and_redone_for_changed_ones(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    rid = "20261101-use-pnpm-aa01"
    path = _record(root, rid, "Important.", "A second lockfile breaks the CI install step.")

    def warned() -> list[str]:
        result = run(check, root)
        assert result.returncode == 0, result.stdout + result.stderr
        return [line for line in result.stderr.splitlines() if "says nothing of its own" in line]

    first = warned()
    assert len(first) == 1 and f".chord/memory/records/{rid}.md:" in first[0]
    assert warned() == first  # the second run reads the cache: the same warning, same line
    _record(root, rid, "A second lockfile breaks CI.", "A second lockfile breaks the CI install step.")
    assert warned() == []
    path.write_text(path.read_text(encoding="utf-8").replace("A second lockfile breaks CI.", "Important."),
                    encoding="utf-8")
    assert len(warned()) == 1


def test_only_the_records_folder_s_own_files_are_read(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    path = _record(root, "20261101-use-pnpm-aa01", "Important.", "Always.")
    nested = path.parent / "old" / path.name
    nested.parent.mkdir()
    path.rename(nested)
    result = run(check, root)
    assert "says nothing of its own" not in result.stderr
