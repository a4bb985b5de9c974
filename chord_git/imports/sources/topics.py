"""Topic-file stores (Claude Code's and Qwen Code's auto memory, Gemini CLI's private notes): a
``MEMORY.md`` index of links, and one file per memory with front matter (name, description, type)
and a body: the rule, then ``**Why:**`` and ``**How to apply:**`` lines. Also the section older
hosts' ``save_memory`` appended to a global instructions file."""
from __future__ import annotations

import re

from chord_git.imports import markdown
from chord_git.imports.sources.markdown_store import FileItems

INDEX = "MEMORY.md"
_LINK_ONLY = re.compile(r"^\[[^\]]*\]\(([^)\s]+\.md)\)")
_HOW = re.compile(r"^\W*how to apply\W", re.IGNORECASE)
_WHY = re.compile(r"^\W*why\W", re.IGNORECASE)
_WIKI_LINK = re.compile(r"\[\[([^\]\n]{1,80})\]\]")


def _plain(item: markdown.Item) -> markdown.Item:
    """``[[other-memory]]`` links read as the name they link."""
    return markdown.Item(item.line, _WIKI_LINK.sub(r"\1", item.text), item.heading)


def _starts_item(line: str) -> bool:
    return bool(_WHY.match(line) or _HOW.match(line))


def topic_items(rel: str, text: str) -> list[markdown.Item]:
    """One item per topic file: its rule, with its why (the how-to-apply is advice to an agent).
    A file with more than one rule gives one item per rule; a file with no body gives its
    description; an index gives its lines that are not links to topic files."""
    front = markdown.front_matter(text)
    # A why or how line starts its own item even when the model wrote no blank line before it.
    found = [_plain(item) for item in markdown.items(front.body, front.body_line, starts=_starts_item)]
    if rel.rsplit("/", 1)[-1] == INDEX:
        return [item for item in found if not _LINK_ONLY.match(item.text)]
    kept = [item for item in found if not _HOW.match(item.text)]
    rules = [item for item in kept if not _WHY.match(item.text)]
    if not rules:
        description = front.fields.get("description", "").strip()
        return [markdown.Item(1, description)] if description else []
    if len(rules) > 1:
        return rules
    why = next((item.text for item in kept if _WHY.match(item.text)), "")
    return [markdown.Item(rules[0].line, f"{rules[0].text} {why}".strip())]


def added_section(heading: str) -> FileItems:
    """The items under ``## <heading>`` of an instructions file (what ``save_memory`` appended),
    and nothing else of it: the rest is the user's own instructions to that host."""

    def items(rel: str, text: str) -> list[markdown.Item]:
        return [item for item in markdown.items(text) if item.heading == heading]

    return items
