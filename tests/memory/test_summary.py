from __future__ import annotations

from pathlib import Path

import pytest

from chord_git.memory import summary
from chord_git.memory.index_file import BEGIN, END, Entry
from chord_git.memory.summary import (
    EXTRACTION_NOTICE,
    MEMORY_DISCIPLINE,
    RefreshEvent,
    SessionMemory,
)


def entry_line(number: int, summary_text: str | None = None) -> str:
    return Entry(type="fact", summary=summary_text or f"Fact number {number:05d} about the build.", id=f"e-{number:05d}").render()


def write_index(path: Path, count: int, prefix: str = "# Project memory\n\n", suffix: str = "") -> list[str]:
    lines = [entry_line(n) for n in range(count)]
    path.write_text(prefix + BEGIN + "\n" + "".join(line + "\n" for line in lines) + END + "\n" + suffix)
    return lines


def test_no_memory_file_means_no_framing(tmp_path: Path) -> None:
    result = summary.build(tmp_path / "MEMORY.md", budget=4000, extraction_enabled=False)
    assert result.text == "" and not result.loaded
    result = summary.build(tmp_path / "MEMORY.md", budget=4000, extraction_enabled=True)
    assert result.text == EXTRACTION_NOTICE  # R11: the notice only when extraction is on


def test_framing_and_notice_only_when_they_apply(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    write_index(path, 3)
    off = summary.build(path, budget=4000, extraction_enabled=False)
    assert off.text.startswith(MEMORY_DISCIPLINE) and EXTRACTION_NOTICE not in off.text
    assert "untrusted" in off.text and "never overrides" in off.text and "never grants permissions" in off.text
    assert "verify" in off.text
    on = summary.build(path, budget=4000, extraction_enabled=True)
    assert on.text.endswith(EXTRACTION_NOTICE)
    assert off.entries_shown == 3


def test_budget_fills_from_the_top_and_never_cuts_a_line(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    lines = write_index(path, 100)
    result = summary.build(path, budget=1000, extraction_enabled=False)
    content = result.text[len(MEMORY_DISCIPLINE) + 2:]
    shown = [line for line in content.splitlines() if line.startswith("- [")]
    assert shown == lines[: len(shown)]
    assert sum(len(line) + 1 for line in shown) <= 1000
    assert sum(len(line) + 1 for line in lines[: len(shown) + 1]) > 1000
    assert result.truncated and summary.TRUNCATION_NOTE in result.text


def test_empty_index_with_only_a_heading_loads_nothing(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    write_index(path, 0)
    assert not summary.build(path, budget=4000, extraction_enabled=False).loaded


def test_hand_notes_follow_entries_within_budget(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    write_index(path, 2, prefix="# Memory\n\nAsk Dana before touching billing.\n\n", suffix="\nTail note.\n")
    text = summary.build(path, budget=4000, extraction_enabled=False).text
    assert text.index("e-00001") < text.index("Ask Dana") < text.index("Tail note.")
    assert BEGIN not in text and END not in text


def test_file_without_markers_is_plain_text_within_budget(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    path.write_text("We deploy on Tuesdays.\n" * 500)
    result = summary.build(path, budget=300, extraction_enabled=False)
    body = result.text[len(MEMORY_DISCIPLINE) + 2:]
    assert body.startswith("We deploy on Tuesdays.") and len(body.split("\n\n")[0]) <= 300


def test_broken_lines_are_skipped_with_warnings(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    path.write_bytes((BEGIN + "\n" + entry_line(1) + "\nnot an entry\n").encode() + b"- [fact] caf\xe9 ([e-00002](.chord/memory/records/e-00002.md))\n" + (END + "\n").encode())
    result = summary.build(path, budget=4000, extraction_enabled=False)
    assert "e-00001" in result.text and "not an entry" not in result.text
    assert result.warnings and result.warnings[0].startswith("MEMORY.md:3: skipped")


def test_huge_memory_file_is_streamed(tmp_path: Path) -> None:
    import tracemalloc

    path = tmp_path / "MEMORY.md"
    with path.open("w") as handle:
        handle.write("# notes\n" + BEGIN + "\n")
        for number in range(400_000):  # about 50 MB of index
            handle.write(entry_line(number, f"A long fact {number:07d} " + "x" * 60) + "\n")
        handle.write(END + "\nAfter the section.\n")
    assert path.stat().st_size > 50_000_000
    tracemalloc.start()
    result = summary.build(path, budget=4000, extraction_enabled=False)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert result.entries_shown > 10 and result.truncated
    assert "After the section." not in result.text  # entries fill the budget first (R28)
    assert peak < 10_000_000  # bounded, far below the file size


def test_single_gigantic_line_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    path.write_bytes(b"x" * 20_000_000 + b"\n")
    result = summary.build(path, budget=500, extraction_enabled=False)
    assert len(result.text) < len(MEMORY_DISCIPLINE) + 600


def test_session_memory_refreshes_only_on_cache_rebuild_events(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    write_index(path, 1)
    session = SessionMemory(lambda: summary.build(path, budget=4000, extraction_enabled=True))
    first = session.text
    write_index(path, 3)  # a background extraction committed new records
    for _ in range(5):
        assert session.text == first  # R10: never on the very next request
    for event in RefreshEvent:
        refreshed = session.on_event(event)
        assert "e-00002" in refreshed
    assert session.refreshes == len(RefreshEvent)
    with pytest.raises(ValueError):
        session.on_event("every-request")


def test_record_verdicts_are_cached_by_size_and_mtime(repo: Path) -> None:
    """R24 at load: the first start parses the shown records; later starts reuse the verdicts
    (no front matter parsed at all) until a record file changes."""
    import subprocess
    import sys

    from chord_git.memory import records as records_mod
    from chord_git.memory.index_file import BEGIN, END, Entry
    from testing.memory_files import sample_record as make_record

    record = make_record(id="20261129-cached-0001", summary="Cached entry.")
    path = repo / ".chord" / "memory" / "records" / f"{record.id}.md"
    path.parent.mkdir(parents=True)
    path.write_text(records_mod.render(record))
    (repo / "MEMORY.md").write_text(f"{BEGIN}\n{Entry(record.type, record.summary, record.id).render()}\n{END}\n")
    probe = ("import sys; from chord_git.memory import frontmatter; calls = []; split = frontmatter.split; "
             "frontmatter.split = lambda *a, **k: calls.append(1) or split(*a, **k); "
             "from chord_git.main import main; main(['summary']); print('parsed' if calls else 'not-parsed')")

    def start() -> str:
        return subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True,
                              check=True).stdout

    first = start()
    assert "Cached entry." in first and first.splitlines()[-1] == "parsed"
    assert start().splitlines()[-1] == "not-parsed"
    path.write_text(records_mod.render(record).replace("statement: ", "statement: " + "x" * 700, 1))
    second = start()
    assert "Cached entry." not in second and second.splitlines()[-1] == "parsed"
