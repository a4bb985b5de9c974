"""Three-way merge of MEMORY.md for git's merge driver: the managed section as entries, the
user's text around it line by line. Pure: three byte strings in, bytes and a conflict count out.

The managed section is merged by record id, never by line: an entry added on either side is
kept, one removed on either side (forget, retire, promote, a revision replacing it) stays removed,
an entry whose line only one side changed takes that change, and ids both sides list collapse
into one line. Order follows ours; when only theirs reordered the entries they had in common with
the base, theirs. The other side's additions keep their place beside their neighbours on that
side: right below the entry above them, or, when they were on top there (new entries go on top,
R28), right above the entry below them; so ours' first line stays first. With no neighbour
left, they follow ours' entries.

The text outside the markers is merged like ``git merge-file``, with the whole section standing in
as one line, so it may move only as a unit; only there can conflicts remain. Anything the entry
merge cannot place (broken markers or index lines on a side, the section moved differently on
both sides, one side deleted it while the other changed it) falls back to a plain three-way text
merge of the whole file, which never loses a byte of either side.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from chord_git.support.dataclass_lazy import dataclass, replace
from chord_git.memory import diff3, index_file
from chord_git.memory.index_file import Blank, Entry, Line, MemoryDoc

# Problems that do not stop the entry merge: bytes outside the markers merge as text, and a
# duplicated id is exactly what the merge collapses anyway.
_TOLERATED = frozenset({"encoding-outside", "index-duplicate"})
_MOVED = "the managed section was moved or removed differently on the two sides; merged as plain text"
_UNPLACEABLE = "one side removed or repeated the managed section, the other changed it; merged as plain text"
_UNPARSABLE = "the entry merge would not parse as MEMORY.md; merged as plain text"
# Above this many lines per side a line diff costs more than it can be worth for an index.
MAX_LINES = 50_000


@dataclass(frozen=True)
class MergeResult:
    data: bytes
    conflicts: int
    entries_merged: bool  # False: the whole file went through the plain text merge
    notes: tuple[str, ...] = ()

    @property
    def clean(self) -> bool:
        return self.conflicts == 0


class _Section:
    """Stands for the whole managed section among the user's lines."""

    def __repr__(self) -> str:
        return "<managed section>"


SECTION = _Section()
Token = str | _Section


@dataclass(frozen=True)
class _Side:
    bom: bool
    tokens: tuple[Token, ...]
    doc: MemoryDoc

    @property
    def lines(self) -> tuple[Line, ...]:
        return self.doc.lines if self.doc.has_markers else ()


def _read(data: bytes, label: str, path: str) -> _Side | str:
    text, bom = index_file.decode(data)
    doc, problems = index_file.parse(text, bom=bom)
    serious = [p for p in problems if p.kind not in _TOLERATED]
    if doc is None or serious:
        return f"{label} side: {(serious or problems)[0].at(path)}"
    if not doc.has_markers:
        return _Side(bom, tuple(diff3.split_lines(text)), doc)
    before = diff3.split_lines(doc.prefix)[:-1]
    after = diff3.split_lines(doc.suffix)[1:]
    return _Side(bom, (*before, SECTION, *after), doc)


def _marker_lines(doc: MemoryDoc) -> tuple[str, str]:
    """The begin line with its ending and the end line with its own (possibly none)."""
    return diff3.split_lines(doc.prefix)[-1], diff3.split_lines(doc.suffix)[0]


def _reordered(side: Sequence[str], base: Sequence[str]) -> bool:
    common = set(side) & set(base)
    return [i for i in side if i in common] != [i for i in base if i in common]


def _pick(rid: str, ours: Entry | None, base: Entry | None, theirs: Entry | None,
          notes: list[str]) -> tuple[Entry, bool]:
    """The line to keep for an id, and whether it is ours' own line."""
    if ours is None or theirs is None:
        chosen = ours or theirs
        assert chosen is not None
        return chosen, ours is not None
    if ours.render() == theirs.render():
        return ours, True
    if base is not None and ours.render() == base.render():
        return theirs, False
    if base is None or theirs.render() != base.render():
        notes.append(f"entry {rid} was changed on both sides; kept ours")
    return ours, True


def merge_entries(base: Sequence[Line], ours: Sequence[Line], theirs: Sequence[Line]
                  ) -> tuple[list[Line], list[str]]:
    """The merged lines of the managed section, and notes for the user. Lines taken from theirs
    lose their own line ending, so they are written with ours' newline."""
    notes: list[str] = []
    maps = [{line.id: line for line in side if isinstance(line, Entry)} for side in (base, ours, theirs)]
    b_map, o_map, t_map = maps

    def survives(rid: str) -> bool:
        if rid in b_map:
            return rid in o_map and rid in t_map
        return rid in o_map or rid in t_map

    theirs_first = _reordered(list(t_map), list(b_map)) and not _reordered(list(o_map), list(b_map))
    primary, secondary = (theirs, ours) if theirs_first else (ours, theirs)
    primary_ids = {line.id for line in primary if isinstance(line, Entry)}

    # The other side's new entries, in runs between the surviving entries around them there.
    after: dict[str, list[Entry]] = {}
    before: dict[str, list[Entry]] = {}
    alone: list[Entry] = []  # no neighbour of theirs survived: after ours' entries
    above: str | None = None
    run: list[Entry] = []
    for line in secondary:
        if not isinstance(line, Entry) or not survives(line.id):
            continue
        if line.id not in primary_ids:
            run.append(line)
            continue
        if run:
            (after.setdefault(above, []) if above else before.setdefault(line.id, [])).extend(run)
            run = []
        above = line.id
    if run:
        (after.setdefault(above, []) if above else alone).extend(run)

    def emit(line: Line) -> Line:
        if isinstance(line, Blank):
            return replace(line, eol=None) if theirs_first else line
        chosen, own = _pick(line.id, o_map.get(line.id), b_map.get(line.id), t_map.get(line.id), notes)
        return chosen if own else replace(chosen, eol=None)

    merged: list[Line] = []
    for line in primary:
        if isinstance(line, Entry) and not survives(line.id):
            continue
        if isinstance(line, Entry):
            merged.extend(emit(e) for e in before.get(line.id, []))
        merged.append(emit(line))
        if isinstance(line, Entry):
            merged.extend(emit(e) for e in after.get(line.id, []))
    merged.extend(emit(e) for e in alone)
    return merged, notes


def _newline_of(data: bytes) -> str:
    first = data.find(b"\n")
    return "\r\n" if first > 0 and data[first - 1:first] == b"\r" else "\n"


def text_merge(base: bytes, ours: bytes, theirs: bytes, *, marker_size: int = 7,
               notes: Sequence[str] = ()) -> MergeResult:
    """A plain three-way merge of the whole file, bytes in and out, with git's conflict markers
    (written with ours' newline)."""
    markers = diff3.Markers(size=marker_size, newline=_newline_of(ours))
    if ours == theirs or theirs == base:
        return MergeResult(ours, 0, False, tuple(notes))
    if ours == base:
        return MergeResult(theirs, 0, False, tuple(notes))
    sides = [diff3.split_lines(data.decode("utf-8", "surrogateescape")) for data in (base, ours, theirs)]
    if max(len(lines) for lines in sides) > MAX_LINES:
        # Too big to diff: one conflict holding both whole sides, so nothing is lost.
        hunks = [diff3.Hunk(tuple(sides[1]), tuple(sides[0]), tuple(sides[2]), "conflict")]
        notes = (*notes, f"more than {MAX_LINES} lines: not diffed, both sides kept whole")
    else:
        hunks = diff3.merge(*sides)
    text, conflicts = diff3.render(hunks, str, markers)
    return MergeResult(text.encode("utf-8", "surrogateescape"), conflicts, False, tuple(notes))


def merge_memory(base: bytes, ours: bytes, theirs: bytes, *, path: str = "MEMORY.md",
                 marker_size: int = 7) -> MergeResult:
    """Merge three versions of a MEMORY.md (``%O %A %B`` of a git merge driver)."""
    markers = diff3.Markers(size=marker_size, newline=_newline_of(ours))
    read = [_read(data, label, path) for data, label in ((base, "base"), (ours, "ours"), (theirs, "theirs"))]
    b, o, t = read
    if not isinstance(b, _Side) or not isinstance(o, _Side) or not isinstance(t, _Side):
        reason = next(r for r in read if isinstance(r, str))
        return text_merge(base, ours, theirs, marker_size=marker_size, notes=(f"{reason}; merged as plain text",))
    if max(len(side.tokens) for side in (b, o, t)) > MAX_LINES:
        return text_merge(base, ours, theirs, marker_size=marker_size)
    hunks = diff3.merge(b.tokens, o.tokens, t.tokens, keep_apart=lambda token: token is SECTION)
    if any(h.conflict and SECTION in (*h.ours, *h.base, *h.theirs) for h in hunks):
        return text_merge(base, ours, theirs, marker_size=marker_size, notes=(_MOVED,))
    lines, notes = merge_entries(b.lines, o.lines, t.lines)
    placed = sum(token is SECTION for h in hunks if not h.conflict for token in h.resolved())
    if placed > 1 or placed == 0 and any(isinstance(line, Entry) for line in lines):
        return text_merge(base, ours, theirs, marker_size=marker_size, notes=(_UNPLACEABLE,))
    owner = next(side.doc for side in (o, t, b) if side.doc.has_markers) if placed else None
    text, conflicts = diff3.render(hunks, _section_renderer(owner, lines), markers)
    bom = t.bom if o.bom == b.bom else o.bom
    data = index_file.encode(text, bom)
    if not _valid(text, [line.id for line in lines if isinstance(line, Entry)]):
        return text_merge(base, ours, theirs, marker_size=marker_size, notes=(_UNPARSABLE,))
    return MergeResult(data, conflicts, True, tuple(notes))


def _section_renderer(owner: MemoryDoc | None, lines: Sequence[Line]) -> Callable[[Token], str]:
    def show(token: Token) -> str:
        if isinstance(token, str):
            return token
        assert owner is not None
        begin, end = _marker_lines(owner)
        body = "".join(line.render() + (line.eol or owner.newline) for line in lines)
        return begin + body + end

    return show


def _valid(text: str, ids: list[str]) -> bool:
    doc, problems = index_file.parse(text)
    return doc is not None and index_file.blocking(problems) is None and doc.ids() == ids
