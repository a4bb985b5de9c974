"""Promoted by hand: an entry whose text now stands in AGENTS.md or the docs (issue 36).

The product page's own gesture for a rule that deserves more than memory is to copy it into
AGENTS.md or the docs. The entry then says twice what the project says once: ``audit``, ``review``
and the range scan report it as already promoted, and ``git memory fold`` takes its line out of
the index (the record file stays). "Stands there" is the test extraction's novelty check uses
(``judge.claims.restates``): the same conclusion, in the same or other words.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from chord_git.judge import claims
from chord_git.memory import project_docs

AGENTS = "AGENTS.md"
DOCS = "the docs"

Standing = Mapping[str, Sequence[claims.Conclusion]]  # where -> the conclusions its lines state


def standing(agents_md: str | None, docs: Iterable[str]) -> dict[str, list[claims.Conclusion]]:
    """The conclusions AGENTS.md and the docs state, line by line (pure)."""
    return {AGENTS: [claims.conclusion(t) for t in claims.agents_md_lines(agents_md)] if agents_md else [],
            DOCS: [claims.conclusion(t) for text in docs for t in claims.agents_md_lines(text)]}


def read_standing(root: Path) -> dict[str, list[claims.Conclusion]]:
    return standing(project_docs.read_agents_md(root), project_docs.read_docs(root))


def where(texts: Sequence[str], found: Standing) -> str | None:
    """Where an entry's texts (its statement, its summary) already stand, or None (pure)."""
    for place, conclusions in found.items():
        if conclusions and any(text and claims.restates(text, conclusions) for text in texts):
            return place
    return None


def promoted(entries: Iterable[tuple[str, Sequence[str]]], found: Standing) -> dict[str, str]:
    """Of ``entries`` (id, texts), those whose text stands in AGENTS.md or the docs, by id (pure)."""
    out = {}
    for rid, texts in entries:
        place = where(texts, found)
        if place is not None:
            out[rid] = place
    return out
