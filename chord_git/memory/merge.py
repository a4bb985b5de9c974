"""Three-way merge of MEMORY.md for git's merge driver: the managed section as entries, the
user's text around it by ``git merge-file``. Three byte strings in, bytes and a conflict count out.

The managed section is merged by record id, never by line: an entry added on either side is
kept, one removed on either side (forget, retire, promote, a revision replacing it) stays removed,
an entry whose line only one side changed takes that change, and ids both sides list collapse
into one line. Order follows ours; when only theirs reordered the entries they had in common with
the base, theirs. The other side's additions keep their place beside their neighbours on that
side: right below the entry above them, or, when they were on top there (new entries go on top,
R28), right above the entry below them; so ours' first line stays first. With no neighbour
left, they follow ours' entries.

The text outside the markers is merged by ``git merge-file`` itself, in the user's conflict
style, marker size and labels, with the whole section standing in as one block of placeholder
lines, the same on every side: it may move only as a unit, and a conflict is never joined across
it. Only there can conflicts remain. Anything the entry merge cannot place (broken markers or
index lines on a side, the section in a conflict or moved differently on both sides, one side
deleted it while the other changed it) falls back to ``git merge-file`` on the whole file, which
never loses a byte of either side.

One thing is never merged in at all: an index line of theirs holding a character ``chars``
refuses (a line break other than ``\n``, a control, an invisible character) that neither ours nor
the base has. Such a line reads as two lines, or as other text, everywhere but in our parser,
and a plain text merge would carry it into the result; so the result is ours, conflicted, and
git keeps theirs in the index for the user to look at.
"""
from __future__ import annotations

import os
from collections.abc import Sequence

from chord_git.git import command
from chord_git.memory import chars, index_file
from chord_git.memory.index_file import Blank, Entry, Line, MemoryDoc
from chord_git.support.dataclass_lazy import dataclass, replace

# Problems that do not stop the entry merge: bytes outside the markers merge as text, and a
# duplicated id is exactly what the merge collapses anyway.
_TOLERATED = frozenset({"encoding-outside", "index-duplicate"})
_MOVED = ("the managed section was moved or removed differently on the two sides, or a conflict took it in; "
          "merged as plain text")
_UNPLACEABLE = "one side removed or repeated the managed section, the other changed it; merged as plain text"
_UNPARSABLE = "the entry merge would not parse as MEMORY.md; merged as plain text"
_BINARY = "git merges no file holding a NUL byte as text; left as ours, conflicted"
STYLES = ("merge", "diff3", "zdiff3")
# git calls a file binary when a NUL byte sits in its first 8,000 bytes (and then merges nothing).
_BINARY_PROBE = 8000
# More than three lines (with letters) between two conflicts keep git from joining them: the
# placeholder block is four, so the section never ends up inside a joined conflict.
_BLOCK_LINES = 4


@dataclass(frozen=True)
class Markers:
    """How conflicts are written, as git would write them without the driver: the marker size
    (git's ``%L``), ``merge.conflictStyle`` and the three labels."""

    size: int = 7
    style: str = "merge"
    ours: str = "ours"
    base: str = "base"
    theirs: str = "theirs"


@dataclass(frozen=True)
class MergeResult:
    data: bytes
    conflicts: int
    entries_merged: bool  # False: the whole file went through the plain text merge
    notes: tuple[str, ...] = ()

    @property
    def clean(self) -> bool:
        return self.conflicts == 0


@dataclass(frozen=True)
class _Side:
    bom: bool
    text: str  # without the BOM
    doc: MemoryDoc

    @property
    def lines(self) -> tuple[Line, ...]:
        return self.doc.lines if self.doc.has_markers else ()

    def section(self) -> tuple[str, str, str, str] | None:
        """(text before the begin line, the begin line, the end line, text after it), line endings
        kept; None without markers."""
        if not self.doc.has_markers:
            return None
        prefix, suffix = self.doc.prefix, self.doc.suffix
        cut = prefix.rfind("\n", 0, len(prefix) - 1) + 1
        newline = suffix.find("\n")
        end = suffix[:newline + 1] if newline >= 0 else suffix
        return prefix[:cut], prefix[cut:], end, suffix[len(end):]


def _read(data: bytes, label: str, path: str) -> _Side | str:
    text, bom = index_file.decode(data)
    doc, problems = index_file.parse(text, bom=bom)
    serious = [p for p in problems if p.kind not in _TOLERATED]
    if doc is None or serious:
        return f"{label} side: {(serious or problems)[0].at(path)}"
    return _Side(bom, text, doc)


def _brought_in(base: bytes, ours: bytes, theirs: bytes, path: str) -> str | None:
    """Why theirs may not be merged: the first line of its managed section that holds a character
    ``chars`` refuses and that neither ours nor the base holds (a line both already hold is not
    the merge's doing: the text merge keeps it as it is). None when there is none."""
    text, _bom = index_file.decode(theirs)
    if chars.first(text) is None:
        return None  # the usual case: one search
    doc, problems = index_file.parse(text)
    if doc is None:
        return None  # no section to read: the whole file merges as text, as with any broken markers
    known = {line.rstrip("\r") for data in (base, ours) for line in index_file.decode(data)[0].split("\n")}
    lines = text.split("\n")
    for problem in problems:
        if problem.kind != "index-line" or problem.line is None:
            continue
        line = lines[problem.line - 1].rstrip("\r")
        if chars.first(line.rstrip()) is not None and line not in known:  # as parse_entry reads it
            return f"theirs side: {problem.at(path)}"
    return None


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


def _eol(line: str) -> str:
    return "\r\n" if line.endswith("\r\n") else "\n" if line.endswith("\n") else ""


def _token(*sides: bytes) -> str:
    """A word none of the sides holds: it marks the placeholder and the labels git is given, so
    every line holding it is ours to read. Random, so no input can plant it; the result does not
    depend on it (the labels are put back, the placeholder replaced)."""
    while True:
        token = f"chord-merge-{os.urandom(8).hex()}"
        if not any(token.encode() in side for side in sides):
            return token


@dataclass(frozen=True)
class _Merged:
    """git's merge with the caller's labels put back: the lines (line endings kept), for each
    whether it is inside a conflict (its marker lines included), and the number of conflicts."""

    lines: list[bytes]
    in_conflict: list[bool]
    conflicts: int


def _split(data: bytes) -> list[bytes]:
    """Lines with their endings; only ``\\n`` ends a line, as in git."""
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _git_merge(base: bytes, ours: bytes, theirs: bytes, markers: Markers, token: str) -> _Merged:
    """``git merge-file`` with ``token`` in the labels, so marker lines cannot be mistaken for the
    user's own lines; then the caller's labels, exactly where git would have printed them."""
    status, out = command.merge_file(base, ours, theirs, labels=(f"{token} ours", f"{token} base", f"{token} theirs"),
                                     marker_size=markers.size, style=markers.style)
    labels = {b"<": os.fsencode(markers.ours), b"|": os.fsencode(markers.base), b">": os.fsencode(markers.theirs)}
    mark = token.encode()
    lines = _split(out)
    in_conflict: list[bool] = []
    conflicts = 0
    inside = False
    for number, line in enumerate(lines):
        kind = line[:1]
        if mark in line and kind in labels:
            eol = b"\r\n" if line.endswith(b"\r\n") else b"\n"
            lines[number] = kind * markers.size + b" " + labels[kind] + eol
            if kind == b"<":
                conflicts += 1
                inside = True
            in_conflict.append(True)
            if kind == b">":
                inside = False
            continue
        in_conflict.append(inside)
    if min(conflicts, 127) != status:
        raise RuntimeError(f"git merge-file reported {status} conflicts, its output holds {conflicts}")
    return _Merged(lines, in_conflict, conflicts)


def _binary(*sides: bytes) -> bool:
    return any(b"\0" in side[:_BINARY_PROBE] for side in sides)


def text_merge(base: bytes, ours: bytes, theirs: bytes, *, markers: Markers = Markers(),
               notes: Sequence[str] = ()) -> MergeResult:
    """``git merge-file`` on the whole file, bytes in and out, in the caller's conflict style,
    marker size and labels. A file git calls binary stays ours, conflicted, as git leaves it."""
    if ours == theirs or theirs == base:
        return MergeResult(ours, 0, False, tuple(notes))
    if ours == base:
        return MergeResult(theirs, 0, False, tuple(notes))
    if _binary(base, ours, theirs):
        return MergeResult(ours, 1, False, (*notes, _BINARY))
    merged = _git_merge(base, ours, theirs, markers, _token(base, ours, theirs))
    return MergeResult(b"".join(merged.lines), merged.conflicts, False, tuple(notes))


def _stand_in(side: _Side, block: Sequence[str]) -> tuple[bytes, str | None]:
    """The side's text with its managed section replaced by the placeholder block, and the
    section as it was (None without one). The block's lines end as the begin line does, its last
    as the end line does: git looks at the line endings around a conflict to write its markers."""
    parts = side.section()
    if parts is None:
        return side.text.encode("utf-8", "surrogateescape"), None
    before, begin, end, after = parts
    stand_in = "".join(line + _eol(begin) for line in block[:-1]) + block[-1] + _eol(end)
    section = side.text[len(before):len(side.text) - len(after)]
    return (before + stand_in + after).encode("utf-8", "surrogateescape"), section


def _placed(merged: _Merged, block: Sequence[str], token: str) -> list[int] | None:
    """Where the placeholder block stands whole, outside every conflict, in git's merge; None when
    any of its lines is inside a conflict or apart from the others."""
    mark = token.encode()
    lines = merged.lines
    found = [n for n, line in enumerate(lines) if mark in line and line[:1] not in (b"<", b"|", b">")]
    starts = [n for n in found if lines[n].rstrip(b"\r\n") == block[0].encode()]
    if any(merged.in_conflict[n] for n in found) or len(found) != len(block) * len(starts):
        return None
    for start in starts:
        if [line.rstrip(b"\r\n") for line in lines[start:start + len(block)]] != [b.encode() for b in block]:
            return None
    return starts


def merge_memory(base: bytes, ours: bytes, theirs: bytes, *, path: str = "MEMORY.md",
                 markers: Markers = Markers()) -> MergeResult:
    """Merge three versions of a MEMORY.md (``%O %A %B`` of a git merge driver)."""
    if ours != theirs and theirs != base:
        refused = _brought_in(base, ours, theirs, path)
        if refused is not None:
            return MergeResult(ours, 1, False, (f"{refused}; not merged: left as ours, conflicted",))
    read = [_read(data, label, path) for data, label in ((base, "base"), (ours, "ours"), (theirs, "theirs"))]
    b, o, t = read
    if not isinstance(b, _Side) or not isinstance(o, _Side) or not isinstance(t, _Side):
        reason = next(r for r in read if isinstance(r, str))
        return text_merge(base, ours, theirs, markers=markers, notes=(f"{reason}; merged as plain text",))
    if _binary(base, ours, theirs):
        return text_merge(base, ours, theirs, markers=markers)
    lines, notes = merge_entries(b.lines, o.lines, t.lines)
    token = _token(base, ours, theirs)
    block = [f"{token} managed section {n}" for n in range(1, _BLOCK_LINES + 1)]
    (b_text, b_section), (o_text, o_section), (t_text, t_section) = (_stand_in(side, block) for side in (b, o, t))
    merged = _git_merge(b_text, o_text, t_text, markers, token)
    starts = _placed(merged, block, token)
    if starts is None:
        return text_merge(base, ours, theirs, markers=markers, notes=(_MOVED,))
    changed = any(section is not None and section != b_section for section in (o_section, t_section))
    if len(starts) > 1 or not starts and changed:
        # Placed twice, or removed by one side while the other changed it: that change must not
        # vanish with the section, so the whole file conflicts.
        return text_merge(base, ours, theirs, markers=markers, notes=(_UNPLACEABLE,))
    out = merged.lines
    if starts:
        owner = next(side for side in (o, t, b) if side.doc.has_markers)
        parts = owner.section()
        assert parts is not None
        _before, begin, end, _after = parts
        at = starts[0]
        last = out[at + len(block) - 1]
        body = "".join(line.render() + (line.eol or owner.doc.newline) for line in lines)
        section = (begin + body + end.rstrip("\r\n")).encode("utf-8", "surrogateescape")
        # The end line ends as git left the block's last line: the section may have become the
        # last line of the file, or stopped being it.
        out = [*out[:at], section + last[len(last.rstrip(b"\r\n")):], *out[at + len(block):]]
    text = b"".join(out).decode("utf-8", "surrogateescape")
    if not _valid(text, [line.id for line in lines if isinstance(line, Entry)], placed=bool(starts)):
        return text_merge(base, ours, theirs, markers=markers, notes=(_UNPARSABLE,))
    bom = t.bom if o.bom == b.bom else o.bom
    return MergeResult(index_file.encode(text, bom), merged.conflicts, True, tuple(notes))


def _valid(text: str, ids: list[str], *, placed: bool) -> bool:
    """Whether the result reads back as merged: its entries, and a section exactly when one was
    placed (a fence a conflict left open hides even an empty one)."""
    doc, problems = index_file.parse(text)
    return (doc is not None and index_file.blocking(problems) is None and doc.has_markers == placed
            and doc.ids() == ids)
