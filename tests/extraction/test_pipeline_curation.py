"""R27 wiring: an extraction that leaves the index over the summary budget runs the index-only
curation round right after, through the same pool; its failure does not undo the extraction."""
from __future__ import annotations

from pathlib import Path

import pytest

from chord_git.extraction import writer
from chord_git.extraction.pipeline import extract_session
from chord_git.memory import records, store, view
from chord_git.memory.index_file import BEGIN, END, Entry
from chord_git.memory.project import Project
from chord_git.memory.records import Record
from testing import memory_writers
from testing.fake_openai import FakeOpenAI, Reply, Status
from testing.opens import recording_opens
from tests.extraction.extract_support import (
    KEY_ENV,
    configure,
    project_and_config,
    record,
    reply,
    user,
    write_session,
)

SAID = "from now on, run the linters with make lint before every commit"


def seed_assistant_entries(root: Path, count: int) -> list[str]:
    """An index of assistant-summarized entries, longer than a small budget holds."""
    rec_dir = root / ".chord/memory/records"
    rec_dir.mkdir(parents=True, exist_ok=True)
    ids, lines = [], []
    for number in range(count):
        rid = f"20261101-old-note-{number:04d}"
        summary = f"Old assistant note number {number} about the build layout of module {number}."
        rec = Record(rid, "fact", "assistant", "unverified", summary, summary, None, "2026-11-01", "s0",
                     None, "c", "w", "h")
        (rec_dir / f"{rid}.md").write_text(records.render(rec))
        ids.append(rid)
        lines.append(Entry("fact", summary, rid).render())
    (root / "MEMORY.md").write_text(f"# Project memory\n\n{BEGIN}\n" + "\n".join(lines) + f"\n{END}\n")
    return ids


LINT = record("Run `make lint` before every commit.", "Every commit is preceded by `make lint`.", SAID,
              type="workflow")


def over_budget_project(root: Path, server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Twelve assistant entries and a 600-character budget: any extraction leaves it over budget."""
    for name, value in KEY_ENV.items():
        monkeypatch.setenv(name, value)
    ids = seed_assistant_entries(root, 12)
    configure(root, server, extra_memory={"summary_budget": 600})
    return ids


def session(root: Path) -> Path:
    return write_session(root.parent / "s.jsonl", [user(SAID)])


def test_over_budget_extraction_triggers_curation(repo: Path, fake_openai: FakeOpenAI, monkeypatch) -> None:
    ids = over_budget_project(repo, fake_openai, monkeypatch)
    retire = [{"id": rid, "reason": "stale note"} for rid in ids[6:]]
    fake_openai.script("m1", Reply(reply(LINT)), Reply({"records": [], "retire": retire, "promotions": []}))
    project, cfg = project_and_config(repo)
    report = extract_session(project, cfg, session(repo))
    assert report.curation is not None and report.curation["outcome"] == "ok"
    assert fake_openai.hits("m1") == 2
    curation_request = fake_openai.requests[1].body
    assert SAID not in str(curation_request)  # the round sees only the index, never the transcript
    state = view.read_index(project)
    listed = [entry.id for entry in state.entries]
    assert report.written[0] in listed
    assert not set(ids[6:]) & set(listed)
    assert all((repo / ".chord/memory/records" / f"{rid}.md").exists() for rid in ids)  # files stay (R34)
    assert store.read_status(project)["state"] == "ok"


def test_failed_curation_keeps_the_extraction(repo: Path, fake_openai: FakeOpenAI, monkeypatch) -> None:
    for name, value in KEY_ENV.items():
        monkeypatch.setenv(name, value)
    seed_assistant_entries(repo, 12)
    configure(repo, fake_openai, extra_memory={"summary_budget": 600})
    new = record("Run `make lint` before every commit.", "Every commit is preceded by `make lint`.", SAID,
                 type="workflow")
    fake_openai.script("m1", Reply(reply(new)), Status(500))
    project, cfg = project_and_config(repo)
    report = extract_session(project, cfg, session(repo))
    assert report.written and report.curation is not None and report.curation["outcome"] == "failed"
    assert report.written[0] in [entry.id for entry in view.read_index(project).entries]
    status = store.read_status(project)
    assert status["state"] == "fail" and "curation" in str(status["reason"])


def test_within_budget_no_curation_call(repo: Path, fake_openai: FakeOpenAI, monkeypatch) -> None:
    for name, value in KEY_ENV.items():
        monkeypatch.setenv(name, value)
    configure(repo, fake_openai)
    new = record("Run `make lint` before every commit.", "Every commit is preceded by `make lint`.", SAID,
                 type="workflow")
    fake_openai.script("m1", Reply(reply(new)))
    project, cfg = project_and_config(repo)
    report = extract_session(project, cfg, session(repo))
    assert report.curation is None and fake_openai.hits("m1") == 1


def test_one_run_opens_memory_md_at_most_three_times(repo: Path, fake_openai: FakeOpenAI, monkeypatch) -> None:
    """The run's snapshot reads MEMORY.md and each record once; the locked write opens it once,
    reading it under a read lease that it keeps until its swap (an in-place editor save landing in
    between is merged, never lost, R35); the curation round it triggers decides on the index as
    that write left it and opens MEMORY.md once for its own write, the same way."""
    ids = over_budget_project(repo, fake_openai, monkeypatch)
    promote = {"id": ids[0], "target": "docs", "path": "docs/build.md", "proposed_text": "Module layout.",
               "reason": "rarely needed"}
    fake_openai.script("m1", Reply(reply(LINT, retire=[{"id": ids[1], "reason": "stale"}], promotions=[promote])),
                       Reply({"records": [], "retire": [{"id": rid, "reason": "stale"} for rid in ids[6:]],
                              "promotions": []}))
    project, cfg = project_and_config(repo)
    transcript = session(repo)
    with recording_opens() as opened:
        report = extract_session(project, cfg, transcript)
    assert report.written and report.maintenance and report.maintenance["retired"]
    assert report.curation is not None and report.curation["outcome"] == "ok"  # the third open's reason
    memory_md = [path for path in opened if Path(path) == project.memory_md]
    assert len(memory_md) <= 3, memory_md
    record_files = [path for path in opened if Path(path).parent == project.records_dir]
    assert len(record_files) == len(set(record_files)) == 13  # 12 existing and the new one, once each
    listed = {entry.id for entry in view.read_index(project).entries}
    assert not listed & {ids[1], *ids[6:]}


def test_a_run_without_curation_opens_memory_md_at_most_twice(repo: Path, fake_openai: FakeOpenAI,
                                                              monkeypatch) -> None:
    """The snapshot, and the locked write's leased read that the swap goes on with."""
    for name, value in KEY_ENV.items():
        monkeypatch.setenv(name, value)
    seed_assistant_entries(repo, 2)
    configure(repo, fake_openai)
    fake_openai.script("m1", Reply(reply(record("Run `make lint` before every commit.",
                                                "Every commit is preceded by `make lint`.", SAID, type="workflow"))))
    project, cfg = project_and_config(repo)
    with recording_opens() as opened:
        report = extract_session(project, cfg, session(repo))
    assert report.written and report.curation is None
    assert len([path for path in opened if Path(path) == project.memory_md]) <= 2


def test_an_in_place_save_during_the_locked_write_is_merged(repo: Path, fake_openai: FakeOpenAI,
                                                           monkeypatch) -> None:
    """The lease the locked write reads MEMORY.md under lasts until its swap, across record
    creation: an editor that begins an in-place save meanwhile waits, and its note is merged into
    what the run writes (R35)."""
    for name, value in KEY_ENV.items():
        monkeypatch.setenv(name, value)
    seed_assistant_entries(repo, 2)
    configure(repo, fake_openai)
    fake_openai.script("m1", Reply(reply(LINT)))
    project, cfg = project_and_config(repo)
    editors = []
    create_records = writer.create_records

    def create_records_while_saved(project: Project, planned: tuple[writer.Planned, ...]) -> tuple[writer.Planned, ...]:
        buffer = project.memory_md.read_bytes().replace(BEGIN.encode(), b"my note\n" + BEGIN.encode())
        editors.append(memory_writers.saving_in_place(repo, buffer))
        return create_records(project, planned)

    monkeypatch.setattr(writer, "create_records", create_records_while_saved)
    report = extract_session(project, cfg, session(repo))
    memory_writers.finish(editors[0])
    state = view.read_index(project)
    assert state.doc is not None and "my note\n" in state.doc.prefix
    assert [entry.id for entry in state.entries][:1] == list(report.written) and len(state.entries) == 3
