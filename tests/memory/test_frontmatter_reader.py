"""The plain front-matter reader answers only where ``safe_yaml`` would read the same mapping."""
from __future__ import annotations

import string
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.support import safe_yaml
from chord_git.memory import frontmatter, records
from testing.memory_files import sample_record

TRICKY = string.ascii_letters + string.digits + " '\"#:-?,[]{}&*!|>%@`+.<=~\\/\t\r\n\x85\u2028\ufeff é中"
values = st.one_of(st.text(alphabet=TRICKY, max_size=40), st.text(max_size=20),
                   st.sampled_from(["null", "yes", "No", "0x1F", "1_000", "2026-11-29", "2026-02-30", "~", ".inf",
                                    "12:30", "a: b", "a #b", "ok:", "<<", "=", "- x", "'q'", '"d"', "'it''s'"]))


def _yaml(text: str) -> Any:
    try:
        return safe_yaml.load(text)
    except safe_yaml.YamlRefused:
        return "<refused>"


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), values, min_size=1, max_size=6),
       st.booleans())
def test_what_the_tool_writes_reads_the_same(data: dict[str, Any], quote: bool) -> None:
    text = frontmatter.dump_yaml(data, list(data) if quote else []).rstrip("\n")
    simple = frontmatter.read_simple(text)
    assert simple is None or simple == _yaml(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.from_regex(r"[a-z_]{1,6}", fullmatch=True), values), min_size=1, max_size=5))
def test_hand_written_lines_read_the_same_or_go_to_yaml(pairs: list[tuple[str, str]]) -> None:
    text = "\n".join(f"{key}: {value}" for key, value in pairs)
    simple = frontmatter.read_simple(text)
    assert simple is None or simple == _yaml(text)


def test_records_as_written_take_the_plain_reader() -> None:
    for record in (sample_record(), sample_record(summary="It's `make check`, then pnpm: always.", evidence="a #tag"),
                   sample_record(statement="Chinese works too: 代码在 src/ 下。", supersedes="20261128-old-0b1c")):
        text = records.render(record)
        front = text.split("---\n")[1].rstrip("\n")
        simple = frontmatter.read_simple(front)
        assert simple is not None and simple == _yaml(front)
        assert simple["created"] == "2026-11-29"
        assert records.parse(text) == (record, [])


def test_what_yaml_reads_otherwise_is_left_to_yaml() -> None:
    for text in ("a: yes", "a: 12", "a: 1.5", "a: x\n  continued", "# comment\na: b", "a: b\na: c",
                 "a: 'open", 'a: "bad \\q escape"', 'a: "two" "parts"', "a: x #c", "a:", "a:  two spaces",
                 "a: b\t", "a: \u2028", "a: [1, 2]", "a: !tag x"):
        assert frontmatter.read_simple(text) is None, text
    assert frontmatter.read_simple('a: "line\\none \\"q\\" \\\\ \\x41\\u00e9"\nb: 2026-02-30') == \
        {"a": 'line\none "q" \\ A\u00e9', "b": "2026-02-30"}
