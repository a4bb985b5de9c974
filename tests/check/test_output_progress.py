"""``--output FILE`` for check and scan, the CI event's range, and progress only on a terminal."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from testing.gitutil import cli_env, git, run_cli
from tests.check.helpers import RECORDS, github_token, index_text, leaky_repo, memory_repo, record_id, record_text, write
from tests.review.ptyutil import Terminal


@pytest.mark.parametrize("fmt", ["sarif", "json", "text"])
def test_scan_output_writes_the_report_and_prints_the_findings(tmp_path: Path, fmt: str) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    report = tmp_path / f"report.{fmt}"
    result = run_cli(repo, "scan", "--range", f"{base}..{leak}", "--format", fmt, "--output", str(report))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{leak[:12]} {RECORDS}/{record_id('leak')}.md:") and "[github-token]" in lines[0]
    assert lines[-1] == f"1 finding in memory files; {fmt} report written to {report}"
    text = report.read_text()
    assert github_token() not in text + result.stdout + result.stderr
    if fmt == "sarif":
        results = json.loads(text)["runs"][0]["results"]
        assert [r["properties"]["commit"] for r in results] == [leak]
        assert results[0]["message"]["text"].startswith(f"Added in commit {leak[:12]}: ")
    elif fmt == "json":
        assert [f["commit"] for f in json.loads(text)["findings"]] == [leak]
    else:
        assert text.splitlines()[-1] == "1 finding in memory files"


def test_check_output_clean_and_relative_to_dash_c(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    result = run_cli(tmp_path, "-C", str(repo), "check", "--format", "sarif", "--output", "out.sarif")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok: 1 memory file checked, no findings; sarif report written to out.sarif\n"
    assert json.loads((repo / "out.sarif").read_text())["runs"][0]["results"] == []


def test_output_to_a_missing_folder_is_one_line_exit_2(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    result = run_cli(repo, "check", "--output", str(tmp_path / "no/such/dir/r.txt"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "cannot write the report" in result.stderr and "Traceback" not in result.stderr


def test_scan_in_a_github_pull_request_scans_only_its_commits(tmp_path: Path) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    write(repo, "notes.txt", "later\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "later")
    head = git(repo, "rev-parse", "HEAD").strip()
    event = tmp_path / "event.json"
    env = {**cli_env(), "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event)}
    event.write_text(json.dumps({"pull_request": {"base": {"sha": leak}, "head": {"sha": head}}}))
    clean = run_cli(repo, "scan", env=env)
    assert clean.returncode == 0 and clean.stdout == "ok: 1 commit checked, no findings\n"
    assert clean.stderr == f"note: scanning the pull request's commits ({leak}..{head})\n"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}, "head": {"sha": head}}}))
    dirty = run_cli(repo, "scan", env=env)
    assert dirty.returncode == 1 and "2 commits" not in dirty.stdout and "[github-token]" in dirty.stdout


def many_commits(repo: Path, count: int) -> None:
    """``count`` commits touching a memory file, written in one go with git fast-import."""
    parent = git(repo, "rev-parse", "HEAD").strip()
    text = ""
    for number in range(count):
        data = f"# note {number}\n"
        source = parent if number == 0 else f":{number}"
        text += (f"commit refs/heads/main\nmark :{number + 1}\ncommitter T <t@example.invalid> {1700000000 + number} +0000\n"
                 f"data 4\nmany\nfrom {source}\nM 100644 inline notes/MEMORY.md\ndata {len(data.encode())}\n{data}\n")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=text.encode(), check=True, capture_output=True)
    git(repo, "reset", "-q", "--hard", "main")


@pytest.fixture(scope="module")
def long_history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = memory_repo(tmp_path_factory.mktemp("long") / "repo")
    many_commits(repo, 260)
    return repo


def test_scan_shows_progress_on_a_terminal(long_history: Path) -> None:
    terminal = Terminal(["git", "memory", "scan", "--all"], long_history, cli_env())
    assert terminal.finish() == 0
    assert "scanning commits" in terminal.seen and "262/262" in terminal.seen
    assert terminal.seen.rstrip().endswith("ok: 262 commits checked, no findings")


def test_no_progress_with_quiet_or_without_a_terminal(long_history: Path) -> None:
    quiet = Terminal(["git", "memory", "scan", "--all", "--quiet"], long_history, cli_env())
    assert quiet.finish() == 0
    assert "scanning commits" not in quiet.seen and "/262" not in quiet.seen
    piped = run_cli(long_history, "scan", "--all")
    assert piped.returncode == 0 and piped.stderr == "" and piped.stdout == "ok: 262 commits checked, no findings\n"


def test_short_scans_show_no_progress(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    terminal = Terminal(["git", "memory", "scan", "--all"], repo, cli_env())
    assert terminal.finish() == 0 and "scanning commits" not in terminal.seen


def test_full_project_check_shows_progress_on_a_terminal(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    names = [f"n{number:03d}" for number in range(120)]
    for name in names:
        write(repo, f"{RECORDS}/{record_id(name)}.md", record_text(name))
    write(repo, "MEMORY.md", index_text(*names))
    terminal = Terminal(["git", "memory", "check"], repo, cli_env())
    assert terminal.finish() == 0
    assert "checking memory files" in terminal.seen and "121/121" in terminal.seen
    piped = run_cli(repo, "check")
    assert piped.returncode == 0 and piped.stdout == "ok: 121 memory files checked, no findings\n"
    quiet = Terminal(["git", "memory", "check", "-q"], repo, cli_env())
    assert quiet.finish() == 0 and "checking memory files" not in quiet.seen
