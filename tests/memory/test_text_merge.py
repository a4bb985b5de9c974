"""The plain text merge, the driver's fallback for a whole MEMORY.md: git's own ``git merge-file``,
in the user's conflict style, marker size and labels."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.memory.merge import Markers, text_merge
from testing.merge_corpus import git_merge_file

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, database=None)
few_lines = st.lists(st.sampled_from("abcde"), max_size=9)


MARKERS = {"<<": "<<<<<<< ours", "==": "=======", ">>": ">>>>>>> theirs", "||": "||||||| base"}


def lines(spec: str) -> bytes:
    """One line per word; ``<<``, ``||``, ``==`` and ``>>`` stand for the conflict marker lines."""
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
    result = text_merge(b"x\n", b"\xff ours\n", b"\xfe theirs\n", markers=Markers(size=9))
    assert result.data == b"<<<<<<<<< ours\n\xff ours\n=========\n\xfe theirs\n>>>>>>>>> theirs\n"


@pytest.mark.parametrize("style, expected", [
    ("merge", "a << B == C >> c"),
    ("diff3", "a << B || b == C >> c"),
    ("zdiff3", "a << B || b == C >> c"),
])
def test_conflict_styles_and_labels_are_gits(tmp_path: Path, style: str, expected: str) -> None:
    labels = ("HEAD", "1a2b3c4 (base commit)", "topic")
    markers = Markers(7, style, *labels)
    base, ours, theirs = lines("a b c"), lines("a B c"), lines("a C c")
    result = text_merge(base, ours, theirs, markers=markers)
    assert result.data == git_merge_file(tmp_path, base, ours, theirs, style=style, labels=labels)[0]
    assert result.data == lines(expected).replace(b"ours", b"HEAD").replace(b"theirs", b"topic").replace(
        b"||||||| base", b"||||||| 1a2b3c4 (base commit)")


def test_zdiff3_moves_common_lines_out_of_the_conflict_as_git_does(tmp_path: Path) -> None:
    base, ours, theirs = lines("a b c"), lines("a X Y c"), lines("a X Z c")
    for style in ("diff3", "zdiff3"):
        result = text_merge(base, ours, theirs, markers=Markers(style=style))
        assert result.data == git_merge_file(tmp_path, base, ours, theirs, style=style)[0]
    assert text_merge(base, ours, theirs, markers=Markers(style="zdiff3")).data == lines("a X << Y || b == Z >> c")


def test_a_label_that_looks_like_a_marker_or_holds_odd_bytes_is_printed_as_given(tmp_path: Path) -> None:
    labels = ("<<<<<<< HEAD", "", "feature/ünïcode ='x'")
    markers = Markers(7, "diff3", *labels)
    base, ours, theirs = lines("a b c"), lines("a B c"), lines("a C c")
    result = text_merge(base, ours, theirs, markers=markers)
    assert result.data == git_merge_file(tmp_path, base, ours, theirs, style="diff3", labels=labels)[0]
    assert result.conflicts == 1


def test_more_than_127_conflicts_are_counted() -> None:
    base = b"".join(b"%d\nkeep\nkeep\nkeep\nkeep\n" % n for n in range(200))
    ours = b"".join(b"%d ours\nkeep\nkeep\nkeep\nkeep\n" % n for n in range(200))
    theirs = b"".join(b"%d theirs\nkeep\nkeep\nkeep\nkeep\n" % n for n in range(200))
    assert text_merge(base, ours, theirs).conflicts == 200  # git's exit status stops at 127


def test_a_file_git_calls_binary_stays_ours_and_conflicted() -> None:
    result = text_merge(b"a\n", b"a\0ours\n", b"theirs\n")
    assert (result.data, result.conflicts) == (b"a\0ours\n", 1)
    assert result.notes == ("git merges no file holding a NUL byte as text; left as ours, conflicted",)


@SETTINGS
@given(few_lines, few_lines)
def test_one_sided_changes_merge_cleanly(base: list[str], side: list[str]) -> None:
    b, s = ("".join(f"{w}\n" for w in x).encode() for x in (base, side))
    assert text_merge(b, s, b).data == s and text_merge(b, b, s).data == s and text_merge(b, s, s).data == s
