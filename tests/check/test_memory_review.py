"""The pull request's memory review: the job summary, the annotations and the opt-in gate."""
from __future__ import annotations

from pathlib import Path

from chord_git.memory import index_file, pending, records
from chord_git.memory.ledger import estimate_tokens
from testing.gitutil import git, run_cli
from testing.memory_files import sample_record
from tests.check.helpers import RECORDS, github_token, memory_repo, write

USER_ID = "20261201-use-pnpm-0001"
ASSISTANT_ID = "20261201-ci-caches-0002"
OLD_ID = "20261101-old-rule-0003"
SAID = "we only use pnpm here; the registry token is {token} but never write it down"


def _record(rid: str, **fields: object) -> records.Record:
    return sample_record(id=rid, **fields)


def _entry(record: records.Record) -> str:
    return index_file.Entry(record.type, record.summary, record.id).render()


def _repo(tmp_path: Path) -> tuple[Path, str, str]:
    repo = memory_repo(tmp_path / "repo")
    old = _record(OLD_ID, type="fact", summary="Builds run on the old runner.", source="assistant",
                  status="unverified", evidence=None, statement="Builds run on the old runner image.")
    write(repo, f"{RECORDS}/{OLD_ID}.md", records.render(old))
    write(repo, "MEMORY.md", f"# Project memory\n\n{index_file.BEGIN}\n{_entry(old)}\n{index_file.END}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base memory")
    git(repo, "switch", "-q", "-c", "pr")
    said = SAID.format(token=github_token())
    user = _record(USER_ID, summary="Use pnpm, never npm.", evidence=said)
    helper = _record(ASSISTANT_ID, type="lesson", summary="CI caches pnpm's store between jobs.", source="assistant",
                     status="unverified", evidence=None, statement="The CI job caches the pnpm store.")
    for rec in (user, helper):
        write(repo, f"{RECORDS}/{rec.id}.md", records.render(rec))
    # One entry in MEMORY.md, one waiting in a pending file (a side branch's extraction), one forgotten.
    write(repo, "MEMORY.md", f"# Project memory\n\n{index_file.BEGIN}\n{_entry(user)}\n{index_file.END}\n")
    item = pending.Pending(index_file.Entry(helper.type, helper.summary, helper.id), "2026-12-01T10:00:00.000000Z", 0)
    write(repo, f"{pending.PENDING_DIR}/{helper.id}.md", pending.render(item))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory on the branch")
    base = git(repo, "rev-parse", "main").strip()
    return repo, base, git(repo, "rev-parse", "pr").strip()


def test_job_summary_line_by_line_with_the_secret_redacted(tmp_path: Path) -> None:
    repo, base, head = _repo(tmp_path)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    result = run_cli(repo, "scan", "--range", "main..pr", "--summary", str(summary))
    assert result.returncode == 1  # the token in the user's evidence is a finding
    token_line = next(n for n, line in enumerate((repo / RECORDS / f"{USER_ID}.md").read_text().split("\n"), 1)
                      if github_token() in line)
    who = git(repo, "log", "-1", "--format=%an (%ae) in %h", "--abbrev=12", "pr").strip()
    # The index a session start injects at each side, estimated as the ledger estimates it.
    before = estimate_tokens(_entry(_record(OLD_ID, type="fact", summary="Builds run on the old runner.")))
    after = estimate_tokens("\n".join([
        index_file.Entry("lesson", "CI caches pnpm's store between jobs.", ASSISTANT_ID).render(),
        index_file.Entry("preference", "Use pnpm, never npm.", USER_ID).render()]))
    assert summary.read_text().splitlines() == [
        "earlier step",
        f"## Project memory in {base[:12]}..{head[:12]}",
        "",
        "2 added, 0 revised (superseding an entry), 0 edited in place, 1 forgotten, 0 moved in or out of the "
        "injected budget or reordered, 0 other changes; 1 added by the assistant, 1 for a person to approve.",
        "",
        "What a range writes is its author's claim: Source and Status are what the record says.",
        "",
        "| Change | Entry | Type | Source | Status | Evidence | Before | After | Written | Findings |",
        "|---|---|---|---|---|---|---|---|---|---|",
        f"| added | `CI caches pnpm's store between jobs.` (`{RECORDS}/{ASSISTANT_ID}.md`) | `lesson` | `assistant` | "
        "`unverified` | — | — | `The CI job caches the pnpm store.` | "
        f"`extraction output (the record names session 7f3c2a), committed by {who}` | none found |",
        f"| added | `Use pnpm, never npm.` (`{RECORDS}/{USER_ID}.md`) | `preference` | `user` | `stated` | "
        "`we only use pnpm here; the registry token is [REDACTED:github-token] but never write it down` | — | "
        "`All JS dependency commands use pnpm; no package-lock.json is ever created.` | "
        f"`extraction output (the record names session 7f3c2a), committed by {who}` | "
        f"**`github-token at line {token_line}`** |",
        f"| forgotten | `Builds run on the old runner.` (`{RECORDS}/{OLD_ID}.md`) | `fact` | `assistant` | "
        f"`unverified` | — | `Builds run on the old runner.` | — | `forgotten in this range by {who}` | n/a |",
        "",
        f"This range changes every session's memory by {after - before:+d} tokens (the index a session start "
        f"injects: about {before} tokens before, {after} after).",
    ]
    assert github_token() not in summary.read_text()
    assert after > before  # two entries in place of one


def test_annotations_and_the_assistant_gate(tmp_path: Path) -> None:
    repo, _base, _head = _repo(tmp_path)
    # Accept the token by value on BASE first, so only the gate can fail the scan.
    import hashlib

    git(repo, "switch", "-q", "main")
    write(repo, ".chord/secrets-ignore", hashlib.sha1(github_token().encode()).hexdigest() + "  # test fixture\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "accept the fixture")
    git(repo, "switch", "-q", "pr")
    plain = run_cli(repo, "scan", "--range", "main..pr", "--annotate")
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert [line for line in plain.stdout.splitlines() if line.startswith("::")] == [
        f"::warning file={RECORDS}/{ASSISTANT_ID}.md,line=1,title=Unreviewed memory::CI caches pnpm's store "
        "between jobs. (added: the assistant concluded it; confirm it before it is shared)"]
    gated = run_cli(repo, "scan", "--range", "main..pr", "--fail-on-assistant-entries")
    assert gated.returncode == 1
    assert gated.stderr.endswith("1 entry added by the assistant need a person's approval "
                                 f"(fail-on-assistant-entries): {ASSISTANT_ID}\n")


def test_a_forget_waiting_in_a_removal_file_is_a_forgotten_row(tmp_path: Path) -> None:
    repo = memory_repo(tmp_path / "repo")
    old = _record(OLD_ID, type="fact", summary="Builds run on the old runner.", statement="Builds run on the old runner image.")
    write(repo, f"{RECORDS}/{OLD_ID}.md", records.render(old))
    write(repo, "MEMORY.md", f"# Project memory\n\n{index_file.BEGIN}\n{_entry(old)}\n{index_file.END}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base memory")
    git(repo, "switch", "-q", "-c", "pr")
    removal = pending.Removal(OLD_ID)
    write(repo, removal.rel(), pending.render_removal(removal))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "forget on the branch")
    summary = tmp_path / "summary.md"
    result = run_cli(repo, "scan", "--range", "main..pr", "--summary", str(summary))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = summary.read_text().splitlines()
    assert lines[2].startswith("0 added, 0 revised (superseding an entry), 0 edited in place, 1 forgotten, ")
    assert lines[-3].startswith(f"| forgotten | `Builds run on the old runner.` (`{RECORDS}/{OLD_ID}.md`) | `fact` | "
                                f"`user` | `stated` | `{old.evidence}` | `Builds run on the old runner.` | — | "
                                "`forgotten in this range by ")
    # The removal file hides the entry from every session: the index injected shrinks by its line.
    gone = estimate_tokens(_entry(old))
    assert lines[-1] == (f"This range changes every session's memory by {-gone:+d} tokens (the index a session "
                         f"start injects: about {gone} tokens before, 0 after).")
