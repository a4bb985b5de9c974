"""Two-way line diff as git computes it: pure, over any hashable tokens.

A minimal edit script (Myers' greedy algorithm, after trimming the common head and tail), then
git's compaction (``xdl_change_compact`` without the indent heuristic): each group of changed
lines slides as far down as equal lines allow, merging with groups it meets, and back up to the
last place where it lines up with a change in the other file. Ambiguous diffs of repeated lines
(blank lines, fences) therefore come out where git puts them, so a three-way merge built on it
conflicts where git would.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from difflib import SequenceMatcher
from typing import TypeVar

T = TypeVar("T", bound=Hashable)
# Beyond this many differences the exact diff costs quadratic memory; difflib takes over.
MAX_EDIT_DISTANCE = 1000

Change = tuple[int, int, int, int]  # a[a0:a1] became b[b0:b1]


def _myers(a: Sequence[T], b: Sequence[T]) -> list[tuple[int, int]] | None:
    """Index pairs of the lines a minimal edit script keeps (Myers' greedy algorithm), or None
    past MAX_EDIT_DISTANCE. ``trace[d][k + d]`` is how far diagonal k reached with d edits."""
    n, m = len(a), len(b)
    trace: list[list[int]] = []
    for d in range(min(n + m, MAX_EDIT_DISTANCE) + 1):
        prev = trace[-1] if trace else []
        reach = [0] * (2 * d + 1)
        for k in range(-d, d + 1, 2):
            if d == 0:
                x = 0
            elif k == -d or (k != d and prev[k - 1 + d - 1] < prev[k + 1 + d - 1]):
                x = prev[k + 1 + d - 1]  # an insertion: down from diagonal k + 1
            else:
                x = prev[k - 1 + d - 1] + 1  # a deletion: right from diagonal k - 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x, y = x + 1, y + 1
            reach[k + d] = x
            if x >= n and y >= m:
                trace.append(reach)
                return _backtrack(trace, n, m)
        trace.append(reach)
    return None


def _backtrack(trace: list[list[int]], n: int, m: int) -> list[tuple[int, int]]:
    kept: list[tuple[int, int]] = []
    x, y = n, m
    for d in range(len(trace) - 1, 0, -1):
        prev = trace[d - 1]
        k = x - y
        down = k == -d or (k != d and prev[k - 1 + d - 1] < prev[k + 1 + d - 1])
        prev_k = k + 1 if down else k - 1
        prev_x = prev[prev_k + d - 1]
        snake_x = prev_x if down else prev_x + 1
        while x > snake_x:
            x, y = x - 1, y - 1
            kept.append((x, y))
        x, y = prev_x, prev_x - prev_k
    while x > 0:
        x, y = x - 1, y - 1
        kept.append((x, y))
    kept.reverse()
    return kept


def _kept_pairs(a: Sequence[T], b: Sequence[T]) -> list[tuple[int, int]]:
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    mid_a, mid_b = a[head:len(a) - tail], b[head:len(b) - tail]
    middle = _myers(mid_a, mid_b)
    if middle is None:
        blocks = SequenceMatcher(None, mid_a, mid_b, autojunk=False).get_matching_blocks()
        middle = [(i + k, j + k) for i, j, size in blocks for k in range(size)]
    return ([(i, i) for i in range(head)] + [(i + head, j + head) for i, j in middle]
            + [(len(a) - tail + i, len(b) - tail + i) for i in range(tail)])


class _Groups:
    """Runs of changed lines in one file, walked in step with the other file's runs.

    Group k of a file lies between the same two kept lines as group k of the other file (either
    may be empty), so moving one group moves its partner too.
    """

    def __init__(self, changed: list[bool]) -> None:
        self.changed = changed
        self.start = self.end = 0
        self._extend_end()

    def _is_changed(self, i: int) -> bool:
        return 0 <= i < len(self.changed) and self.changed[i]

    def _extend_end(self) -> None:
        while self._is_changed(self.end):
            self.end += 1

    def _extend_start(self) -> None:
        while self._is_changed(self.start - 1):
            self.start -= 1

    def next(self) -> bool:
        if self.end == len(self.changed):
            return False
        self.start = self.end = self.end + 1
        self._extend_end()
        return True

    def previous(self) -> None:
        self.end = self.start = self.start - 1
        self._extend_start()

    def slide_down(self, seq: Sequence[Hashable]) -> bool:
        if self.end >= len(seq) or seq[self.start] != seq[self.end]:
            return False
        self.changed[self.start], self.changed[self.end] = False, True
        self.start, self.end = self.start + 1, self.end + 1
        self._extend_end()
        return True

    def slide_up(self, seq: Sequence[Hashable]) -> bool:
        if self.start == 0 or seq[self.start - 1] != seq[self.end - 1]:
            return False
        self.start, self.end = self.start - 1, self.end - 1
        self.changed[self.start], self.changed[self.end] = True, False
        self._extend_start()
        return True


def _compact(seq: Sequence[Hashable], changed: list[bool], other_changed: list[bool]) -> None:
    """git's compaction: slide each change group as far down as equal lines allow, merging it
    with groups it meets, then back up to the last place it lined up with a change in the other
    file, so replacements stay paired and the same edit always comes out in the same place."""
    group, other = _Groups(changed), _Groups(other_changed)
    while True:
        if group.end != group.start:
            while True:
                size = group.end - group.start
                while group.slide_up(seq):
                    other.previous()
                earliest_end = group.end
                aligned = group.end if other.end > other.start else -1
                while group.slide_down(seq):
                    other.next()
                    if other.end > other.start:
                        aligned = group.end
                if size == group.end - group.start:
                    break
            if group.end != earliest_end and aligned != -1:
                while other.end == other.start and group.slide_up(seq):
                    other.previous()
        if not group.next():
            break
        other.next()


def diff(a: Sequence[T], b: Sequence[T]) -> list[Change]:
    """The changes that turn ``a`` into ``b``, in order."""
    changed_a, changed_b = [True] * len(a), [True] * len(b)
    for i, j in _kept_pairs(a, b):
        changed_a[i] = changed_b[j] = False
    _compact(a, changed_a, changed_b)
    _compact(b, changed_b, changed_a)
    changes: list[Change] = []
    i = j = 0
    while i < len(a) or j < len(b):
        if i < len(a) and j < len(b) and not changed_a[i] and not changed_b[j]:
            i, j = i + 1, j + 1
            continue
        a0, b0 = i, j
        while i < len(a) and changed_a[i]:
            i += 1
        while j < len(b) and changed_b[j]:
            j += 1
        changes.append((a0, i, b0, j))
    return changes
