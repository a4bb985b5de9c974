"""One grammar for MEMORY.md: the fast readers show exactly the full parser's entries.

``index_file.parse`` is the grammar. Two readers take short cuts for speed: ``clean_section``
(``status`` on a large index: a few string searches and one regex pass) and ``index_stream.read``
(a session's summary: line by line, only as far as the budget goes). On random files mixing entries
of every type, broken lines, code fences, markers, bad bytes, a BOM, CRLF, blank lines and the
user's text, each shows parse's entries, in order, up to the budget, or leaves the file to parse.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.memory import index_file, index_stream, loadable
from chord_git.memory.index_file import BEGIN, END
from chord_git.memory.records import RECORD_TYPES, SUMMARY_CAP

# A pool of valid ids, small enough that duplicates are common.
IDS = [f"20261129-item-{n:04d}" for n in range(12)] + ["abc", "x" * 80, "0-9"]
SUMMARIES = ["Use pnpm.", "Keep (parens) and [brackets] (see #4).", "Tight", "x ([y", "café ✓ 長期",
             "tab\there", "cr \r inside", "y" * (SUMMARY_CAP + 1), "a long one " + "z" * 400,
             "\ufffd kept as written", "a ) b ] c", "([", "emoji 🙂", "Run `make check` first."]
TRAILING = ["", "", "", " ", "\t", "  \t", "\x0c", "\r", "\u3000"]
# One part of the line off at a time: what parse_entry must refuse (or, for some, still accept).
FAULTS = {"type": ["idea", "Fact", "", "fact fact"], "id": ["a" * 81, "Bad-Id", "ab", "-abc", ""],
          "target": IDS, "summary": ["", " ", "ends with space "], "gap": ["", "  "],
          "start": ["-", "  - ", "* ", "-  ", "\ufeff- "], "end": ["", ")", ".md)"]}


@st.composite
def entry_lines(draw: st.DrawFn, faults: bool = True) -> str:
    """A line shaped like an entry: mostly valid, sometimes (``faults``) with one part off."""
    parts = {"type": draw(st.sampled_from(RECORD_TYPES)), "id": draw(st.sampled_from(IDS)),
             "summary": draw(st.sampled_from(SUMMARIES)), "gap": " ", "start": "- ", "end": "))"}
    parts["target"] = parts["id"]
    fault = draw(st.sampled_from([*[None] * 20, *FAULTS])) if faults else None
    if fault is not None:
        parts[fault] = draw(st.sampled_from(FAULTS[fault]))
        if fault == "id":
            parts["target"] = parts["id"]
    tail = draw(st.sampled_from(TRAILING))
    return (f"{parts['start']}[{parts['type']}] {parts['summary']}{parts['gap']}"
            f"([{parts['id']}](.chord/memory/records/{parts['target']}.md{parts['end']}{tail}")


TEXT = ["# Project memory", "", "  ", "\t\x0b", "notes of my own", "\u2028", "plain - [fact] text",
        "a line that mentions chord:memory:begin", "(see [this](x.md))"]
FENCES = ["```", "~~~", "   ```", "    ```", "```python", "~~~~", "\t```", "```" + BEGIN]
MARKERS = [BEGIN, END, f"  {BEGIN}  ", f"{END}\t", "<!--chord:memory:begin-->", "<!-- chord:memory:end -->x",
           "\ufeff" + BEGIN, BEGIN + " " * 90, BEGIN + " " * 90 + "x"]
BAD = [b"caf\xe9", b"\xff\xfe", b"- [fact] caf\xe9 ([20261129-a-0001](.chord/memory/records/20261129-a-0001.md))"]

def rare(common: list[str], odd: list[str] | list[bytes], one_in: int) -> st.SearchStrategy[bytes]:
    """A line of ``odd`` one time in ``one_in``, else one of ``common``."""
    return st.integers(0, one_in - 1).flatmap(
        lambda n: st.sampled_from(odd if n == 0 else common)).map(lambda s: s if isinstance(s, bytes) else s.encode())


text = st.sampled_from(TEXT).map(str.encode)
entries = entry_lines().map(str.encode)
# The user's text around the section: fences now and then, markers and bad bytes rarely, so that
# most files have a section parse can use.
around = st.one_of(text, text, text, entries, rare(TEXT, FENCES, 3), rare(TEXT, MARKERS, 20), rare(TEXT, BAD, 6))
# The usual shape: clean entries and blank lines, text of the user's own around them.
tidy = st.one_of(*[entry_lines(faults=False).map(str.encode)] * 5, st.sampled_from(["", "  ", "\t"]).map(str.encode))
# Inside the section: entries mostly, then blank and broken lines, fences, rarely a marker.
inside = st.one_of(entries, entries, entries, entries, entries, entries, text, rare(TEXT, FENCES, 2),
                   rare(TEXT, MARKERS, 30), rare(TEXT, BAD, 4))
SHAPES = ["usual"] * 12 + ["no end", "no begin", "no markers", "reversed", "twice"]


@st.composite
def memory_files(draw: st.DrawFn) -> bytes:
    usual = draw(st.integers(0, 2)) == 0
    before = draw(st.lists(text if usual else around, max_size=5))
    section = draw(st.lists(tidy if usual else inside, min_size=draw(st.sampled_from([0, 1, 4, 8])), max_size=16))
    after = draw(st.lists(text if usual else around, max_size=4))
    begin, end = draw(st.sampled_from([BEGIN, BEGIN, f"  {BEGIN}  ", "<!--chord:memory:begin-->", "\ufeff" + BEGIN])).encode(), draw(st.sampled_from([END, f"{END} ", END + "\t"])).encode()
    shape = draw(st.sampled_from(SHAPES))
    lines = {"usual": [*before, begin, *section, end, *after], "no end": [*before, begin, *section, *after],
             "no begin": [*before, *section, end, *after], "no markers": [*before, *section, *after],
             "reversed": [*before, end, *section, begin, *after],
             "twice": [*before, begin, *section, end, *after, begin, end]}[shape]
    newline = draw(st.sampled_from([b"\n", b"\r\n", b"mixed"]))
    out = b""
    for line in lines:
        out += line + (newline if newline != b"mixed" else draw(st.sampled_from([b"\n", b"\r\n", b"\r\r\n"])))
    if draw(st.booleans()):
        out = out.rstrip(b"\r\n")  # no line end after the last line
    return (b"\xef\xbb\xbf" if draw(st.integers(0, 4)) == 0 else b"") + out


def expected_summary_entries(doc: index_file.MemoryDoc, budget: int) -> tuple[list[str], bool]:
    """What a summary of ``budget`` characters shows of parse's entries: from the top until one
    does not fit (R28); an entry over the summary cap is never loaded and costs nothing (R24)."""
    shown: list[str] = []
    used = 0
    for entry in doc.entries:
        line = entry.render()
        if used + index_file.line_cost(line) > budget:
            return shown, True
        if len(entry.summary) > SUMMARY_CAP:
            continue
        shown.append(line)
        used += index_file.line_cost(line)
    return shown, False


def usual_shape(text: str, doc: index_file.MemoryDoc | None, problems: list[object]) -> bool:
    """The shape ``clean_section`` is for: markers once each, no fence before them, only clean
    entries (none with "([" in its summary) and blank lines between them, all valid UTF-8."""
    if doc is None or problems or not doc.has_markers or text.count("chord:memory:") != 2:
        return False
    head = text[:text.index("chord:memory:")]
    return "```" not in head and "~~~" not in head and not any("([" in e.summary for e in doc.entries)


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(memory_files(), st.integers(0, 700))
def test_the_fast_readers_show_exactly_the_parsers_entries(data: bytes, budget: int) -> None:
    text, _bom = index_file.decode(data)
    # The grammar of the file's bytes: one starting with a UTF-16 byte order mark has no document.
    doc, problems = index_file.parse_bytes(data)

    # status: clean_section reads the usual shape as parse does, and leaves every other to parse.
    section = index_file.clean_section(text)
    if section is not None:
        assert doc is not None and not problems and doc.has_markers
        assert section.ids == doc.ids()
        assert list(section.lines()) == [entry.render() for entry in doc.entries]
    else:
        assert not usual_shape(text, doc, list(problems))

    # the summary: parse's entries from the top, as far as the budget goes.
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "MEMORY.md"
        path.write_bytes(data)
        read = index_stream.read(path, budget, "MEMORY.md", loadable.Verdicts(Path(tmp)))
    if doc is not None and doc.has_markers:
        assert read.section
        assert (read.entries, read.truncated) == expected_summary_entries(doc, budget)
    elif doc is not None:  # no markers at all: the file is plain text, no entries
        assert not read.section and read.entries == []
    else:
        # Markers parse cannot use: the summary still loads what it can, and only entries parse
        # would accept, each once, within the budget.
        assert all(isinstance(index_file.parse_entry(line), index_file.Entry) for line in read.entries)
        ids = [index_file.parse_entry(line).id for line in read.entries]  # type: ignore[union-attr]
        assert len(set(ids)) == len(ids)
        assert index_file.index_chars(read.entries) <= budget


def test_a_long_entry_line_that_does_not_fit_stops_the_summary(tmp_path: Path) -> None:
    """A section line longer than the reader's line bound is judged whole: an entry that does not
    fit ends the summary there (R28), as parse's entries say, rather than being skipped as a bad
    line with the entries below it shown."""
    first = index_file.Entry("fact", "Short.", "20261129-a-0001").render()
    long = index_file.Entry("fact", "L" * 150, "20261129-b-0002").render() + " " * 400
    last = index_file.Entry("fact", "After.", "20261129-c-0003").render()
    path = tmp_path / "MEMORY.md"
    path.write_text(f"{BEGIN}\n{first}\n{long}\n{last}\n{END}\n")
    read = index_stream.read(path, 100, "MEMORY.md")
    assert read.entries == [first] and read.truncated and read.warnings == []


def test_a_duplicated_id_is_shown_once_with_a_warning(tmp_path: Path) -> None:
    line = index_file.Entry("fact", "Once.", "20261129-a-0001").render()
    path = tmp_path / "MEMORY.md"
    path.write_text(f"{BEGIN}\n{line}\n{line}\n{END}\n")
    read = index_stream.read(path, 1000, "MEMORY.md")
    assert read.entries == [line]
    assert read.warnings == ["MEMORY.md:3: skipped: id 20261129-a-0001 is already listed at line 2"]
