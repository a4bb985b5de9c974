"""The two-way line diff under the merge: minimal, and a valid edit script."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.memory import linediff

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, database=None)


def lcs_length(a: list[str], b: list[str]) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        diagonal = 0
        for j, y in enumerate(b, start=1):
            above = row[j]
            row[j] = diagonal + 1 if x == y else max(row[j], row[j - 1])
            diagonal = above
    return row[-1]


@SETTINGS
@given(st.lists(st.sampled_from("abcd"), max_size=14), st.lists(st.sampled_from("abcd"), max_size=14))
def test_diff_is_minimal(a: list[str], b: list[str]) -> None:
    changes = linediff.diff(a, b)
    removed = sum(a1 - a0 for a0, a1, _, _ in changes)
    added = sum(b1 - b0 for _, _, b0, b1 in changes)
    kept = len(a) - removed
    assert kept == len(b) - added == lcs_length(a, b)
    position = 0
    rebuilt: list[str] = []
    for a0, a1, b0, b1 in changes:
        rebuilt += a[position:a0] + b[b0:b1]
        position = a1
    assert rebuilt + a[position:] == b


def test_big_edit_distances_fall_back_to_difflib() -> None:
    a = [f"a{i}" for i in range(3000)]
    b = [f"b{i}" for i in range(3000)]
    assert linediff.diff(a, b) == [(0, 3000, 0, 3000)]
    assert linediff.MAX_EDIT_DISTANCE < 6000
