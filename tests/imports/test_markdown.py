"""The items of a Markdown memory file: bullets and paragraphs, never structure."""
from __future__ import annotations

from chord_git.imports import markdown


def texts(text: str) -> list[tuple[int, str]]:
    return [(item.line, item.text) for item in markdown.items(text)]


def test_bullets_and_paragraphs_are_items_with_their_lines() -> None:
    text = ("# Style\n\n- We use pnpm,\n  never npm.\n* Run `make check` first.\n1. Numbered rule.\n"
            "- [x] A done task is still a rule.\n\nTests use real Postgres\nvia docker compose.\n")
    assert texts(text) == [(3, "We use pnpm, never npm."), (5, "Run `make check` first."), (6, "Numbered rule."),
                           (7, "A done task is still a rule."), (9, "Tests use real Postgres via docker compose.")]


def test_structure_is_not_an_item() -> None:
    text = ("## Heading\n---\n| a | b |\n|---|---|\n```sh\n- not a bullet: code\n```\n"
            "<!-- a comment\n- hidden -->\n- kept <!-- inline --> here\n~~~\nx\n~~~\n")
    assert texts(text) == [(10, "kept  here")]


def test_the_heading_above_is_kept_with_the_item() -> None:
    [first, second] = markdown.items("# Build\n- one\n## Deploy\n- two\n")
    assert (first.heading, second.heading) == ("Build", "Deploy")


def test_front_matter_is_read_flat_and_the_body_keeps_its_line_numbers() -> None:
    text = "---\nname: testing\ndescription: 'Use real DBs'\nmetadata:\n  type: feedback\n---\n\nRule.\n"
    front = markdown.front_matter(text)
    assert front.fields == {"name": "testing", "description": "Use real DBs", "metadata": ""}
    assert [(i.line, i.text) for i in markdown.items(front.body, front.body_line)] == [(8, "Rule.")]


def test_an_unclosed_front_matter_is_body() -> None:
    front = markdown.front_matter("---\n- a rule\n")
    assert front.fields == {} and front.body_line == 1
