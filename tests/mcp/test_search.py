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


def test_a_hit_whose_record_changed_in_place_is_checked_before_it_is_served(repo: Path) -> None:
    hit = make_record(repo, "20261106-hit-0001", source="user", summary="Benchmarks run on two cores.")
    write_index(repo, [hit])
    index = search.SearchIndex(discover(repo), rolling=0)  # no rolling re-check: the hit check alone
    assert [h.id for h in index.search("benchmarks")] == [hit.id]
    path = repo / ".chord/memory/records" / f"{hit.id}.md"
    path.write_text(path.read_text("utf-8").replace("Statement of", "x" * 700), "utf-8")  # in place: over its cap
    assert index.search("benchmarks") == []


def test_a_record_edited_in_place_is_found_by_the_rolling_check(repo: Path) -> None:
    first = make_record(repo, "20261107-first-0001", source="user", summary="Releases are tagged by hand.")
    write_index(repo, [first])
    path = repo / ".chord/memory/records" / f"{first.id}.md"
    index = search.SearchIndex(discover(repo))
    assert index.search("changelog") == []
    path.write_text(path.read_text("utf-8").replace("Conclusion text.", "Write the changelog first."), "utf-8")
    assert [h.id for h in index.search("changelog")] == [first.id]


def test_the_rolling_check_reaches_every_record_within_entries_over_slice_searches(repo: Path) -> None:
    recs = [make_record(repo, f"20261108-roll-{n:04d}", source="user", summary=f"Rule number {n}.") for n in range(3)]
    write_index(repo, recs)
    index = search.SearchIndex(discover(repo), rolling=1)
    assert index.search("gradle") == []
    path = repo / ".chord/memory/records" / f"{recs[2].id}.md"
    path.write_text(path.read_text("utf-8").replace("Conclusion text.", "Gradle builds are cached."), "utf-8")
    found = [bool(index.search("gradle")) for _ in range(3)]
    assert found[-1] and found.index(True) <= 2
