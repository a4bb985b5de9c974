"""Moving index lines (R28): the change is anchored, so re-applying it is harmless."""
from __future__ import annotations

from chord_git.memory import index_file
from chord_git.review.move import place, plan_move


def _doc(*ids: str, blank_after: int | None = None) -> index_file.MemoryDoc:
    lines: list[index_file.Line] = []
    for n, rid in enumerate(ids):
        lines.append(index_file.Entry("fact", f"About {rid}.", rid))
        if n == blank_after:
            lines.append(index_file.Blank(""))
    return index_file.MemoryDoc(prefix="# Notes\n" + index_file.BEGIN + "\n", lines=tuple(lines),
                           suffix=index_file.END + "\n", newline="\n", has_markers=True)


def test_plan_and_place() -> None:
    ids = ["aaa", "bbb", "ccc"]
    assert plan_move(ids, "aaa", "up") is None and plan_move(ids, "aaa", "top") is None
    assert plan_move(ids, "ccc", "down") is None
    for rid, where, expected in (("ccc", "up", ["aaa", "ccc", "bbb"]), ("aaa", "down", ["bbb", "aaa", "ccc"]),
                                 ("ccc", "top", ["ccc", "aaa", "bbb"])):
        side, anchor = plan_move(ids, rid, where)  # type: ignore[misc]
        moved = place(_doc(*ids), rid, side, anchor)
        assert moved.ids() == expected
        assert place(moved, rid, side, anchor) == moved  # idempotent


def test_move_applies_sensibly_to_a_concurrent_writers_version() -> None:
    side, anchor = plan_move(["aaa", "bbb", "ccc"], "ccc", "up")  # type: ignore[misc]
    theirs = _doc("new", "bbb", "ccc")  # meanwhile: a new entry on top, "aaa" deleted by hand
    assert place(theirs, "ccc", side, anchor).ids() == ["new", "ccc", "bbb"]
    gone = _doc("aaa", "ccc")  # the anchor itself was deleted: leave the order alone
    assert place(gone, "ccc", side, anchor) == gone


def test_blank_lines_and_user_text_stay() -> None:
    doc = _doc("aaa", "bbb", "ccc", blank_after=0)
    moved = place(doc, "ccc", "before", None)
    assert moved.ids() == ["ccc", "aaa", "bbb"]
    assert isinstance(moved.lines[2], index_file.Blank)
    assert index_file.render(moved).startswith("# Notes\n")
