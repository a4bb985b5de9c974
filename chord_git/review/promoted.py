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

Standing = Mapping[str, claims.Known]  # where -> the conclusions its lines state, indexed


def standing(agents_md: str | None, docs: Iterable[str]) -> dict[str, claims.Known]:
    """The conclusions AGENTS.md and the docs state, line by line, indexed by their words (pure)."""
    return {AGENTS: claims.Known(claims.agents_md_lines(agents_md) if agents_md else []),
            DOCS: claims.Known(t for text in docs for t in claims.agents_md_lines(text))}


def read_standing(root: Path) -> dict[str, claims.Known]:
    return standing(project_docs.read_agents_md(root), project_docs.read_docs(root))


def where(texts: Sequence[str], found: Standing, tokens: Mapping[str, frozenset[str]] | None = None) -> str | None:
    """Where an entry's texts (its statement, its summary) already stand, or None (pure). Each
    text is compared with the lines under its rarest word only (``claims.Known``); ``tokens``
    holds the texts' ``claims.distinctive`` words where the caller has them already."""
    places = [(place, known) for place, known in found.items() if known.keys]
    if not places:
        return None  # nothing stands anywhere: no conclusion to compute
    mine = []
    for text in texts:
        if not text:
            continue
        key = claims.conclusion_key(text)
        words = (tokens or {}).get(text)
        words = claims.distinctive(text) if words is None else words
        # Most texts share a word with nothing there: their polarity is never read.
        if any(known.may_match(key, words) for _place, known in places):
            mine.append(claims.Conclusion(key, words, claims.negated(text)))
    for place, known in places:
        if any(known.match(conclusion) is not None for conclusion in mine):
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
