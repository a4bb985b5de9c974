"""The merge driver against ``git merge-file``, byte for byte, on fixed corpora of random edits of
markdown-like text with many repeated lines (blank lines, fences, rules), in every conflict style,
several marker sizes and labels: the plain text merge of whole files, and the user's text around
the managed section, where the section stands as one unchanged block on every side."""
from __future__ import annotations

from pathlib import Path

from chord_git.memory.merge import STYLES, Markers, merge_memory, text_merge
from testing.merge_corpus import edits, git_merge_file, memory_edits, outside_section

LABELS = [("ours", "base", "theirs"), ("HEAD", "parent of 1a2b3c4 (notes)", "1a2b3c4 (notes)")]
SIZES = (7, 7, 9, 3)


def markers(number: int) -> Markers:
    return Markers(SIZES[number % len(SIZES)], STYLES[number % len(STYLES)], *LABELS[number % len(LABELS)])


def reference(folder: Path, sides: tuple[bytes, bytes, bytes], style: Markers) -> tuple[bytes, int]:
    return git_merge_file(folder, *sides, style=style.style, labels=(style.ours, style.base, style.theirs),
                          marker_size=style.size)


def test_the_plain_merge_is_git_merge_file_on_every_case(tmp_path: Path) -> None:
    differing = []
    for number, sides in enumerate(edits(seed=20261201, count=1000, endings=True)):
        style = markers(number)
        mine = text_merge(*sides, markers=style)
        data, status = reference(tmp_path, sides, style)
        if mine.data != data or min(mine.conflicts, 127) != status:
            differing.append((number, sides))
    assert differing == []


def test_the_text_around_the_section_is_git_merge_file_on_every_case(tmp_path: Path) -> None:
    differing = []
    entry_merges = 0
    count = 600
    for number, sides in enumerate(memory_edits(seed=20261201, count=count)):
        style = markers(number)
        result = merge_memory(*sides, markers=style)
        if result.entries_merged:
            entry_merges += 1
            data, status = reference(tmp_path, tuple(outside_section(side) for side in sides), style)  # type: ignore[arg-type]
            same = outside_section(result.data) == data
        else:  # the fallback: git's merge of the whole file
            data, status = reference(tmp_path, sides, style)
            same = result.data == data
        if not same or min(result.conflicts, 127) != status:
            differing.append((number, sides))
    assert differing == []
    assert entry_merges >= count * 0.8  # the corpus holds the section apart, as users' edits do
