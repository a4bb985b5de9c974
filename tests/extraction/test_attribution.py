"""Memory you can believe: attribution by content, evidence that asserts, nothing said twice, why
and how with substance (R19–R22). Each scenario runs the real pipeline: the real openai client
against the loopback server, on a real git repository."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chord_git.extraction.pipeline import ExtractionReport, extract_session
from chord_git.memory import records, view
from testing.fake_openai import FakeOpenAI, Reply
from tests.extraction.extract_support import (
    KEY_ENV,
    assistant,
    configure,
    project_and_config,
    record,
    reply,
    user,
    write_session,
)

PNPM_ID = "20260110-use-pnpm-3f9a"


def _extract(repo: Path, server: FakeOpenAI, lines: list[dict[str, Any]], *candidates: dict[str, Any],
             name: str = "s.jsonl") -> ExtractionReport:
    configure(repo, server)
    server.script("m1", Reply(reply(*candidates)))
    session = write_session(repo.parent / name, lines)
    project, cfg = project_and_config(repo)
    return extract_session(project, cfg, session, env=KEY_ENV)


def _written(repo: Path, report: ExtractionReport) -> list[records.Record]:
    out = []
    for rid in report.written:
        rec, problems = records.read(repo / ".chord" / "memory" / "records" / f"{rid}.md")
        assert rec is not None, problems
        out.append(rec)
    return out


def _index_ids(repo: Path) -> list[str]:
    project, _cfg = project_and_config(repo)
    return [entry.id for entry in view.read_index(project).entries]


def _user_entry(repo: Path) -> None:
    """Session 1 left the user's own pnpm rule in the index."""
    rec = records.Record(PNPM_ID, "preference", "user", "stated", "Use pnpm, never npm, for JS dependencies.",
                         "All JS dependency commands use pnpm; no package-lock.json is ever created.",
                         "this repo only uses pnpm, please never run npm install", "2026-01-10", "s1", None,
                         "All JS dependency commands use pnpm.", "A second lockfile breaks CI.", "Use pnpm add.")
    path = repo / ".chord" / "memory" / "records" / f"{PNPM_ID}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(records.render(rec), encoding="utf-8")
    (repo / "MEMORY.md").write_text(
        "# Project memory\n\n<!-- chord:memory:begin -->\n"
        f"- [preference] Use pnpm, never npm, for JS dependencies. ([{PNPM_ID}](.chord/memory/records/{PNPM_ID}.md))\n"
        "<!-- chord:memory:end -->\n", encoding="utf-8")


# ---------------------------------------------------------------------------- repro 1
@pytest.mark.parametrize(("said", "replied", "summary", "statement", "evidence"), [
    ("Please fix the flaky integration test.",
     "The integration suite needs `docker compose up` first; without the containers every test times out.",
     "Integration tests expect docker compose up first.", "Integration tests expect docker compose up before they run.",
     "Please fix the flaky integration test."),
    ("请修一下不稳定的集成测试。",
     "集成测试要先执行 `docker compose up` 启动容器，否则每个用例都会超时。",
     "集成测试前要先 docker compose up。", "运行集成测试之前必须先执行 docker compose up 启动容器。",
     "请修一下不稳定的集成测试。"),
])
def test_an_assistant_claim_is_never_stored_as_the_users(repo: Path, fake_openai: FakeOpenAI, said: str,
                                                         replied: str, summary: str, statement: str,
                                                         evidence: str) -> None:
    claim = record(summary, statement, evidence, type="fact", status="confirmed",
                   why="Without the containers the suite times out.", how_to_apply="Start docker compose first.")
    report = _extract(repo, fake_openai, [user(said), assistant(replied), user("thanks")], claim)
    assert all(rec.source != "user" for rec in _written(repo, report))
    assert report.adjusted.get("source-assistant") == 1


def test_a_users_own_statement_next_to_the_assistants_is_kept_as_the_users(repo: Path, fake_openai: FakeOpenAI) -> None:
    said = "Integration tests need docker compose up first, always start the containers before running them."
    claim = record("Integration tests need docker compose up first.",
                   "Integration tests need docker compose up before they run.", said,
                   why="Without the containers the suite times out.", how_to_apply="Start docker compose first.")
    report = _extract(repo, fake_openai, [user(said), assistant("Noted, I will start docker compose first.")], claim)
    assert [(rec.source, rec.status) for rec in _written(repo, report)] == [("user", "stated")]


def test_an_adopted_proposal_is_the_assistants_unverified(repo: Path, fake_openai: FakeOpenAI) -> None:
    lines = [user("The web tests boot slowly."),
             assistant("I propose moving the web package tests from Jest to Vitest; it reuses the Vite config."),
             user("ok, do that")]
    claim = record("Web package tests run on Vitest instead of Jest.",
                   "The web package tests run on Vitest, which reuses the Vite config.", "ok, do that",
                   status="confirmed", why="Jest booted slowly for the web package.",
                   how_to_apply="Write web tests for Vitest.")
    report = _extract(repo, fake_openai, lines, claim)
    assert [(rec.source, rec.status) for rec in _written(repo, report)] == [("assistant", "unverified")]


# ---------------------------------------------------------------------------- repro 2 and the 8 shapes
def test_a_question_about_the_topic_cannot_replace_the_users_entry(repo: Path, fake_openai: FakeOpenAI) -> None:
    _user_entry(repo)
    npm = record("Use npm for JS dependencies.", "Use npm for JS dependencies.", "did npm install fail",
                 status="confirmed", supersedes=PNPM_ID, why="The CI failure came from pnpm.",
                 how_to_apply="Run npm install for dependencies.")
    report = _extract(repo, fake_openai, [user("why did npm install fail on CI yesterday?"),
                                          assistant("The registry timed out; pnpm was not involved.")], npm)
    assert report.written == () and report.replaced == {}
    assert _index_ids(repo) == [PNPM_ID]


# (user said, evidence quoted, claim): none of these quotes asserts the claim.
SHAPES = [
    ("contradicts", "We never use npm for JS dependencies here.", "use npm for js dependencies",
     "Use npm for JS dependencies."),
    ("asks", "Should we use npm for JS dependencies instead?", "use npm for JS dependencies",
     "Use npm for JS dependencies."),
    ("someone-else", "Bob says we should use npm for JS dependencies.", "we should use npm for JS dependencies",
     "Use npm for JS dependencies."),
    ("hypothetical", "If we used npm for JS dependencies, would CI get faster?", "we used npm for JS dependencies",
     "Use npm for JS dependencies."),
    ("cut-from-negation", "I don't want you to commit generated files.", "you to commit generated files",
     "Commit generated files."),
    ("asks-zh", "我们是不是应该用 npm 管理 JS 依赖？", "应该用 npm 管理 JS 依赖", "JS 依赖用 npm 管理。"),
    ("someone-else-zh", "同事说应该用 npm 管理 JS 依赖。", "应该用 npm 管理 JS 依赖", "JS 依赖用 npm 管理。"),
    ("hypothetical-zh", "如果改用 npm 管理 JS 依赖，CI 会不会更快", "改用 npm 管理 JS 依赖", "JS 依赖用 npm 管理。"),
]


@pytest.mark.parametrize(("shape", "said", "evidence", "claim"), SHAPES, ids=[s[0] for s in SHAPES])
def test_evidence_that_does_not_assert_the_claim_is_no_evidence(repo: Path, fake_openai: FakeOpenAI, shape: str,
                                                                said: str, evidence: str, claim: str) -> None:
    _user_entry(repo)
    superseding = record(claim, claim, evidence, supersedes=PNPM_ID if "npm" in claim else None,
                         why="The registry mirror serves npm faster.", how_to_apply="Install with the named tool.")
    report = _extract(repo, fake_openai, [user(said), assistant("Understood.")], superseding)
    assert all(rec.source != "user" for rec in _written(repo, report)), shape
    assert report.replaced == {} and PNPM_ID in _index_ids(repo)


def test_a_user_statement_of_the_new_conclusion_replaces_the_entry(repo: Path, fake_openai: FakeOpenAI) -> None:
    _user_entry(repo)
    said = "We are done with pnpm: from now on use npm for JS dependencies."
    npm = record("Use npm for JS dependencies.", "From now on JS dependencies use npm, not pnpm.",
                 "from now on use npm for JS dependencies", supersedes=PNPM_ID,
                 why="The team moved off pnpm.", how_to_apply="Run npm install for dependencies.")
    report = _extract(repo, fake_openai, [user(said), assistant("Switching to npm.")], npm)
    assert len(report.written) == 1 and report.replaced == {PNPM_ID: report.written[0]}


# ---------------------------------------------------------------------------- repro 3
def test_a_fact_the_model_found_itself_is_not_indexed(repo: Path, fake_openai: FakeOpenAI) -> None:
    found = record("The API handlers live in src/api/handlers.", "Every API handler lives in src/api/handlers "
                   "and is registered in src/api/routes.py.", None, type="fact", source="assistant",
                   status="unverified", why="Routes are registered in one module.",
                   how_to_apply="Add new handlers under src/api/handlers and register them in routes.py.")
    noise = record("The repo is big.", "The repository is big.", None, type="fact", source="assistant",
                   status="unverified", why="Important.", how_to_apply="Remember it.")
    lines = [user("Add a health endpoint."), assistant("Done: the handlers live in src/api/handlers, see routes.py.")]
    report = _extract(repo, fake_openai, lines, found, noise)
    assert report.written == () and _index_ids(repo) == []
    assert report.dropped == {"no-why-or-how": 1, "docs-suggestion": 1}
    promotions = report.maintenance["promotion_files"] if report.maintenance else []
    assert [p["target"] for p in promotions] == ["docs/project-notes.md"]
    assert "src/api/handlers" in promotions[0]["text"]


def test_a_rediscoverable_fact_without_value_is_dropped(repo: Path, fake_openai: FakeOpenAI) -> None:
    found = record("The build uses make.", "The build uses make.", None, type="preference", source="assistant",
                   status="unverified", why="Builds run through make targets.", how_to_apply="Run make targets.")
    report = _extract(repo, fake_openai, [user("Fix the typo in the README."), assistant("Fixed; make passes.")], found)
    assert report.written == () and report.dropped == {"rediscoverable": 1}


# ---------------------------------------------------------------------------- repro 4
def test_what_agents_md_already_says_is_not_written_again(repo: Path, fake_openai: FakeOpenAI) -> None:
    (repo / "AGENTS.md").write_text("# Rules\n\n- Run `make check` before asking for review.\n"
                                    "- Use pnpm for JS dependencies.\n", encoding="utf-8")
    said = "Run `make check` before asking for review, every time."
    again = record("Run `make check` before asking for review.", "Run `make check` before asking for review.", said,
                   type="workflow", why="Review time is wasted on red builds.", how_to_apply="Run make check first.")
    reworded = record("Use pnpm for the JS dependencies.", "JS dependencies: use pnpm.", "use pnpm for JS dependencies",
                      why="The lockfile is pnpm's.", how_to_apply="Run pnpm install.")
    report = _extract(repo, fake_openai, [user(said), user("and use pnpm for JS dependencies"),
                                          assistant("Will do.")], again, reworded)
    assert report.written == () and report.dropped == {"in-agents-md": 2}


def test_a_restated_existing_entry_is_a_duplicate(repo: Path, fake_openai: FakeOpenAI) -> None:
    _user_entry(repo)
    said = "this repo only uses pnpm, please never run npm install"
    again = record("Use pnpm (never npm) for JS dependencies!", "JS dependencies: pnpm, never npm.", said,
                   why="A second lockfile breaks CI.", how_to_apply="Use pnpm add.")
    report = _extract(repo, fake_openai, [user(said), assistant("ok")], again)
    assert report.written == () and report.dropped == {"duplicate": 1}


# ---------------------------------------------------------------------------- repro 5
@pytest.mark.parametrize(("why", "how"), [("Important.", "Always."), ("很重要。", "总是这样做。"),
                                          ("Keep this in mind for later sessions.", "Follow it.")])
def test_a_contentless_why_or_how_is_not_written(repo: Path, fake_openai: FakeOpenAI, why: str, how: str) -> None:
    said = "please never run npm install here, this repo only uses pnpm"
    padded = record("Use pnpm, never npm.", "All JS dependency commands use pnpm, never npm.", said, why=why,
                    how_to_apply=how)
    report = _extract(repo, fake_openai, [user(said), assistant("ok")], padded)
    assert report.written == () and report.dropped == {"no-why-or-how": 1}


def test_a_replacement_the_evidence_does_not_state_keeps_both_and_review_shows_the_pair(
        repo: Path, fake_openai: FakeOpenAI) -> None:
    from chord_git.commands.review import review
    from testing.commands import run

    _user_entry(repo)
    said = "npm works for the docs site, so JS dependencies move to npm."
    npm = record("Use npm for JS dependencies.", "JS dependencies move to npm while the docs site builds.",
                 "npm works for the docs site", supersedes=PNPM_ID, why="The docs site build needs npm.",
                 how_to_apply="Install the docs site's dependencies with npm.")
    report = _extract(repo, fake_openai, [user(said), assistant("Switching the docs site to npm.")], npm)
    assert len(report.written) == 1 and report.replaced == {}
    assert report.adjusted.get("supersedes-kept-both") == 1
    assert _index_ids(repo) == [report.written[0], PNPM_ID]  # both stay, the new one on top
    listing = run(review, repo, action="list").stdout
    assert f"audit: contradiction: contradicts {PNPM_ID}" in listing
    assert f"suggested: git memory review forget {report.written[0]}" not in listing  # the user decides
