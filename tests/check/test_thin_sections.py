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
