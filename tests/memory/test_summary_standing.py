"""The injected summary keeps what the user said apart from what an assistant concluded and the
user has not confirmed (R20), in index order within each part (R28); MCP search says the same."""
from __future__ import annotations

from pathlib import Path

from chord_git.mcp.tools import Tools
from chord_git.memory import summary
from chord_git.memory.project import discover
from testing.memory_files import make_record, write_index


def test_user_entries_and_unconfirmed_entries_are_shown_apart(repo: Path) -> None:
    said = make_record(repo, "20261201-pnpm-0001", source="user", summary="Use pnpm, never npm.")
    guessed = make_record(repo, "20261201-flaky-0002", source="assistant", summary="The e2e suite needs Redis.")
    also = make_record(repo, "20261201-check-0003", source="user", summary="Run make check before review.")
    write_index(repo, [guessed, said, also])
    text = summary.build(repo / "MEMORY.md", budget=4000, extraction_enabled=False).text
    user_part = text.index(summary.SAID_HEADING)
    other_part = text.index(summary.UNCONFIRMED_HEADING)
    assert user_part < text.index("Use pnpm, never npm.") < text.index("Run make check before review.") < other_part
    assert other_part < text.index("The e2e suite needs Redis.")
    assert "an assistant concluded" in summary.MEMORY_DISCIPLINE


def test_a_summary_of_only_the_users_words_has_one_part(repo: Path) -> None:
    said = make_record(repo, "20261201-pnpm-0001", source="user", summary="Use pnpm, never npm.")
    write_index(repo, [said])
    text = summary.build(repo / "MEMORY.md", budget=4000, extraction_enabled=False).text
    assert summary.SAID_HEADING in text and summary.UNCONFIRMED_HEADING not in text


def test_the_standing_is_cached_with_the_verdicts(repo: Path, tmp_path: Path) -> None:
    guessed = make_record(repo, "20261201-flaky-0002", source="assistant", summary="The e2e suite needs Redis.")
    write_index(repo, [guessed])
    cache = tmp_path / "cache.json"
    first = summary.build(repo / "MEMORY.md", budget=4000, extraction_enabled=False, cache=cache).text
    second = summary.build(repo / "MEMORY.md", budget=4000, extraction_enabled=False, cache=cache).text
    assert first == second and summary.UNCONFIRMED_HEADING in second and '"concluded"' in cache.read_text()


def test_mcp_search_says_who_said_each_hit(repo: Path) -> None:
    said = make_record(repo, "20261201-pnpm-0001", source="user", summary="Use pnpm for the web package.")
    guessed = make_record(repo, "20261201-web-0002", source="assistant", summary="The web package builds with Vite.")
    write_index(repo, [said, guessed])
    found = Tools(discover(repo)).search_memory("web package")
    lines = found.splitlines()
    assert any("Use pnpm for the web package." in line and "the user said it" in line for line in lines)
    assert any("builds with Vite" in line and "not confirmed by the user" in line for line in lines)
