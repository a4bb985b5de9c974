"""Anchors: what a record names that the project can check (issue 36). Recorded when a record is
written, derived on read for records written before; session start labels an entry whose anchor
the working tree lacks, and ``why`` lists it."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from chord_git.memory import anchor_lookup, anchors, records, summary
from chord_git.memory.anchors import Anchor
from testing.gitutil import cli_env, git, index_digest
from testing.memory_files import make_record, write_index
from tests.agents.conftest import configure, event, git_memory, run_hook


@pytest.mark.parametrize(("text", "expected"), [
    ("Run `make lint` before review; the config lives in `config/app.toml`.",
     [Anchor("path", "config/app.toml"), Anchor("make", "lint")]),
    ("We run make check, then pnpm run build:web.", [Anchor("make", "check"), Anchor("script", "build:web")]),
    ("Set `DATABASE_URL` and `server.port` in the env.", [Anchor("key", "DATABASE_URL"), Anchor("key", "server.port")]),
    ("Edit src/api/routes.py and docs/ only.", [Anchor("path", "src/api/routes.py"), Anchor("path", "docs/")]),
    ("部署前先运行 make deploy-check。", [Anchor("make", "deploy-check")]),
    ("Use pnpm, never npm; and/or ask first.", []),
    ("See https://example.com/a/b.py for the spec.", []),
])
def test_what_a_text_names(text: str, expected: list[Anchor]) -> None:
    assert list(anchors.derive(text)) == expected


def test_anchors_round_trip_through_the_front_matter() -> None:
    found = anchors.of_texts(["Run `make lint`.", "Edit `src/app.py`; run make lint again."])
    assert found == (Anchor("make", "lint"), Anchor("path", "src/app.py"))
    record = records.Record(id="20261207-lint-0001", type="workflow", source="user", status="stated",
                            summary="Run make lint.", statement="Run `make lint` before review.", evidence="run make lint",
                            created="2026-12-07", session="s", supersedes=None, conclusion="c", why="w",
                            how_to_apply="h", anchors=found)
    text = records.render(record)
    assert "anchors: make:lint path:src/app.py\n" in text
    parsed, problems = records.parse(text, "20261207-lint-0001")
    assert problems == [] and parsed is not None and parsed.anchors == found


def test_a_record_written_before_anchors_gets_them_derived_on_read(repo: Path) -> None:
    old = make_record(repo, "20260110-lint-0001", source="user", summary="Run make lint first.",
                      statement="Run `make lint` before review.")
    text = (repo / ".chord/memory/records/20260110-lint-0001.md").read_text("utf-8")
    assert "anchors" not in text  # nothing rewritten
    parsed, _ = records.parse(text, old.id)
    assert parsed is not None and parsed.anchors == ()
    assert records.anchors_of(parsed) == (Anchor("make", "lint"),)


@pytest.mark.parametrize("value", ["make", "port:8080", "path:/etc/passwd", "path:../up.py", "make:a b:c"])
def test_a_wrong_anchor_is_a_problem_on_its_line(value: str) -> None:
    record = records.Record(id="20261207-x-0001", type="fact", source="assistant", status="unverified",
                            summary="S.", statement="S.", evidence=None, created="2026-12-07", session="s",
                            supersedes=None, conclusion="c", why="w", how_to_apply="h")
    text = records.render(record).replace("session: s\n", f"session: s\nanchors: \"{value}\"\n")
    parsed, problems = records.parse(text, record.id)
    assert parsed is None
    line = text.split("\n").index(f'anchors: "{value}"') + 1
    assert [(p.line, p.kind) for p in problems] == [(line, "field-type")], problems


def _stale_memory(repo: Path) -> list[str]:
    (repo / "src").mkdir()
    (repo / "src" / "here.py").write_text("x = 1\n")
    (repo / "Makefile").write_text("check:\n\tpytest\nVERSION := 1\n")
    (repo / "package.json").write_text(json.dumps({"scripts": {"build": "vite build"}}))
    recs = [
        make_record(repo, "20261201-gone-0001", source="user", summary="The mailer lives in `src/mailer.py`."),
        make_record(repo, "20261201-here-0002", source="user", summary="The app starts in `src/here.py`."),
        make_record(repo, "20261201-lint-0003", source="user", summary="Run `make lint` before review."),
        make_record(repo, "20261201-check-0004", source="user", summary="Run `make check` before review."),
        make_record(repo, "20261201-web-0005", source="user", summary="Build with pnpm run build:web."),
        make_record(repo, "20261201-build-0006", source="user", summary="Build with pnpm run build."),
        make_record(repo, "20261201-key-0007", source="user", summary="Set `VERSION_TAG` in the env."),
    ]
    write_index(repo, recs)
    return [r.id for r in recs]


def test_session_start_labels_an_entry_whose_anchor_is_gone(repo: Path) -> None:
    _stale_memory(repo)
    built = summary.build(repo / "MEMORY.md", budget=4000, extraction_enabled=False)
    lines = {line.split("(")[0]: line for line in built.text.splitlines() if line.startswith("- [")}
    assert "(stale? src/mailer.py not found)" in built.text
    assert "(stale? make lint not found)" in built.text
    assert "(stale? script build:web not found)" in built.text
    assert built.text.count("(stale?") == 3  # here.py, make check, the build script: present; keys: audit's
    assert all("stale?" not in line for key, line in lines.items() if "here.py" in key or "make check" in key)
    assert built.stale == (("20261201-gone-0001", "src/mailer.py"), ("20261201-lint-0003", "make lint"),
                           ("20261201-web-0005", "script build:web"))


def test_labels_take_a_tenth_of_a_full_budget_and_the_lookups_are_bounded(repo: Path, tmp_path: Path) -> None:
    _stale_memory(repo)
    entries = sum(len(line) + 1 for line in (repo / "MEMORY.md").read_text("utf-8").splitlines() if line.startswith("- ["))
    full = summary.build(repo / "MEMORY.md", budget=entries + 2, extraction_enabled=False)
    assert full.entries_shown == 7 and 1 <= len(full.stale) < 3  # no entry pushed out; labels while a tenth lasts
    labels = sum(len(f" (stale? {anchor} not found)") for _rid, anchor in full.stale)
    assert labels <= (entries + 2) // summary.LABEL_SHARE + 2
    small = summary.build(repo / "MEMORY.md", budget=entries // 3, extraction_enabled=False)
    assert 0 < small.entries_shown < 7
    assert sum(len(f" (stale? {anchor} not found)") for _rid, anchor in small.stale) <= entries // 3
    assert all(rid in small.shown_ids for rid, _anchor in small.stale)
    lookup = anchor_lookup.Lookup(tmp_path)
    gone = [Anchor("path", f"no/such-{n}.py") for n in range(anchor_lookup.MAX_LOOKUPS + 10)]
    assert sum(lookup.missing(anchor) for anchor in gone) == anchor_lookup.MAX_LOOKUPS


def test_a_workspace_root_does_not_label_scripts(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(json.dumps({"workspaces": ["web"], "scripts": {}}))
    assert not anchor_lookup.Lookup(tmp_path).missing(Anchor("script", "build:web"))


def test_why_lists_the_entries_labelled_stale(repo: Path) -> None:
    _stale_memory(repo)
    configure(None)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    before = index_digest(repo)
    start = run_hook(event("SessionStart", repo, "sess-stale", source="startup"), cwd=repo)
    assert start.returncode == 0, start.stderr
    assert "(stale? make lint not found)" in json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    done = subprocess.run([git_memory(), "why", "--json"], cwd=repo, capture_output=True, text=True, env=cli_env(),
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["labelled_stale"] == [
        {"id": "20261201-gone-0001", "anchor": "src/mailer.py"}, {"id": "20261201-lint-0003", "anchor": "make lint"},
        {"id": "20261201-web-0005", "anchor": "script build:web"}]
    text = subprocess.run([git_memory(), "why"], cwd=repo, capture_output=True, text=True, env=cli_env(), timeout=60)
    assert "labelled stale" in text.stdout and "  20261201-lint-0003: make lint not found" in text.stdout
    assert index_digest(repo) == before and git(repo, "status", "--porcelain") == ""


def test_a_sentence_may_start_with_run() -> None:
    assert anchors.derive("Run make lint. Then run make check:") == (Anchor("make", "lint"), Anchor("make", "check"))
