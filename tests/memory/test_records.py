from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.errors import InputError
from chord_git.memory import records
from testing.memory_files import sample_record


def test_render_parse_round_trip() -> None:
    record = sample_record()
    text = records.render(record)
    parsed, problems = records.parse(text, expected_id=record.id)
    assert problems == []
    assert parsed == record
    assert text.startswith("---\nid: 20261129-use-pnpm-3f9a\ntype: preference\n")
    assert "## Conclusion" in text and "## Why keep it" in text and "## How to apply" in text


def test_caps_count_unicode_characters() -> None:
    ok = sample_record(summary="中" * 160, statement="文" * 600)
    assert records.parse(records.render(ok), ok.id)[1] == []
    over = sample_record(summary="中" * 161)
    _rec, problems = records.parse(records.render(over), over.id)
    assert [p.kind for p in problems] == ["cap"]
    assert problems[0].line == 6  # the summary line of the front matter
    over = sample_record(statement="文" * 601)
    assert [p.kind for p in records.parse(records.render(over), over.id)[1]] == ["cap"]


@pytest.mark.parametrize(
    "change, kind",
    [
        (dict(type="opinion"), "type"),
        (dict(source="robot"), "source"),
        (dict(status="maybe"), "status"),
        (dict(source="assistant", status="stated"), "status"),
        (dict(evidence=None), "evidence"),
        (dict(supersedes="../x"), "id"),
        (dict(statement="Kept in /home/ana/src/app for now."), "absolute-path"),
    ],
)
def test_rule_breaking_records_are_reported(change: dict[str, object], kind: str) -> None:
    record = sample_record(**change)
    parsed, problems = records.parse(records.render(record), record.id)
    assert parsed is None
    assert kind in [p.kind for p in problems]
    assert all(p.line is not None for p in problems)


def test_bad_front_matter() -> None:
    assert records.parse("no front matter\n")[1][0].kind == "front-matter"
    assert records.parse("---\nid: x\n")[1][0].message.startswith("front matter is not closed")
    _r, problems = records.parse("---\nid: [unclosed\n---\n")
    assert problems[0].kind == "front-matter" and problems[0].line == 2
    _r, problems = records.parse("---\n- a list\n---\n")
    assert "mapping" in problems[0].message


def test_unknown_field_and_missing_section() -> None:
    text = records.render(sample_record()).replace("session: 7f3c2a\n", "session: 7f3c2a\nmood: happy\n")
    text = text.replace("## How to apply", "## Something else")
    _r, problems = records.parse(text, "20261129-use-pnpm-3f9a")
    kinds = {p.kind for p in problems}
    assert kinds == {"field-unknown", "section"}


def test_id_must_match_file_name() -> None:
    record = sample_record()
    _r, problems = records.parse(records.render(record), expected_id="20261129-other-0000")
    assert [p.kind for p in problems] == ["id"]


@pytest.mark.parametrize("rid", ["../evil", "a/b", "AB-cd", "-abc", "ab", "x" * 81, "/etc/passwd", "abc.md"])
def test_invalid_ids_refused(tmp_path: Path, rid: str) -> None:
    assert not records.valid_id(rid)
    with pytest.raises(InputError):
        records.safe_record_path(tmp_path, rid)


def test_symlinked_record_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(records.render(sample_record()))
    records_dir = tmp_path / "records"
    records_dir.mkdir()
    os.symlink(outside, records_dir / "20261129-use-pnpm-3f9a.md")
    with pytest.raises(InputError, match="symlink"):
        records.safe_record_path(records_dir, "20261129-use-pnpm-3f9a")
    record, problems = records.read(records_dir / "20261129-use-pnpm-3f9a.md")
    assert record is None and problems[0].kind == "symlink"


def test_read_rejects_non_utf8(tmp_path: Path) -> None:
    path = tmp_path / "20261129-bad-0000.md"
    path.write_bytes(b"---\nid: 20261129-bad-0000\nsummary: caf\xe9\n---\n")
    record, problems = records.read(path)
    assert record is None and problems[0].kind == "encoding" and problems[0].line == 3


def test_new_id_shape() -> None:
    rid = records.new_id("Use pnpm, never npm!", "preference", "seed", dt.date(2026, 11, 29))
    assert rid.startswith("20261129-use-pnpm-never-npm-") and records.valid_id(rid)
    zh = records.new_id("使用 pnpm 管理依赖", "preference", "seed", dt.date(2026, 11, 29))
    assert records.valid_id(zh) and zh.startswith("20261129-pnpm-")
    only_zh = records.new_id("只用中文", "lesson", "seed", dt.date(2026, 11, 29))
    assert only_zh.startswith("20261129-lesson-")


# Text a record may hold (``memory.chars``): no controls but newline and tab in a body, no format
# characters (zero-width, bidi controls), no line breaks of other kinds.
one_line = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp"),
                                          blacklist_characters="\u0085\ufeff"),
                   min_size=1, max_size=160).map(lambda s: " ".join(s.split())).filter(bool)
body = st.text(alphabet=st.one_of(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp")),
                                  st.sampled_from("\n\t")),
               max_size=200).filter(lambda s: "\n## " not in "\n" + s and "---" not in s).map(str.strip)


@settings(max_examples=150, deadline=None)
@given(summary=one_line, statement=one_line, evidence=one_line, conclusion=body, why=body, how=body,
       kind=st.sampled_from(records.RECORD_TYPES))
def test_record_round_trip(summary: str, statement: str, evidence: str, conclusion: str, why: str, how: str, kind: str) -> None:
    record = sample_record(type=kind, summary=summary, statement=statement, evidence=evidence,
                         conclusion=conclusion, why=why, how_to_apply=how)
    parsed, problems = records.parse(records.render(record), record.id)
    if any(p.kind == "absolute-path" for p in problems):
        return  # generated text happened to contain a machine path; refusing it is correct
    assert problems == []
    assert parsed == record


@pytest.mark.parametrize("edit", [
    lambda t: t, lambda t: t.replace("## Why keep it\n\n", "## Why keep it\n\n.\n", 1).replace(
        "## How to apply\n\n", "## How to apply\n\n--\n", 1),
    lambda t: t.replace("## Conclusion", "## Conclusio", 1), lambda t: t.replace("\n", "\r\n"),
    lambda t: t.replace("---\n", "", 1), lambda t: t.replace("type: preference", "type: x", 1),
    lambda t: t.replace("\n---\n", "\n--\n", 1), lambda t: t + "\n## Conclusion\n\n!\n", lambda t: "",
    lambda t: t.replace("## How to apply\n", "## How to apply\n\n/etc/passwd is read here\n", 1),
])
def test_check_text_is_parse_and_empty_sections(edit: Callable[[str], str]) -> None:
    """``check`` reads the front matter once; it must report what the two readings report."""
    text = edit(records.render(sample_record(why="keep", how_to_apply="apply")))
    assert records.check_text(text, "20261129-use-pnpm-3f9a") == \
        records.parse(text, "20261129-use-pnpm-3f9a")[1] + records.empty_sections(text)
