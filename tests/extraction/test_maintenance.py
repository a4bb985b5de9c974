"""apply_maintenance on real repositories: retirements (R26, R34) and promotion files (R29, R30)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chord_git.errors import InputError
from chord_git.extraction.maintenance import LOG_NAME, apply_maintenance, decide
from chord_git.memory import promotions, view
from testing.gitutil import git, index_digest
from testing.memory_files import (
    listed,
    make_record,
    output,
    project_of,
    promotion,
    write_index,
)

USER = "20260110-user-rule-aa01"
ASSIST = "20260110-assist-note-aa02"
ASSIST2 = "20260110-assist-other-aa03"


@pytest.fixture
def memo(repo: Path) -> Path:
    recs = [make_record(repo, USER, source="user"), make_record(repo, ASSIST), make_record(repo, ASSIST2)]
    write_index(repo, recs)
    (repo / "AGENTS.md").write_text("# Rules\n\nBe kind.\n")
    return repo


def _promotion_files(root: Path) -> list[Path]:
    folder = root / ".chord" / "memory" / "promotions"
    return sorted(folder.glob("*.md")) if folder.is_dir() else []


def test_only_assistant_entries_are_retired(memo: Path) -> None:
    before = index_digest(memo)
    out = output(retire=[{"id": USER, "reason": "stale"}, {"id": ASSIST, "reason": "no longer true"},
                         {"id": "20260101-unknown-ffff", "reason": "x"}, {"id": ASSIST, "reason": "again"}])
    report = apply_maintenance(project_of(memo), out, session_id="s9")
    assert report.retired == ((ASSIST, "no longer true"),)
    refused = dict(report.refused_retirements)
    assert "user said" in refused[USER]
    assert refused["20260101-unknown-ffff"] == "not in the index"
    assert len(report.refused_retirements) == 3  # the repeated id too
    assert listed(memo) == [USER, ASSIST2]
    # Record files stay as orphans (R34), and MEMORY.md's own text is kept.
    assert (memo / ".chord/memory/records" / f"{ASSIST}.md").is_file()
    assert "My notes." in (memo / "MEMORY.md").read_text()
    state_dir = memo / ".git" / "chord-memory"
    events = [json.loads(line) for line in (state_dir / LOG_NAME).read_text().splitlines()]
    assert [(e["action"], e["id"], e["reason"]) for e in events] == [("retire", ASSIST, "no longer true")]
    assert set(events[0]) == {"at", "action", "id", "reason", "session"}
    assert index_digest(memo) == before


def test_promotions_for_user_and_assistant_entries(memo: Path) -> None:
    agents = (memo / "AGENTS.md").read_bytes()
    out = output(promotions=[
        promotion(ASSIST, "docs/dev.md", "Run `make lint` before pushing."),
        promotion(USER, "AGENTS.md", "Always use pnpm.", target="instructions"),
        promotion(None, ".chord/skills/release.md", "Tag releases as vX.Y.Z."),
    ])
    report = apply_maintenance(project_of(memo), out, session_id="s9")
    assert len(report.promotions) == 3 and not report.dropped_promotions
    assert report.promoted_out == (ASSIST,)
    assert listed(memo) == [USER, ASSIST2]  # the user's entry stays until accepted (R29)
    files = _promotion_files(memo)
    assert [f.stem for f in files] == sorted(report.promotions)
    parsed = {}
    for path in files:
        item, problems = promotions.read(path)
        assert item is not None, problems
        parsed[item.entry] = item
    assert parsed[ASSIST].path == "docs/dev.md" and parsed[ASSIST].text == "Run `make lint` before pushing."
    assert parsed[USER].target == "instructions" and parsed[USER].session == "s9"
    assert parsed[None].path == ".chord/skills/release.md"
    assert (memo / "AGENTS.md").read_bytes() == agents
    assert not (memo / "docs").exists()
    # Nothing is staged: git sees only untracked working-tree files.
    assert all(line.startswith("??") for line in git(memo, "status", "--porcelain").splitlines())


def test_rerun_of_the_same_reply_adds_nothing(memo: Path) -> None:
    out = output(promotions=[promotion(USER, "AGENTS.md", "Always use pnpm.", target="instructions"),
                             promotion(None, "docs/a.md", "Some doc text.")])
    first = apply_maintenance(project_of(memo), out, session_id="s9")
    second = apply_maintenance(project_of(memo), out, session_id="s9")
    assert len(first.promotions) == 2 and second.promotions == ()
    assert [reason for _, reason in second.dropped_promotions] == [
        f"a promotion for entry {USER} is already pending", "the same suggestion is already pending"]
    assert len(_promotion_files(memo)) == 2


@pytest.mark.parametrize("path, why", [
    ("../x.md", "'..'"),
    ("/etc/x.md", "absolute"),
    ("docs/../../x.md", "'..'"),
    ("src/main.py", "must be AGENTS.md"),
    ("NOTES.md", "must be AGENTS.md"),
    ("sub/README.md", "must be AGENTS.md"),
    ("docs\\x.md", "forward slashes"),
    ("C:/docs/x.md", "absolute"),
    ("docs/.git/config", ".git"),
    ("docs/", "empty"),
])
def test_bad_target_paths_are_dropped(memo: Path, path: str, why: str) -> None:
    report = apply_maintenance(project_of(memo), output(promotions=[promotion(ASSIST, path)]), session_id=None)
    assert report.promotions == () and report.promoted_out == ()
    assert why in report.dropped_promotions[0][1]
    assert listed(memo) == [USER, ASSIST, ASSIST2]
    assert _promotion_files(memo) == []


def test_symlinked_docs_dir_pointing_outside_is_dropped(memo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, memo / "docs")
    report = apply_maintenance(project_of(memo), output(promotions=[promotion(None, "docs/x.md")]), session_id=None)
    assert report.promotions == ()
    assert "outside the project" in report.dropped_promotions[0][1]


def test_leading_dot_slash_is_normalized(memo: Path) -> None:
    report = apply_maintenance(project_of(memo), output(promotions=[promotion(None, "./docs/x.md")]), session_id=None)
    item, _ = promotions.read(_promotion_files(memo)[0])
    assert report.promotions and item is not None and item.path == "docs/x.md"


def test_secrets_are_redacted_and_absolute_paths_dropped(memo: Path) -> None:
    token = "gh" + "p_" + "".join(chr(65 + (i * 7) % 26) + str(i % 10) for i in range(18))
    out = output(promotions=[promotion(None, "docs/a.md", f"Deploy with token {token} set."),
                             promotion(None, "docs/b.md", "Builds live in /home/ana/build."),
                             promotion(None, "docs/c.md", "   "),
                             promotion(None, "docs/d.md", "x" * 5000),
                             promotion("20260101-unknown-ffff", "docs/e.md", "text")])
    report = apply_maintenance(project_of(memo), out, session_id=None)
    assert len(report.promotions) == 1
    reasons = dict(report.dropped_promotions)
    assert "absolute path" in reasons[1] and "empty" in reasons[2] and "cap" in reasons[3]
    assert "not in the index" in reasons[4]
    body = _promotion_files(memo)[0].read_text()
    assert token not in body and "[REDACTED:" in body


def test_dry_run_writes_nothing(memo: Path) -> None:
    before = (memo / "MEMORY.md").read_bytes()
    out = output(retire=[{"id": ASSIST, "reason": "old"}], promotions=[promotion(ASSIST2)])
    report = apply_maintenance(project_of(memo), out, session_id=None, dry_run=True)
    assert report.retired == ((ASSIST, "old"),) and report.promoted_out == (ASSIST2,)
    assert report.dry_run and report.as_json()["dry_run"] is True
    assert (memo / "MEMORY.md").read_bytes() == before
    assert _promotion_files(memo) == []
    assert not (memo / ".git" / "chord-memory" / LOG_NAME).exists()


def test_unusable_managed_section_writes_nothing(memo: Path) -> None:
    path = memo / "MEMORY.md"
    path.write_text(path.read_text().replace("<!-- chord:memory:end -->", "not an entry\n<!-- chord:memory:end -->"))
    out = output(retire=[{"id": ASSIST, "reason": "old"}], promotions=[promotion(None)])
    with pytest.raises(InputError, match="managed section unusable"):
        apply_maintenance(project_of(memo), out, session_id=None)
    assert _promotion_files(memo) == []


def test_empty_reply_touches_nothing(memo: Path) -> None:
    before = (memo / "MEMORY.md").read_bytes()
    report = apply_maintenance(project_of(memo), output(), session_id=None)
    assert report.as_json()["retired"] == [] and (memo / "MEMORY.md").read_bytes() == before


def test_an_empty_reply_does_not_mind_an_unusable_index(memo: Path) -> None:
    """An extraction whose reply asks for no maintenance succeeds even if the user broke the
    managed section during the model call; only a reply that asks for something fails."""
    path = memo / "MEMORY.md"
    path.write_text(path.read_text().replace("<!-- chord:memory:end -->", "not an entry\n<!-- chord:memory:end -->"))
    snapshot = view.snapshot(project_of(memo))
    carried = decide(project_of(memo), output(), snapshot, session_id=None, dry_run=False)
    assert carried.delta.is_empty() and carried.created == () and carried.report.promotions == ()
    with pytest.raises(InputError, match="managed section unusable"):
        decide(project_of(memo), output(promotions=[promotion(None)]), snapshot, session_id=None, dry_run=False)
    assert _promotion_files(memo) == []


def test_entry_with_broken_record_is_neither_retired_nor_promoted_out(memo: Path) -> None:
    (memo / ".chord/memory/records" / f"{ASSIST}.md").write_text("not a record\n")
    out = output(retire=[{"id": ASSIST, "reason": "old"}], promotions=[promotion(ASSIST)])
    report = apply_maintenance(project_of(memo), out, session_id=None)
    assert report.retired == () and report.promoted_out == () and len(report.promotions) == 1
    assert "source is unknown" in report.refused_retirements[0][1]
    assert ASSIST in listed(memo)


@pytest.mark.parametrize("bad", ["docs/" + "a" * 5000 + ".md", "docs/" + "長" * 150 + ".md"])
def test_one_bad_promotion_never_aborts_the_rest(memo: Path, bad: str) -> None:
    """An over-long target path (by characters, or by bytes for the file system) drops only itself."""
    reply = output(promotions=[promotion(None, bad, text="First suggestion."),
                               promotion(ASSIST, "docs/dev.md", text="Second suggestion.")])
    report = apply_maintenance(project_of(memo), reply, session_id=None)
    assert [number for number, _why in report.dropped_promotions] == [0]
    assert len(report.promotions) == 1 and report.promoted_out == (ASSIST,)
    assert listed(memo) == [USER, ASSIST2]


def test_a_retirement_on_a_side_branch_waits_in_a_removal_file(memo: Path) -> None:
    """R33: on a branch other than the default one a retirement leaves MEMORY.md's lines alone."""
    from chord_git.memory import pending

    git(memo, "add", "-A")
    git(memo, "commit", "-q", "-m", "memory")
    git(memo, "switch", "-q", "-c", "feature")
    before_md = (memo / "MEMORY.md").read_bytes()
    before = index_digest(memo)
    report = apply_maintenance(project_of(memo), output(retire=[{"id": ASSIST, "reason": "no longer true"}]),
                               session_id="s9")
    assert report.retired == ((ASSIST, "no longer true"),)
    assert (memo / "MEMORY.md").read_bytes() == before_md
    removal = (memo / pending.PENDING_DIR / f"{ASSIST}.removed.md").read_text()
    assert removal == f"<!-- chord:memory:removal of={ASSIST} -->\n"
    assert [entry.id for entry in view.read_index(project_of(memo)).entries] == [USER, ASSIST2]
    assert index_digest(memo) == before
