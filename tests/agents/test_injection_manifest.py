"""The injection manifest: each SessionStart records what it injected and what it left out, and
``git memory why`` tells "not injected" (and why) apart from "injected"."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from chord_git.memory import injection, summary as summary_mod
from chord_git.memory.index_file import BEGIN, END, Entry
from chord_git.memory.project import discover
from testing.gitutil import cli_env, git, index_digest
from testing.memory_files import make_record
from tests.agents.conftest import configure, event, git_memory, run_hook

OK = [f"20261101-entry-{n:04d}" for n in range(4)]
OVER_CAP = "20261102-too-long-0001"
BROKEN = "20261103-broken-0002"
LATE = [f"20261104-late-{n:04d}" for n in range(3)]


def _memory(repo: Path) -> None:
    """Two entries that fit, one over its caps, one unloadable, a broken line, then more than the
    budget holds."""
    for rid in OK + LATE:
        make_record(repo, rid, source="user", summary=f"Remember the {rid} convention.")
    make_record(repo, OVER_CAP, source="user", summary="A statement far too long.", statement="x" * 700)
    broken = make_record(repo, BROKEN, source="user", summary="A record with a bad type.")
    path = repo / ".chord/memory/records" / f"{BROKEN}.md"
    path.write_text(path.read_text("utf-8").replace("type: fact", "type: rumour"), "utf-8")
    assert broken.id == BROKEN

    def line(rid: str, text: str) -> str:
        return Entry("fact", text, rid).render()

    lines = [line(OK[0], f"Remember the {OK[0]} convention."), line(OVER_CAP, "A statement far too long."),
             line(BROKEN, "A record with a bad type."), "- this line is not an entry",
             line(OK[1], f"Remember the {OK[1]} convention."), line(OK[2], f"Remember the {OK[2]} convention."),
             *(line(rid, f"Remember the {rid} convention.") for rid in [OK[3], *LATE])]
    (repo / "MEMORY.md").write_text(f"# Project memory\n\n{BEGIN}\n" + "\n".join(lines) + f"\n{END}\n", "utf-8")


def _why(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([git_memory(), "why", *args], cwd=repo, capture_output=True, text=True, env=cli_env(),
                          timeout=60)


def _budget_for_three(repo: Path) -> int:
    """A budget that holds exactly the first three loadable entries."""
    one = len(Entry("fact", f"Remember the {OK[0]} convention.", OK[0]).render()) + 1
    return one * 3 + 2


def test_why_tells_what_the_last_session_start_injected_and_what_it_left_out(repo: Path) -> None:
    _memory(repo)
    configure(None, summary_budget=_budget_for_three(repo))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    before = index_digest(repo)

    start = run_hook(event("SessionStart", repo, "sess-1", source="startup"), cwd=repo)
    assert start.returncode == 0, start.stderr
    injected_text = json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]

    done = _why(repo, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["session_start"]["session"] == "sess-1" and report["session_start"]["host"] == "claude-code"
    assert report["session_start"]["source"] == "startup" and report["session_start"]["loaded"] is True
    assert report["injected"] == OK[:3]
    assert all(rid in injected_text for rid in report["injected"])
    left = report["left_out"]
    assert [item["id"] for item in left["over caps"]] == [OVER_CAP]
    assert "cap 600" in left["over caps"][0]["reason"]
    assert [item["id"] for item in left["unloadable"]] == [BROKEN]
    assert [item["line"] for item in left["invalid index line"]] == [7]
    assert [item["id"] for item in left["over budget"]] == [OK[3], *LATE]
    for rid in (OVER_CAP, BROKEN, OK[3], *LATE):
        assert rid not in injected_text
    assert report["added_since"] == [] and report["removed_since"] == []

    text = _why(repo)
    assert text.returncode == 0
    assert "injected: 3 entries" in text.stdout and f"over budget: {1 + len(LATE)}" in text.stdout
    assert f"\n  {OK[0]}  Remember the {OK[0]} convention.\n" in text.stdout
    assert f"{OVER_CAP} (line 5): record statement has 700 characters (cap 600)" in text.stdout

    # The manifest lives in the state dir: nothing staged, nothing new in the working tree.
    assert index_digest(repo) == before
    assert git(repo, "status", "--porcelain") == ""


def test_why_shows_entries_written_after_the_start_and_entries_removed_since(repo: Path) -> None:
    _memory(repo)
    configure(None)
    assert run_hook(event("SessionStart", repo, "sess-2", source="startup"), cwd=repo).returncode == 0
    make_record(repo, "20261105-new-one-0003", source="user", summary="A new convention.")
    text = (repo / "MEMORY.md").read_text("utf-8")
    text = text.replace(f"{BEGIN}\n", f"{BEGIN}\n{Entry('fact', 'A new convention.', '20261105-new-one-0003').render()}\n")
    text = "\n".join(line for line in text.split("\n") if OK[1] not in line)
    (repo / "MEMORY.md").write_text(text, "utf-8")

    report = json.loads(_why(repo, "--json").stdout)
    assert report["added_since"] == ["20261105-new-one-0003"]
    assert report["removed_since"] == [OK[1]]
    assert "added to the index since: 1 (injected at the next session start)" in _why(repo).stdout


def test_why_picks_a_session_and_says_when_nothing_was_recorded(repo: Path) -> None:
    _memory(repo)
    configure(None)
    none = _why(repo)
    assert none.returncode == 1 and none.stdout == ""
    assert none.stderr.count("\n") == 1 and "no session start recorded" in none.stderr
    for session, source in (("aaa-first", "startup"), ("bbb-second", "compact")):
        assert run_hook(event("SessionStart", repo, session, source=source), cwd=repo).returncode == 0
    assert json.loads(_why(repo, "--json").stdout)["session_start"]["session"] == "bbb-second"
    picked = json.loads(_why(repo, "--json", "--session", "aaa").stdout)["session_start"]
    assert picked["session"] == "aaa-first" and picked["source"] == "startup"
    assert _why(repo, "--session", "zzz").returncode == 1


def test_a_hook_outside_any_project_writes_no_manifest(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    configure(None)
    assert run_hook(event("SessionStart", folder, "s-none", source="startup"), cwd=folder).returncode == 0
    assert injection.read_all(discover(folder).state_dir) == []


def test_manifests_are_bounded_in_number_and_size(repo: Path) -> None:
    project = discover(repo)
    skipped = tuple((n, f"20261106-bad-{n:04d}", "record not loadable: bad") for n in range(1, 81))
    built = summary_mod.Summary(text="x", entries_shown=0, truncated=False, loaded=False, skipped=skipped,
                                warnings=tuple(f"MEMORY.md:{n}: skipped 20261106-bad-{n:04d}: bad" for n in range(1, 81)))
    for number in range(injection.KEEP + 5):
        manifest = injection.build(built, host="codex", session=f"s{number}", source="startup", budget=4000,
                                   problems=[], elapsed_ms=1.0, now=float(number))
        injection.write(project.state_dir, manifest)
    kept = injection.read_all(project.state_dir)
    assert len(kept) == injection.KEEP
    assert kept[0]["session"] == f"s{injection.KEEP + 4}"  # newest first
    assert len(kept[0]["skipped"]) == injection.SKIPPED_CAP and kept[0]["skipped_more"] == 80 - injection.SKIPPED_CAP
    assert kept[0]["warnings"] == []  # per-line warnings are in ``skipped`` already
    folder = project.state_dir / injection.DIR_NAME
    assert max(p.stat().st_size for p in folder.iterdir()) < 16 * 1024
    assert not str(folder).startswith(str(repo) + "/") or ".git" in folder.parts


def test_a_damaged_manifest_is_passed_over(repo: Path) -> None:
    _memory(repo)
    configure(None)
    assert run_hook(event("SessionStart", repo, "good-one", source="startup"), cwd=repo).returncode == 0
    folder = discover(repo).state_dir / injection.DIR_NAME
    (folder / "99999999999999999999-1.json").write_text("{not json", "utf-8")
    assert json.loads(_why(repo, "--json").stdout)["session_start"]["session"] == "good-one"


def test_each_left_out_line_is_grouped_by_its_reason() -> None:
    from chord_git.memory.loadable import NOT_CHECKED

    skipped = ((4, "20261107-a-0001", NOT_CHECKED), (5, "20261107-b-0002", "index summary has 170 characters (cap 160)"),
               (6, "20261107-c-0003", "record file is a symlink; refused"), (7, None, "not valid UTF-8"),
               (8, "20261107-a-0001", "already listed at line 4"))
    built = summary_mod.Summary(text="", entries_shown=0, truncated=False, loaded=False, skipped=skipped, managed=True)
    manifest = injection.build(built, host="codex", session="s", source=None, budget=100, problems=[], elapsed_ms=0)
    report = injection.explain(manifest, None)  # the index is unreadable now: the manifest alone
    assert {reason: [item["line"] for item in items] for reason, items in report["left_out"].items()} == {
        injection.NOT_CHECKED: [4], injection.OVER_CAPS: [5], injection.UNLOADABLE: [6], injection.INVALID: [7, 8]}


def test_a_memory_file_without_markers_is_reported_as_plain_text(repo: Path) -> None:
    (repo / "MEMORY.md").write_text("# Notes\n\nWe deploy on Fridays only.\n", "utf-8")
    configure(None)
    start = run_hook(event("SessionStart", repo, "plain-1", source="startup"), cwd=repo)
    assert b"Fridays" in start.stdout
    report = json.loads(_why(repo, "--json").stdout)
    assert report["session_start"]["managed"] is False and report["session_start"]["loaded"] is True
    assert report["injected"] == [] and report["left_out"] == {}
    assert "injected: MEMORY.md as plain text (no markers)" in _why(repo).stdout


def test_a_codex_session_start_is_recorded_too(repo: Path) -> None:
    _memory(repo)
    configure(None)
    start = run_hook(event("SessionStart", repo, "codex-1", source="startup"), host="codex", cwd=repo)
    assert start.returncode == 0 and OK[0].encode() in start.stdout
    report = json.loads(_why(repo, "--json").stdout)
    assert report["session_start"]["host"] == "codex" and report["injected"][0] == OK[0]


def test_pending_entries_above_a_file_without_markers_are_listed(repo: Path) -> None:
    """A branch whose first memory waits in a pending file, over a MEMORY.md of plain notes."""
    from chord_git.memory import pending

    (repo / "MEMORY.md").write_text("# Notes\n\nWe deploy on Fridays only.\n", "utf-8")
    rid = OK[0]
    make_record(repo, rid, source="user", summary=f"Remember the {rid} convention.")
    item = pending.Pending(Entry("fact", f"Remember the {rid} convention.", rid), "2026-12-01T10:00:00.000000Z", 0)
    (repo / pending.PENDING_DIR).mkdir(parents=True)
    (repo / pending.PENDING_DIR / f"{rid}.md").write_text(pending.render(item), "utf-8")
    configure(None)
    start = run_hook(event("SessionStart", repo, "plain-2", source="startup"), cwd=repo)
    assert rid.encode() in start.stdout and b"Fridays" in start.stdout
    report = json.loads(_why(repo, "--json").stdout)
    assert report["injected"] == [rid]
