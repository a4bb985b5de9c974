"""A three-way line merge with git's rules: pure, over any hashable tokens.

Both sides are diffed against the base (``linediff``: a minimal diff compacted as git does).
Changes of the two sides that overlap *or touch* form one region; a region only one side changed
takes that side, identical changes are taken once, and the rest is a conflict. Conflicts are then refined as at git's default merge level (zealous): the lines
both sides share inside a conflict come out as common lines, and conflicts with at most three lines
between them are joined again, as git prints them.

Every hunk keeps the exact tokens of all three sides: concatenating the ``ours`` (or ``base``, or
``theirs``) parts of the hunks gives that side back unchanged. A merge built on this can only drop
what one side deleted and the other left alone.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Generic, Literal, TypeVar

from chord_git.support.dataclass_lazy import dataclass
from chord_git.memory.linediff import Change, diff

T = TypeVar("T", bound=Hashable)
Kind = Literal["stable", "ours", "theirs", "both", "conflict"]
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
    o = 0
    for o0, o1, t0, t1 in diff(ours, theirs):
        if o0 > o:
            common = ours[o:o0]
            hunks.append(Hunk(common, (), common, "stable"))
        hunks.append(Hunk(ours[o0:o1], base_left, theirs[t0:t1], "conflict"))
        base_left = ()
        o = o1
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
