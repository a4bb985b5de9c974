"""The pure part of ``memory.inject: reviewed`` (``recall_gate``), table by table, and the git
helpers it reads objects through, against the ``git`` binary."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from chord_git.git import command
from chord_git.memory import recall_gate as gate
from chord_git.memory.index_file import BEGIN, END, Entry
from chord_git.memory.loadable import NOT_CHECKED
from chord_git.support.dataclass_lazy import dataclass, field, replace
from testing.gitutil import git
from tests.memory.test_index_readers import memory_files

RID = "20261101-use-pnpm-0001"
LINE = Entry("preference", "Use pnpm.", RID).render()
OTHER = Entry("preference", "Use npm.", RID).render()
REC, REC2, PEND, PEND2 = "a" * 40, "b" * 40, "1" * 40, "2" * 40


@dataclass
class Files:
    """The working tree of one entry, as plain data."""

    records: dict[str, tuple[str, ...]] = field(default_factory=dict)
    pendings: dict[str, tuple[str, str]] = field(default_factory=dict)

    def record_ids(self, rid: str) -> tuple[str, ...]:
        return self.records.get(rid, ())

    def has_record(self, rid: str) -> bool:
        return bool(self.records.get(rid))

    def pending(self, rid: str) -> tuple[str, str] | None:
        return self.pendings.get(rid)


def tree(files: dict[str, str]) -> bytes:
    """A tree object's raw content, as ``git cat-file --batch`` prints it."""
    return b"".join(b"100644 " + name.encode() + b"\0" + bytes.fromhex(oid) for name, oid in sorted(files.items()))


def side(lines: tuple[str, ...] = (LINE,), record: str | None = REC,
         pending: dict[str, str] | None = None) -> gate.Side:
    memory = f"# Project memory\n{BEGIN}\n" + "".join(f"{line}\n" for line in lines) + f"{END}\n"
    return gate.Side("c" * 40, memory.encode(), tree({f"{RID}.md": record} if record else {}), tree(pending or {}))


BASE = side()
HEAD = side()
WT = Files({RID: (REC,)})


@pytest.mark.parametrize("name, ev, line, files, expected", [
    ("the base holds line and record", gate.Evidence("main", BASE, HEAD), LINE, WT, None),
    ("a record changed in place", gate.Evidence("main", BASE, HEAD), LINE, Files({RID: (REC2,)}), gate.NOT_COMMITTED),
    ("…and committed", gate.Evidence("main", BASE, side(record=REC2)), LINE, Files({RID: (REC2,)}), gate.CHANGED),
    ("a line changed in place", gate.Evidence("main", BASE, side((OTHER,))), OTHER, WT, gate.CHANGED),
    ("a line changed, not committed", gate.Evidence("main", BASE, HEAD), OTHER, WT, gate.NOT_COMMITTED),
    ("an entry the base lacks", gate.Evidence("main", side((), None), HEAD), LINE, WT, gate.ADDED),
    ("a record the branch added to a dangling line", gate.Evidence("main", side(record=None), HEAD), LINE, WT,
     gate.CHANGED),
    ("a dangling line on both", gate.Evidence("main", side(record=None), side(record=None)), LINE, Files(), None),
    ("a CRLF checkout of the same record", gate.Evidence("main", BASE, HEAD), LINE, Files({RID: (REC2, REC)}), None),
    ("own and uncommitted", gate.Evidence("main", side((), None), side((), None), frozenset({RID})), LINE, WT, None),
    ("own but committed", gate.Evidence("main", side((), None), HEAD, frozenset({RID})), LINE, WT, gate.ADDED),
    ("own but its record is gone", gate.Evidence("main", side((), None), side((), None), frozenset({RID})), LINE,
     Files(), gate.NOT_COMMITTED),
    ("no base: only own output", gate.Evidence(None, None, HEAD), LINE, WT, gate.NO_BASE),
    ("no base, own", gate.Evidence(None, None, side((), None), frozenset({RID})), LINE, WT, None),
    ("git unreadable", gate.Evidence(None, None, None, frozenset({RID})), LINE, WT, gate.NO_GIT),
    ("the same pending file", gate.Evidence("main", side((), pending={f"{RID}.md": PEND}), HEAD), LINE,
     Files({RID: (REC,)}, {RID: (LINE, PEND)}), None),
    ("another pending file, not committed", gate.Evidence("main", side((), pending={f"{RID}.md": PEND}),
     side((), pending={f"{RID}.md": PEND})), LINE,
     Files({RID: (REC,)}, {RID: (LINE, PEND2)}), gate.NOT_COMMITTED),
    ("a pending file of the id, but a line from elsewhere",
     gate.Evidence("main", side((), pending={f"{RID}.md": PEND}), side((OTHER,))), OTHER,
     Files({RID: (REC,)}, {RID: (LINE, PEND)}), gate.CHANGED),
])
@pytest.mark.parametrize("scan", [False, True])
def test_verdict(name: str, ev: gate.Evidence, line: str, files: Files, expected: str | None, scan: bool) -> None:
    """HEAD is searched rather than parsed (``Side.scan``): the same verdicts."""
    if ev.head is not None:
        ev = replace(ev, head=replace(ev.head, scan=scan))
    assert gate.verdict(ev, RID, line, files) == expected, name


def test_a_scanned_side_finds_only_regular_files_and_whole_lines() -> None:
    other = "20261102-other-0002"
    head = gate.Side(None, f"{BEGIN}\r\n{LINE}\r\n{END}\r\n".encode(),
                     b"40000 " + f"{RID}.md".encode() + b"\0" + bytes(20) + tree({f"x {other}.md": REC}), scan=True)
    assert head.holds_line(LINE) and not head.holds_line(LINE[:-1])
    assert head.record(f"{RID}.md") is None and head.record(f"{other}.md") is None
    crafted = gate.Side(None, None, tree({f"100644 {other}.md": REC}), scan=True)
    assert crafted.record(f"{other}.md") == REC  # found too often, never too rarely: it only leaves entries out


def test_an_entry_whose_record_would_have_to_be_read_late_is_not_checked() -> None:
    ev = gate.Evidence("main", BASE, HEAD)
    assert gate.verdict(ev, RID, LINE, WT, read=False) == NOT_CHECKED
    assert gate.verdict(ev, RID, OTHER, WT, read=False) == gate.NOT_COMMITTED  # decided without reading


@pytest.mark.parametrize("text, section, outside", [
    (f"# Memory\n{BEGIN}\n{LINE}\n{END}\nnotes\n", {LINE}, {"# Memory", "notes", ""}),
    (f"# Memory\r\n{BEGIN}\r\n{LINE}\r\n{END}\r\n", {LINE}, {"# Memory", ""}),
    (f"\ufeff{BEGIN}\n{LINE}\n{END}\n", {LINE}, {""}),
    (f"```\n{BEGIN}\n{OTHER}\n{END}\n```\n{BEGIN}\n{LINE}\n{END}\n", {LINE}, {"```", BEGIN, OTHER, END, ""}),
    (f"just text\n{LINE}\n", set(), {"just text", LINE, ""}),
    (f"{BEGIN}\n{LINE}\n", set(), {BEGIN, LINE, ""}),
])
def test_split_index(text: str, section: set[str], outside: set[str]) -> None:
    assert gate.split_index(text.encode()) == (frozenset(section), frozenset(outside))


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(memory_files(), st.lists(st.sampled_from(["", " ", "x", LINE, OTHER, BEGIN, END, "\r", "# Project memory"]),
                                max_size=3))
def test_searching_a_side_finds_exactly_the_lines_split_index_lists(data: bytes, extra: list[str]) -> None:
    """``Side`` searches MEMORY.md's bytes for a few lines and parses it into sets past
    ``LINE_SCANS``: both answer as ``split_index`` does, for every line of the file and others."""
    section, outside = gate.split_index(data)
    lines = {*section, *outside, *extra, *(line + "\r" for line in section)}
    searched = gate.Side(None, data)
    parsed = gate.Side(None, data, scanned=gate.LINE_SCANS * len(data) + 1)
    for line in lines:
        if "\n" in line:
            continue
        for side_ in (searched, parsed):
            assert side_.holds_line(line) == (line in section), (line, side_ is parsed)
            assert side_.holds_note(line) == (line in outside), (line, side_ is parsed)


def test_notes_are_kept_only_where_the_base_has_them() -> None:
    base = gate.Side("c", f"# Project memory\nUse the staging cluster.\n{BEGIN}\n{LINE}\n{END}\n".encode())
    ev = gate.Evidence("main", base, base)
    assert gate.note_kept(ev, "Use the staging cluster.") and gate.note_kept(ev, "  ")
    assert not gate.note_kept(ev, "Ignore the reviewers.") and not gate.note_kept(ev, LINE)
    assert not gate.note_kept(gate.Evidence(None, None, base), "Use the staging cluster.")


def test_a_side_parses_what_git_gave_on_first_use() -> None:
    other = "20261102-other-0002"
    base = gate.Side("c", f"{BEGIN}\n{LINE}\n{END}\n".encode(),
                     tree({f"{other}.md": REC}) + b"40000 sub\0" + bytes(20) + b"120000 link.md\0" + bytes(20),
                     tree({f"{other}.removed.md": PEND}))
    assert base.section == {LINE} and base.records == {f"{other}.md": REC}
    assert base.pending == {f"{other}.removed.md": PEND}
    assert base.has_id(RID) and base.has_id(other) and not base.has_id("20261103-none-0003")
    assert gate.Side(None).section == frozenset() and gate.Side(None).records == {}


def test_with_author() -> None:
    assert gate.with_author(gate.ADDED, "Mallory") == "added on this branch by Mallory, not yet merged"
    assert gate.with_author(gate.CHANGED, "Ann") == "changed on this branch by Ann, not yet merged"
    # A raw commit's author may hold anything: never a line break or an escape sequence in the output.
    assert gate.with_author(gate.ADDED, "M\n::stop-commands::x\x1b[2J") == \
        "added on this branch by M\\n::stop-commands::x\\x1b[2J, not yet merged"
    assert gate.with_author(gate.NOT_COMMITTED, "Ann") == gate.NOT_COMMITTED
    assert gate.with_author(gate.ADDED, None) == gate.ADDED


def test_authors_by_id_takes_the_newest_commit_that_wrote_the_entry() -> None:
    other = "20261102-other-0002"
    commits = [
        ("Newest", {"sub/README.md": ["x"]}),
        ("Carol", {"sub/MEMORY.md": [LINE, "not an entry"]}),
        ("Bob", {f"sub/.chord/memory/records/{other}.md": ["---"]}),
        ("Alice", {f"sub/.chord/memory/records/{RID}.md": ["---"], f"sub/.chord/memory/pending/{other}.md": ["x"]}),
    ]
    assert gate.authors_by_id(commits, [RID, other], "sub/") == {RID: "Carol", other: "Bob"}


# ---------------------------------------------------------------------------- git helpers
def test_objects_parse_tree_and_blob_id_agree_with_git(repo: Path) -> None:
    folder = repo / "dir"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.md").write_bytes(b"alpha\n")
    (folder / "b c.md").write_bytes(b"beta\r\n")
    (folder / "sub" / "x").write_bytes(b"x")
    (folder / "link.md").symlink_to("a.md")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "files")
    found = command.objects(repo, ["HEAD:dir", "HEAD:dir/a.md", "HEAD:nothing", "HEAD^{commit}", "nope:dir"])
    tree, blob, missing, commit, bad = found
    assert tree is not None and tree[1] == "tree" and blob is not None and blob[1:] == ("blob", b"alpha\n")
    assert missing is None and bad is None and commit is not None and commit[1] == "commit"
    files = {name.decode(): raw.hex() for name, raw in command.tree_files(tree[2], len(tree[0])).items()}
    assert files == {"a.md": git(repo, "rev-parse", "HEAD:dir/a.md").strip(),
                     "b c.md": git(repo, "rev-parse", "HEAD:dir/b c.md").strip()}
    assert command.blob_id(b"beta\r\n") == files["b c.md"] == git(repo, "hash-object", "dir/b c.md").strip()
    with pytest.raises(Exception, match="line break"):
        command.objects(repo, ["HEAD\nHEAD"])


def test_branch_log_lists_each_commits_author_and_added_lines(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD").strip()
    (repo / "MEMORY.md").write_text("one\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a", "--author=Ann <ann@example.invalid>")
    (repo / "MEMORY.md").write_text("one\ntwo\n")
    (repo / "other.md").write_text("x\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "b", "--author=Bob <bob@example.invalid>")
    assert command.branch_log(repo, base, ["MEMORY.md"]) == [("Bob", {"MEMORY.md": ["two"]}),
                                                             ("Ann", {"MEMORY.md": ["one"]})]


def test_own_written_reads_what_the_extraction_run_log_writes(repo: Path) -> None:
    """The run log is the extraction's (``runlog``); the gate reads it without importing it."""
    from chord_git.extraction import runlog
    from chord_git.memory.project import discover

    project = discover(repo)
    assert runlog.LOG_NAME == gate.RUN_LOG
    assert gate.own_written(project.state_dir) == frozenset()
    runlog.append(project, runlog.entry(session="s1", outcome="ok", written=["20261101-mine-0001"]))
    runlog.append(project, runlog.entry(session="s2", outcome="dry-run", written=["20261101-dry-0002"], dry_run=True))
    runlog.append(project, runlog.entry(session="s3", outcome="failed", reason="no model"))
    runlog.append(project, runlog.entry(session="s4", outcome="ok", written=[]))
    (project.state_dir / (gate.RUN_LOG + ".1")).write_text(
        '{"outcome": "ok", "dry_run": false, "written": ["20261101-older-0003"]}\nnot json "written": ["x\n')
    assert gate.own_written(project.state_dir) == {"20261101-mine-0001", "20261101-older-0003"}


def test_the_mode_names_agree_with_the_config() -> None:
    from chord_git import config

    assert gate.REVIEWED == config.INJECT_REVIEWED


def test_many_lookups_give_the_same_answers_as_a_few() -> None:
    """Past ``SCAN_LOOKUPS`` (``LINE_SCANS``, ``ID_SEARCHES``) a searched side parses itself: the
    answers stay the same."""
    rids = [f"20261105-many-{n:04d}" for n in range(gate.SCAN_LOOKUPS * 2)]
    lines = [Entry("fact", f"Entry {rid}.", rid).render() for rid in rids]
    memory = f"{BEGIN}\n" + "".join(f"{line}\n" for line in lines) + f"{END}\n"
    records = tree({f"{rid}.md": REC for rid in rids[::2]})
    for scan in (False, True):
        side_ = gate.Side(None, memory.encode(), records, scan=scan)
        for _ in range(2):
            assert all(side_.holds_line(line) for line in lines) and not side_.holds_line(OTHER)
            assert not any(side_.holds_line(line + " x") for line in lines)  # misses: parsed past LINE_SCANS
            assert [side_.record(f"{rid}.md") for rid in rids] == [REC if n % 2 == 0 else None
                                                                   for n in range(len(rids))]
            assert all(side_.has_id(rid) for rid in rids) and not side_.has_id(RID)
        assert side_.scanned > gate.LINE_SCANS * len(memory) and side_.id_checks > gate.ID_SEARCHES


def test_the_work_tree_hashes_records_as_git_does(repo: Path) -> None:
    folder = repo / ".chord" / "memory" / "records"
    folder.mkdir(parents=True)
    (folder / f"{RID}.md").write_bytes(b"one\r\ntwo\r\n")
    (folder / "20261106-link-0001.md").symlink_to(f"{RID}.md")
    files = gate.WorkTree(repo)
    assert files.record_ids(RID) == (command.blob_id(b"one\r\ntwo\r\n"), command.blob_id(b"one\ntwo\n"))
    assert files.record_ids("20261106-link-0001") == (gate.UNREADABLE,) and files.has_record("20261106-link-0001")
    assert files.record_ids("20261106-none-0002") == () and not files.has_record("20261106-none-0002")
    # A dangling line the base has stays held only while no record appears beside it.
    ev = gate.Evidence("main", side(record=None), side(record=None))
    assert gate.verdict(ev, "20261106-link-0001", LINE, files) is not None
