"""The pure pieces behind check and scan: which paths are memory, how lines are numbered, and
how the two secret layers are fed."""
from __future__ import annotations

from pathlib import Path

import pytest

from chord_git import secrets
from chord_git.check import changes, driver
from chord_git.findings import Finding
from chord_git.git.command import added_lines
from tests.check.helpers import github_token


@pytest.mark.parametrize("path, split", [
    ("MEMORY.md", ("", "MEMORY.md")),
    (".chord/memory/records/a.md", ("", ".chord/memory/records/a.md")),
    (".chord/memory/promotions/p.md", ("", ".chord/memory/promotions/p.md")),
    ("svc/api/MEMORY.md", ("svc/api/", "MEMORY.md")),
    ("svc/.chord/memory/records/a.md", ("svc/", ".chord/memory/records/a.md")),
    ("NOTMEMORY.md", None), ("memory.md", None), ("MEMORY.md.bak", None), (".chord/config.yaml", None),
    ("docs/.chord/memoryx/a.md", None), ("x.chord/memory/a.md", None),
])
def test_memory_split(path: str, split: tuple[str, str] | None) -> None:
    assert changes.memory_split(path) == split


@pytest.mark.parametrize("data, lines", [
    (b"", []),
    (b"a\nb\n", [(1, "a"), (2, "b")]),
    (b"a\r\nb", [(1, "a"), (2, "b")]),
    (b"a\n\nb\n", [(1, "a"), (2, ""), (3, "b")]),
    (b"caf\xe9\n", [(1, "caf\ufffd")]),
    (b"x\x0cy\n", [(1, "x\x0cy")]),  # only LF ends a line, as in git's numbering
])
def test_text_lines(data: bytes, lines: list[tuple[int, str]]) -> None:
    assert list(changes.text_lines(data)) == lines


def test_added_lines_of_a_changed_file() -> None:
    old = b"# Memory\n- gone\nkept\n"
    assert added_lines(old, b"# Memory\none\r\ntwo\nkept\nseven") == ((2, "one"), (3, "two"), (5, "seven"))


def test_long_lines_go_to_layer_1_only() -> None:
    token_line = "x" * (secrets.LAYER2_MAX_LINE + 10) + f" GITHUB_TOKEN={github_token()}"
    findings = secrets.scan_added_lines({"MEMORY.md": [(7, token_line)]})
    assert [(f.path, f.line, f.kind, f.layer) for f in findings] == [("MEMORY.md", 7, "github-token", "sanitizer")]
    allowed = token_line + "  # pragma: allowlist secret"
    assert secrets.scan_added_lines({"MEMORY.md": [(7, allowed)]}) == []


def test_text_past_the_layer_2_budget_is_still_scanned_by_layer_1() -> None:
    filler = [(n, "plain words about the build " * 20) for n in range(1, 300)]
    lines = [*filler, (300, f"export GITHUB_TOKEN={github_token()}")]
    assert sum(len(text) + 1 for _, text in filler) > secrets.LAYER2_MAX_CHARS
    change = changes.FileChange("MEMORY.md", 0o100644, False, tuple(lines))
    findings = driver.apply_rules([change], root=None, schema=False, commit="c" * 40)
    assert [(f.line, f.kind, f.commit) for f in findings] == [(300, "github-token", "c" * 40)]
    assert github_token() not in findings[0].message


def test_nothing_to_scan_finds_nothing() -> None:
    assert driver.apply_rules([], root=None) == []
    assert secrets.scan_added_lines({}) == [] and secrets.scan_added_lines({"MEMORY.md": []}) == []


def test_every_input_goes_through_the_same_rules(tmp_path: Path) -> None:
    """A working-tree file, a staged blob and a commit's file are one FileChange to the rules."""
    data = f"# notes\n<!-- chord:memory:begin -->\nnot an entry {github_token()}\n<!-- chord:memory:end -->\n".encode()
    whole = changes.FileChange("MEMORY.md", 0o100644, False, changes.text_lines(data), data)
    found = driver.apply_rules([whole], root=tmp_path)
    assert [(f.line, f.kind, f.layer) for f in found] == [(3, "github-token", "sanitizer"), (3, "index-line", "schema")]
    history = driver.apply_rules([whole], root=tmp_path, schema=False, commit="a" * 40)
    assert [(f.kind, f.commit) for f in history] == [("github-token", "a" * 40)]
    assert all(isinstance(f, Finding) and github_token() not in f.render() for f in found + history)
