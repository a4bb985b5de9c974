"""Ranked search over the index entries and their records (``memory/search.py``), on real files."""
from __future__ import annotations

from pathlib import Path

from chord_git.memory import search
from chord_git.memory.project import discover
from testing.memory_files import make_record, write_index


def _index(repo: Path) -> search.SearchIndex:
    return search.SearchIndex(discover(repo))


def test_a_summary_match_outranks_a_body_match_and_orphans_are_never_found(repo: Path) -> None:
    body = make_record(repo, "20261101-body-0001", source="user", summary="Release notes live in one file.",
                       body="Mention pnpm in the release notes when dependencies change.")
    top = make_record(repo, "20261101-pnpm-0002", source="user", summary="Use pnpm, never npm, for JS dependencies.")
    other = make_record(repo, "20261101-other-0003", source="user", summary="Tests run with make check.")
    make_record(repo, "20261101-orphan-0004", source="user", summary="Use pnpm workspaces for everything.")
    write_index(repo, [body, other, top])  # the orphan is in no index line: forgotten

    hits = _index(repo).search("pnpm")
    assert [hit.id for hit in hits] == [top.id, body.id]
    assert hits[0].position == 3 and hits[0].statement == top.statement


def test_words_match_longer_words_they_start_and_cjk_text_is_searchable(repo: Path) -> None:
    deploy = make_record(repo, "20261102-deploy-0001", source="user", summary="Deployments go through the staging pipeline.")
    chinese = make_record(repo, "20261102-cn-0002", source="user", summary="发布前必须运行集成测试。")
    write_index(repo, [deploy, chinese])
    index = _index(repo)
    assert [hit.id for hit in index.search("deploy")] == [deploy.id]
    assert [hit.id for hit in index.search("集成测试")] == [chinese.id]
    assert index.search("zzz nothing") == []
    assert index.search("   ") == []


def test_records_the_loader_refuses_are_not_searched_and_a_missing_record_is_searched_by_its_line(repo: Path) -> None:
    over = make_record(repo, "20261103-over-0001", source="user", summary="Lint with ruff.", statement="ruff " * 130)
    fine = make_record(repo, "20261103-fine-0002", source="user", summary="Format with ruff format.")
    gone = make_record(repo, "20261103-gone-0003", source="user", summary="Ruff config lives in pyproject.")
    write_index(repo, [over, fine, gone])
    (repo / ".chord/memory/records" / f"{gone.id}.md").unlink()
    index = _index(repo)
    hits = index.search("ruff")
    assert {hit.id for hit in hits} == {fine.id, gone.id}
    assert next(hit for hit in hits if hit.id == gone.id).statement is None
    assert index.left_out == 1


def test_the_index_follows_changes_between_searches(repo: Path) -> None:
    first = make_record(repo, "20261104-first-0001", source="user", summary="Use tabs in Makefiles.")
    write_index(repo, [first])
    index = _index(repo)
    assert [hit.id for hit in index.search("makefiles")] == [first.id]
    assert index.refresh() is False  # nothing changed: nothing is read again
    second = make_record(repo, "20261104-second-0002", source="user", summary="Makefiles target GNU make only.")
    write_index(repo, [second])
    assert [hit.id for hit in index.search("makefiles")] == [second.id]
    (repo / "MEMORY.md").unlink()
    assert index.search("makefiles") == [] and index.problem is None


def test_a_broken_line_does_not_hide_the_other_entries(repo: Path) -> None:
    good = make_record(repo, "20261105-good-0001", source="user", summary="Docs are written in British English.")
    write_index(repo, [good])
    text = (repo / "MEMORY.md").read_text("utf-8").replace("-->\n- [", "-->\n- not an entry\n- [", 1)
    (repo / "MEMORY.md").write_text(text, "utf-8")
    assert [hit.id for hit in _index(repo).search("british")] == [good.id]
