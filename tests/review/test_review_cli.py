"""``git memory review`` without a terminal: list, accept, reject, forget, move, prune-orphans.

The command function runs directly; a few runs go through git as a user would (``run_cli``) to
prove the argument parsing. The git index must stay byte-identical and ``git status`` may show
working-tree changes only (R37).
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from chord_git.memory import promotions
from chord_git.commands.review import review
from testing.commands import run
from testing.gitutil import git, index_digest, run_cli
from testing.memory_files import listed, make_record
from tests.review.conftest import A1, A2, A3, ORPHAN, USER, Memo

PROMOS = ".chord/memory/promotions"


@pytest.fixture(autouse=True)
def index_untouched(memo: Memo) -> Iterator[None]:
    before = index_digest(memo.root)
    yield
    assert index_digest(memo.root) == before
    for line in git(memo.root, "status", "--porcelain").splitlines():
        assert line[0] in " ?", f"something was staged: {line}"


def test_list_json_shape_and_order(memo: Memo) -> None:
    result = run_cli(memo.root, "review", "list", "--json")
    assert result.returncode == 0
    found = json.loads(result.stdout)["items"]
    assert [(i["kind"], i["id"]) for i in found] == [
        ("promotion", memo.user_promotion), ("promotion", memo.docs_promotion),
        ("entry", USER), ("entry", A1), ("entry", A2), ("orphan", A3), ("orphan", ORPHAN)]
    keys = {"kind", "id", "entry", "target", "path", "summary", "source", "stale"}
    assert all(set(i) == keys | ({"audit"} if i["kind"] == "entry" else set()) for i in found)
    user_promo = found[0]
    assert user_promo["entry"] == USER and user_promo["target"] == "instructions"
    assert user_promo["path"] == "AGENTS.md" and user_promo["source"] == "user"
    assert found[2]["source"] == "user" and found[3]["source"] == "assistant"


def test_bare_review_without_terminal_lists_and_gates_on_pending_promotions(memo: Memo) -> None:
    result = run_cli(memo.root, "review")
    assert result.returncode == 1
    assert "pending promotions: 2" in result.stdout and "index entries (priority order): 3" in result.stdout
    assert f"[source of pending promotion {memo.docs_promotion}]" in result.stdout
    assert json.loads(run(review, memo.root, as_json=True).stdout)["items"]
    for pid in (memo.user_promotion, memo.docs_promotion):
        assert run(review, memo.root, action="reject", item_id=pid).returncode == 0
    assert run(review, memo.root).returncode == 0
    assert run(review, memo.root, no_input=True).returncode == 0


def test_accept_appends_to_agents_md_and_drops_the_user_entry(memo: Memo) -> None:
    result = run_cli(memo.root, "review", "accept", memo.user_promotion)
    assert result.returncode == 0, result.stderr
    assert (memo.root / "AGENTS.md").read_text() == "# Rules\n\nBe kind.\n\nAlways use pnpm for JS dependencies.\n"
    assert "+Always use pnpm for JS dependencies." in result.stdout and "nothing was staged" in result.stdout
    assert listed(memo.root) == [A1, A2]
    assert not (memo.root / PROMOS / f"{memo.user_promotion}.md").exists()
    assert (memo.root / ".chord/memory/records" / f"{USER}.md").is_file()
    assert " M AGENTS.md" in git(memo.root, "status", "--porcelain")
    again = run(review, memo.root, action="accept", item_id=memo.user_promotion)
    assert again.returncode == 2 and "no pending promotion" in again.stderr


def test_accept_creates_a_missing_target(memo: Memo) -> None:
    result = run(review, memo.root, action="accept", item_id=memo.docs_promotion)
    assert result.returncode == 0, result.stderr
    assert (memo.root / "docs/guide/dev.md").read_text() == "Run `make lint` before pushing.\n"
    assert "created docs/guide/dev.md" in result.stdout and "--- /dev/null" in result.stdout
    assert listed(memo.root) == [USER, A1, A2]


def test_accept_keeps_crlf_and_is_idempotent_on_the_text(memo: Memo) -> None:
    (memo.root / "AGENTS.md").write_bytes(b"# Rules\r\n\r\nAlways use pnpm for JS dependencies.\r\n")
    result = run(review, memo.root, action="accept", item_id=memo.user_promotion)
    assert result.returncode == 0 and "already holds the proposed text" in result.stdout
    assert (memo.root / "AGENTS.md").read_bytes() == b"# Rules\r\n\r\nAlways use pnpm for JS dependencies.\r\n"


def _hand_promotion(memo: Memo, path: str, pid: str = "20260111-hand-made-bb01") -> str:
    file = promotions.PromotionFile(id=pid, entry=None, target="docs", path=path, reason="r",
                                    created="2026-01-11", session=None, text="Injected text.")
    text = promotions.render(file)
    (memo.root / PROMOS / f"{pid}.md").write_text(text)
    return pid


@pytest.mark.parametrize("path", ["../x.md", "/etc/x.md", "docs/../../x.md", ".git/hooks/pre-commit",
                                  "src/app.py"])
def test_accept_refuses_targets_outside_the_allowed_places(memo: Memo, path: str) -> None:
    before = sorted(p.relative_to(memo.root.parent).as_posix() for p in memo.root.parent.rglob("*")
                    if ".git/" not in p.as_posix())
    pid = _hand_promotion(memo, path)
    result = run(review, memo.root, action="accept", item_id=pid)
    assert result.returncode == 2 and "cannot accept" in result.stderr
    assert (memo.root / PROMOS / f"{pid}.md").exists()
    after = sorted(p.relative_to(memo.root.parent).as_posix() for p in memo.root.parent.rglob("*")
                   if ".git/" not in p.as_posix())
    assert set(after) - set(before) == {f"repo/{PROMOS}/{pid}.md"}


def test_accept_refuses_a_symlinked_docs_dir_pointing_outside(memo: Memo, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, memo.root / "docs")
    result = run(review, memo.root, action="accept", item_id=memo.docs_promotion)
    assert result.returncode == 2 and "outside the project" in result.stderr
    assert list(outside.iterdir()) == []
    assert (memo.root / PROMOS / f"{memo.docs_promotion}.md").exists()


def test_accept_refuses_a_symlinked_target_file(memo: Memo, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    (memo.root / "docs").mkdir()
    os.symlink(victim, memo.root / "docs" / "x.md")
    pid = _hand_promotion(memo, "docs/x.md")
    assert run(review, memo.root, action="accept", item_id=pid).returncode == 2
    assert victim.read_text() == "keep\n"


def test_reject_deletes_the_file_and_the_entry_stays_out(memo: Memo) -> None:
    assert run(review, memo.root, action="reject", item_id=memo.docs_promotion).returncode == 0
    assert not (memo.root / PROMOS / f"{memo.docs_promotion}.md").exists()
    assert listed(memo.root) == [USER, A1, A2]
    assert run(review, memo.root, action="reject", item_id=memo.user_promotion).returncode == 0
    assert listed(memo.root) == [USER, A1, A2]  # the user's entry simply stays
    assert not (memo.root / "docs").exists()


def test_forget(memo: Memo) -> None:
    result = run(review, memo.root, action="forget", item_id=A1)
    assert result.returncode == 0 and listed(memo.root) == [USER, A2]
    assert (memo.root / ".chord/memory/records" / f"{A1}.md").is_file()
    assert run(review, memo.root, action="forget", item_id=A1).returncode == 2


def test_move(memo: Memo) -> None:
    memory_md = memo.root / "MEMORY.md"
    assert run(review, memo.root, action="move", item_id=A2, where="top").returncode == 0
    assert listed(memo.root) == [A2, USER, A1]
    assert run(review, memo.root, action="move", item_id=USER, where="down").returncode == 0
    assert listed(memo.root) == [A2, A1, USER]
    assert run(review, memo.root, action="move", item_id=A1, where="up").returncode == 0
    assert listed(memo.root) == [A1, A2, USER]
    result = run(review, memo.root, action="move", item_id=A1, where="up")
    assert result.returncode == 0 and "already at the top" in result.stdout
    assert "My notes." in memory_md.read_text()
    assert run_cli(memo.root, "review", "move", A1).returncode == 2  # no direction
    assert run(review, memo.root, action="move", item_id="20260101-nope-ffff", where="top").returncode == 2


def test_prune_orphans(memo: Memo) -> None:
    make_record(memo.root, "20260110-fresh-orphan-aa06")  # just written: may be an extraction's
    result = run(review, memo.root, action="prune-orphans")
    assert result.returncode == 0, result.stderr
    records = memo.root / ".chord/memory/records"
    assert not (records / f"{ORPHAN}.md").exists()
    assert (records / f"{A3}.md").exists()  # its promotion is pending
    assert (records / "20260110-fresh-orphan-aa06.md").exists()
    assert "a pending promotion points to it" in result.stderr and "moments ago" in result.stderr
    assert run(review, memo.root, action="prune-orphans", ids=[A3]).returncode == 0
    assert not (records / f"{A3}.md").exists()
    refused = run(review, memo.root, action="prune-orphans", ids=[USER])
    assert refused.returncode == 1 and "listed in the index" in refused.stderr
    assert (records / f"{USER}.md").exists()


def test_review_actions_need_an_id(memo: Memo) -> None:
    assert run_cli(memo.root, "review", "accept").returncode == 2
    assert run_cli(memo.root, "review", "accept", "../../etc/passwd").returncode == 2


def test_unusable_index_lists_promotions_only(memo: Memo) -> None:
    path = memo.root / "MEMORY.md"
    path.write_text(path.read_text().replace("<!-- chord:memory:end -->", "stray line\n<!-- chord:memory:end -->"))
    result = run(review, memo.root, action="list", as_json=True)
    assert result.returncode == 0 and "managed section unusable" in result.stderr
    assert {item["kind"] for item in json.loads(result.stdout)["items"]} == {"promotion"}
    pruned = run(review, memo.root, action="prune-orphans")
    assert pruned.returncode == 2 and (memo.root / ".chord/memory/records" / f"{ORPHAN}.md").exists()
    assert run(review, memo.root, action="move", item_id=A1, where="top").returncode == 2
