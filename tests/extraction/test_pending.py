"""New memory on a side branch waits in pending files; the default branch folds them (R33)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from chord_git.extraction.pipeline import ExtractionReport, extract_session
from chord_git.memory import pending
from testing.fake_openai import FakeOpenAI, Reply
from testing.gitutil import cli_env, git, index_digest, run_cli
from tests.extraction.extract_support import KEY_ENV, configure, project_and_config, record, reply, user, write_session

PNPM_SAID = "this repo only uses pnpm, please never run npm install"
PNPM = record("Use pnpm, never npm.", "All JS dependency commands use pnpm.", PNPM_SAID)
MAKE_SAID = "always run make check before you ask me for a review"
MAKE = record("Run make check before review.", "Every review request follows a green make check.", MAKE_SAID,
              type="workflow")
TABS_SAID = "we indent the Makefile with tabs and nothing else please"
TABS = record("Indent the Makefile with tabs.", "Makefile recipes use tabs only.", TABS_SAID, type="fact")


def _extract(repo: Path, server: FakeOpenAI, said: str, *records: dict[str, object], sid: str) -> ExtractionReport:
    server.script("m1", Reply(reply(*records)))
    session = write_session(repo.parent / f"{sid}.jsonl", [user(said)], session_id=sid)
    project, cfg = project_and_config(repo)
    return extract_session(project, cfg, session, env=KEY_ENV)


def _base(repo: Path, server: FakeOpenAI) -> str:
    configure(repo, server)
    _extract(repo, server, TABS_SAID, TABS, sid="base")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")
    return (repo / "MEMORY.md").read_text()


def _entries(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- [")]


def test_side_branch_writes_pending_files_and_leaves_memory_md(repo: Path, fake_openai: FakeOpenAI) -> None:
    before_md = _base(repo, fake_openai)
    git(repo, "switch", "-q", "-c", "feature")
    before_index = index_digest(repo)
    report = _extract(repo, fake_openai, PNPM_SAID, PNPM, sid="s1")
    assert len(report.written) == 1
    rid = report.written[0]
    assert (repo / "MEMORY.md").read_text() == before_md
    text = (repo / pending.PENDING_DIR / f"{rid}.md").read_text()
    header, line = text.splitlines()
    assert header.startswith("<!-- chord:memory:pending at=") and header.endswith(" seq=0 -->")
    assert line == f"- [preference] Use pnpm, never npm. ([{rid}](.chord/memory/records/{rid}.md))"
    assert index_digest(repo) == before_index  # R37: nothing staged
    # Every reader sees it as an entry, on top.
    summary = run_cli(repo, "summary", env=cli_env())
    assert _entries(summary.stdout) == [line, *_entries(before_md)]
    status = run_cli(repo, "status", "--json", env=cli_env())
    assert '"entries": 2' in status.stdout and '"orphans": 0' in status.stdout
    assert '"fold_entries": 1' in status.stdout and '"fold_removals": 0' in status.stdout
    assert run_cli(repo, "check", env=cli_env()).returncode == 0


def test_default_branch_extraction_folds_pending(repo: Path, fake_openai: FakeOpenAI) -> None:
    _base(repo, fake_openai)
    git(repo, "switch", "-q", "-c", "feature")
    first = _extract(repo, fake_openai, PNPM_SAID, PNPM, sid="s1").written[0]
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "feature memory")
    git(repo, "switch", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge", "feature")
    second = _extract(repo, fake_openai, MAKE_SAID, MAKE, sid="s2").written
    ids = [line.split("([")[1].split("]")[0] for line in _entries((repo / "MEMORY.md").read_text())]
    assert ids[:2] == [second[0], first]
    assert not list((repo / pending.PENDING_DIR).glob("*.md"))


def test_fold_command_and_forget_of_pending(repo: Path, fake_openai: FakeOpenAI) -> None:
    _base(repo, fake_openai)
    git(repo, "switch", "-q", "-c", "feature")
    first = _extract(repo, fake_openai, PNPM_SAID, PNPM, sid="s1").written[0]
    second = _extract(repo, fake_openai, MAKE_SAID, MAKE, sid="s2").written[0]
    forgot = run_cli(repo, "forget", first, env=cli_env())
    assert forgot.returncode == 0, forgot.stderr
    assert "pending entry file was deleted" in forgot.stdout
    assert not (repo / pending.PENDING_DIR / f"{first}.md").exists()
    assert (repo / ".chord/memory/records" / f"{first}.md").exists()
    folded = run_cli(repo, "fold", env=cli_env())
    assert folded.returncode == 0, folded.stderr
    assert folded.stdout.startswith("folded 1 pending entry into MEMORY.md")
    entries = _entries((repo / "MEMORY.md").read_text())
    assert second in entries[0] and not any(first in line for line in entries)
    assert run_cli(repo, "fold", env=cli_env()).stdout == "nothing to fold: no pending entries or removals\n"


def test_two_branches_merge_without_a_driver(repo: Path, fake_openai: FakeOpenAI) -> None:
    _base(repo, fake_openai)
    git(repo, "switch", "-q", "-c", "one")
    a = _extract(repo, fake_openai, PNPM_SAID, PNPM, sid="a").written[0]
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    git(repo, "switch", "-q", "-c", "two", "main")
    b = _extract(repo, fake_openai, MAKE_SAID, MAKE, sid="b").written[0]
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two")
    git(repo, "switch", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "m1", "one")
    merged = subprocess.run(["git", "merge", "--no-ff", "-m", "m2", "two"], cwd=repo, capture_output=True, text=True)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    summary = _entries(run_cli(repo, "summary", env=cli_env()).stdout)
    assert [b in summary[0], a in summary[1]] == [True, True]  # newest run first
    assert run_cli(repo, "fold", env=cli_env()).returncode == 0
    assert _entries((repo / "MEMORY.md").read_text()) == summary
    assert run_cli(repo, "check", env=cli_env()).returncode == 0


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("20261201-bad-entry-0001.md", "- [fact] no header ([x](y))\n", "1: expected '<!-- chord:memory:pending"),
    ("20261201-some-entry-0001.removed.md", "<!-- chord:memory:removal of=20261201-other-entry-0002 -->\n",
     "1: removal of 20261201-other-entry-0002 does not match the file name"),
])
def test_bad_pending_file_is_named_by_check(repo: Path, fake_openai: FakeOpenAI, name: str, text: str,
                                            expected: str) -> None:
    _base(repo, fake_openai)
    folder = repo / pending.PENDING_DIR
    folder.mkdir(parents=True)
    (folder / name).write_text(text)
    result = run_cli(repo, "check", env=cli_env())
    assert result.returncode == 1
    assert f".chord/memory/pending/{name}:{expected}" in result.stdout


def test_order_is_newest_run_first_then_reply_order() -> None:
    def item(at: str, seq: int, rid: str) -> pending.Pending:
        from chord_git.memory import index_file
        return pending.Pending(index_file.Entry("fact", "x", rid), at, seq)

    items = [item("2026-12-01T10:00:00.000000Z", 1, "bbb"), item("2026-12-01T11:00:00.000000Z", 0, "ccc"),
             item("2026-12-01T10:00:00.000000Z", 0, "zzz")]
    assert [p.id for p in pending.ordered(items)] == ["ccc", "zzz", "bbb"]
    text = pending.render(items[0])
    assert pending.parse(text, "bbb") == items[0]


def test_a_pending_entry_is_listed_by_review_and_moved_only_once_folded(repo: Path, fake_openai: FakeOpenAI) -> None:
    _base(repo, fake_openai)
    git(repo, "switch", "-q", "-c", "feature")
    rid = _extract(repo, fake_openai, PNPM_SAID, PNPM, sid="s1").written[0]
    listed = run_cli(repo, "review", "list", "--json", env=cli_env())
    assert listed.returncode == 0 and rid in listed.stdout
    moved = run_cli(repo, "review", "move", rid, "--down", env=cli_env())
    assert moved.returncode == 2
    assert moved.stderr.strip().endswith(f"entry {rid} is pending (new on this branch): it takes its place in "
                                         "MEMORY.md when folded (git memory fold), and can be moved then")


def _ids(lines: list[str]) -> list[str]:
    return [line.split("([")[1].split("]")[0] for line in lines]


def test_side_branch_forget_of_a_listed_entry_waits_in_a_removal_file(repo: Path, fake_openai: FakeOpenAI) -> None:
    before_md = _base(repo, fake_openai)
    tabs = _ids(_entries(before_md))[0]
    git(repo, "switch", "-q", "-c", "feature")
    before_index = index_digest(repo)
    forgot = run_cli(repo, "forget", tabs, env=cli_env())
    assert forgot.returncode == 0, forgot.stderr
    assert forgot.stdout.startswith(f"forgot {tabs}: hidden from sessions now; "
                                    f".chord/memory/pending/{tabs}.removed.md takes its line out of MEMORY.md")
    assert (repo / "MEMORY.md").read_text() == before_md  # the line stays until the fold
    removal = (repo / pending.PENDING_DIR / f"{tabs}.removed.md").read_text()
    assert removal == f"<!-- chord:memory:removal of={tabs} -->\n"
    assert (repo / ".chord/memory/decisions" / f"forgotten-{tabs}.md").is_file()
    assert index_digest(repo) == before_index  # R37
    # Every reader hides it at once.
    assert tabs not in run_cli(repo, "summary", env=cli_env()).stdout
    assert '"entries": 0' in run_cli(repo, "status", "--json", env=cli_env()).stdout
    assert ("waiting for the fold: 0 new entries, 1 removal (git memory fold, on the default branch)"
            in run_cli(repo, "status", env=cli_env()).stdout)
    listed = json.loads(run_cli(repo, "review", "list", "--json", env=cli_env()).stdout)["items"]
    assert [item["kind"] for item in listed if item["id"] == tabs] == ["orphan"]
    assert run_cli(repo, "check", env=cli_env()).returncode == 0
    again = run_cli(repo, "forget", tabs, env=cli_env())
    assert again.returncode == 2 and f"no index entry '{tabs}'" in again.stderr
    # Deleting the removal file brings the entry back on this branch.
    (repo / pending.PENDING_DIR / f"{tabs}.removed.md").unlink()
    assert tabs in run_cli(repo, "summary", env=cli_env()).stdout


@pytest.mark.parametrize("same", [False, True], ids=["neighbouring", "the-same-entry"])
def test_two_branches_forget_and_merge_without_a_driver(repo: Path, fake_openai: FakeOpenAI, same: bool) -> None:
    _base(repo, fake_openai)
    _extract(repo, fake_openai, PNPM_SAID, PNPM, sid="base2")
    _extract(repo, fake_openai, MAKE_SAID, MAKE, sid="base3")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "three entries")
    base = _ids(_entries((repo / "MEMORY.md").read_text()))
    assert len(base) == 3
    forgotten = [base[0], base[0] if same else base[1]]
    for branch, gone in zip(("one", "two"), forgotten):
        git(repo, "switch", "-q", "-c", branch, "main")
        assert run_cli(repo, "forget", gone, env=cli_env()).returncode == 0
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"forget on {branch}")
    # As a server merges: a plain text merge, no driver configured.
    tree = subprocess.run(["git", "merge-tree", "--write-tree", "one", "two"], cwd=repo, capture_output=True,
                          text=True)
    assert tree.returncode == 0, tree.stdout
    git(repo, "switch", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "m1", "one")
    merged = subprocess.run(["git", "merge", "--no-ff", "-m", "m2", "two"], cwd=repo, capture_output=True, text=True)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    left = [rid for rid in base if rid not in forgotten]
    assert _ids(_entries(run_cli(repo, "summary", env=cli_env()).stdout)) == left
    folded = run_cli(repo, "fold", env=cli_env())
    count = "1 removed entry" if same else "2 removed entries"
    assert folded.stdout == f"took {count} out of MEMORY.md; their files under .chord/memory/pending/ were deleted\n"
    assert _ids(_entries((repo / "MEMORY.md").read_text())) == left
    assert not list((repo / pending.PENDING_DIR).iterdir())
    assert run_cli(repo, "check", env=cli_env()).returncode == 0


def test_a_forget_on_one_branch_and_a_revision_on_another_keep_the_revision() -> None:
    from chord_git.memory import index_file

    doc = index_file.apply(index_file.new_document(), index_file.IndexDelta(
        insert=(index_file.Entry("fact", "old words", "old-entry"), index_file.Entry("fact", "other", "other-one"))))
    revision = pending.Pending(index_file.Entry("fact", "new words", "new-entry"), "2026-12-01T10:00:00.000000Z", 0,
                               replaces="old-entry")
    seen = pending.overlay(doc, [revision], {"old-entry", "other-one"})
    assert seen is not None and seen.ids() == ["new-entry"]
