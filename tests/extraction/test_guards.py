"""Deterministic guards, one test per guard with a kept and a dropped case, and the text rules
they use (R18–R23, R31)."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from chord_git.extraction import guards
from chord_git.extraction.schema import CandidateRecord
from chord_git.memory import project as project_mod
from chord_git.memory import records, textrules, view
from tests.extraction.extract_support import fake_github_token, record

USER_SAID = ("this repo only uses pnpm, please never run npm install",
             "以后写 Python 类型注解，统一用内置泛型，\n比如 list[int]、dict[str, int]。")
NONE = guards.ExistingMemory(frozenset(), frozenset(), frozenset(), {})


def cand(summary: str = "Use pnpm, never npm.", statement: str = "All JS dependency commands use pnpm.",
         evidence: str | None = "this repo only uses pnpm", **kw: Any) -> CandidateRecord:
    return CandidateRecord(**record(summary, statement, evidence, **kw))


def run(*candidates: CandidateRecord, existing: guards.ExistingMemory = NONE,
        users: tuple[str, ...] = USER_SAID) -> guards.GuardResult:
    return guards.check(candidates, users, existing)


def verdicts(result: guards.GuardResult, total: int) -> list[str]:
    out = ["keep"] * total
    for drop in result.dropped:
        out[drop.position] = drop.reason
    return out


def existing(*texts: str, index_ids: tuple[str, ...] = (), sources: dict[str, str | None] | None = None) -> guards.ExistingMemory:
    sources = sources or {}
    return guards.ExistingMemory(frozenset(records.normalize_text(t) for t in texts), frozenset(index_ids),
                                 frozenset(sources), sources)


def test_a_good_candidate_is_kept_as_is() -> None:
    result = run(cand())
    assert [a.candidate.summary for a in result.accepted] == ["Use pnpm, never npm."]
    assert result.dropped == () and result.adjusted == {} and result.drop_counts == {}


def test_empty_required_fields() -> None:
    result = run(cand(), cand(summary="  "), cand(statement="x", evidence=None), cand(why=""))
    assert verdicts(result, 4) == ["keep", "empty", "empty", "empty"]


def test_evidence_must_be_the_users_words() -> None:
    result = run(
        cand(),
        cand(summary="Types use builtin generics.", statement="Builtin generics.",
             evidence="统一用内置泛型, 比如 list[int]、dict[str, int]。"),  # NFKC + line break
        cand(summary="A", statement="A.", evidence="THIS REPO ONLY   USES PNPM"),  # case and whitespace folding
        cand(summary="B", statement="B.", evidence="this repo uses only pnpm"),  # a paraphrase
        cand(summary="C", statement="C.", evidence="I'll use pnpm from now on"),  # assistant words
    )
    assert verdicts(result, 5) == ["keep", "keep", "keep", "evidence-not-found", "evidence-not-found"]


def test_assistant_candidates_are_stored_unverified() -> None:
    result = run(cand(source="assistant", status="stated", evidence="I checked the lockfile"),
                 cand(summary="Other.", statement="Other statement.", source="assistant", status="unverified",
                      evidence="this repo only uses pnpm"))
    first, second = (a.candidate for a in result.accepted)
    assert first.status == "unverified" and first.evidence is None
    assert second.status == "unverified" and second.evidence == "this repo only uses pnpm"
    assert result.adjusted == {"status-unverified": 1, "evidence-cleared": 1}


@pytest.mark.parametrize(("field", "bad", "reason"), [
    ("statement", "The checkout lives at /home/ana/src/shop.", "absolute-path"),
    ("why", "Ana's clone is at C:\\Users\\ana\\code.", "absolute-path"),
    ("how_to_apply", "Overrides are in ~/.config/app.toml.", "absolute-path"),
    ("summary", "项目代码在/Users/li/work/shop。", "absolute-path"),
    ("statement", "retry_with_jitter came in commit 4be1a9c7.", "commit-sha"),
    ("summary", "上游提交 9f8e7d6c 引入了回归。", "commit-sha"),
    ("statement", "Benchmarks run on gpu-box.local.", "host-name"),
    ("statement", "The registry is registry.corp.internal.", "host-name"),
    ("statement", "The staging API is at 192.168.1.20:8080.", "private-ip"),
    ("statement", "共享 Redis 在 10.0.3.15。", "private-ip"),
    ("statement", "Use the box at fe80::1%eth0.", "private-ip"),
    ("summary", "The current branch is release-2.3.", "transient-git-state"),
    ("statement", "A rebase is in progress on main.", "transient-git-state"),
    ("statement", "Hotfixes live in a separate worktree.", "transient-git-state"),
    ("summary", "当前分支是 feature/login，正在 rebase。", "transient-git-state"),
    ("statement", "I pushed the work to origin.", "transient-git-state"),
])
def test_machine_and_git_state_details_are_dropped(field: str, bad: str, reason: str) -> None:
    result = run(cand(**{field: bad}))
    assert verdicts(result, 1) == [reason]


@pytest.mark.parametrize("fine", [
    "Put local overrides in .env.local, never in .env.",
    "Rebase feature branches on main before opening a PR.",
    "Record ids such as 20260105-jest-tests-7d1e are not SHAs; deadbeef is a word.",
    "The API serves /v1/chat and src/api holds the handlers.",
    "Java code lives in com.acme.billing.internal.",
    "The public resolver is 8.8.8.8; version 1.2.3.4 is the minimum.",
    "Use settings.local.json for per-developer settings.",
])
def test_ordinary_project_text_is_kept(fine: str) -> None:
    assert verdicts(run(cand(statement=fine)), 1) == ["keep"]


def test_caps_count_unicode_characters() -> None:
    at_cap = "类" * records.SUMMARY_CAP
    result = run(cand(summary=at_cap), cand(summary=at_cap + "型"), cand(summary="two\nlines"),
                 cand(summary="S", statement="长" * records.STATEMENT_CAP), cand(summary="T", statement="长" * 601))
    assert verdicts(result, 5) == ["keep", "cap", "cap", "keep", "cap"]


def test_secrets_drop_the_candidate_whole() -> None:
    token = fake_github_token()
    aws = "AKIA" + "QWERTYUIOPASDFGH"
    pem = "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq3\n-----END " + "RSA PRIVATE KEY-----"
    result = run(
        cand(),
        cand(summary="Deploy token.", statement=f"The deploy token is {token}."),
        cand(summary="AWS.", statement="Deploys use the shared key.", how_to_apply=f"export AWS_ACCESS_KEY_ID={aws}"),
        cand(summary="Key.", statement="The bastion key is below.", why=pem),
        cand(summary="Placeholder.", statement="Deploys read the token from the vault, never from a file.",
             how_to_apply="The value shown as [REDACTED:github-token] in chat is rotated monthly."),
    )
    assert verdicts(result, 5) == ["keep", "secret", "secret", "secret", "keep"]


def test_duplicates_of_existing_memory_and_of_the_same_reply() -> None:
    known = existing("Use pnpm, never npm.", "Commit messages use the imperative mood.")
    result = run(
        cand(),  # summary equals an existing one
        cand(summary="Commits: imperative mood", statement="COMMIT  messages use the imperative mood."),
        cand(summary="Web tests use Vitest.", statement="Vitest runs the web tests."),
        cand(summary="web tests use vitest.", statement="Different words entirely."),  # the same reply
        existing=known, users=("this repo only uses pnpm",))
    assert verdicts(result, 4) == ["duplicate", "duplicate", "keep", "duplicate"]


def test_a_dropped_candidate_does_not_block_a_later_good_one() -> None:
    result = run(cand(evidence="made up words"), cand())
    assert verdicts(result, 2) == ["evidence-not-found", "keep"]


def test_supersedes_rules() -> None:
    user_rec, assistant_rec = "20260101-format-black-2f7b", "20260101-api-flask-9e1a"
    known = existing(index_ids=(user_rec, assistant_rec), sources={user_rec: "user", assistant_rec: "assistant"})
    result = run(
        cand(supersedes=user_rec),
        cand(summary="B", statement="B.", supersedes="20260101-never-existed-0000"),
        cand(summary="C", statement="C.", source="assistant", status="unverified", evidence=None, supersedes=user_rec),
        cand(summary="D", statement="D.", source="assistant", status="unverified", evidence=None, supersedes=assistant_rec),
        cand(summary="E", statement="E.", supersedes=user_rec),
        existing=known)
    assert verdicts(result, 5) == ["keep", "keep", "supersedes-user-record", "keep", "supersedes-conflict"]
    kept = {a.position: a.candidate.supersedes for a in result.accepted}
    assert kept == {0: user_rec, 1: None, 3: assistant_rec}
    assert result.adjusted["supersedes-unknown"] == 1


def test_first_reason_wins_and_counts_are_by_reason() -> None:
    result = run(cand(summary="x" * 200, evidence="not said"), cand(summary="y", evidence="not said"),
                 cand(summary="z", evidence="not said either"))
    assert result.drop_counts == {"cap": 1, "evidence-not-found": 2}


def _write_record(root: Path, rid: str, summary: str, statement: str, source: str = "user") -> None:
    path = root / ".chord" / "memory" / "records" / f"{rid}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    rec = records.Record(rid, "preference", source, "stated" if source == "user" else "unverified", summary,
                         statement, "we said so" if source == "user" else None, "2026-01-01", "s", None,
                         statement, "w", "h")
    path.write_text(records.render(rec), encoding="utf-8")


def test_existing_memory_includes_orphans_and_broken_records(repo: Path) -> None:
    _write_record(repo, "20260101-listed-aa11", "Listed entry.", "Listed statement.")
    _write_record(repo, "20260101-orphan-bb22", "Deleted by the user.", "The user deleted this one.", "assistant")
    over = repo / ".chord" / "memory" / "records" / "20260101-over-cap-cc33.md"
    over.write_text(f"---\nid: 20260101-over-cap-cc33\nsummary: {'Long ' * 40}\nstatement: s\n---\n", encoding="utf-8")
    (repo / "MEMORY.md").write_text(
        "<!-- chord:memory:begin -->\n"
        "- [preference] Listed entry. ([20260101-listed-aa11](.chord/memory/records/20260101-listed-aa11.md))\n"
        "- [fact] Index only. ([20260101-index-only-dd44](.chord/memory/records/20260101-index-only-dd44.md))\n"
        "<!-- chord:memory:end -->\n", encoding="utf-8")
    project = project_mod.discover(repo)
    found = guards.existing_memory(view.snapshot(project))
    assert records.normalize_text("the user deleted this one.") in found.texts
    assert records.normalize_text("Long " * 40) in found.texts and "index only." in found.texts
    assert found.index_ids == {"20260101-listed-aa11", "20260101-index-only-dd44"}
    assert found.sources["20260101-orphan-bb22"] == "assistant" and found.sources["20260101-listed-aa11"] == "user"
    result = guards.check([cand(summary="Deleted by the user.", evidence="this repo only uses pnpm")], USER_SAID, found)
    assert verdicts(result, 1) == ["duplicate"]


@pytest.mark.parametrize("finder", [textrules.commit_shas, textrules.host_names, textrules.private_ips,
                                    textrules.transient_git_state, textrules.absolute_paths])
def test_text_rules_stay_fast_on_hostile_input(finder: Any) -> None:
    hostile = ["a" * 100_000, "a." * 50_000, "1." * 50_000, ":" * 100_000, "a1" * 50_000,
               "currently on " * 10_000, "-" * 100_000, "1:" * 50_000, "f" * 99_999 + "!"]
    for text in hostile:
        started = time.perf_counter()
        finder(text)
        assert time.perf_counter() - started < 2.0  # generous: catastrophic backtracking takes minutes
