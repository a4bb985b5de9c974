"""The three-way line merge: git's rules, exact bytes of all sides kept."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.memory import diff3
from chord_git.memory.merge import text_merge
from testing.merge_corpus import edits, git_merge_file

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, database=None)
few_lines = st.lists(st.sampled_from("abcde"), max_size=9)


MARKERS = {"<<": "<<<<<<< ours", "==": "=======", ">>": ">>>>>>> theirs"}


def lines(spec: str) -> bytes:
    """One line per word; ``<<``, ``==`` and ``>>`` stand for the conflict marker lines."""
    return "".join(f"{MARKERS.get(word, word)}\n" for word in spec.split()).encode()


@pytest.mark.parametrize("base, ours, theirs, expected", [
    ("a b c", "X a b c", "a b c Y", "X a b c Y"),  # far apart: both taken
    ("a b c", "X a b c", "Y a b c", "<< X == Y >> a b c"),
    ("a b c", "a B c", "a C c", "a << B == C >> c"),
    ("a b c", "a B c", "a b C", "a << B c == b C >>"),  # touching: git conflicts
    ("a b c d e", "a B c d e", "a b c D e", "a B c D e"),
    ("a b c", "a B c", "a B c", "a B c"),  # the same change once
    ("a b c d e f", "a 1 2 3 e f", "a 1 9 3 e f", "a 1 << 2 == 9 >> 3 e f"),
    ("", "x y z", "x q z", "x << y == q >> z"),  # add/add, refined
    ("a", "", "a b", "<< == a b >>"),
])
def test_table_matches_git_merge_file(tmp_path: Path, base: str, ours: str, theirs: str, expected: str) -> None:
    result = text_merge(lines(base), lines(ours), lines(theirs))
    assert result.data == lines(expected)
    git_data, status = git_merge_file(tmp_path, lines(base), lines(ours), lines(theirs))
    assert result.data == git_data
    assert result.conflicts == status


def test_conflicts_three_lines_apart_are_joined_like_git(tmp_path: Path) -> None:
    base, ours, theirs = lines("a b c d e f g"), lines("A b c d E f g"), lines("Z b c d Y f g")
    assert text_merge(base, ours, theirs).data == git_merge_file(tmp_path, base, ours, theirs)[0]
    assert text_merge(base, ours, theirs).conflicts == 1
    base, ours, theirs = lines("a b c d e f g"), lines("A b c d e F g"), lines("Z b c d e Y g")
    assert text_merge(base, ours, theirs).conflicts == 2


def test_missing_final_newline_and_crlf_markers(tmp_path: Path) -> None:
    base, ours, theirs = b"a\r\nb", b"a\r\nours", b"a\r\ntheirs"
    result = text_merge(base, ours, theirs)
    assert result.data == b"a\r\n<<<<<<< ours\r\nours\r\n=======\r\ntheirs\r\n>>>>>>> theirs\r\n"
    assert result.data == git_merge_file(tmp_path, base, ours, theirs)[0]


def test_marker_size_and_invalid_utf8_survive() -> None:
    result = text_merge(b"x\n", b"\xff ours\n", b"\xfe theirs\n", marker_size=9)
    assert result.data == b"<<<<<<<<< ours\n\xff ours\n=========\n\xfe theirs\n>>>>>>>>> theirs\n"


def test_agrees_with_git_on_markdown_like_edits(tmp_path: Path) -> None:
    """A fixed corpus of edits with repeated lines (blank lines, fences): clean exactly when git
    is clean, and the same bytes when clean."""
    for sides in edits(seed=20261129, count=150, max_lines=12):
        mine = text_merge(*sides)
        git_result, status = git_merge_file(tmp_path, *sides)
        assert (mine.conflicts == 0) == (status == 0), sides
        if status == 0:
            assert mine.data == git_result, sides


@SETTINGS
@given(few_lines, few_lines, few_lines)
def test_hunks_partition_every_side(base: list[str], ours: list[str], theirs: list[str]) -> None:
    """Nothing of any side can go missing: each side is exactly the concatenation of its parts."""
    hunks = diff3.merge(base, ours, theirs)
    assert [t for h in hunks for t in h.ours] == ours
    assert [t for h in hunks for t in h.base] == base
    assert [t for h in hunks for t in h.theirs] == theirs
    for hunk in hunks:
        if hunk.kind == "stable":
            assert hunk.ours == hunk.theirs
        elif hunk.kind == "ours":
            assert hunk.theirs == hunk.base
        elif hunk.kind == "theirs":
            assert hunk.ours == hunk.base


@SETTINGS
@given(few_lines, few_lines)
def test_one_sided_changes_merge_cleanly(base: list[str], side: list[str]) -> None:
    b, s = ("".join(f"{w}\n" for w in x).encode() for x in (base, side))
    assert text_merge(b, s, b).data == s and text_merge(b, b, s).data == s and text_merge(b, s, s).data == s
    for hunks in (diff3.merge(base, side, base), diff3.merge(base, base, side)):
        assert not any(h.conflict for h in hunks)
        assert [t for h in hunks for t in h.resolved()] == side


@SETTINGS
@given(few_lines, few_lines, few_lines)
def test_conflicts_show_both_sides_whole(base: list[str], ours: list[str], theirs: list[str]) -> None:
    """Between the markers stand exactly the two sides' lines of each conflicting region; outside
    them, the clean regions in order."""
    base, ours, theirs = ([f"{w}\n" for w in side] for side in (base, ours, theirs))
    hunks = diff3.merge(base, ours, theirs)
    text, count = diff3.render(hunks, str, diff3.Markers())
    shown: list[tuple[list[str], list[str]]] = []
    clean: list[str] = []
    part: list[str] | None = None
    for line in diff3.split_lines(text):
        if line == "<<<<<<< ours\n":
            shown.append(([], []))
            part = shown[-1][0]
        elif line == "=======\n":
            part = shown[-1][1]
        elif line == ">>>>>>> theirs\n":
            part = None
        else:
            (clean if part is None else part).append(line)
    assert count == len(shown)
    assert shown == [(list(h.ours), list(h.theirs)) for h in hunks if h.conflict]
    assert clean == [t for h in hunks if not h.conflict for t in h.resolved()]
