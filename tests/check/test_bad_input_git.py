"""Bad input for the hook path: odd files, odd repositories. Clear results, exit codes per SPEC."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from chord_git.commands.check import check
from testing.commands import run
from testing.gitutil import git, make_repo, run_cli
from tests.conftest import needed
from tests.check.helpers import (
    RECORDS,
    commit,
    github_token,
    index_text,
    install_hook,
    json_findings,
    memory_repo,
    record_id,
    record_text,
    token_line_number,
    write,
    write_record,
)


@pytest.fixture
def mrepo(tmp_path: Path) -> Path:
    return memory_repo(tmp_path / "repo")


def leak(name: str = "leak") -> str:
    return record_text(name, f"The CI token is GITHUB_TOKEN={github_token()} for now.")


def kinds(findings: list[dict[str, object]]) -> set[tuple[object, object]]:
    return {(f["path"], f["kind"]) for f in findings}


def test_binary_record_is_a_finding(mrepo: Path) -> None:
    rel = f"{RECORDS}/{record_id('bin')}.md"
    write(mrepo, rel, b"\x89PNG\r\n\x1a\n\x00\x00\x00" + github_token().encode() + b"\x00\xff")
    git(mrepo, "add", rel)
    code, findings, stdout = json_findings(mrepo, "check", "--staged")
    assert code == 1 and (rel, "binary") in kinds(findings)
    assert (rel, "github-token") in kinds(findings)  # its text is still scanned
    assert github_token() not in stdout


def test_non_utf8_record(mrepo: Path) -> None:
    text = leak().replace("for now", "f\xfcr now").encode("latin-1")
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(mrepo, rel, text)
    git(mrepo, "add", rel)
    code, findings, _ = json_findings(mrepo, "check", "--staged")
    assert code == 1
    assert (rel, "encoding") in kinds(findings) and (rel, "github-token") in kinds(findings)


def test_crlf_record_reports_the_right_line(mrepo: Path) -> None:
    text = leak()
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(mrepo, rel, text.replace("\n", "\r\n"))
    write(mrepo, "MEMORY.md", index_text("leak"))
    git(mrepo, "-c", "core.autocrlf=false", "add", "-A")
    code, findings, _ = json_findings(mrepo, "check", "--staged")
    secret = [f for f in findings if f["kind"] == "github-token"]
    assert code == 1 and [(f["path"], f["line"]) for f in secret] == [(rel, token_line_number(text, github_token()))]


def test_ten_megabyte_line(mrepo: Path) -> None:
    huge = "notes " * (10_000_000 // 6)
    write(mrepo, "MEMORY.md", index_text() + huge + "\n")
    git(mrepo, "add", "MEMORY.md")
    code, findings, _ = json_findings(mrepo, "check", "--staged")
    assert (code, findings) == (0, [])
    write(mrepo, "MEMORY.md", index_text() + huge + f" GITHUB_TOKEN={github_token()}\n")
    git(mrepo, "add", "MEMORY.md")
    code, findings, _ = json_findings(mrepo, "check", "--staged")
    line = index_text().count("\n") + 1
    assert code == 1 and [(f["path"], f["line"], f["kind"]) for f in findings] == [("MEMORY.md", line, "github-token")]


def test_symlink_named_like_a_record(mrepo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(leak())
    rel = f"{RECORDS}/{record_id('link')}.md"
    (mrepo / RECORDS).mkdir(parents=True, exist_ok=True)
    os.symlink(outside, mrepo / rel)
    git(mrepo, "add", rel)
    code, findings, _ = json_findings(mrepo, "check", "--staged")
    assert code == 1 and kinds(findings) == {(rel, "symlink")}


def test_deleted_file_in_the_staged_diff_is_skipped(mrepo: Path) -> None:
    rel = write_record(mrepo, "gone")
    write(mrepo, rel, leak("gone"))
    git(mrepo, "add", rel)
    git(mrepo, "commit", "-q", "--no-verify", "-m", "a leak from before the hook")
    git(mrepo, "rm", "-q", rel)
    code, findings, _ = json_findings(mrepo, "check", "--staged")
    assert (code, findings) == (0, [])


def test_very_first_commit(tmp_path: Path) -> None:
    repo = tmp_path / "fresh"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    install_hook(repo)
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(repo, rel, leak())
    write(repo, "MEMORY.md", index_text("leak"))
    git(repo, "add", "-A")
    code, findings, _ = json_findings(repo, "check", "--staged")
    assert code == 1 and kinds(findings) == {(rel, "github-token")}
    assert commit(repo, "-m", "first").returncode != 0
    write(repo, rel, record_text("leak"))
    git(repo, "add", "-A")
    assert commit(repo, "-m", "first").returncode == 0


def test_bare_repository(mrepo: Path, tmp_path: Path) -> None:
    write(mrepo, write_record(mrepo, "leak"), leak())
    git(mrepo, "add", "-A")
    git(mrepo, "commit", "-q", "--no-verify", "-m", "leak")
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(mrepo), str(bare))
    staged = run_cli(bare, "check", "--staged")
    assert staged.returncode == 2 and "bare repository" in staged.stderr and "Traceback" not in staged.stderr
    code, findings, _ = json_findings(bare, "scan", "--all")
    assert code == 1 and [f["kind"] for f in findings] == ["github-token"]


def test_linked_worktree(mrepo: Path, tmp_path: Path) -> None:
    install_hook(mrepo)
    tree = tmp_path / "wt"
    git(mrepo, "worktree", "add", "-q", "-b", "side", str(tree))
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(tree, rel, leak())
    write(tree, "MEMORY.md", index_text("leak"))
    git(tree, "add", "-A")
    code, findings, _ = json_findings(tree, "check", "--staged")
    assert code == 1 and kinds(findings) == {(rel, "github-token")}
    code, findings, _ = json_findings(mrepo, "check", "--staged")  # the main worktree's index is clean
    assert (code, findings) == (0, [])
    assert commit(tree, "-m", "leak").returncode != 0
    write(tree, rel, record_text("leak"))
    git(tree, "add", "-A")
    assert commit(tree, "-m", "clean").returncode == 0


@pytest.mark.parametrize("layout", ["split-index", "sparse-index"])
def test_indexes_libgit2_cannot_read_fall_back_to_git(mrepo: Path, layout: str) -> None:
    if layout == "split-index":
        git(mrepo, "update-index", "--split-index")
    else:
        write(mrepo, "docs/a.txt", "a\n")
        git(mrepo, "add", "docs")
        git(mrepo, "commit", "-q", "-m", "docs")
        git(mrepo, "sparse-checkout", "set", "--cone", "--sparse-index", ".chord")
    install_hook(mrepo)
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(mrepo, rel, leak())
    write(mrepo, "MEMORY.md", index_text("leak"))
    git(mrepo, "add", "-A")
    result = run_cli(mrepo, "check", "--staged")
    assert result.returncode == 1 and f"{rel}:" in result.stdout and "[github-token]" in result.stdout
    # No libgit2 noise on the way to the fallback: stderr holds only what to do about the finding.
    assert result.stderr.startswith("chord-git blocks a commit of memory files") and "libgit2" not in result.stderr
    assert commit(mrepo, "-a", "-m", "leak").returncode != 0
    write(mrepo, rel, record_text("leak"))
    git(mrepo, "add", "-A")
    assert run(check, mrepo, staged=True).returncode == 0


def test_sha256_repository_falls_back_to_git(tmp_path: Path) -> None:
    repo = tmp_path / "sha256"
    repo.mkdir()
    if subprocess.run(["git", "init", "-q", "--object-format=sha256", str(repo)], capture_output=True).returncode:
        needed("this git cannot create sha256 repositories")
    write(repo, "MEMORY.md", index_text())
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")
    rel = f"{RECORDS}/{record_id('leak')}.md"
    write(repo, rel, leak())
    git(repo, "add", "-A")
    code, findings, _ = json_findings(repo, "check", "--staged")
    assert code == 1 and kinds(findings) == {(rel, "github-token")}


def test_not_a_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    result = run_cli(plain, "check", "--staged")
    assert result.returncode == 2 and "not inside a git repository" in result.stderr
    assert "Traceback" not in result.stderr
    result = run_cli(plain, "scan", "--all")
    assert result.returncode == 2 and "not inside a git repository" in result.stderr


def test_unborn_repository_scan_is_empty(tmp_path: Path) -> None:
    repo = tmp_path / "empty"
    repo.mkdir()
    git(repo, "init", "-q")
    result = run_cli(repo, "scan")
    assert result.returncode == 0 and result.stdout == "ok: 0 commits checked, no findings\n"


def test_sub_project_memory_files_are_guarded(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "mono")
    rel = f"services/api/{RECORDS}/{record_id('leak')}.md"
    write(repo, rel, leak())
    write(repo, "services/api/MEMORY.md", index_text("leak"))
    git(repo, "add", "-A")
    code, findings, _ = json_findings(repo, "check", "--staged")
    assert code == 1 and kinds(findings) == {(rel, "github-token")}
