"""A MEMORY.md that is not UTF-8 text: a Windows editor saved it as UTF-16 (or UTF-32), or a legacy
encoding. Our writers would append a UTF-8 section to it (garbage to the editor, and to us when read
back); so every write refuses with one line naming the file, ``check`` reports it, and a session's
summary injects nothing of it and warns once."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.commands.check import check
from chord_git.commands.init import init
from chord_git.commands.summary import summary
from chord_git.errors import InputError
from chord_git.memory import index_file, store
from chord_git.memory.index_file import IndexDelta
from chord_git.memory.project import discover
from testing.commands import run
from testing.gitutil import index_digest
from testing.memory_files import make_record

TEXT = "# Project memory\n\nNotes of my own: keep the changelog short.\n"
ENCODED = {
    "UTF-16 (little-endian, by its byte order mark)": b"\xff\xfe" + TEXT.encode("utf-16-le"),
    "UTF-16 (big-endian, by its byte order mark)": b"\xfe\xff" + TEXT.encode("utf-16-be"),
    "UTF-32 (little-endian, by its byte order mark)": b"\xff\xfe\x00\x00" + TEXT.encode("utf-32-le"),
    "UTF-32 (big-endian, by its byte order mark)": b"\x00\x00\xfe\xff" + TEXT.encode("utf-32-be"),
    "UTF-16 or UTF-32 (no byte order mark, but NUL bytes between its characters)": TEXT.encode("utf-16-le"),
}


@pytest.mark.parametrize("encoding", list(ENCODED))
def test_no_write_appends_a_utf8_section_to_a_utf16_file(repo: Path, encoding: str) -> None:
    data = ENCODED[encoding]
    (repo / "MEMORY.md").write_bytes(data)
    before = index_digest(repo)
    result = run(init, repo)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stderr == f"git memory: MEMORY.md: the file is {encoding}, not UTF-8; save it as UTF-8\n"
    assert (repo / "MEMORY.md").read_bytes() == data and index_digest(repo) == before
    # The extraction's write goes through the same door.
    with pytest.raises(InputError) as caught:
        store.apply_delta(discover(repo), IndexDelta(insert=(index_file.Entry("fact", "New.", "20261129-new-0001"),)))
    assert caught.value.render() == f"MEMORY.md: the file is {encoding}, not UTF-8; save it as UTF-8"
    assert (repo / "MEMORY.md").read_bytes() == data


@pytest.mark.parametrize("encoding", list(ENCODED))
def test_check_reports_it_and_the_summary_injects_no_garbage(repo: Path, encoding: str) -> None:
    (repo / "MEMORY.md").write_bytes(ENCODED[encoding])
    result = run(check, repo, fmt="json")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    found = [f for f in json.loads(result.stdout)["findings"] if f["path"] == "MEMORY.md"]
    assert [(f["kind"], f["message"]) for f in found] == [
        ("file-encoding", f"the file is {encoding}, not UTF-8; save it as UTF-8")]
    shown = run(summary, repo)
    assert shown.returncode == 0 and "Traceback" not in shown.stderr
    assert "\x00" not in shown.stdout and "\ufffd" not in shown.stdout and "changelog" not in shown.stdout
    assert shown.stderr == f"warning: MEMORY.md: the file is {encoding}, not UTF-8; save it as UTF-8; not loaded\n"


def test_a_legacy_encoding_gets_no_utf8_section_appended(repo: Path) -> None:
    """A hand-written MEMORY.md in Latin-1 or GBK has no markers yet: the tool's first write
    would append UTF-8 entries to it. Refused; once there are markers, bytes the tool does not own
    outside them stay as they are (``test_index_file``)."""
    data = "# Mémoire du projet\n\nNotes à moi.\n".encode("latin-1")
    (repo / "MEMORY.md").write_bytes(data)
    result = run(init, repo)
    assert result.returncode == 2
    assert result.stderr == ("git memory: MEMORY.md:1: not valid UTF-8; "
                             "save it as UTF-8 before the tool adds its section\n")
    assert (repo / "MEMORY.md").read_bytes() == data


def test_a_utf8_file_with_markers_is_still_written(repo: Path) -> None:
    make_record(repo, "20261129-old-0001")
    section = f"{index_file.BEGIN}\n{index_file.END}\n".encode()
    (repo / "MEMORY.md").write_bytes(b"\xef\xbb\xbf# Memory\n\n" + section)
    store.apply_delta(discover(repo), IndexDelta(insert=(index_file.Entry("fact", "New.", "20261129-new-0001"),)))
    assert (repo / "MEMORY.md").read_bytes().startswith(b"\xef\xbb\xbf# Memory\n\n")
    doc, _problems = index_file.parse_bytes((repo / "MEMORY.md").read_bytes())
    assert doc is not None and doc.ids() == ["20261129-new-0001"]
