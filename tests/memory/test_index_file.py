from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.memory import index_file
from chord_git.memory.index_file import BEGIN, END, Entry, IndexDelta


def entry(rid: str, kind: str = "fact", summary: str | None = None) -> Entry:
    return Entry(type=kind, summary=summary or f"Summary of {rid}.", id=rid)


def doc_of(text: str) -> index_file.MemoryDoc:
    doc, problems = index_file.parse(text)
    assert doc is not None and not problems, problems
    return doc


SAMPLE = (
    "# Project memory\n\nMy own notes stay here.\n\n"
    f"{BEGIN}\n"
    "- [preference] Use pnpm, never npm, for JS dependencies. ([20261129-use-pnpm-3f9a](.chord/memory/records/20261129-use-pnpm-3f9a.md))\n"
    "- [workflow] Run `make check` before asking for review. ([20261128-make-check-0b1c](.chord/memory/records/20261128-make-check-0b1c.md))\n"
    f"{END}\n\nTrailing notes.\n"
)


def test_parse_spec_example() -> None:
    doc = doc_of(SAMPLE)
    assert doc.ids() == ["20261129-use-pnpm-3f9a", "20261128-make-check-0b1c"]
    assert doc.entries[0].type == "preference"
    assert doc.entries[0].summary == "Use pnpm, never npm, for JS dependencies."
    assert doc.entries[0].line == 6
    assert index_file.render(doc) == SAMPLE


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", [False, True])
def test_outside_bytes_preserved_after_a_write(newline: str, bom: bool) -> None:
    original = SAMPLE.replace("\n", newline)
    data = index_file.encode(original, bom) + b"\xff\xfe raw bytes outside" + newline.encode()
    text, has_bom = index_file.decode(data)
    doc, problems = index_file.parse(text, bom=has_bom)
    assert doc is not None
    assert [p.kind for p in problems] == ["encoding-outside"]
    new = index_file.apply(doc, IndexDelta(insert=(entry("20261130-new-aaaa"),)))
    out = index_file.encode(index_file.render(new), new.bom)
    assert out.startswith(index_file.encode(original.split(BEGIN)[0], bom))
    assert out.endswith(index_file.encode(END + newline + original.split(END + newline)[1], False) + b"\xff\xfe raw bytes outside" + newline.encode())
    assert f"{BEGIN}{newline}- [fact] Summary of 20261130-new-aaaa.".encode() in out


@pytest.mark.parametrize(
    "text, kind, line",
    [
        (f"a\n{BEGIN}\n", "marker-missing", 2),
        (f"a\n{END}\n", "marker-reversed", 2),
        (f"{END}\n{BEGIN}\n{END}\n", "marker-reversed", 1),
        (f"{BEGIN}\n{BEGIN}\n{END}\n", "marker-nested", 2),
        (f"{BEGIN}\n{END}\n{BEGIN}\n{END}\n", "marker-duplicate", 3),
        (f"{BEGIN}\n{END}\nx\n{END}\n", "marker-duplicate", 4),
        (f"{BEGIN}\nhello\n{END}\n", "index-line", 2),
        (f"{BEGIN}\n- [opinion] Foo. ([abc-1](.chord/memory/records/abc-1.md))\n{END}\n", "index-line", 2),
        (f"{BEGIN}\n- [fact] Foo. ([../etc](.chord/memory/records/../etc.md))\n{END}\n", "index-line", 2),
        (f"{BEGIN}\n- [fact] Foo. ([abc-1](.chord/memory/records/abc-2.md))\n{END}\n", "index-line", 2),
        (f"{BEGIN}\n- [fact] A. ([abc-1](.chord/memory/records/abc-1.md))\n- [fact] B. ([abc-1](.chord/memory/records/abc-1.md))\n{END}\n", "index-duplicate", 3),
    ],
)
def test_syntax_errors_carry_a_line(text: str, kind: str, line: int) -> None:
    _doc, problems = index_file.parse(text)
    assert problems, "expected a problem"
    assert problems[0].kind == kind
    assert problems[0].line == line
    assert problems[0].at("MEMORY.md").startswith(f"MEMORY.md:{line}: ")


def test_markers_inside_a_code_fence_are_text() -> None:
    text = f"Example:\n```\n{BEGIN}\n{END}\n```\n{BEGIN}\n{END}\n"
    doc = doc_of(text)
    assert doc.has_markers and doc.prefix.endswith(f"```\n{BEGIN}\n")


def test_file_without_markers_gets_them_appended_on_first_write() -> None:
    text = "hand written\nnotes"
    doc = doc_of(text)
    assert not doc.has_markers
    out = index_file.render(index_file.apply(doc, IndexDelta(insert=(entry("abc-1"),))))
    assert out.startswith("hand written\nnotes\n\n" + BEGIN + "\n- [fact]")
    assert out.endswith(END + "\n")


def test_insert_goes_on_top_and_never_duplicates() -> None:
    doc = doc_of(f"{BEGIN}\n{entry('old-1').render()}\n{END}\n")
    new = index_file.apply(doc, IndexDelta(insert=(entry("new-1"), entry("new-2"), entry("old-1"))))
    assert new.ids() == ["new-1", "new-2", "old-1"]
    again = index_file.apply(new, IndexDelta(insert=(entry("new-1"),)))
    assert again.ids() == new.ids()


def test_remove_and_replace_in_place_keep_user_order() -> None:
    doc = doc_of(f"{BEGIN}\n" + "".join(entry(r).render() + "\n" for r in ["a-1", "b-1", "c-1"]) + f"{END}\n")
    new = index_file.apply(doc, IndexDelta(remove=frozenset({"a-1"}), replace={"c-1": entry("c-2")}))
    assert new.ids() == ["b-1", "c-2"]


def test_revision_of_a_line_the_user_deleted_goes_on_top() -> None:
    doc = doc_of(f"{BEGIN}\n{entry('b-1').render()}\n{END}\n")
    new = index_file.apply(doc, IndexDelta(replace={"gone-1": entry("gone-2")}))
    assert new.ids() == ["gone-2", "b-1"]
    assert "gone-1" not in new.ids()


def test_untouched_entries_keep_the_users_exact_text() -> None:
    line = "- [fact]   Odd   spacing kept. ([abc-1](.chord/memory/records/abc-1.md))   "
    doc = doc_of(f"{BEGIN}\n{line}\n\n{END}\n")
    new = index_file.apply(doc, IndexDelta(insert=(entry("new-1"),)))
    assert line in index_file.render(new)


# ---------------------------------------------------------------- property-based round trips
ids = st.from_regex(r"[a-z0-9][a-z0-9-]{2,20}", fullmatch=True)
summaries = st.text(  # what a summary may hold (``memory.chars``): no controls, line breaks or format characters
    alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp"), blacklist_characters="\u0085\ufeff"),
    min_size=1, max_size=60,
).map(lambda s: " ".join(s.split())).filter(lambda s: s and "](" not in s and not s.endswith(")"))
free_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\ufeff"), max_size=200
).filter(lambda s: "chord:memory" not in s and "```" not in s and "~~~" not in s)


@settings(max_examples=150, deadline=None)
@given(
    prefix=free_text,
    suffix=free_text,
    items=st.lists(st.tuples(st.sampled_from(["preference", "fact", "workflow", "lesson"]), summaries, ids),
                   max_size=8, unique_by=lambda t: t[2]),
    crlf=st.booleans(),
)
def test_parse_render_round_trip(prefix: str, suffix: str, items: list[tuple[str, str, str]], crlf: bool) -> None:
    nl = "\r\n" if crlf else "\n"
    body = "".join(Entry(type=k, summary=s, id=i).render() + nl for k, s, i in items)
    pre = prefix if prefix.endswith("\n") or not prefix else prefix + nl
    text = f"{pre}{BEGIN}{nl}{body}{END}{nl}{suffix}"
    doc, problems = index_file.parse(text)
    assert doc is not None, problems
    assert [p for p in problems if p.kind != "encoding-outside"] == []
    assert index_file.render(doc) == text
    assert [(e.type, e.summary, e.id) for e in doc.entries] == [(k, s.strip(), i) for k, s, i in items]
    # Re-parsing what a delta produced gives the same entries (render -> parse is stable).
    moved = index_file.apply(doc, IndexDelta(insert=(Entry("fact", "Added entry.", "zz-added"),)))
    again, _ = index_file.parse(index_file.render(moved))
    assert again is not None and again.ids() == moved.ids()


def _parse_cpu(text: str) -> float:
    import time

    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        index_file.parse(text)
        best = min(best, time.process_time() - start)
    return max(best, 1e-4)


@pytest.mark.parametrize("line", ["- [fact] Run `make check` first. ([20261129-note-{n:05d}](.chord/memory/records/20261129-note-{n:05d}.md))",
                                  "``` a fence in the user's text {n}", "<!-- chord:memory:begin --> {n}"])
def test_parsing_is_linear(line: str) -> None:
    """4x the lines costs about 4x, never 16x (markers and fences are found in one pass)."""
    def document(count: int) -> str:
        body = "\n".join(line.format(n=n) for n in range(count))
        return f"# Project memory\n\n{index_file.BEGIN}\n{body}\n{index_file.END}\n"

    assert _parse_cpu(document(16_000)) / _parse_cpu(document(4_000)) < 8


def _fast_lines(text: str) -> list[tuple[str, str]] | None:
    """(id, line) of each entry as ``clean_section`` reads them, None where it defers to parse."""
    section = index_file.clean_section(text)
    return None if section is None else list(zip(section.ids, section.lines()))


def _parsed_lines(text: str) -> list[tuple[str, str]] | None:
    doc, problems = index_file.parse(text)
    if doc is None or problems or not doc.has_markers:
        return None
    return [(e.id, e.render()) for e in doc.entries]


_LINE_PIECES = [
    "- [fact] Run make check. ([20261129-a-0001](.chord/memory/records/20261129-a-0001.md))",
    "- [workflow] Use pnpm. ([20261129-b-0002](.chord/memory/records/20261129-b-0002.md))  ",
    "- [fact] Again. ([20261129-a-0001](.chord/memory/records/20261129-a-0001.md))",  # a duplicate
    "- [idea] Unknown type. ([20261129-c-0003](.chord/memory/records/20261129-c-0003.md))",
    "- [fact] Mismatch. ([20261129-d-0004](.chord/memory/records/20261129-e-0005.md))",
    "- [fact] Split over ([20261129-f-0006", "](.chord/memory/records/20261129-f-0006", ".md))",
    "- [fact] Bad id. ([X](.chord/memory/records/X.md))", "  ", "", "\t\x0b", "plain text", "```", BEGIN, END,
    "- [fact] Tab end. ([20261129-g-0007](.chord/memory/records/20261129-g-0007.md))\x0c",
    "- [fact] CR \r inside. ([20261129-h-0008](.chord/memory/records/20261129-h-0008.md))",  # a lone CR: refused
    "- [fact] Link ([x ([20261129-i-0009](.chord/memory/records/20261129-i-0009.md))",  # "([" in the summary
    "- [fact]  ([20261129-j-0010](.chord/memory/records/20261129-j-0010.md))",  # a blank summary
    "- [fact] Tight([20261129-k-0011](.chord/memory/records/20261129-k-0011.md))",
    "- [fact] ([20261129-l-0012](.chord/memory/records/20261129-l-0012.md))",  # no summary
    "- [lesson] Keep (parens) and [brackets] (see #4). ([20261129-m-0013](.chord/memory/records/20261129-m-0013.md)) \r",
]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_the_section_reader_reads_a_clean_section_as_parse_does(newline: str) -> None:
    text = SAMPLE.replace("\n", newline).replace(f"{BEGIN}{newline}", f"{BEGIN}{newline}  {newline}")
    lines = _fast_lines(text)
    assert lines is not None and lines == _parsed_lines(text) and len(lines) == 2


@given(st.lists(st.sampled_from(_LINE_PIECES), max_size=8), st.sampled_from(["\n", "\r\n"]),
       st.booleans())
@settings(max_examples=400, deadline=None)
def test_the_section_reader_agrees_with_parse_or_defers_to_it(pieces: list[str], newline: str, bad_byte: bool) -> None:
    text = f"# Memory{newline}{BEGIN}{newline}" + "".join(p + newline for p in pieces) + f"{END}{newline}"
    if bad_byte:
        text = text.replace("Memory", "Mem\udcffory")
    fast = _fast_lines(text)
    assert fast is None or fast == _parsed_lines(text)
    # It defers only where parse has something to say: clean entries, once each, are read. (A
    # line break at the end of a line is trailing space; a lone CR inside one shows two lines.)
    clean = {_LINE_PIECES[i] for i in (0, 1, -7, -1)}
    written = [p for p in pieces if p.strip()]
    if not bad_byte and set(written) <= clean and len(set(written)) == len(written):
        assert fast is not None and len(fast) == len(written)


_AROUND = ["# Memory", "", "notes of my own", "```", "~~~", "    ```", f"  {BEGIN}", END, BEGIN,
           "a line that mentions chord:memory:begin", f"```{BEGIN}", "\u2028", "\t"]


@given(st.lists(st.sampled_from(_AROUND), max_size=4), st.lists(st.sampled_from(_LINE_PIECES), max_size=5),
       st.lists(st.sampled_from(_AROUND), max_size=4), st.sampled_from(["\n", "\r\n"]), st.booleans())
@settings(max_examples=600, deadline=None)
def test_the_section_reader_agrees_with_parse_whatever_surrounds_it(
        before: list[str], pieces: list[str], after: list[str], newline: str, final_newline: bool) -> None:
    """Fences, marker mentions and other text before and after the markers: the fast reader reads
    the section as parse does, or leaves the file to parse."""
    lines = [*before, BEGIN, *pieces, END, *after]
    text = newline.join(lines) + (newline if final_newline else "")
    fast = _fast_lines(text)
    assert fast is None or fast == _parsed_lines(text)


@pytest.mark.parametrize(("text", "expected"), [
    (f"{BEGIN}\n{END}\n", []),  # an empty section
    (f"{BEGIN}\n\n  \n{END}", []),  # blank lines only, no final line end
    (f"# M\r\n{BEGIN}\r\n- [fact] A b. ([20261129-a-0001](.chord/memory/records/20261129-a-0001.md))\r\n{END}\r\n",
     [("20261129-a-0001", "- [fact] A b. ([20261129-a-0001](.chord/memory/records/20261129-a-0001.md))")]),
    (f"```\n{BEGIN}\n```\n{BEGIN}\n{END}\n", None),  # a fence before: parse decides
    (f"{BEGIN}\n{END}\nsee chord:memory:end\n", None),  # a third mention: parse decides
    (f"{END}\n{BEGIN}\n", None),  # reversed
    (f"{BEGIN}\n", None),  # no end
])
def test_the_section_reader_reads_the_usual_shape_and_leaves_the_rest(
        text: str, expected: list[tuple[str, str]] | None) -> None:
    assert _fast_lines(text) == expected
    if expected is not None:
        assert expected == _parsed_lines(text)
