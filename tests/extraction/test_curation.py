"""The curation round (R27) against the loopback OpenAI-compatible server."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from chord_git import config as config_mod
from chord_git import config_trust
from chord_git.commands.status import status
from chord_git.errors import ExtractionFailed, Preempted
from chord_git.extraction import curation
from chord_git.memory import store
from testing.fake_openai import FakeOpenAI, Reply, Status
from testing.commands import run
from testing.gitutil import index_digest, run_cli
from testing.memory_files import listed, make_record, project_of, write_index

BODY_MARKERS = ("Statement of", "Conclusion text.", "Why text.", "How text.", "please remember this")


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _config(root: Path, server: FakeOpenAI, *, enabled: bool = True, dedicated: bool = True,
            budget: int = 4000) -> config_mod.Config:
    pool = f"  - model: curator\n    base_url: {server.base_url}\n"
    text = f"memory:\n  enabled: {'true' if enabled else 'false'}\n  summary_budget: {budget}\n"
    text = text + "  model_pool:\n" + pool.replace("  - ", "    - ").replace("\n    base", "\n      base") \
        if dedicated else f"model_pool:\n{pool}" + text
    (root / ".chord").mkdir(exist_ok=True)
    (root / ".chord" / "config.yaml").write_text(text)
    config_trust.allow(root / ".chord" / "config.yaml", text.encode())
    return config_mod.load(root)


def _big_index(root: Path, count: int = 120) -> tuple[list[str], list[str]]:
    """``count`` entries, every sixth said by the user; returns (user ids, assistant ids)."""
    recs = []
    for n in range(count):
        source = "user" if n % 6 == 0 else "assistant"
        recs.append(make_record(root, f"20260110-entry-{n:03d}-ab{n % 10}{n % 7}", source=source,
                                summary=f"Entry number {n} says something about the build and its tests."))
    write_index(root, recs)
    return [r.id for r in recs if r.source == "user"], [r.id for r in recs if r.source == "assistant"]


def _reply(retire: list[str], promotions: list[dict[str, object]] | None = None,
           records: list[dict[str, object]] | None = None) -> Reply:
    return Reply({"records": records or [], "retire": [{"id": rid, "reason": "redundant"} for rid in retire],
                  "promotions": promotions or []})


def test_curation_brings_a_120_entry_index_within_budget_keeping_user_entries(repo: Path, server: FakeOpenAI) -> None:
    cfg = _config(repo, server)
    users, assistants = _big_index(repo)
    project = project_of(repo)
    assert curation.beyond_budget(project, cfg)[1] > 0
    # The model asks to retire every assistant entry but five, and three of the user's entries too.
    server.script("curator", _reply(assistants[5:] + users[:3], promotions=[
        {"id": users[5], "target": "instructions", "path": "AGENTS.md", "proposed_text": "Keep tests fast.",
         "reason": "a rule"}]))
    before = index_digest(repo)
    report = curation.curate_if_over_budget(project, cfg)
    assert report is not None and report.model == "curator"
    assert report.entries_before == 120 and report.beyond_before > 0
    assert report.beyond_after == 0 and curation.beyond_budget(project, cfg) == (25, 0)
    remaining = listed(repo)
    assert set(users) <= set(remaining)  # every user entry kept, even the one being promoted
    assert len(report.maintenance.refused_retirements) == 3
    assert len(report.maintenance.promotions) == 1 and report.maintenance.promoted_out == ()
    assert all((repo / ".chord/memory/records" / f"{rid}.md").exists() for rid in assistants)
    assert not (repo / "AGENTS.md").exists()
    assert store.read_status(project)["state"] == "ok"  # type: ignore[index]
    assert index_digest(repo) == before

    # What the model saw: the static prompt and the index listing (id, type, source, summary) only.
    (request,) = server.requests
    messages = request.body["messages"]
    assert [m["role"] for m in messages] == ["system", "user"]
    assert messages[0]["content"] == curation.CURATION_PROMPT
    text = json.dumps(messages)
    assert not any(marker in text for marker in BODY_MARKERS)
    listing = [json.loads(line) for line in messages[1]["content"].splitlines() if line.startswith("{")]
    assert [item["id"] for item in listing] == [f"20260110-entry-{n:03d}-ab{n % 10}{n % 7}" for n in range(120)]
    assert all(set(item) == {"id", "type", "source", "summary"} for item in listing)
    assert {item["source"] for item in listing} == {"user", "assistant"}


def test_still_over_budget_is_reported_by_status(repo: Path, server: FakeOpenAI) -> None:
    cfg = _config(repo, server)
    _users, assistants = _big_index(repo)
    server.script("curator", _reply(assistants[:5]))
    report = curation.curate_if_over_budget(project_of(repo), cfg)
    assert report is not None and report.beyond_after > 0
    data = json.loads(run(status, repo, as_json=True).stdout)
    assert data["entries"] == 115 and data["entries_beyond_budget"] == report.beyond_after
    assert f"{report.beyond_after} entries lie beyond the summary budget" in run(status, repo).stdout


def test_no_round_within_budget_or_when_off(repo: Path, server: FakeOpenAI) -> None:
    write_index(repo, [make_record(repo, "20260110-small-aa01")])
    cfg = _config(repo, server)
    server.script("curator", _reply([]))
    assert curation.curate_if_over_budget(project_of(repo), cfg) is None
    _big_index(repo)
    off = _config(repo, server, enabled=False)
    assert curation.curate_if_over_budget(project_of(repo), off) is None
    result = run_cli(repo, "curate")
    assert result.returncode == 0 and "memory extraction is off" in result.stdout
    assert server.requests == []


def test_records_in_a_curation_reply_are_ignored(repo: Path, server: FakeOpenAI) -> None:
    cfg = _config(repo, server)
    _users, assistants = _big_index(repo)
    record = {"type": "fact", "summary": "Invented.", "statement": "Invented.", "why": "w", "how_to_apply": "h",
              "source": "assistant", "status": "unverified", "evidence": None, "supersedes": None}
    server.script("curator", _reply(assistants[:1], records=[record]))
    report = curation.run(project_of(repo), cfg)
    assert report.warnings and "ignored" in report.warnings[0]
    assert "Invented." not in (repo / "MEMORY.md").read_text()
    assert len(list((repo / ".chord/memory/records").iterdir())) == 120


def test_failure_sets_memory_fail_and_success_restores_it(repo: Path, server: FakeOpenAI) -> None:
    cfg = _config(repo, server)
    _big_index(repo)
    project = project_of(repo)
    server.script("curator", Status(500), Status(500), _reply([]))
    with pytest.raises(ExtractionFailed, match="curation"):
        curation.run(project, cfg)
    shown = run(status, repo)
    assert shown.stdout.startswith("MEMORY-FAIL: curation") and len(shown.stdout.splitlines()[0]) < 500
    result = run_cli(repo, "curate")
    assert result.returncode == 1 and "curation" in result.stderr
    curation.run(project, cfg)
    assert run(status, repo).stdout.startswith("MEMORY\n")


def test_unparseable_twice_fails(repo: Path, server: FakeOpenAI) -> None:
    cfg = _config(repo, server)
    _big_index(repo)
    server.script("curator", Reply("not json"), Reply({"records": [], "retire": []}))
    with pytest.raises(ExtractionFailed, match="unparseable"):
        curation.run(project_of(repo), cfg)
    assert server.hits("curator") == 2


def test_main_pool_is_preempted_and_dedicated_pool_is_not(repo: Path, server: FakeOpenAI) -> None:
    _big_index(repo)
    project = project_of(repo)
    server.script("curator", _reply([]))
    main = _config(repo, server, dedicated=False)
    assert main.model_pool and not main.dedicated_pool
    with pytest.raises(Preempted):
        curation.curate_if_over_budget(project, main, should_cancel=lambda: True)
    assert store.read_status(project) is None  # a preemption is not a failure
    dedicated = _config(repo, server)
    assert curation.curate_if_over_budget(project, dedicated, should_cancel=lambda: True) is not None


def test_curate_command_json_and_dry_run(repo: Path, server: FakeOpenAI) -> None:
    _config(repo, server)
    users, assistants = _big_index(repo)
    server.script("curator", _reply(assistants[5:] + users[:1]))
    before = (repo / "MEMORY.md").read_bytes()
    result = run_cli(repo, "curate", "--dry-run", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["ran"] and data["dry_run"] and data["beyond_after"] == 0 and data["entries_after"] == 25
    assert len(data["retired"]) == 95 and data["refused_retirements"][0]["id"] == users[0]
    assert (repo / "MEMORY.md").read_bytes() == before
    text = run_cli(repo, "curate")
    assert text.returncode == 0 and "beyond the budget: " in text.stdout and f"retire {assistants[5]}" in text.stdout
    assert len(listed(repo)) == 25
