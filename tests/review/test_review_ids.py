"""Ids as users type them: a unique prefix wherever an id is taken, one clear line (exit 2) for an
ambiguous or unknown one, and the ids in shell completion."""
from __future__ import annotations

from pathlib import Path

import pytest

from chord_git.commands.completion import bash, tree
from chord_git.commands.ids import resolve
from chord_git.errors import UsageError
from chord_git.main import build_parser
from testing.gitutil import run_cli
from testing.memory_files import listed
from tests.commands.test_completion import bash_complete
from tests.review.conftest import A1, A2, A3, ORPHAN, USER, Memo


def shortest_unique(rid: str, others: list[str]) -> str:
    for size in range(1, len(rid) + 1):
        if not any(other.startswith(rid[:size]) for other in others if other != rid):
            return rid[:size]
    return rid


def test_resolve_takes_the_id_or_a_unique_prefix_and_names_candidates_otherwise() -> None:
    known = ["20260110-one-aa01", "20260110-two-aa02", "20260111-three-aa03"]
    assert resolve("20260110-two", known, noun="index entry", listing="L") == "20260110-two-aa02"
    assert resolve("20260111-three-aa03", known, noun="index entry", listing="L") == "20260111-three-aa03"
    with pytest.raises(UsageError) as ambiguous:
        resolve("20260110", known, noun="index entry", listing="L")
    assert str(ambiguous.value) == ("'20260110' matches 2 index entries: 20260110-one-aa01, 20260110-two-aa02; "
                                    "give more of the id")
    with pytest.raises(UsageError) as unknown:
        resolve("2027", known, noun="index entry", listing="git memory review list")
    assert str(unknown.value) == ("no index entry '2027' (index entries: 20260110-one-aa01, 20260110-two-aa02, "
                                  "20260111-three-aa03; see git memory review list)")
    many = [f"2026-{n:02}" for n in range(8)]
    with pytest.raises(UsageError, match=r"matches 8 jobs: 2026-00, 2026-01, 2026-02, 2026-03, 2026-04, … \(8 in all\)"):
        resolve("2026", many, noun="job", listing="L")
    with pytest.raises(UsageError, match="there is no job"):
        resolve("ab", [], noun="job", listing="git memory queue list")
    with pytest.raises(UsageError, match="no job ''"):
        resolve("", known[:2], noun="job", listing="L")


def test_review_accept_takes_a_unique_prefix(memo: Memo) -> None:
    prefix = shortest_unique(memo.user_promotion, [memo.docs_promotion])
    assert len(prefix) < len(memo.user_promotion)
    result = run_cli(memo.root, "review", "accept", prefix)
    assert result.returncode == 0, result.stderr
    assert f"deleted promotion {memo.user_promotion}; nothing was staged" in result.stdout
    assert "Always use pnpm for JS dependencies." in (memo.root / "AGENTS.md").read_text()


def test_review_reject_forget_move_and_prune_take_prefixes(memo: Memo) -> None:
    prefix = shortest_unique(memo.docs_promotion, [memo.user_promotion])
    assert run_cli(memo.root, "review", "reject", prefix).returncode == 0
    assert not (memo.root / ".chord/memory/promotions" / f"{memo.docs_promotion}.md").exists()
    moved = run_cli(memo.root, "review", "move", "20260110-assist-tw", "--top")
    assert moved.returncode == 0 and moved.stdout == f"moved {A2} top\n"
    assert listed(memo.root) == [A2, USER, A1]
    forgot = run_cli(memo.root, "review", "forget", "20260110-assist-o")
    assert forgot.returncode == 0 and f"forgot {A1}" in forgot.stdout
    top_level = run_cli(memo.root, "forget", "20260110-user")
    assert top_level.returncode == 0 and f"forgot {USER}" in top_level.stdout
    assert listed(memo.root) == [A2]
    pruned = run_cli(memo.root, "review", "prune-orphans", "20260110-old")
    assert pruned.returncode == 0 and f"deleted orphan record {ORPHAN}" in pruned.stdout
    assert (memo.root / ".chord/memory/records" / f"{A3}.md").exists()


def test_an_ambiguous_or_unknown_prefix_is_one_line_exit_2_naming_the_candidates(memo: Memo) -> None:
    ambiguous = run_cli(memo.root, "review", "forget", "20260110-assist")
    assert ambiguous.returncode == 2 and ambiguous.stdout == ""
    assert ambiguous.stderr == (f"git memory: '20260110-assist' matches 2 index entries: {A1}, {A2}; "
                                "give more of the id\n")
    unknown = run_cli(memo.root, "review", "move", "2099", "--up")
    assert unknown.returncode == 2
    assert unknown.stderr == (f"git memory: no index entry '2099' (index entries: {A1}, {A2}, {USER}; "
                              "see git memory review list)\n")
    promo = run_cli(memo.root, "review", "accept", "nope")
    assert promo.returncode == 2 and promo.stderr.startswith("git memory: no pending promotion 'nope' (pending promotions: ")
    both = run_cli(memo.root, "review", "prune-orphans", "20260110-")
    assert both.returncode == 2 and f"matches 2 orphan records: {A3}, {ORPHAN}" in both.stderr
    assert listed(memo.root) == [USER, A1, A2]


def test_the_id_lister_completion_calls(memo: Memo, tmp_path: Path) -> None:
    def ids(kinds: str, cwd: Path = memo.root) -> list[str]:
        done = run_cli(cwd, "__ids", kinds)
        assert done.returncode == 0 and done.stderr == ""
        return done.stdout.splitlines()

    assert ids("promotion") == sorted([memo.user_promotion, memo.docs_promotion])
    assert ids("entry") == [USER, A1, A2]
    assert ids("orphan") == sorted([A3, ORPHAN])
    assert ids("job") == []
    assert ids("bogus") == []
    plain = tmp_path / "plain"
    plain.mkdir()
    assert ids("entry,promotion", plain) == []
    assert "__ids" not in run_cli(memo.root, "help").stdout  # not a command users see


def test_bash_completes_ids_by_position(memo: Memo, tmp_path: Path) -> None:
    script = tmp_path / "git-memory.bash"
    script.write_text(bash(tree(build_parser())))
    assert bash_complete(script, ["git-memory", "review", "accept", ""], memo.root) == sorted(
        [memo.user_promotion, memo.docs_promotion])
    assert bash_complete(script, ["git-memory", "review", "move", "20260110-assist-t"], memo.root) == [A2]
    assert bash_complete(script, ["git-memory", "forget", "20260110-u"], memo.root) == [USER]
    assert bash_complete(script, ["git-memory", "review", "prune-orphans", A3, "20260110-o"], memo.root) == [ORPHAN]
    assert bash_complete(script, ["git-memory", "queue", "r"], memo.root) == ["retry"]
    assert bash_complete(script, ["git-memory", "queue", "retry", ""], memo.root) == []  # no jobs
    assert bash_complete(script, ["git-memory", "check", "MEMORY.md", "MEM"], memo.root) == ["MEMORY.md"]
