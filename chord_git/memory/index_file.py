"""MEMORY.md: parse and render the managed section, and apply a change to it (R1, R28, R32, R34).

``parse`` is the grammar. The readers that take short cuts for speed live beside it and are held
to it by ``tests/memory/test_index_readers.py``: ``clean_section`` below (the usual shape, for
``status``) and ``index_stream`` (line by line within the budget, for a session's summary).

The file is decoded with ``surrogateescape`` so that bytes the tool does not own (BOM, CRLF,
invalid UTF-8 outside the markers) come back out exactly as they went in. Parsing and rendering
are pure; reading and writing the file is the store's job.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cached_property

from chord_git.support.dataclass_lazy import dataclass, field, replace
from chord_git.errors import InputError
from chord_git.findings import Problem
from chord_git.memory import chars
from chord_git.memory.records import ID_RE, RECORD_TYPES, valid_id
from chord_git.support.regex_lazy import lazy

BEGIN = "<!-- chord:memory:begin -->"
END = "<!-- chord:memory:end -->"
BOM = "\ufeff"
DEFAULT_HEADER = "# Project memory\n\n"

MARKER_RE = re.compile(r"^\s*<!--\s*chord:memory:(begin|end)\s*-->\s*$")
FENCE_RE = re.compile(r"^\s{0,3}(```|~~~)")
_TYPES = frozenset(RECORD_TYPES)
ENTRY_RE = re.compile(
    r"^- \[(?P<type>[^\]\s]+)\] (?P<summary>.*\S) "
    r"\(\[(?P<id>[^\]]*)\]\(\.chord/memory/records/(?P<file>[^)]*)\.md\)\)\s*$"
)


@dataclass(frozen=True)
class Entry:
    type: str
    summary: str
    id: str
    raw: str | None = None  # the user's exact line, kept when the entry itself is untouched
    line: int | None = field(default=None, compare=False)  # where it was parsed, for reports
    eol: str | None = field(default=None, compare=False)  # its own line ending, when parsed

    def render(self) -> str:
        if self.raw is not None:
            return self.raw  # read by ``parse``, which refuses what ``chars`` refuses
        # A summary with a line break of its own would write a line that reads as two (``chars``).
        chars.require(self.summary, f"index entry {self.id}: summary", one_line=True)
        return f"- [{self.type}] {self.summary} ([{self.id}](.chord/memory/records/{self.id}.md))"


@dataclass(frozen=True)
class Blank:
    raw: str = ""
    eol: str | None = None

    def render(self) -> str:
        return self.raw


Line = Entry | Blank


@dataclass(frozen=True)
class MemoryDoc:
    """A parsed MEMORY.md. Without markers, ``prefix`` is the whole file and ``lines`` is empty."""

    prefix: str
    lines: tuple[Line, ...]
    suffix: str
    newline: str
    has_markers: bool
    bom: bool = False

    @cached_property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(line for line in self.lines if isinstance(line, Entry))

    def ids(self) -> list[str]:
        return [entry.id for entry in self.entries]


@dataclass(frozen=True)
class IndexDelta:
    """A change to the managed section, applied to whatever the file holds at write time."""

    insert: tuple[Entry, ...] = ()  # new entries, placed on top in this order (R28)
    remove: frozenset[str] = frozenset()  # ids whose lines go (R25, R26, R34)
    replace: Mapping[str, Entry] = field(default_factory=dict)  # old id -> revision, in place (R22)

    def is_empty(self) -> bool:
        return not (self.insert or self.remove or self.replace)


@dataclass
class MarkerScanner:
    """Finds the markers one line at a time, as the parser and the streaming summary both read them.

    A marker line inside a fenced code block outside the managed section is text (a note may show
    the markers as an example); inside the section there are no fences, only entries. Only the
    first begin and the first end after it delimit the section; the caller judges the rest.
    """

    begin_at: int | None = None
    end_at: int | None = None
    in_fence: bool = False

    @property
    def inside(self) -> bool:
        return self.begin_at is not None and self.end_at is None

    def feed(self, number: int, content: str) -> str | None:
        """``"begin"`` or ``"end"`` when line ``number`` (its text, no line end) is a marker."""
        if not self.inside and FENCE_RE.match(content):
            self.in_fence = not self.in_fence
            return None
        marker = None if self.in_fence else MARKER_RE.match(content)
        if marker is None:
            return None
        kind = marker.group(1)
        if kind == "begin" and self.begin_at is None:
            self.begin_at = number
        elif kind == "end" and self.inside:
            self.end_at = number
        return kind


def line_cost(text: str) -> int:
    """Characters of the summary budget one index line takes: its text and its line end (R28)."""
    return len(text) + 1


def index_chars(lines: Iterable[str]) -> int:
    """Characters the given index lines take of the budget together."""
    return sum(line_cost(text) for text in lines)


def fit_count(lines: Iterable[str], budget: int) -> int:
    """How many index lines, from the top, a summary of ``budget`` characters injects (R28)."""
    used = 0
    count = 0
    for text in lines:
        if used + line_cost(text) > budget:
            break
        used += line_cost(text)
        count += 1
    return count


# Byte order marks of the encodings that are not ASCII-compatible (UTF-32 LE's before UTF-16 LE's,
# which it starts with): a Windows editor's "Unicode" is UTF-16 with a BOM.
_FOREIGN_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32", "little-endian"), (b"\x00\x00\xfe\xff", "UTF-32", "big-endian"),
                 (b"\xff\xfe", "UTF-16", "little-endian"), (b"\xfe\xff", "UTF-16", "big-endian"))
FOREIGN_PROBE = 4096  # bytes looked at for NULs: a file with many is not UTF-8 text


def foreign_encoding(data: bytes) -> str | None:
    """The encoding of a MEMORY.md that is not UTF-8 text at all, or None (pure).

    Such a file cannot take our UTF-8 lines (appended, they are garbage to the editor that wrote
    it, and the file is garbage to us), nor be read as text. Known by its byte order mark, or,
    without one, by its NUL bytes: UTF-16 and UTF-32 put one beside every ASCII character, and
    UTF-8 text holds none (a stray one in a line is that line's problem, ``chars``)."""
    for bom, name, order in _FOREIGN_BOMS:
        if data.startswith(bom):
            return f"{name} ({order}, by its byte order mark)"
    head = data[:FOREIGN_PROBE]
    if len(head) >= 2 and head.count(0) * 8 >= len(head):
        return "UTF-16 or UTF-32 (no byte order mark, but NUL bytes between its characters)"
    return None


def foreign_problem(data: bytes) -> Problem | None:
    """The problem of a MEMORY.md in another encoding than UTF-8 (``foreign_encoding``), if any."""
    foreign = foreign_encoding(data)
    if foreign is None:
        return None
    return Problem(None, "file-encoding", f"the file is {foreign}, not UTF-8; save it as UTF-8")


def decode(data: bytes) -> tuple[str, bool]:
    """Text and whether a UTF-8 BOM was present."""
    bom = data.startswith(b"\xef\xbb\xbf")
    if bom:
        data = data[3:]
    return data.decode("utf-8", "surrogateescape"), bom


def encode(text: str, bom: bool) -> bytes:
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8", "surrogateescape")


def _newline_of(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def parse_entry(line: str, number: int | None = None, eol: str | None = None) -> Entry | str:
    """An Entry (parsed at line ``number``, ending with ``eol``), or a one-line reason the line is not one."""
    # First: a line break other than "\n" in the line shows it as two lines everywhere but here
    # (at its end it is trailing space, as the grammar allows, and forges nothing).
    unsafe = chars.problem(line.rstrip(), one_line=True)
    if unsafe is not None:
        return f"the line {unsafe}"
    match = ENTRY_RE.match(line)
    if not match:
        return "not an index entry (expected '- [type] summary ([id](.chord/memory/records/id.md))')"
    kind, summary, rid, file_id = match["type"], match["summary"], match["id"], match["file"]
    if kind not in RECORD_TYPES:
        return f"unknown type [{kind}] (expected one of {', '.join(RECORD_TYPES)})"
    if not valid_id(rid):
        return f"invalid record id {rid!r}"
    if file_id != rid:
        return f"link target {file_id}.md does not match id {rid}"
    return Entry(type=kind, summary=summary.strip(), id=rid, raw=line, line=number, eol=eol)


def _has_bad_bytes(text: str) -> bool:
    """Whether ``surrogateescape`` had to stand in for invalid UTF-8: a bytes-level check (one
    encode), not a scan per character."""
    if text.isascii():  # known without reading: CPython keeps the flag with the string
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _marker_candidates(text: str) -> list[int]:
    """Indexes of the lines that can change a ``MarkerScanner``: markers and code fences. Other lines
    never do, so a large index is scanned with a few string searches instead of a regex per line."""
    hits: list[int] = []
    for needle in _CANDIDATES:
        pos = text.find(needle)
        while pos >= 0:
            hits.append(pos)
            end = text.find("\n", pos)  # one hit per line is enough: go on from the next line
            pos = text.find(needle, end + 1) if end >= 0 else -1
    hits.sort()
    found: list[int] = []
    line = counted = 0
    for at in hits:
        line += text.count("\n", counted, at)  # from the last hit on: linear
        counted = at
        if not found or found[-1] != line:
            found.append(line)
    return found


# A literal search each (str.find skips ahead in C; a regex alternation tries every position).
_CANDIDATES = ("chord:memory:", "```", "~~~")


def _physical_lines(text: str) -> list[str]:
    """The lines of ``text``, each with its line end. Only "\n" ends a line, as in editors and
    git; str.splitlines would also split on \x0c etc."""
    physical = [part + "\n" for part in text.split("\n")]
    physical[-1] = physical[-1][:-1]
    if not physical[-1]:
        physical.pop()
    return physical


def _markers(physical: list[str], text: str) -> tuple[int | None, int | None, list[Problem]]:
    """(begin line, end line, marker problems) of the managed section; ``physical`` holds the
    lines of ``text``, with or without their line ends."""
    scanner = MarkerScanner()
    problems: list[Problem] = []
    for index in _marker_candidates(text):
        number, raw = index + 1, physical[index]
        inside, begin_at, end_at = scanner.inside, scanner.begin_at, scanner.end_at
        marker = scanner.feed(number, raw.rstrip("\r\n"))
        if marker == "begin" and inside:
            problems.append(Problem(number, "marker-nested", f"nested {BEGIN} (line {begin_at} opened one already)"))
        elif marker == "begin" and begin_at is not None:
            problems.append(Problem(number, "marker-duplicate", f"duplicated {BEGIN} (a managed section already ended at line {end_at})"))
        elif marker == "end" and begin_at is None:
            problems.append(Problem(number, "marker-reversed", f"{END} before any {BEGIN}"))
        elif marker == "end" and end_at is not None:
            problems.append(Problem(number, "marker-duplicate", f"duplicated {END} (the section already ended at line {end_at})"))
    begin_at, end_at = scanner.begin_at, scanner.end_at
    if begin_at is not None and end_at is None and not problems:
        problems.append(Problem(begin_at, "marker-missing", f"{BEGIN} has no matching {END}"))
    return begin_at, end_at, problems


# ENTRY_RE over a whole section at once (``clean_section``), with parse's own checks folded in: a
# known type, a valid id and the same id in the link (a backreference). A line is an entry (its id
# captured) or blank (an empty capture); a line that is neither is not matched at all. The summary
# is read possessively up to the first "([" (no backtracking from the line's end); a summary
# holding "([" itself fails here and the whole section goes to ``parse``, which reads the last one
# as the link.
_SECTION_LINES = lazy(
    r"^(?:- \[(?:" + "|".join(map(re.escape, RECORD_TYPES)) + r")\] (?!\(\[)(?:[^(\n]++|\((?!\[))*+(?<=\S )"
    r"\(\[(" + ID_RE.pattern.removeprefix("^").removesuffix("$") + r")\]\(\.chord/memory/records/\1\.md\)\)"
    r"|)[^\S\n]*+$",
    re.MULTILINE,
)
_MARKER_WORD = "chord:memory:"


@dataclass(frozen=True)
class CleanSection:
    """A managed section holding only well-formed entries and blank lines."""

    ids: list[str]  # of each entry, in order
    text: str  # the section's lines, between the marker lines

    def lines(self) -> Iterable[str]:
        """Each entry's line (without its line end), in order, read as far as the caller goes."""
        text, pos = self.text, 0
        while pos <= len(text):
            newline = text.find("\n", pos)
            end = newline if newline >= 0 else len(text)
            if end > pos and not text[pos:end].isspace():
                yield text[pos:end].rstrip("\r")
            if newline < 0:
                return
            pos = newline + 1


def _marker_line(text: str, at: int) -> tuple[int, int, str | None]:
    """(start, end, "begin"/"end"/None) of the line holding offset ``at``."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    end = end if end >= 0 else len(text)
    marker = MARKER_RE.match(text[start:end].rstrip("\r"))
    return start, end, marker.group(1) if marker else None


def clean_section(text: str) -> CleanSection | None:
    """The managed section when it is what ``parse`` reads without a problem and the file has the
    usual shape (one begin and one end marker, no code fence before them), read with a few string
    searches and one regex pass, with no line list and no entry objects (``status`` on a large
    index). None for anything else (invalid UTF-8, marker or line problems, a duplicate, a fence
    or another mention of the markers), which ``parse`` then describes."""
    if _has_bad_bytes(text):
        return None
    hits: list[int] = []
    pos = text.find(_MARKER_WORD)
    while pos >= 0 and len(hits) < 3:
        hits.append(pos)
        newline = text.find("\n", pos)
        pos = text.find(_MARKER_WORD, newline + 1) if newline >= 0 else -1
    if len(hits) != 2:
        return None
    begin_start, begin_end, first = _marker_line(text, hits[0])
    end_start, _, second = _marker_line(text, hits[1])
    if (first, second) != ("begin", "end") or begin_end >= len(text) \
            or any(text.find(fence, 0, begin_start) >= 0 for fence in ("```", "~~~")):
        return None
    section = text[begin_end + 1:end_start - 1] if end_start > begin_end + 1 else ""
    if chars.first(section) is not None and any(
            line.strip() and chars.first(line.rstrip()) for line in section.split("\n")):
        return None  # a line parse refuses (``chars``); blank lines are blank whatever spaces they hold
    found = _SECTION_LINES.findall(section)
    # One match a line: a line that is neither an entry nor blank leaves the count short.
    ids = [rid for rid in found if rid]
    if len(found) != section.count("\n") + 1 or len(set(ids)) != len(ids):
        return None
    return CleanSection(ids, section)


def parse(text: str, *, bom: bool = False) -> tuple[MemoryDoc | None, list[Problem]]:
    """Parse MEMORY.md text. Marker errors give no document; bad lines inside give problems."""
    newline = _newline_of(text)
    physical = _physical_lines(text)
    begin_at, end_at, problems = _markers(physical, text)
    if problems:
        return None, problems
    if begin_at is None or end_at is None:
        if _has_bad_bytes(text):
            # No markers yet: the first write would append UTF-8 lines to a file in some legacy
            # encoding (Latin-1, GBK…). With markers, bytes outside them are the user's, kept as is.
            bad = _bad_bytes_problem(physical, 0, len(physical))
            problems.append(Problem(bad.line, "file-encoding",
                                    "not valid UTF-8; save it as UTF-8 before the tool adds its section"))
        return MemoryDoc(prefix=text, lines=(), suffix="", newline=newline, has_markers=False, bom=bom), problems

    lines: list[Line] = []
    seen: dict[str, int] = {}
    bad_bytes = _has_bad_bytes(text)  # once for the file; line by line only when there are some
    unsafe = chars.first(text) is not None  # the same: one search, and parse_entry judges the lines
    match_entry, types, id_ok = ENTRY_RE.match, _TYPES, ID_RE.match  # locals: a large index is 10,000 lines
    for number in range(begin_at + 1, end_at):
        content = physical[number - 1].rstrip("\r\n")
        eol = physical[number - 1][len(content):]
        if bad_bytes and _has_bad_bytes(content):
            problems.append(Problem(number, "encoding", "not valid UTF-8"))
            continue
        # The common case inline (a well-formed entry seen first); anything else via parse_entry.
        found = match_entry(content) if not unsafe else None
        if found is not None:
            kind, summary, rid, file_id = found.group("type", "summary", "id", "file")
            if kind in types and rid == file_id and rid not in seen and id_ok(rid):
                seen[rid] = number
                lines.append(Entry(kind, summary.strip(), rid, content, number, eol))
                continue
        if not content.strip():
            lines.append(Blank(content, eol))
            continue
        parsed = parse_entry(content, number, eol)
        if isinstance(parsed, str):
            problems.append(Problem(number, "index-line", parsed))
        elif parsed.id in seen:
            problems.append(Problem(number, "index-duplicate", f"id {parsed.id} is already listed at line {seen[parsed.id]}"))
        else:
            seen[parsed.id] = number
            lines.append(parsed)
    for segment, start, stop in ((physical, 0, begin_at - 1), (physical, end_at, len(physical))):
        if bad_bytes and any(_has_bad_bytes(part) for part in segment[start:stop]):
            problems.append(_bad_bytes_problem(physical, start, stop))
    begin_line = physical[begin_at - 1]
    newline = "\r\n" if begin_line.endswith("\r\n") else "\n"
    doc = MemoryDoc(
        prefix="".join(physical[:begin_at]),
        lines=tuple(lines),
        suffix="".join(physical[end_at - 1:]),
        newline=newline,
        has_markers=True,
        bom=bom,
    )
    return doc, problems


def _bad_bytes_problem(physical: list[str], start: int, stop: int) -> Problem:
    for number in range(start, stop):
        if _has_bad_bytes(physical[number]):
            return Problem(number + 1, "encoding-outside", "not valid UTF-8 (outside the managed section)")
    return Problem(None, "encoding-outside", "not valid UTF-8 (outside the managed section)")


def render(doc: MemoryDoc) -> str:
    """Text of the document; without markers, markers are appended at the end (SPEC)."""
    nl = doc.newline
    body = "".join(line.render() + (line.eol or nl) for line in doc.lines)
    if doc.has_markers:
        return doc.prefix + body + doc.suffix
    prefix = doc.prefix
    if prefix and not prefix.endswith("\n"):
        prefix += nl
    if prefix.strip() and not prefix.endswith(("\n\n", "\r\n\r\n")):
        prefix += nl
    return prefix + BEGIN + nl + body + END + nl


def new_document() -> MemoryDoc:
    return MemoryDoc(prefix=DEFAULT_HEADER, lines=(), suffix="", newline="\n", has_markers=False)


def apply(doc: MemoryDoc, delta: IndexDelta) -> MemoryDoc:
    """Apply a delta to the lines the file holds now, keeping the user's order and deletions.

    Ids already present are not inserted again; a revision whose old line the user deleted
    meanwhile goes on top like any new entry, and the deleted line stays deleted.
    """
    present = set(doc.ids())
    lines: list[Line] = []
    placed: set[str] = set()
    pending_revisions: list[Entry] = []
    for line in doc.lines:
        if isinstance(line, Entry):
            if line.id in delta.remove or line.id in placed:
                continue
            revision = delta.replace.get(line.id)
            if revision is not None:
                if revision.id in present and revision.id != line.id:
                    continue  # the revision is listed already; drop the superseded line
                line = replace(revision, raw=None, line=None, eol=None)
            placed.add(line.id)
        lines.append(line)
    for old_id, revision in delta.replace.items():
        if old_id not in present and revision.id not in present and revision.id not in placed:
            pending_revisions.append(revision)
    top: list[Line] = []
    for entry in (*pending_revisions, *delta.insert):
        if entry.id in present or entry.id in placed or entry.id in delta.remove:
            continue
        placed.add(entry.id)
        top.append(replace(entry, raw=None, line=None, eol=None))
    return replace(doc, lines=tuple(top + lines))


def blocking(problems: Iterable[Problem]) -> Problem | None:
    """The first problem that stops a write to the managed section, if any.

    Bad lines or markers do; bad bytes in the user's text outside the markers do not, since the
    tool keeps those bytes exactly as they are.
    """
    return next((problem for problem in problems if problem.kind != "encoding-outside"), None)


def unusable(rel: str, problem: Problem) -> InputError:
    """The error a write raises when ``problem`` blocks the managed section of ``rel``."""
    if problem.kind == "file-encoding":  # the whole file, not its section: say only what to do
        return InputError(rel, problem.line, problem.message)
    return InputError(rel, problem.line, f"managed section unusable: {problem.message}")


def parse_bytes(data: bytes) -> tuple[MemoryDoc | None, list[Problem]]:
    """``parse`` of the file's bytes; a UTF-8 BOM is remembered in the document. A file in another
    encoding (``foreign_encoding``) gives no document, only that problem."""
    foreign = foreign_problem(data)
    if foreign is not None:
        return None, [foreign]
    text, bom = decode(data)
    return parse(text, bom=bom)


def parse_for_write(data: bytes, rel: str) -> MemoryDoc:
    """The document a write is about to change; the ``unusable`` error naming ``rel`` and the line
    when a problem blocks writing the managed section."""
    doc, problems = parse_bytes(data)
    problem = blocking(problems)
    if problem is not None:
        raise unusable(rel, problem)
    assert doc is not None  # broken markers are blocking problems
    return doc
