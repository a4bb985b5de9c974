"""Tool-written front matter quotes what needs quoting: every value reads back as written, and
free text stays parseable when a user edits it by hand inside its quotes."""
from __future__ import annotations

import pytest

from chord_git.memory import promotions, records
from testing.memory_files import sample_record as make_record

TRICKY = [
    "Use pnpm: never npm.",                      # ': ' would start a mapping
    "Tabs #2 and # comments",                    # ' #' would start a comment
    "- leading dash looks like a list",
    "? leading question mark",
    '"double" and \'single\' quotes',
    "'starts with a quote",
    "使用 pnpm：不要用 npm（团队约定）",            # CJK with full-width colon and brackets
    "混合 text: 中文 # 注释",
    "null", "yes", "no", "123", "1.5", "2026-11-29", "~", "true",
    "&anchor *alias !tag %directive @at `tick`",
    "trailing colon:",
    "{flow: mapping}", "[flow, sequence]",
    "back\\slash and a tab\there",
    "ends with a space ",
]


@pytest.mark.parametrize("text", TRICKY)
def test_record_fields_round_trip(text: str) -> None:
    record = make_record(summary=text, statement=f"Statement: {text}", evidence=text, session=text[:20])
    rendered = records.render(record)
    parsed, problems = records.parse(rendered, record.id)
    assert problems == [], rendered
    assert parsed is not None
    assert (parsed.summary, parsed.statement, parsed.evidence) == (text.strip(), f"Statement: {text}".strip(), text)
    assert parsed.session == text[:20]


@pytest.mark.parametrize("text", TRICKY)
def test_promotion_reason_round_trips(text: str) -> None:
    promotion = promotions.PromotionFile(id="20261129-promo-0001", entry=None, target="docs", path="docs/dev.md",
                                         reason=text, created="2026-11-29", session=None, text="Run make check.")
    parsed, problems = promotions.parse(promotions.render(promotion), promotion.id)
    assert problems == [] and parsed is not None and parsed.reason == text


def test_free_text_is_always_double_quoted() -> None:
    rendered = records.render(make_record(summary="Plain words", statement="Plain too", evidence="said so"))
    assert 'summary: "Plain words"\n' in rendered
    assert 'statement: "Plain too"\n' in rendered and 'evidence: "said so"\n' in rendered
    assert "created: 2026-11-29\n" in rendered  # a date stays a plain date, as in the spec


def test_a_hand_edit_inside_the_quotes_keeps_parsing() -> None:
    rendered = records.render(make_record(summary="Use pnpm"))
    edited = rendered.replace('summary: "Use pnpm"', 'summary: "Use pnpm: never npm # ever"')
    parsed, problems = records.parse(edited, "20261129-use-pnpm-3f9a")
    assert problems == [] and parsed is not None and parsed.summary == "Use pnpm: never npm # ever"


def test_an_unquoted_colon_is_reported_with_line_and_hint() -> None:
    rendered = records.render(make_record())
    broken = rendered.replace('summary: "Use pnpm, never npm, for JS dependencies."', "summary: Use: pnpm")
    parsed, problems = records.parse(broken, "20261129-use-pnpm-3f9a")
    assert parsed is None and len(problems) == 1
    assert problems[0].line == broken.splitlines().index("summary: Use: pnpm") + 1
    assert "double quotes" in problems[0].message and "docs/records.md" in problems[0].message


def test_the_documented_record_is_valid_and_as_the_tool_writes_it() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs/records.md").read_text()
    block = next(b for b in re.findall(r"```markdown\n(.*?)```", text, re.S) if b.startswith("---\n"))
    parsed, problems = records.parse(block, "20261129-use-pnpm-3f9a")
    assert problems == [] and parsed is not None
    assert records.render(parsed) == block
    assert f"at most {records.SUMMARY_CAP} characters" in text and f"at most {records.STATEMENT_CAP} characters" in text
