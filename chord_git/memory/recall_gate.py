"""Trust-gated recall (``memory.inject: reviewed``): which index entries a session start injects.

Memory lives in the repository, so whoever checks out a branch (an agent reviewing a fork's pull
request in CI, a maintainer's agent on a colleague's branch) gets that branch's memory with it.
Injected as "what the user said in earlier sessions" before anyone reviewed it, a branch's entry
would speak with the user's voice. Under ``reviewed`` a session start injects an entry only when

* **the base holds it**: the base commit's MEMORY.md has exactly this line in its managed section
  (or the base has the same pending file, byte for byte, and this is its line), and the base's
  record file of the id has the same bytes as the working tree's (or neither has one). The base's
  text is what is trusted, so an entry the branch edited in place (same id, other words in its
  line or its record) is left out, not shown with the base's words: the working tree's record is
  what an agent opens on demand, and it is not the reviewed one. Or
* **this machine's extraction wrote it and it is not committed**: its id is in the extraction run
  log (``runs.jsonl`` in the state dir, which no branch can write), its record file exists in the
  working tree, and HEAD's tree has no record of that id. Extraction creates record files and
  never rewrites them; its ids carry a hash of the session, so a branch cannot name one it has not
  seen. Once committed, the entry waits for the merge like anyone else's. (A record a killed run
  left behind and the next run linked, ``journal.recover``, is not in the log: it waits too.)

Everything else is left out, with a reason ``git memory why`` shows (``REASONS``; ``why`` adds the
author of the branch's commit). The hand-written lines around the markers, or a MEMORY.md without
markers, are kept line by line only where the base's MEMORY.md holds the same line outside its
managed section.

The base is ``memory.reviewed_base`` (the user's config, or a trusted project file), else the
branch the remote's HEAD names (``refs/remotes/origin/HEAD``, as ``git clone`` leaves it), else the
first of ``main``, ``master``, ``origin/main``, ``origin/master`` that exists. On the base branch
itself every committed entry is held. With no base (a CI checkout of a pull request's merge commit
fetches no branch), only this machine's own uncommitted output is injected, and the manifest
carries one warning saying how to name a base. When git cannot be read, nothing is injected from
the index: nothing can be told apart.

Cost: one ``git cat-file --batch`` per session start, and only under ``reviewed``. It reads
HEAD's and the base's MEMORY.md and their records and pending folders as tree objects; records are
compared by blob id (the working tree's file hashed as git hashes it), so only the records of the
entries the summary reaches are read, never the base's thousands. Deciding is pure (``verdict``,
``split_index``); reading git, the run log and the working tree happens in ``load`` and
``WorkTree``.
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Protocol

from chord_git.support.dataclass_lazy import dataclass
from chord_git.memory import paths
from chord_git.memory.index_file import MARKER_RE, MarkerScanner
from chord_git.memory.pending import PENDING_DIR
from chord_git.memory.project import RECORDS_DIR, Project

REVIEWED = "reviewed"  # ``config.INJECT_REVIEWED`` (memory sits below config in the floor plan)
# Why an entry was left out (``injection`` groups them as "not reviewed"). ``why`` puts the author
# of the branch's commit into the first two (``with_author``).
ADDED = "added on this branch, not yet merged"
CHANGED = "changed on this branch, not yet merged"
NOT_COMMITTED = "not committed (and not written by this machine's extraction)"
NO_BASE = "no base branch to check it against"
NO_GIT = "not checked: git could not be read"
REASONS = (ADDED, CHANGED, NOT_COMMITTED, NO_BASE, NO_GIT)
_ON_BRANCH = " on this branch,"
SCAN_LOOKUPS = 64  # tree lookups in HEAD searched rather than parsed (``Side.scan``)
# Searching MEMORY.md for a line reads up to all of it (0.3 ms for 10,000 entries); parsing its
# lines into sets costs about 5 ms. Past this many file lengths searched, a side parses.
LINE_SCANS = 16
ID_SEARCHES = 16  # ``Side.has_id`` searches before the ids are parsed
# The extraction run log (``extraction/runlog.py``: ``LOG_NAME``, rotated to ``.1``). It is read
# here, not through that module: memory is below extraction in the package's floor plan.
RUN_LOG = "runs.jsonl"
_WRITTEN_MARK = b'"written": ["'  # a line of a run that wrote records (``json.dumps`` spacing)
UNREADABLE = "unreadable"  # ``WorkTree.record_ids`` of a record that cannot be read (never a blob id)
_DEFAULT_BASES = ("refs/heads/main", "refs/heads/master", "refs/remotes/origin/main", "refs/remotes/origin/master")


@dataclass
class Side:
    """One commit's memory files as git gave them, looked up in place and parsed only when that
    pays: a session start looks up a few dozen lines and records, and 10,000 lines or tree entries
    cost more to parse than git took to send them.

    Lines are found by searching MEMORY.md's bytes for the line between two line ends, inside the
    managed section or outside it (``split_index`` says the same, exactly); once the searches have
    read ``LINE_SCANS`` times the file, its lines are parsed into sets. Records are parsed at once
    (``command.tree_files``, in C), except with ``scan``: for HEAD, which usually gets a few
    lookups (the entries left out, this machine's own), the tree is searched for
    ``<mode> <name>\\0`` until ``SCAN_LOOKUPS``. That search can take a file whose name ends in
    `` 100644 <name>`` for ``<name>``: "HEAD has it" can be wrong only that way round, which changes
    a reason's wording or leaves an own entry out, never lets one in. The base is never scanned.
    """

    commit: str | None
    memory: bytes | None = None  # MEMORY.md's bytes; None: the commit has none
    records_tree: bytes = b""  # the records folder's tree object, raw (``command.tree_files``)
    pending_tree: bytes = b""  # the pending folder's
    id_hex_len: int = 40
    scan: bool = False
    tree_lookups: int = 0  # so far (``scan``)
    scanned: int = 0  # bytes line searches have read so far
    id_checks: int = 0  # ``has_id`` calls so far

    @cached_property
    def _regions(self) -> tuple[bytes, bytes]:
        """(the managed section, the rest of MEMORY.md), each framed by line ends."""
        return index_regions(self.memory) if self.memory is not None else (b"\n", b"\n")

    @cached_property
    def _index(self) -> tuple[frozenset[str], frozenset[str]]:
        return split_index(self.memory) if self.memory is not None else (frozenset(), frozenset())

    @property
    def section(self) -> frozenset[str]:
        """The lines of MEMORY.md's managed section."""
        return self._index[0]

    @property
    def outside(self) -> frozenset[str]:
        """MEMORY.md's other lines (all of them without markers)."""
        return self._index[1]

    @cached_property
    def _records(self) -> dict[bytes, bytes]:
        from chord_git.git.command import tree_files

        return tree_files(self.records_tree, self.id_hex_len)

    @cached_property
    def _pending(self) -> dict[bytes, bytes]:
        from chord_git.git.command import tree_files

        return tree_files(self.pending_tree, self.id_hex_len)

    @property
    def records(self) -> dict[str, str]:
        """Record file name -> blob id."""
        return {name.decode("utf-8", "surrogateescape"): raw.hex() for name, raw in self._records.items()}

    @property
    def pending(self) -> dict[str, str]:
        """Pending file name -> blob id."""
        return {name.decode("utf-8", "surrogateescape"): raw.hex() for name, raw in self._pending.items()}

    @cached_property
    def linked(self) -> frozenset[str]:
        """The ids MEMORY.md links to anywhere (``([id](.chord/memory/records/id.md))``)."""
        from chord_git.memory.index_file import parse_entry

        text = "" if self.memory is None else self.memory.decode("utf-8", "surrogateescape")
        return frozenset(entry.id for line in text.split("\n") if "](.chord/memory/records/" in line
                         and not isinstance(entry := parse_entry(line.removesuffix("\r")), str))

    def _has_line(self, line: str, inside: bool) -> bool:
        if self.memory is None or not line or self.scanned > LINE_SCANS * len(self.memory):
            return line in (self.section if inside else self.outside)  # (the framing adds empty lines)
        raw = line.encode("utf-8", "surrogateescape")
        region = self._regions[0 if inside else 1]
        # A line's own "\r" is part of it only before a CRLF ending (``split_index`` drops one "\r").
        for needle in ((b"\n" + raw + b"\n",) if not line.endswith("\r") else ()) + (b"\n" + raw + b"\r\n",):
            at = region.find(needle)
            self.scanned += len(region) if at < 0 else at
            if at >= 0:
                return True
        return False

    def holds_line(self, line: str) -> bool:
        """Whether the managed section has this line."""
        return self._has_line(line, True)

    def holds_note(self, line: str) -> bool:
        """Whether MEMORY.md has this line outside the managed section."""
        return self._has_line(line, False)

    def _file(self, tree: str, name: str) -> str | None:
        self.tree_lookups += 1
        if self.scan and self.tree_lookups <= SCAN_LOOKUPS:
            return _scan_tree(self.records_tree if tree == "records" else self.pending_tree, name, self.id_hex_len)
        raw = (self._records if tree == "records" else self._pending).get(name.encode("utf-8", "surrogateescape"))
        return raw.hex() if raw is not None else None

    def record(self, name: str) -> str | None:
        """The blob id of record file ``name``, or None."""
        return self._file("records", name)

    def pending_file(self, name: str) -> str | None:
        return self._file("pending", name)

    def has_id(self, rid: str) -> bool:
        """Whether this side has an entry or a record of ``rid`` (for "added" against "changed")."""
        if self.record(f"{rid}.md") is not None or self.pending_file(f"{rid}.md") is not None:
            return True
        if self.memory is None:
            return False
        self.id_checks += 1
        if self.id_checks <= ID_SEARCHES:  # a few: search the file; many: parse it once
            return f"[{rid}](.chord/memory/records/{rid}.md))".encode() in self.memory
        return rid in self.linked


def _scan_tree(tree: bytes, name: str, id_hex_len: int) -> str | None:
    """The blob id after ``<regular file mode> <name>\\0`` in a raw tree, found by searching."""
    key = b" " + name.encode("utf-8", "surrogateescape") + b"\0"
    at = tree.find(key)
    while at >= 0:
        end = at + len(key) + id_hex_len // 2
        if tree[max(at - 6, 0):at] in (b"100644", b"100755") and end <= len(tree):
            return tree[end - id_hex_len // 2:end].hex()
        at = tree.find(key, at + 1)
    return None


@dataclass(frozen=True)
class Evidence:
    """What a session start knows about the base, HEAD and this machine's extraction."""

    base_name: str | None  # the base as configured or found; None: no base
    base: Side | None  # None: no base commit (none found, or the configured one is missing)
    head: Side | None  # None: git could not be read
    own: frozenset[str] = frozenset()  # record ids this machine's extraction wrote
    id_hex_len: int = 40
    warning: str | None = None  # one line for the manifest, ``why`` and ``git memory summary``


class WorkFiles(Protocol):
    """The working tree's files of one entry (``WorkTree`` reads them; tests may pass plain data)."""

    def record_ids(self, rid: str) -> tuple[str, ...]:
        """The blob ids of the record file as it is and with LF line ends; () without one."""

    def has_record(self, rid: str) -> bool: ...

    def pending(self, rid: str) -> tuple[str, str] | None:
        """(the index line, the blob id) of the pending file ``<rid>.md``, or None."""


def split_index(data: bytes) -> tuple[frozenset[str], frozenset[str]]:
    """MEMORY.md's lines (line ends removed) inside its managed section and outside it (pure).

    As lenient as the session start's reader: the first begin marker outside a code fence up to
    the first end marker after it; without both, every line is outside.
    """
    text = data.decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    lines = text.split("\n")
    if "\r" in text:
        lines = [line.removesuffix("\r") for line in lines]
    scanner = MarkerScanner()
    begin = end = None
    for number, line in enumerate(lines):
        if scanner.feed(number, line) == "begin":
            begin = number
            break
    if begin is not None:
        for number in range(begin + 1, len(lines)):
            # Inside the section there are only entries: a cheap test first, then the marker rule.
            if "chord:memory:" in lines[number] and (marker := MARKER_RE.match(lines[number])) \
                    and marker.group(1) == "end":
                end = number
                break
    if begin is None or end is None:
        return frozenset(), frozenset(lines)
    return frozenset(lines[begin + 1:end]), frozenset(lines[:begin] + lines[end + 1:])


def index_regions(data: bytes) -> tuple[bytes, bytes]:
    """MEMORY.md's managed section and the rest, each as bytes framed by line ends, so that a line
    is in ``split_index``'s set exactly when ``\\n<line>\\n`` (or ``\\n<line>\\r\\n``) is in
    the region (pure). Only the lines up to the begin marker are decoded."""
    body = data.removeprefix(b"\xef\xbb\xbf")
    scanner = MarkerScanner()
    pos = number = 0
    begin: tuple[int, int] | None = None
    while pos <= len(body):
        stop = body.find(b"\n", pos)
        stop = len(body) if stop < 0 else stop
        if scanner.feed(number, body[pos:stop].decode("utf-8", "surrogateescape").removesuffix("\r")) == "begin":
            begin = (pos, stop)
            break
        pos, number = stop + 1, number + 1
    search = begin[1] if begin is not None else len(body)
    while begin is not None:
        at = body.find(b"chord:memory:end", search)
        if at < 0:
            break
        start = body.rfind(b"\n", 0, at) + 1
        stop = body.find(b"\n", at)
        stop = len(body) if stop < 0 else stop
        marker = MARKER_RE.match(body[start:stop].decode("utf-8", "surrogateescape").removesuffix("\r"))
        if marker is not None and marker.group(1) == "end":
            return body[begin[1]:start], b"\n" + body[:begin[0]] + body[stop:] + b"\n"
        search = at + 1
    return b"\n", b"\n" + body + b"\n"


def _line_in(side: Side, rid: str, line: str, files: WorkFiles) -> bool:
    """Whether ``side`` holds this index line: in its managed section, or as the same pending file."""
    if side.holds_line(line):
        return True
    held = side.pending_file(f"{rid}.md")
    found = files.pending(rid) if held is not None else None
    return found is not None and found[0] == line and held == found[1]


def _same_record(side: Side, rid: str, files: WorkFiles) -> bool:
    held = side.record(f"{rid}.md")
    ids = files.record_ids(rid)
    return held in ids if held is not None else not ids


def verdict(ev: Evidence, rid: str, line: str, files: WorkFiles, *, read: bool = True) -> str | None:
    """None when the entry ``rid`` (shown as ``line``) may be injected under ``reviewed``, else why
    not. The answer depends on the arguments alone (``files`` reads the working tree; the sides
    only parse themselves on first use). ``read`` False: the session start's time is up, and an entry whose
    record would have to be read is left out as not checked in time (``loadable.NOT_CHECKED``).

    The reason tells "not committed" (a working-tree change: the line or pending file is not
    HEAD's, or the record file is new) from a branch's commit (``ADDED`` when the base has no
    entry or record of the id, else ``CHANGED``). A committed record edited in the working tree
    without its line is only seen as such when the line is the base's (its record is hashed then).
    """
    if ev.head is None:
        return NO_GIT
    name = f"{rid}.md"
    if rid in ev.own and ev.head.record(name) is None and files.has_record(rid):
        return None
    hashed = False
    if ev.base is not None and _line_in(ev.base, rid, line, files):
        if not read:
            from chord_git.memory.loadable import NOT_CHECKED

            return NOT_CHECKED
        if _same_record(ev.base, rid, files):
            return None
        hashed = True
    if ev.base is None:
        return NO_BASE
    if ev.head.record(name) is not None:
        record_committed = not hashed or _same_record(ev.head, rid, files)
    else:
        record_committed = not files.has_record(rid)
    if not (record_committed and _line_in(ev.head, rid, line, files)):
        return NOT_COMMITTED
    return CHANGED if ev.base.has_id(rid) else ADDED


def note_kept(ev: Evidence, line: str) -> bool:
    """Whether a hand-written line of MEMORY.md (outside the markers) may be injected (pure)."""
    return not line.strip() or (ev.base is not None and ev.base.holds_note(line))


def with_author(reason: str, author: str | None) -> str:
    """``ADDED``/``CHANGED`` naming who made the branch's change (pure)."""
    if not author or reason not in (ADDED, CHANGED):
        return reason
    from chord_git.support.escape import printable

    # A raw commit can carry any bytes in its author: shown escaped, it cannot draw on a terminal
    # or start a line of a CI log.
    return reason.replace(_ON_BRANCH, f" on this branch by {printable(author)},", 1)


def is_gate_reason(reason: str) -> bool:
    return reason in REASONS


def authors_by_id(commits: list[tuple[str, dict[str, list[str]]]], ids: list[str], prefix: str) -> dict[str, str]:
    """The author of the newest commit (of ``command.branch_log``, newest first) that wrote each
    entry: its record file, its pending file, or an added MEMORY.md line of that id (pure)."""
    from chord_git.memory.index_file import parse_entry

    wanted = set(ids)
    found: dict[str, str] = {}
    for author, files in commits:
        touched: set[str] = set()
        for path, added in files.items():
            rel = path.removeprefix(prefix)
            if rel == "MEMORY.md":
                touched.update(entry.id for line in added if not isinstance(entry := parse_entry(line), str))
            elif rel.startswith((RECORDS_DIR + "/", PENDING_DIR + "/")):
                touched.add(rel.rsplit("/", 1)[1].removesuffix(".md"))
        for rid in touched & wanted:
            found.setdefault(rid, author)
        if len(found) == len(wanted):
            break
    return found


# ---------------------------------------------------------------------------- I/O at the edges
def own_written(state_dir: Path) -> frozenset[str]:
    """The record ids this machine's extraction runs wrote (outcome ``ok``, not a dry run), from
    the run log and its old generation. The log lives in the state dir, which no branch can
    write: it tells this machine's own extraction output from anyone else's. Only the lines of
    runs that wrote something are parsed."""
    import json

    found: set[str] = set()
    for path in (state_dir / (RUN_LOG + ".1"), state_dir / RUN_LOG):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if _WRITTEN_MARK not in data:
            continue
        for raw in data.split(b"\n"):
            if _WRITTEN_MARK not in raw:
                continue
            try:
                value = json.loads(raw)
            except ValueError:
                continue
            if (isinstance(value, dict) and value.get("outcome") == "ok" and value.get("dry_run") is not True
                    and isinstance(value.get("written"), list)):
                found.update(rid for rid in value["written"] if isinstance(rid, str))
    return frozenset(found)


class WorkTree:
    """The working tree's record and pending files, read on demand and hashed as git hashes them."""

    def __init__(self, root: Path, id_hex_len: int = 40) -> None:
        self.root = root
        self.id_hex_len = id_hex_len
        self._records: dict[str, tuple[str, ...]] = {}

    def record_ids(self, rid: str) -> tuple[str, ...]:
        if rid not in self._records:
            self._records[rid] = self._hashes(self.root / RECORDS_DIR / f"{rid}.md")
        return self._records[rid]

    def has_record(self, rid: str) -> bool:
        if rid in self._records:
            return bool(self._records[rid])
        try:
            return (self.root / RECORDS_DIR / f"{rid}.md").is_file()
        except OSError:
            return False

    def pending(self, rid: str) -> tuple[str, str] | None:
        from chord_git.memory import pending

        try:
            data = paths.read_inside(self.root, self.root / PENDING_DIR / f"{rid}.md", pending.MAX_PENDING_BYTES)
        except (OSError, paths.UnsafePath):
            return None
        try:
            parsed = pending.parse(data.decode("utf-8"), rid)
        except UnicodeDecodeError:
            return None
        if not isinstance(parsed, pending.Pending):
            return None
        from chord_git.git.command import blob_id

        return parsed.entry.render(), blob_id(data, self.id_hex_len)

    def _hashes(self, path: Path) -> tuple[str, ...]:
        from chord_git.git.command import blob_id
        from chord_git.memory.records import MAX_RECORD_BYTES

        try:
            data = paths.read_inside(self.root, path, MAX_RECORD_BYTES)
        except FileNotFoundError:
            return ()
        except (OSError, paths.UnsafePath):
            return (UNREADABLE,)  # a record is there, and it matches no commit's
        ids = (blob_id(data, self.id_hex_len),)
        # A checkout with ``core.autocrlf`` writes CRLF where the blob holds LF.
        return ids + (blob_id(data.replace(b"\r\n", b"\n"), self.id_hex_len),) if b"\r\n" in data else ids


@dataclass
class Gate:
    """``verdict`` and ``note_kept`` over one session start's evidence and working tree."""

    evidence: Evidence
    files: WorkFiles

    def entry(self, rid: str, line: str, read: bool) -> str | None:
        return verdict(self.evidence, rid, line, self.files, read=read)

    def note(self, line: str) -> bool:
        return note_kept(self.evidence, line)


def default_base(project: Project) -> str | None:
    """The remote's default branch, else ``main``/``master`` (local, then origin's), as a full ref."""
    from chord_git.git import branches

    repo = project.repo
    if repo is None:
        return None
    remote = branches.remote_head(repo)
    candidates = ((f"refs/remotes/origin/{remote}",) if remote else ()) + _DEFAULT_BASES
    return next((name for name in candidates if branches.ref_exists(repo, name)), None)


def short_name(ref: str) -> str:
    return ref.removeprefix("refs/heads/").removeprefix("refs/remotes/")


def _prefix(project: Project) -> str | None:
    """The project root inside the work tree, as a path prefix ("" at the top); None outside git."""
    repo = project.repo
    if repo is None or repo.workdir is None:
        return None
    try:
        rel = project.root.relative_to(repo.workdir).as_posix()
    except ValueError:
        return None
    return "" if rel == "." else rel + "/"


def _side(found: list[tuple[str, str, bytes] | None], commit: str | None, id_hex_len: int, *,
          scan: bool = False) -> Side:
    """A Side from the three objects (MEMORY.md, records folder, pending folder) of one commit."""
    memory, records, pending = found

    def raw(obj: tuple[str, str, bytes] | None, kind: str) -> bytes | None:
        return obj[2] if obj is not None and obj[1] == kind else None

    return Side(commit, raw(memory, "blob"), raw(records, "tree") or b"", raw(pending, "tree") or b"", id_hex_len,
                scan)


def load(project: Project, configured_base: str | None) -> Evidence:
    """The evidence of one session start: one ``git cat-file --batch`` and the run log."""
    from chord_git.errors import RepoError
    from chord_git.git import command

    own = own_written(project.state_dir)
    prefix = _prefix(project)
    if prefix is None or project.repo is None or project.repo.workdir is None:
        return Evidence(None, None, None, own, warning="memory.inject is reviewed, but the project is not in a git "
                                                       "work tree: no index entry was injected")
    base_ref = configured_base or default_base(project)
    names = [f"HEAD:{prefix}MEMORY.md", f"HEAD:{prefix}{RECORDS_DIR}", f"HEAD:{prefix}{PENDING_DIR}"]
    if base_ref is not None:
        names += [f"{base_ref}^{{commit}}", f"{base_ref}:{prefix}MEMORY.md", f"{base_ref}:{prefix}{RECORDS_DIR}",
                  f"{base_ref}:{prefix}{PENDING_DIR}"]
    try:
        found = command.objects(project.repo.workdir, names)
    except RepoError as exc:
        return Evidence(base_ref and short_name(base_ref), None, None, own,
                        warning=f"memory.inject is reviewed, but {exc}: no index entry was injected")
    id_hex_len = next((len(obj[0]) for obj in found if obj is not None), 40)
    head = _side(found[:3], None, id_hex_len, scan=True)
    if base_ref is None:
        return Evidence(None, None, head, own, id_hex_len,
                        warning="memory.inject is reviewed, but no base branch was found (no origin/HEAD, main or "
                                "master; set memory.reviewed_base, such as origin/main, and fetch it): only this "
                                "machine's own uncommitted extraction output was injected")
    commit = found[3]
    if commit is None or commit[1] != "commit":
        return Evidence(short_name(base_ref), None, head, own, id_hex_len,
                        warning=f"memory.inject is reviewed, but the base {short_name(base_ref)} names no commit here "
                                "(fetch it, or set memory.reviewed_base): only this machine's own uncommitted "
                                "extraction output was injected")
    return Evidence(short_name(base_ref), _side(found[4:], commit[0], id_hex_len), head, own, id_hex_len)


def for_session(project: Project, mode: str, configured_base: str | None) -> Gate | None:
    """The gate of one session start in ``mode`` (``config.inject_mode``): None for ``all``, where
    no git is run; else its evidence and the working tree."""
    if mode != REVIEWED:
        return None
    evidence = load(project, configured_base)
    return Gate(evidence, WorkTree(project.root, evidence.id_hex_len))


def authors(project: Project, base_commit: str, ids: list[str]) -> dict[str, str]:
    """Who wrote each of ``ids`` on this branch since ``base_commit`` (``git memory why``; one
    ``git log``). Empty when git cannot tell (the base is gone, git is missing)."""
    from chord_git.errors import RepoError
    from chord_git.git import command

    prefix = _prefix(project)
    if prefix is None or project.repo is None or project.repo.workdir is None or not ids:
        return {}
    paths_ = [f"{prefix}MEMORY.md", *(f"{prefix}{folder}/{rid}.md" for rid in ids
                                     for folder in (RECORDS_DIR, PENDING_DIR))]
    try:
        commits = command.branch_log(project.repo.workdir, base_commit, paths_)
    except RepoError:
        return {}
    return authors_by_id(commits, ids, prefix)
