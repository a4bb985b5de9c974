"""Bad memory files: ``check`` names file and line, ``summary`` still starts, nothing crashes."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chord_git.commands.check import check
from chord_git.commands.summary import summary
from chord_git.memory import records
from chord_git.memory.index_file import BEGIN, END, Entry
from testing.commands import run
from testing.gitutil import index_digest, run_cli
from testing.memory_files import sample_record

GOOD = sample_record(id="20261129-good-0001", summary="A good record.")


def write_record(repo: Path, name: str, text: str | bytes) -> Path:
    path = repo / ".chord/memory/records" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def write_index(repo: Path, *lines: str, prefix: str = "# Memory\n") -> None:
    (repo / "MEMORY.md").write_text(prefix + BEGIN + "\n" + "".join(line + "\n" for line in lines) + END + "\n")


def good_setup(repo: Path) -> None:
    write_record(repo, f"{GOOD.id}.md", records.render(GOOD))
    write_index(repo, Entry(GOOD.type, GOOD.summary, GOOD.id).render())


def check_json(repo: Path) -> tuple[int, list[dict[str, object]], str]:
    result = run(check, repo, fmt="json")
    assert "Traceback" not in result.stderr
    return result.returncode, json.loads(result.stdout)["findings"], result.stderr


def assert_summary_starts(repo: Path, expect_warning: bool = True) -> str:
    result = run(summary, repo)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    if expect_warning:
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("warning: ")
    return result.stdout


@pytest.mark.parametrize(
    "memory, line, kind",
    [
        (f"x\n{BEGIN}\n", 2, "marker-missing"),
        (f"{END}\n{BEGIN}\n{END}\n", 1, "marker-reversed"),
        (f"{BEGIN}\n{BEGIN}\n{END}\n", 2, "marker-nested"),
        (f"{BEGIN}\n{END}\n{BEGIN}\n{END}\n", 3, "marker-duplicate"),
        (f"{BEGIN}\nrandom words\n{END}\n", 2, "index-line"),
        (f"{BEGIN}\n- [opinion] x ([20261129-good-0001](.chord/memory/records/20261129-good-0001.md))\n{END}\n", 2, "index-line"),
        (f"{BEGIN}\n- [fact] x ([../../etc/x](.chord/memory/records/../../etc/x.md))\n{END}\n", 2, "index-line"),
    ],
)
def test_broken_index(repo: Path, memory: str, line: int, kind: str) -> None:
    write_record(repo, f"{GOOD.id}.md", records.render(GOOD))
    (repo / "MEMORY.md").write_text(memory)
    before = index_digest(repo)
    code, findings, _ = check_json(repo)
    assert code == 1
    assert {"path": "MEMORY.md", "line": line, "kind": kind} in [
        {k: f[k] for k in ("path", "line", "kind")} for f in findings
    ]
    run(summary, repo)  # must not crash whatever it prints
    assert index_digest(repo) == before


@pytest.mark.parametrize(
    "name, text, line, kind",
    [
        ("20261129-bad-0001.md", "no front matter\n", 1, "front-matter"),
        ("20261129-bad-0001.md", "---\nid: [oops\n---\n", 2, "front-matter"),
        ("20261129-bad-0001.md", records.render(sample_record(id="20261129-bad-0001", summary="长" * 161)), 6, "cap"),
        ("20261129-bad-0001.md", records.render(sample_record(id="20261129-bad-0001", statement="s" * 601)), 7, "cap"),
        ("20261129-bad-0001.md", records.render(sample_record(id="20261129-bad-0001", type="opinion")), 3, "type"),
        ("20261129-bad-0001.md", b"---\nid: 20261129-bad-0001\nsummary: caf\xe9\n---\n", 3, "encoding"),
        ("20261129-bad-0001.md", "", 1, "front-matter"),
    ],
)
def test_broken_records(repo: Path, name: str, text: str | bytes, line: int, kind: str) -> None:
    good_setup(repo)
    write_record(repo, name, text)
    code, findings, _ = check_json(repo)
    assert code == 1
    assert any(f["path"] == f".chord/memory/records/{name}" and f["line"] == line and f["kind"] == kind for f in findings), findings


def test_bad_file_names_and_symlinks(repo: Path, tmp_path: Path) -> None:
    good_setup(repo)
    write_record(repo, "Bad..Name.md", records.render(GOOD))
    outside = tmp_path / "outside.md"
    outside.write_text(records.render(sample_record(id="20261129-link-0001")))
    os.symlink(outside, repo / ".chord/memory/records/20261129-link-0001.md")
    code, findings, _ = check_json(repo)
    kinds = {(f["path"], f["kind"]) for f in findings}
    assert (".chord/memory/records/Bad..Name.md", "id") in kinds
    assert (".chord/memory/records/20261129-link-0001.md", "symlink") in kinds
    assert code == 1


def test_empty_memory_file(repo: Path) -> None:
    (repo / "MEMORY.md").write_text("")
    code, findings, _ = check_json(repo)
    assert code == 0 and findings == []
    assert run(summary, repo).stdout == ""


def test_non_utf8_inside_the_index(repo: Path) -> None:
    good_setup(repo)
    data = (repo / "MEMORY.md").read_bytes().replace(b"A good record.", b"A good r\xe9cord.")
    (repo / "MEMORY.md").write_bytes(data)
    code, findings, _ = check_json(repo)
    assert code == 1 and findings[0]["kind"] == "encoding" and findings[0]["line"] == 3
    out = assert_summary_starts(repo)
    assert "A good" not in out


def test_fifty_megabyte_memory_file(repo: Path) -> None:
    good_setup(repo)
    with (repo / "MEMORY.md").open("a") as handle:
        chunk = "lots of hand-written notes " * 40 + "\n"
        for _ in range(50_000_000 // len(chunk) + 1):
            handle.write(chunk)
    assert (repo / "MEMORY.md").stat().st_size > 50_000_000
    code, findings, _ = check_json(repo)
    assert code == 0, findings
    out = assert_summary_starts(repo, expect_warning=False)
    assert "A good record." in out and len(out) < 6000


def test_dangling_entry_is_reported(repo: Path) -> None:
    write_index(repo, Entry("fact", "Points nowhere.", "20261129-gone-0001").render())
    code, findings, _ = check_json(repo)
    assert code == 1 and findings[0]["kind"] == "dangling" and findings[0]["line"] == 3


def test_check_of_given_paths_ignores_other_files(repo: Path) -> None:
    good_setup(repo)
    bad = write_record(repo, "20261129-bad-0001.md", "nope\n")
    result = run_cli(repo, "check", "README.md", str(bad.relative_to(repo)))
    assert result.returncode == 1 and ".chord/memory/records/20261129-bad-0001.md:1:" in result.stdout
    ok = run_cli(repo, "check", "README.md", "MEMORY.md")
    assert ok.returncode == 0, ok.stdout
