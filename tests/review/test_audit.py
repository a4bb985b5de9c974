"""``git memory audit``: a read-only report on whether the memory can be believed, on real git
repositories: a generated memory with planted problems, a hand-made one, the model-judged pass
against the loopback server, and the findings offered in ``review``."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.commands.audit import audit
from chord_git.commands.review import review
from chord_git.memory import records
from testing.audit_repo import plant
from testing.commands import run
from testing.fake_openai import FakeOpenAI, Reply
from testing.gitutil import index_digest, make_repo, run_cli
from tests.extraction.extract_support import KEY_VAR, configure


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def _write(root: Path, rows: list[tuple[str, str, str, str, str, str | None]]) -> None:
    """Records and index lines: (id, type, source, summary, statement, evidence)."""
    folder = root / ".chord" / "memory" / "records"
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for rid, kind, source, summary, statement, evidence in rows:
        rec = records.Record(rid, kind, source, "stated" if source == "user" else "unverified", summary, statement,
                             evidence, "2026-11-01", "s1", None, statement, "A second lockfile broke CI.",
                             "Check the package manager before installing.")
        (folder / f"{rid}.md").write_text(records.render(rec), encoding="utf-8")
        lines.append(f"- [{kind}] {summary} ([{rid}](.chord/memory/records/{rid}.md))\n")
    (root / "MEMORY.md").write_text("# Project memory\n\n<!-- chord:memory:begin -->\n" + "".join(lines)
                                    + "<!-- chord:memory:end -->\n", encoding="utf-8")


PNPM = ("20261101-use-pnpm-aa01", "preference", "user", "Use pnpm, never npm, for JS dependencies.",
        "All JS dependency commands use pnpm, never npm.", "this repo only uses pnpm, please never run npm install")
NPM = ("20261102-use-npm-aa02", "preference", "assistant", "Use npm for JS dependencies.",
       "JS dependencies are installed with npm.", None)
ZH_A = ("20261103-zh-pnpm-aa03", "preference", "user", "JS 依赖统一用 pnpm。", "JS 依赖统一用 pnpm 管理。",
        "JS 依赖统一用 pnpm 管理，别的不要用")
ZH_B = ("20261104-zh-npm-aa04", "preference", "assistant", "JS 依赖统一用 npm。", "JS 依赖统一用 npm 管理。", None)
STALE = ("20261105-old-handlers-aa05", "fact", "assistant", "Handlers live in `src/old/handlers.py`.",
         "The API handlers live in `src/old/handlers.py`.", None)
MAKE = ("20261106-release-check-aa06", "workflow", "user", "Run `make release-check` before tagging.",
        "Run `make release-check` before every tag.", "run make release-check before every tag")
UNSUPPORTED = ("20261107-tabs-aa07", "preference", "user", "Makefiles indent with tabs.",
               "Makefiles indent recipes with tabs.", "Please fix the flaky integration test.")


@pytest.fixture
def memo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "repo")
    (root / "src" / "api").mkdir(parents=True)
    (root / "src" / "api" / "routes.py").write_text("", encoding="utf-8")
    (root / "Makefile").write_text("check:\n\t@true\n", encoding="utf-8")
    _write(root, [PNPM, NPM, ZH_A, ZH_B, STALE, MAKE, UNSUPPORTED])
    return root


def _kinds(report: dict[str, object], rid: str) -> list[str]:
    entry = next(e for e in report["entries"] if e["id"] == rid)  # type: ignore[attr-defined, index]
    return [f["kind"] for f in entry["findings"]]


def test_the_report_names_each_problem_and_writes_nothing(memo: Path) -> None:
    before, index = _tree(memo), index_digest(memo)
    result = run(audit, memo, fmt="json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["mechanical"] is True and report["model"] is None
    assert "contradiction" in _kinds(report, NPM[0]) and "contradiction" in _kinds(report, ZH_B[0])
    assert "stale" in _kinds(report, STALE[0]) and "stale" in _kinds(report, MAKE[0])
    assert "evidence" in _kinds(report, UNSUPPORTED[0])
    assert _kinds(report, PNPM[0]) == ["contradiction"]
    npm = next(e for e in report["entries"] if e["id"] == NPM[0])
    assert [f["action"] for f in npm["findings"] if f["kind"] == "contradiction"] == ["forget"]
    totals = report["totals"]
    assert totals["entries"] == 7 and totals["assistant"] == 3 and totals["contradictions"] == 2
    assert totals["stale"] == 2 and totals["assistant_share"] == pytest.approx(42.9)
    assert _tree(memo) == before and index_digest(memo) == index


def test_text_and_markdown(memo: Path) -> None:
    text = run(audit, memo).stdout
    assert "nothing was changed" in text and "! stale: names src/old/handlers.py, which no longer exists" in text
    assert "names `make release-check`, which the Makefile no longer defines" in text
    assert text.rstrip().splitlines()[-1].startswith("totals: assistant share 42.9%")
    markdown = run(audit, memo, fmt="markdown").stdout
    assert markdown.startswith("## Memory audit") and "| # | entry | source | evidence | findings |" in markdown
    assert "**contradiction**" in markdown


def test_the_cli_takes_json_and_format(memo: Path) -> None:
    as_json = run_cli(memo, "audit", "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["totals"]["entries"] == 7
    markdown = run_cli(memo, "audit", "--format", "markdown")
    assert markdown.returncode == 0 and markdown.stdout.startswith("## Memory audit")


def test_planted_problems_are_found(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "gen")
    planted = plant(root, 240, seed=3, share=0.05)
    report = json.loads(run(audit, root, fmt="json").stdout)
    found: dict[str, set[object]] = {"duplicate": set(), "contradiction": set(), "stale": set(), "evidence": set(),
                                     "promoted": set()}
    for entry in report["entries"]:
        for finding in entry["findings"]:
            if finding["kind"] == "contradiction":
                found["contradiction"].add(frozenset({entry["id"], finding["other"]}))
            elif finding["kind"] in found:
                found[finding["kind"]].add(entry["id"])
    assert found["duplicate"] == planted.duplicates
    assert found["contradiction"] == planted.contradictions
    assert found["stale"] == planted.stale
    assert found["evidence"] == planted.evidence_free
    assert found["promoted"] == planted.promoted and planted.promoted
    assert report["totals"]["entries"] == len(planted.ids)


def test_orphans_invalid_records_and_the_budget(memo: Path) -> None:
    folder = memo / ".chord" / "memory" / "records"
    orphan = records.Record("20261108-orphan-aa08", "fact", "assistant", "unverified", "An orphan.", "An orphan.",
                            None, "2026-11-01", "s", None, "An orphan.", "Kept as a source.", "Nothing to do.")
    (folder / f"{orphan.id}.md").write_text(records.render(orphan), encoding="utf-8")
    (memo / ".chord" / "config.yaml").write_text("memory:\n  summary_budget: 200\n", encoding="utf-8")
    report = json.loads(run(audit, memo, fmt="json").stdout)
    assert report["orphans"] == [orphan.id] and report["totals"]["orphans"] == 1
    assert report["entries_in_budget"] < 7 and report["totals"]["beyond_budget"] == 7 - report["entries_in_budget"]
    assert "beyond-budget" in _kinds(report, UNSUPPORTED[0])


def test_the_model_pass_is_marked_and_changes_nothing(memo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAI() as server:
        configure(memo, server)
        server.script("m1", Reply({"records": [], "promotions": [],
                                   "retire": [{"id": NPM[0], "reason": "contradicts the user's pnpm rule"},
                                              {"id": "20990101-not-an-entry-0000", "reason": "made up"}]}))
        monkeypatch.setenv(KEY_VAR, "test-placeholder")
        before = _tree(memo)
        text = run(audit, memo, use_model=True)
        assert text.returncode == 0, text.stderr
        assert "model-judged pass (m1; a model's opinion, not verified):" in text.stdout
        assert f"? {NPM[0]}: contradicts the user's pnpm rule" in text.stdout and "made up" not in text.stdout
        sent = json.dumps(server.requests[-1].body)
        assert PNPM[0] in sent and "records" in sent
        report = json.loads(run(audit, memo, fmt="json", use_model=True).stdout)
        assert report["model"]["verified"] is False and report["mechanical"] is True
        assert _tree(memo) == before


def test_the_model_pass_needs_memory_on_and_a_pool(memo: Path) -> None:
    off = run(audit, memo, use_model=True)
    assert off.returncode == 2 and "memory extraction is off" in off.stderr


def test_review_offers_the_audit_findings(memo: Path) -> None:
    listing = run(review, memo, action="list").stdout
    assert f"audit: contradiction: contradicts {PNPM[0]}" in listing
    assert f"suggested: git memory review forget {NPM[0]}" in listing
    items = json.loads(run(review, memo, action="list", as_json=True).stdout)["items"]
    npm = next(item for item in items if item["id"] == NPM[0])
    assert any(f["kind"] == "contradiction" and f["action"] == "forget" for f in npm["audit"])
    forgotten = run(review, memo, action="forget", item_id=NPM[0])
    assert forgotten.returncode == 0, forgotten.stderr
    after = json.loads(run(audit, memo, fmt="json").stdout)
    assert NPM[0] not in {e["id"] for e in after["entries"]} and NPM[0] in after["orphans"]
