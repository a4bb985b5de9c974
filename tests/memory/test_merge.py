"""MEMORY.md's three-way merge: the managed section as entries, the user's text line by line."""
from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.memory import index_file
from chord_git.memory.index_file import BEGIN, END
from chord_git.memory.merge import merge_memory

HEAD = "# Project memory\n\nMy notes.\n\n"


def line(rid: str, summary: str | None = None, kind: str = "fact") -> str:
    return f"- [{kind}] {summary or f'Summary of {rid}.'} ([{rid}](.chord/memory/records/{rid}.md))"


def memory(ids: list[str], head: str = HEAD, tail: str = "", nl: str = "\n", **summaries: str) -> bytes:
    body = "".join(line(rid, summaries.get(rid.replace("-", "_"))) + "\n" for rid in ids)
    return f"{head}{BEGIN}\n{body}{END}\n{tail}".replace("\n", nl).encode()


def ids_of(data: bytes) -> list[str]:
    text, bom = index_file.decode(data)
    doc, problems = index_file.parse(text, bom=bom)
    assert doc is not None and not problems, problems
    return doc.ids()


def test_both_sides_add_on_top() -> None:
    result = merge_memory(memory(["aaa-1", "bbb-1"]), memory(["ours-1", "aaa-1", "bbb-1"]),
                          memory(["theirs-1", "aaa-1", "bbb-1"]))
    assert result.clean and result.entries_merged and not result.notes
    assert result.data == memory(["ours-1", "theirs-1", "aaa-1", "bbb-1"])


def test_retire_on_one_side_reorder_on_the_other() -> None:
    base = memory(["aaa-1", "bbb-1", "ccc-1"])
    retired, reordered = memory(["aaa-1", "ccc-1"]), memory(["ccc-1", "aaa-1", "bbb-1"])
    assert ids_of(merge_memory(base, retired, reordered).data) == ["ccc-1", "aaa-1"]
    # Only one side reordered: its order wins, whichever side it is.
    assert ids_of(merge_memory(base, reordered, retired).data) == ["ccc-1", "aaa-1"]


def test_both_reordered_ours_wins_and_theirs_additions_follow_their_neighbour() -> None:
    base = memory(["aaa-1", "bbb-1", "ccc-1"])
    ours = memory(["ccc-1", "aaa-1", "bbb-1"])
    theirs = memory(["bbb-1", "new-1", "aaa-1", "ccc-1"])
    assert ids_of(merge_memory(base, ours, theirs).data) == ["ccc-1", "aaa-1", "bbb-1", "new-1"]
    # Their addition on top goes right above the entry below it; with none left, after ours'.
    theirs = memory(["new-1", "bbb-1", "aaa-1", "ccc-1"])
    assert ids_of(merge_memory(base, ours, theirs).data) == ["ccc-1", "aaa-1", "new-1", "bbb-1"]
    assert ids_of(merge_memory(base, memory(["ours-1"]), memory(["new-1", "bbb-1"])).data) == ["ours-1", "new-1"]


def test_superseded_in_place_while_the_other_side_adds() -> None:
    base = memory(["aaa-1", "bbb-1"])
    superseded = memory(["aaa-2", "bbb-1"])  # a revision replaces aaa-1's line in place (R22)
    added = memory(["new-1", "aaa-1", "bbb-1"])
    # Ours' order stands; the other side's new line goes above the entry below it there.
    assert ids_of(merge_memory(base, superseded, added).data) == ["aaa-2", "new-1", "bbb-1"]
    assert ids_of(merge_memory(base, added, superseded).data) == ["new-1", "aaa-2", "bbb-1"]


def test_a_changed_line_is_taken_and_a_double_change_keeps_ours() -> None:
    base = memory(["aaa-1", "bbb-1"])
    edited = memory(["aaa-1", "bbb-1"], aaa_1="Fixed typo in the summary.")
    result = merge_memory(base, memory(["new-1", "aaa-1", "bbb-1"]), edited)
    assert result.data == memory(["new-1", "aaa-1", "bbb-1"], aaa_1="Fixed typo in the summary.")
    other = memory(["aaa-1", "bbb-1"], aaa_1="Another wording.")
    result = merge_memory(base, other, edited)
    assert result.clean and result.data == other
    assert result.notes == ("entry aaa-1 was changed on both sides; kept ours",)


def test_same_id_added_on_both_sides_collapses() -> None:
    result = merge_memory(memory(["aaa-1"]), memory(["new-1", "aaa-1"]), memory(["aaa-1", "new-1"]))
    assert ids_of(result.data) == ["new-1", "aaa-1"] and result.clean


def test_forget_on_both_sides_and_forget_against_untouched() -> None:
    base = memory(["aaa-1", "bbb-1", "ccc-1"])
    assert ids_of(merge_memory(base, memory(["aaa-1", "ccc-1"]), memory(["aaa-1", "bbb-1"])).data) == ["aaa-1"]
    assert ids_of(merge_memory(base, base, memory(["ccc-1"])).data) == ["ccc-1"]


def test_user_text_conflicts_only_outside_the_markers() -> None:
    base = memory(["aaa-1"], head="# Memory\n\nshared\n\n")
    ours = memory(["ours-1", "aaa-1"], head="# Memory\n\nours says\n\n")
    theirs = memory(["theirs-1", "aaa-1"], head="# Memory\n\ntheirs says\n\n")
    result = merge_memory(base, ours, theirs)
    assert result.conflicts == 1 and result.entries_merged
    assert result.data == (
        f"# Memory\n\n<<<<<<< ours\nours says\n=======\ntheirs says\n>>>>>>> theirs\n\n{BEGIN}\n"
        f"{line('ours-1')}\n{line('theirs-1')}\n{line('aaa-1')}\n{END}\n").encode()



def test_conflicts_right_above_and_below_the_section_stay_apart() -> None:
    """git joins conflicts that close together; the section between them is never taken in."""
    base = memory(["aaa-1"], head="x\n", tail="y\n")
    ours = memory(["aaa-1"], head="ours x\n", tail="ours y\n")
    theirs = memory(["new-1", "aaa-1"], head="theirs x\n", tail="theirs y\n")
    result = merge_memory(base, ours, theirs)
    assert result.conflicts == 2 and result.entries_merged
    assert result.data == (f"<<<<<<< ours\nours x\n=======\ntheirs x\n>>>>>>> theirs\n{BEGIN}\n{line('new-1')}\n"
                           f"{line('aaa-1')}\n{END}\n<<<<<<< ours\nours y\n=======\ntheirs y\n>>>>>>> theirs\n").encode()

def test_user_text_on_both_sides_of_the_section_merges_line_wise() -> None:
    base = memory(["aaa-1"], tail="\nfooter\n")
    ours = memory(["aaa-1"], head=HEAD + "ours intro\n\n", tail="\nfooter\n")
    theirs = memory(["new-1", "aaa-1"], tail="\nfooter\ntheirs footnote\n")
    result = merge_memory(base, ours, theirs)
    assert result.clean
    assert result.data == memory(["new-1", "aaa-1"], head=HEAD + "ours intro\n\n", tail="\nfooter\ntheirs footnote\n")


def test_bom_and_crlf_of_ours_are_kept() -> None:
    base = memory(["aaa-1"])
    ours = b"\xef\xbb\xbf" + memory(["aaa-1"], nl="\r\n")
    result = merge_memory(base, ours, memory(["new-1", "aaa-1"]))
    assert result.clean
    assert result.data == b"\xef\xbb\xbf" + memory(["new-1", "aaa-1"], nl="\r\n")
    # A BOM only theirs added is a change like any other.
    result = merge_memory(base, memory(["ours-1", "aaa-1"]), b"\xef\xbb\xbf" + base)
    assert result.data == b"\xef\xbb\xbf" + memory(["ours-1", "aaa-1"])


def test_add_add_without_a_base() -> None:
    result = merge_memory(b"", memory(["ours-1"]), memory(["theirs-1"]))
    assert result.clean and result.data == memory(["ours-1", "theirs-1"])


def test_markers_added_on_one_side_of_a_hand_written_file() -> None:
    hand = b"# Mine\n\nkeep me\nand me\n"
    section = f"\n{BEGIN}\n{line('new-1')}\n{END}\n".encode()
    result = merge_memory(hand, hand.replace(b"keep me", b"kept"), hand + section)
    assert result.clean and result.data == hand.replace(b"keep me", b"kept") + section
    # The user appended where the markers were appended: a plain conflict holding both.
    result = merge_memory(hand, hand + b"more of mine\n", hand + section)
    assert result.conflicts == 1 and not result.entries_merged
    assert result.data == hand + b"<<<<<<< ours\nmore of mine\n=======\n" + section + b">>>>>>> theirs\n"


def test_section_last_without_newline_gets_one_before_appended_text() -> None:
    base = memory(["aaa-1"]).rstrip(b"\n")
    theirs = memory(["aaa-1"]) + b"appendix\n"
    result = merge_memory(base, memory(["new-1", "aaa-1"]).rstrip(b"\n"), theirs)
    assert result.clean and result.data == memory(["new-1", "aaa-1"]) + b"appendix\n"


def test_duplicates_inside_one_side_collapse() -> None:
    dup = memory(["aaa-1", "bbb-1"]).replace(line("bbb-1").encode(), (line("bbb-1") + "\n" + line("aaa-1")).encode())
    result = merge_memory(memory(["aaa-1", "bbb-1"]), dup, memory(["new-1", "aaa-1", "bbb-1"]))
    assert result.entries_merged and ids_of(result.data) == ["new-1", "aaa-1", "bbb-1"]


@pytest.mark.parametrize("broken, mark", [
    (memory(["aaa-1"]).replace(BEGIN.encode(), b"<!-- nothing -->"), "<!-- nothing -->"),  # end without begin
    (memory(["aaa-1"]).replace(line("aaa-1").encode(), b"- not an entry"), "- not an entry"),  # bad index line
    (memory(["aaa-1"]) + f"{BEGIN}\n{END}\n".encode(), f"{END}\n{BEGIN}\n{END}\n"),  # a second section
])
def test_broken_input_falls_back_to_a_plain_merge_keeping_both_sides(broken: bytes, mark: str) -> None:
    result = merge_memory(memory(["aaa-1"]), broken, memory(["theirs-1", "aaa-1"]))
    assert not result.entries_merged and result.notes[0].startswith("ours side: MEMORY.md:")
    assert result.notes[0].endswith("; merged as plain text")
    text = result.data.decode()
    assert line("theirs-1") in text and mark in text


def test_section_removed_on_one_side_while_the_other_adds_is_a_plain_conflict() -> None:
    base = memory(["aaa-1"])
    result = merge_memory(base, HEAD.encode(), memory(["new-1", "aaa-1"]))
    assert not result.entries_merged and result.conflicts
    assert line("new-1") in result.data.decode()
    # Removed on one side, untouched on the other: gone, cleanly.
    assert merge_memory(base, HEAD.encode(), base).data == HEAD.encode()


def test_section_moved_by_one_side() -> None:
    base = memory(["aaa-1"], tail="after\n")
    moved = f"{BEGIN}\n{line('aaa-1')}\n{END}\n{HEAD}after\n".encode()
    result = merge_memory(base, memory(["new-1", "aaa-1"], tail="after\n"), moved)
    assert result.clean and result.data == f"{BEGIN}\n{line('new-1')}\n{line('aaa-1')}\n{END}\n{HEAD}after\n".encode()


def test_unbalanced_fence_in_a_conflict_falls_back() -> None:
    base = memory(["aaa-1"], head="# M\n\nx\n\n")
    ours = memory(["aaa-1"], head="# M\n\n```\n\n")
    theirs = memory(["new-1", "aaa-1"], head="# M\n\ny\n\n")
    result = merge_memory(base, ours, theirs)
    assert result.conflicts and not result.entries_merged
    assert line("new-1") in result.data.decode() and "```" in result.data.decode()
    # An empty section too: a fence the conflict leaves open hides its markers.
    section = f"{BEGIN}\n{END}\n"
    result = merge_memory(f"```\nx\n{section}".encode(), f"y\n```\nx\n{section}".encode(), f"---\nx\n{section}".encode())
    assert result.conflicts and not result.entries_merged
    assert result.notes == ("the entry merge would not parse as MEMORY.md; merged as plain text",)


def test_invalid_utf8_outside_the_markers_merges_byte_exactly() -> None:
    base = memory(["aaa-1"], head="# M\n\n") + b"\xff\xfe tail\n"
    ours = memory(["ours-1", "aaa-1"], head="# M\n\n") + b"\xff\xfe tail\n"
    theirs = memory(["aaa-1"], head="# M\n\n\xe9t\xe9\n") + b"\xff\xfe tail\n"
    result = merge_memory(base, ours, theirs)
    assert result.clean and result.entries_merged
    assert result.data == memory(["ours-1", "aaa-1"], head="# M\n\n\xe9t\xe9\n") + b"\xff\xfe tail\n"


# ---------------------------------------------------------------------------- random histories
@dataclass
class Side:
    head: list[str]
    ids: list[str]
    tail: list[str]
    added: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)

    def reordered(self, base: Side) -> bool:
        """Whether the entries it shares with the base are in another order."""
        return ([rid for rid in self.ids if rid in base.ids]
                != [rid for rid in base.ids if rid in self.ids])

    def render(self) -> bytes:
        head = "".join(f"{text}\n" for text in self.head)
        tail = "".join(f"{text}\n" for text in self.tail)
        return memory(self.ids, head=head, tail=tail)

    def copy(self) -> Side:
        return Side(list(self.head), list(self.ids), list(self.tail))


ops = st.lists(st.tuples(st.sampled_from(["add", "add-top", "forget", "move", "text"]),
                         st.integers(0, 1000), st.integers(0, 1000)), max_size=8)


def play(side: Side, history: list[tuple[str, int, int]], name: str) -> None:
    for number, (op, a, b) in enumerate(history):
        if op in ("add", "add-top"):
            rid = f"{name}-{number:02d}-new"
            side.ids.insert(0 if op == "add-top" else a % (len(side.ids) + 1), rid)
            side.added.add(rid)
        elif op == "forget" and side.ids:
            rid = side.ids.pop(a % len(side.ids))
            if rid in side.added:
                side.added.discard(rid)
            else:
                side.removed.add(rid)
        elif op == "move" and side.ids:
            side.ids.insert(b % len(side.ids), side.ids.pop(a % len(side.ids)))
        elif op == "text":
            lines = side.head if a % 2 else side.tail
            lines.insert(b % (len(lines) + 1), f"{name} note {number}")


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 6), st.integers(0, 3), st.integers(0, 3), ops, ops)
def test_random_histories(count: int, heads: int, tails: int, ours_ops: list[tuple[str, int, int]],
                          theirs_ops: list[tuple[str, int, int]]) -> None:
    base = Side([f"user line {i}" for i in range(heads)] + [""], [f"base-{i:02d}-entry" for i in range(count)],
                [f"trailer {i}" for i in range(tails)])
    ours, theirs = base.copy(), base.copy()
    play(ours, ours_ops, "ours")
    play(theirs, theirs_ops, "theirs")
    result = merge_memory(base.render(), ours.render(), theirs.render())
    assert result.entries_merged
    text = result.data.decode()
    doc, problems = index_file.parse(text)
    assert doc is not None and not problems
    expected = (set(base.ids) | ours.added | theirs.added) - ours.removed - theirs.removed
    assert set(doc.ids()) == expected and len(doc.ids()) == len(expected)
    # No user line is lost: every line either side has outside the markers is still there.
    outside = Counter((doc.prefix + doc.suffix).splitlines())
    for side in (ours, theirs):
        assert not Counter(side.head + side.tail) - outside
    user_edits = [any(op == "text" for op, _, _ in side) for side in (ours_ops, theirs_ops)]
    assert result.clean or all(user_edits)
    for side, other_edited in ((ours, user_edits[1]), (theirs, user_edits[0])):
        if not other_edited:  # only this side touched the user's text: exactly its text
            assert (doc.prefix + doc.suffix).splitlines() == [*side.head, BEGIN, END, *side.tail]
    # Ours' order survives, unless only theirs reordered: then theirs' order does.
    leader = theirs if theirs.reordered(base) and not ours.reordered(base) else ours
    kept = [rid for rid in leader.ids if rid in expected]
    assert [rid for rid in doc.ids() if rid in set(kept)] == kept


def test_ours_removed_the_section_while_theirs_edited_an_entry_conflicts_keeping_the_edit() -> None:
    """The edit must not vanish with the section: the whole file conflicts, both sides in it."""
    base = memory(["aaa-1", "bbb-1"])
    edited = memory(["aaa-1", "bbb-1"], aaa_1="Fixed the port: 5433, not 5432.")
    removed = HEAD.encode()
    for ours, theirs in ((removed, edited), (edited, removed)):
        result = merge_memory(base, ours, theirs)
        assert result.conflicts and not result.entries_merged
        assert result.notes == ("one side removed or repeated the managed section, the other changed it; "
                                "merged as plain text",)
        assert "Fixed the port: 5433, not 5432." in result.data.decode()
    # An entry forgotten or reordered there is a change too; an untouched section goes quietly.
    assert merge_memory(base, removed, memory(["bbb-1"])).conflicts
    assert merge_memory(base, removed, memory(["bbb-1", "aaa-1"])).conflicts
    assert merge_memory(base, removed, base).data == removed


class _Budget(Exception):
    pass


def test_the_merge_is_linear_in_the_users_text() -> None:
    """Counted, not timed: the package's own executed lines while merging 40,000 lines of user text
    that both sides changed every seventh line (apart), so every line needs the diff. git diffs;
    what is left here is a few steps per line. A quadratic diff in Python stops at the budget."""
    count = 40_000
    base_lines = [f"line {n} of the team's notes" for n in range(count)]
    ours_lines = [f"ours {n}" if n % 7 == 0 else text for n, text in enumerate(base_lines)]
    theirs_lines = [f"theirs {n}" if n % 7 == 3 else text for n, text in enumerate(base_lines)]
    expected_lines = [f"theirs {n}" if n % 7 == 3 else text for n, text in enumerate(ours_lines)]
    sides = [memory(["aaa-1"]) + "".join(f"{text}\n" for text in side).encode()
             for side in (base_lines, ours_lines, theirs_lines)]
    package = str(Path(index_file.__file__).resolve().parent.parent)
    budget = 40 * count
    steps = 0

    def count_line(frame: FrameType, event: str, arg: object) -> Callable[..., object]:
        nonlocal steps
        steps += 1
        if steps > budget:
            raise _Budget(f"more than {budget:,} steps for {count:,} lines")
        return count_line

    def enter(frame: FrameType, event: str, arg: object) -> Callable[..., object] | None:
        return count_line if frame.f_code.co_filename.startswith(package) else None

    previous = sys.gettrace()  # a debugger's or coverage's, put back afterwards
    sys.settrace(enter)
    try:
        result = merge_memory(*sides)
    finally:
        sys.settrace(previous)
    assert result.clean and result.entries_merged
    assert result.data == memory(["aaa-1"]) + "".join(f"{text}\n" for text in expected_lines).encode()
