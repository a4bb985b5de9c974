"""Promoted by hand (issue 36): an entry whose text now stands in AGENTS.md or the docs is
reported by ``audit``, ``review`` and the range scan, and ``fold`` takes its index line out (the
record stays)."""
from __future__ import annotations

import json
from pathlib import Path

from chord_git.memory import index_file, records
from testing.gitutil import git, index_digest, run_cli
from testing.memory_files import make_record, sample_record, write_index
from tests.check.helpers import RECORDS, memory_repo, write

CHECK = "20261201-check-0001"
PNPM = "20261201-pnpm-0002"


def _memory(repo: Path) -> None:
    check = make_record(repo, CHECK, source="user", summary="Run make check before asking for review.",
                        statement="Run `make check` before asking for review.")
    pnpm = make_record(repo, PNPM, source="user", summary="Use pnpm, never npm.", statement="All JS dependencies use pnpm.")
    write_index(repo, [check, pnpm])


def test_audit_and_review_report_an_entry_promoted_by_hand(repo: Path) -> None:
    _memory(repo)
    (repo / "AGENTS.md").write_text("# Rules\n\n- Before you ask for a review, run `make check`.\n")
    report = json.loads(run_cli(repo, "audit", "--json").stdout)
    found = {e["id"]: [f["kind"] for f in e["findings"]] for e in report["entries"]}
    assert "promoted" in found[CHECK] and "promoted" not in found[PNPM]
    assert report["totals"]["promoted"] == 1
    shown = run_cli(repo, "review", "list")
    assert shown.returncode == 0, shown.stderr
    assert "already stands in AGENTS.md (promoted by hand)" in shown.stdout


def test_fold_takes_the_line_out_and_keeps_the_record(repo: Path) -> None:
    _memory(repo)
    (repo / "docs").mkdir()
    (repo / "docs" / "dev.md").write_text("# Developing\n\nRun `make check` before asking for review.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory and docs")
    before = index_digest(repo)
    done = run_cli(repo, "fold", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["promoted"] == [{"id": CHECK, "in": "the docs"}]
    text = (repo / "MEMORY.md").read_text("utf-8")
    assert CHECK not in text and PNPM in text
    assert (repo / RECORDS / f"{CHECK}.md").is_file()  # the record stays
    assert index_digest(repo) == before  # nothing staged
    again = run_cli(repo, "fold")
    assert again.stdout == "nothing to fold: no pending entries or removals\n"


def test_the_range_scan_reports_what_a_pull_request_promotes(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    rec = sample_record(id=CHECK, summary="Run make check before asking for review.",
                        statement="Run `make check` before asking for review.")
    write(repo, f"{RECORDS}/{CHECK}.md", records.render(rec))
    write(repo, "MEMORY.md", f"# Project memory\n\n{index_file.BEGIN}\n"
                             f"{index_file.Entry(rec.type, rec.summary, CHECK).render()}\n{index_file.END}\n")
    write(repo, "AGENTS.md", "# Rules\n\n- Use pnpm.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "switch", "-qc", "pr")
    write(repo, "AGENTS.md", "# Rules\n\n- Use pnpm.\n- Run `make check` before you ask for a review.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "promote the check rule")
    summary = tmp_path / "summary.md"
    done = run_cli(repo, "scan", "--range", "main..pr", "--summary", str(summary))
    assert done.returncode == 0, done.stderr
    assert f"promoted memory: {CHECK}: its text now stands in AGENTS.md" in done.stdout
    assert "### Memory this range promotes by hand (1)" in summary.read_text("utf-8")
    # A range that touches AGENTS.md without saying the entry's rule reports nothing.
    git(repo, "switch", "-qc", "other", "main")
    write(repo, "AGENTS.md", "# Rules\n\n- Use pnpm.\n- Check the changelog before review.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "unrelated rule")
    assert "promoted memory" not in run_cli(repo, "scan", "--range", "main..other").stdout
