"""``git memory review`` at a terminal: every action, driven through a pseudo-terminal."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from testing.gitutil import cli_env, git, index_digest
from testing.memory_files import listed
from tests.review.conftest import A1, A2, A3, ORPHAN, USER, Memo
from tests.review.ptyutil import Terminal

PROMPT = r"Action \(\w\): "


def _review(root: Path, **env: str) -> Terminal:
    return Terminal(["git", "memory", "review"], root, {**cli_env(), **env})


def _no_staging(root: Path) -> None:
    for line in git(root, "status", "--porcelain").splitlines():
        assert line[0] in " ?", f"something was staged: {line}"


def test_accept_reject_forget_move_open_and_delete(memo: Memo) -> None:
    before = index_digest(memo.root)
    term = _review(memo.root, PAGER="")
    screen = term.expect(PROMPT)
    assert "Always use pnpm for JS dependencies." in screen and "source: user" in screen
    term.send("a")  # accept the AGENTS.md suggestion
    screen = term.expect(PROMPT)
    assert "+Always use pnpm for JS dependencies." in screen and "updated AGENTS.md" in screen
    assert "docs/guide/dev.md" in screen
    term.send("r")  # reject the docs suggestion
    screen = term.expect(PROMPT)  # entries now: the user's entry left with its accepted promotion
    assert f"entry 1/2: {A1}" in screen and "source: assistant" in screen and "deleted" in screen
    term.send("o")  # open the record, then come back to the same entry
    screen = term.expect(PROMPT)
    assert "## Conclusion" in screen and f"id: {A1}" in screen
    term.send("d")  # A1 below A2
    screen = term.expect(PROMPT)
    assert "moved down one line; nothing was staged" in screen  # every action confirms itself
    assert f"entry 2/2: {A2}" in screen
    term.send("f")  # forget A2
    screen = term.expect(PROMPT)
    assert "orphan 1/4" in screen
    while re.findall(r"orphan \d+/\d+: (\S+)", screen)[-1] != ORPHAN:
        term.send("k")
        screen = term.expect(PROMPT)
    term.send("x")  # delete the old orphan's record file
    assert f"deleted orphan record {ORPHAN}; nothing was staged" in term.expect(PROMPT)
    term.send("q")
    rest = term.finish()
    assert rest == 0, term.seen
    assert "nothing was staged" in term.seen
    assert (memo.root / "AGENTS.md").read_text().endswith("\n\nAlways use pnpm for JS dependencies.\n")
    assert not (memo.root / "docs").exists()
    assert not list((memo.root / ".chord/memory/promotions").glob("*.md"))
    assert listed(memo.root) == [A1]  # A2 went above it, then was forgotten
    # The entries' judgements were kept in the state dir's result cache, as audit keeps them.
    from chord_git.check.cache import ResultCache
    from chord_git.memory.project import discover

    store = ResultCache.open(discover(memo.root).state_dir)
    assert store is not None and store.connection is not None
    try:
        assert store.connection.execute("SELECT COUNT(*) FROM results").fetchone()[0] >= 2
    finally:
        store.close()
    records = memo.root / ".chord/memory/records"
    assert not (records / f"{ORPHAN}.md").exists()
    assert (records / f"{A2}.md").exists() and (records / f"{A3}.md").exists()
    assert index_digest(memo.root) == before
    _no_staging(memo.root)


def test_move_up_and_top_then_quit(memo: Memo) -> None:
    term = _review(memo.root)
    term.expect(PROMPT)
    term.send("s")
    term.expect(PROMPT)
    term.send("")  # Enter takes the default: skip
    assert f"entry 1/3: {USER}" in term.expect(PROMPT)
    term.send("u")  # already at the top
    screen = term.expect(PROMPT)
    assert "already at the top" in screen
    term.send("k")
    term.expect(PROMPT)
    term.send("t")  # A2 to the top
    assert "moved to the top of the index; nothing was staged" in term.expect(PROMPT)
    term.send("q")
    assert term.finish() == 0
    assert listed(memo.root) == [A2, USER, A1]
    assert len(list((memo.root / ".chord/memory/promotions").glob("*.md"))) == 2


def test_refused_accept_keeps_the_review_going(memo: Memo, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, memo.root / "docs")
    term = _review(memo.root)
    term.expect(PROMPT)
    term.send("s")
    term.expect(PROMPT)
    term.send("a")
    screen = term.expect(PROMPT)
    assert "accept refused" in screen and "outside the project" in screen
    term.send("q")
    assert term.finish() == 0
    assert list(outside.iterdir()) == []


def test_ci_set_never_prompts_even_at_a_terminal(memo: Memo) -> None:
    env = {**cli_env(), "CI": "1"}
    master, slave = os.openpty()
    proc = subprocess.run(["git", "memory", "review"], cwd=memo.root, env=env, stdin=slave, stdout=slave,
                          stderr=slave, timeout=60)
    os.close(slave)
    output = os.read(master, 65536).decode()
    os.close(master)
    assert proc.returncode == 1 and "pending promotions: 2" in output and "Action" not in output
    assert A3 in output and A2 in output
