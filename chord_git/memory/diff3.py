"""A three-way line merge with git's rules: pure, over any hashable tokens.

Both sides are diffed against the base (a minimal Myers diff whose change groups slide down past
equal lines, as git compacts them). Changes of the two sides that overlap *or touch* form one
region; a region only one side changed takes that side, identical changes are taken once, and the
rest is a conflict. Conflicts are then refined as at git's default merge level (zealous): the lines
both sides share inside a conflict come out as common lines, and conflicts with at most three lines
between them are joined again, as git prints them.

Every hunk keeps the exact tokens of all three sides: concatenating the ``ours`` (or ``base``, or
``theirs``) parts of the hunks gives that side back unchanged. A merge built on this can only drop
what one side deleted and the other left alone.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Generic, Literal, TypeVar

T = TypeVar("T", bound=Hashable)
Kind = Literal["stable", "ours", "theirs", "both", "conflict"]
# Beyond this many differences the exact diff costs quadratic memory; difflib takes over.
MAX_EDIT_DISTANCE = 1000
JOIN_GAP = 3  # git joins conflicts separated by this many lines or fewer


@dataclass(frozen=True)
class Hunk(Generic[T]):
    """One region of the merge. ``stable`` regions are the same on both sides."""

    ours: tuple[T, ...]
    base: tuple[T, ...]
    theirs: tuple[T, ...]
    kind: Kind

    @property
    def conflict(self) -> bool:
        return self.kind == "conflict"

    def resolved(self) -> tuple[T, ...]:
        if self.kind == "conflict":
            raise ValueError("a conflict has no single resolution")
        return self.theirs if self.kind == "theirs" else self.ours


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


def _regions(ours: list[Change], theirs: list[Change]) -> list[tuple[list[Change], list[Change]]]:
    """Group the changes of both sides whose base ranges overlap or touch."""
    tagged = sorted([(c[0], c[1], 0, c) for c in ours] + [(c[0], c[1], 1, c) for c in theirs])
    regions: list[tuple[list[Change], list[Change]]] = []
    end = -1
    for start, stop, side, change in tagged:
        if not regions or start > end:
            regions.append(([], []))
            end = stop
        regions[-1][side].append(change)
        end = max(end, stop)
    return regions


def merge(base: Sequence[T], ours: Sequence[T], theirs: Sequence[T], *,
          keep_apart: Callable[[T], bool] | None = None) -> list[Hunk[T]]:
    """The hunks of a three-way merge, in order. Stable runs holding a ``keep_apart`` token are
    never swallowed when close conflicts are joined."""
    hunks: list[Hunk[T]] = []
    b = o = t = 0  # how far each side has been consumed
    for mine, other in _regions(diff(base, ours), diff(base, theirs)):
        b0 = min(c[0] for c in mine + other)
        b1 = max(c[1] for c in mine + other)
        stable = tuple(base[b:b0])
        if stable:
            hunks.append(Hunk(stable, stable, stable, "stable"))
        o0, t0 = o + (b0 - b), t + (b0 - b)
        o1 = mine[-1][3] + (b1 - mine[-1][1]) if mine else o0 + (b1 - b0)
        t1 = other[-1][3] + (b1 - other[-1][1]) if other else t0 + (b1 - b0)
        o_part, b_part, t_part = tuple(ours[o0:o1]), tuple(base[b0:b1]), tuple(theirs[t0:t1])
        if not other:
            hunks.append(Hunk(o_part, b_part, t_part, "ours"))
        elif not mine:
            hunks.append(Hunk(o_part, b_part, t_part, "theirs"))
        elif o_part == t_part:
            hunks.append(Hunk(o_part, b_part, t_part, "both"))
        else:
            hunks.extend(_refine(o_part, b_part, t_part))
        b, o, t = b1, o1, t1
    rest = tuple(base[b:])
    if rest:
        hunks.append(Hunk(rest, rest, rest, "stable"))
    return _join_close_conflicts(_coalesce(hunks), keep_apart)


def _coalesce(hunks: list[Hunk[T]]) -> list[Hunk[T]]:
    """Adjacent stable hunks as one."""
    out: list[Hunk[T]] = []
    for hunk in hunks:
        if out and hunk.kind == "stable" and out[-1].kind == "stable":
            last = out.pop()
            hunk = Hunk(last.ours + hunk.ours, last.base + hunk.base, last.theirs + hunk.theirs, "stable")
        out.append(hunk)
    return out


def _refine(ours: tuple[T, ...], base: tuple[T, ...], theirs: tuple[T, ...]) -> list[Hunk[T]]:
    """Split a conflict at the lines both sides share; the base goes with the first conflict."""
    if not ours or not theirs:
        return [Hunk(ours, base, theirs, "conflict")]
    hunks: list[Hunk[T]] = []
    base_left = base
    o = t = 0
    for o0, o1, t0, t1 in diff(ours, theirs):
        if o0 > o:
            common = ours[o:o0]
            hunks.append(Hunk(common, (), common, "stable"))
        hunks.append(Hunk(ours[o0:o1], base_left, theirs[t0:t1], "conflict"))
        base_left = ()
        o, t = o1, t1
    if o < len(ours):
        common = ours[o:]
        hunks.append(Hunk(common, (), common, "stable"))
    return hunks


def _join_close_conflicts(hunks: list[Hunk[T]], keep_apart: Callable[[T], bool] | None) -> list[Hunk[T]]:
    """Conflicts with at most JOIN_GAP stable lines between them become one conflict."""
    out: list[Hunk[T]] = []
    for hunk in hunks:
        out.append(hunk)
        if not hunk.conflict or len(out) < 3:
            continue
        gap, previous = out[-2], out[-3]
        if keep_apart is not None and any(keep_apart(token) for token in gap.ours):
            continue
        if gap.kind == "stable" and previous.conflict and len(gap.ours) <= JOIN_GAP:
            del out[-3:]
            out.append(Hunk(previous.ours + gap.ours + hunk.ours, previous.base + gap.base + hunk.base,
                            previous.theirs + gap.theirs + hunk.theirs, "conflict"))
    return out


@dataclass(frozen=True)
class Markers:
    """Conflict marker lines, as git writes them (``--marker-size``, labels, the file's newline)."""

    size: int = 7
    ours_label: str = "ours"
    theirs_label: str = "theirs"
    newline: str = "\n"

    def begin(self) -> str:
        return f"{'<' * self.size} {self.ours_label}{self.newline}"

    def middle(self) -> str:
        return f"{'=' * self.size}{self.newline}"

    def end(self) -> str:
        return f"{'>' * self.size} {self.theirs_label}{self.newline}"


def _end_line(out: list[str], newline: str) -> None:
    """Text follows: the line before it must end (a file's last line may have had no newline)."""
    if out and not out[-1].endswith("\n"):
        out[-1] += newline


def render(hunks: Sequence[Hunk[T]], show: Callable[[T], str], markers: Markers) -> tuple[str, int]:
    """Merged text and the number of conflicts. A side whose last line has no newline gets one
    before the next marker, as git does."""
    out: list[str] = []
    conflicts = 0
    for hunk in hunks:
        if not hunk.conflict:
            for token in hunk.resolved():
                _end_line(out, markers.newline)
                out.append(show(token))
            continue
        conflicts += 1
        _end_line(out, markers.newline)
        out.append(markers.begin())
        out.extend(show(token) for token in hunk.ours)
        _end_line(out, markers.newline)
        out.append(markers.middle())
        out.extend(show(token) for token in hunk.theirs)
        _end_line(out, markers.newline)
        out.append(markers.end())
    return "".join(out), conflicts


def split_lines(text: str) -> list[str]:
    """Lines with their endings; only ``\\n`` ends a line, as in git (``\\r`` stays in the line)."""
    lines = text.split("\n")
    result = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        result.append(lines[-1])
    return result
