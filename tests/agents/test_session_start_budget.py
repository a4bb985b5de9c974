"""SessionStart within its time: hostile front matter (deep flow nesting, then a syntax error)
is refused by a linear scan instead of a second, pure-Python parse whose cost grows with the
square of the nesting; and past the hook's deadline no record is read any more, so memory with
cached verdicts is injected however many unread records there are."""
from __future__ import annotations

import json
import time
from pathlib import Path

from chord_git.memory import summary
from chord_git.agents import hook
from chord_git.memory import loadable
from chord_git.memory.index_file import BEGIN
from testing.gitutil import git, run_cli
from tests.agents.conftest import CANARY_SUMMARY, event, run_hook

HOSTILE = 40


def _hostile_id(n: int) -> str:
    return f"20261201-hostile-{n:04d}"


def add_hostile_records(repo: Path) -> list[str]:
    """40 indexed records of 4 KB front matter each: brackets 4,000 deep, then a syntax error,
    indexed above the existing entries."""
    records = repo / ".chord" / "memory" / "records"
    ids = [_hostile_id(n) for n in range(HOSTILE)]
    for rid in ids:
        (records / f"{rid}.md").write_text(f"---\nid: {rid}\nsummary: " + "[" * 4000 + "\n: x\n---\n## Conclusion\nx\n")
    lines = "".join(f"- [fact] Hostile {rid}. ([{rid}](.chord/memory/records/{rid}.md))\n" for rid in ids)
    index = repo / "MEMORY.md"
    index.write_text(index.read_text().replace(BEGIN + "\n", BEGIN + "\n" + lines, 1))
    return ids


def test_a_record_nested_too_deeply_is_refused_without_a_second_parse(memory_repo: Path) -> None:
    [rid] = add_hostile_records(memory_repo)[:1]
    verdict = loadable.why_not(memory_repo, rid)
    # "nested deeper than 64 levels" comes from the scan; the pure parser ends in "nested too deeply".
    assert verdict is not None and "nested deeper than 64 levels" in verdict, verdict


def test_past_the_deadline_only_cached_verdicts_count(memory_repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "verdicts.json"
    memory_md = memory_repo / "MEMORY.md"
    warm = summary.build(memory_md, budget=2000, extraction_enabled=False, cache=cache)
    assert CANARY_SUMMARY in warm.text
    ids = add_hostile_records(memory_repo)
    late = summary.build(memory_md, budget=2000, extraction_enabled=False, cache=cache,
                         deadline=time.monotonic() - 1)
    assert CANARY_SUMMARY in late.text and late.entries_shown == 1  # its verdict was cached
    assert sum(loadable.NOT_CHECKED in w for w in late.warnings) == HOSTILE
    assert not set(ids) & set(json.loads(cache.read_text())["verdicts"])  # none was read
    full = summary.build(memory_md, budget=2000, extraction_enabled=False, cache=cache)
    assert CANARY_SUMMARY in full.text
    assert sum("nested deeper than 64 levels" in w for w in full.warnings) == HOSTILE
    assert set(ids) <= set(json.loads(cache.read_text())["verdicts"])


def test_session_start_in_a_fresh_clone_with_40_hostile_records_injects(memory_repo: Path, tmp_path: Path) -> None:
    add_hostile_records(memory_repo)
    git(memory_repo, "add", "-A")
    git(memory_repo, "commit", "-q", "-m", "memory with hostile records")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(memory_repo), str(clone))
    start = run_hook(event("SessionStart", clone, "s1", source="startup"), cwd=clone)
    assert start.returncode == 0 and CANARY_SUMMARY in start.stdout.decode(), start.stderr
    assert hook.SUMMARY_SECONDS <= 1.0
    check = run_cli(clone, "check")
    assert check.returncode == 1 and check.stdout.count("nested deeper than 64 levels") >= HOSTILE
    run_hook(event("SessionEnd", clone, "s1", reason="other"), cwd=clone)
