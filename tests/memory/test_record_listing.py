"""The record listing (one regex over all names) keeps exactly the names ``valid_id`` accepts."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.memory import records, view
from testing.memory_files import project_of

NAME_CHARS = "abcz09-.\nMDmd_ é"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=NAME_CHARS, min_size=1, max_size=90).filter(lambda n: "/" not in n and n not in (".", "..")),
                max_size=12))
def test_listing_keeps_the_valid_record_names(names: list[str]) -> None:
    names = names + ["20261129-ok-0001.md", "a" * 80 + ".md", "a" * 81 + ".md"]
    expected = sorted(n[:-3] for n in names if n.endswith(".md") and records.valid_id(n[:-3]))
    assert sorted(view._RECORD_NAME.findall("/".join(names))) == expected


def test_record_ids_on_disk(tmp_path: Path) -> None:
    folder = tmp_path / ".chord" / "memory" / "records"
    folder.mkdir(parents=True)
    for name in ("20261129-b-0001.md", "20261129-a-0001.md", "notes.txt", "Bad.md", "x\nabc.md"):
        (folder / name).write_text("x")
    (tmp_path / "MEMORY.md").write_text("")
    assert view.record_ids(project_of(tmp_path)) == ["20261129-a-0001", "20261129-b-0001"]
