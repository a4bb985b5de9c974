"""The refusal classes, compiled: authority (R4) and locality (R19, R23) frames with the contexts
that cancel them. ``refusals(text)`` is what every way into memory asks: extraction, MCP's
``propose_memory``, a pull request's added lines."""
from __future__ import annotations

import re

from chord_git.judge import frames
from chord_git.judge.rules import authority, contexts, locality
from chord_git.support.regex_lazy import lazy

CONTEXTS = frames.Contexts(
    # A gate kept on the act cancels a rule as a negation does.
    negation=frames.compile_table([*contexts.NEGATORS.values(), *contexts.GATES.values()]),
    gate=frames.compile_table(contexts.GATES.values()),
    trailing=frames.compile_table([*contexts.trailing_negators().values(), *contexts.GATES.values()]),
    question=lazy(contexts.QUESTION, re.IGNORECASE),
    hypothetical=lazy(contexts.HYPOTHETICAL, re.IGNORECASE),
    past=lazy(contexts.PAST, re.IGNORECASE),
    reported=lazy(contexts.REPORTED, re.IGNORECASE),
    proposed=lazy(contexts.PROPOSED, re.IGNORECASE),
    rejected=lazy(contexts.REJECTED, re.IGNORECASE),
    speaker=lazy(contexts.SPEAKER, re.IGNORECASE),
    accepted=lazy(contexts.ACCEPTED, re.IGNORECASE),
    substitute=lazy(contexts.SUBSTITUTE, re.IGNORECASE),
    rejected_after=lazy(contexts.REJECTED_AFTER, re.IGNORECASE),
    user_rejects=lazy(contexts.USER_REJECTS, re.IGNORECASE),
    third_party=lazy(contexts.THIRD_PARTY, re.IGNORECASE),
    waived=frames.compile_table(contexts.WAIVED.values()),
    condition=lazy(contexts.CONDITION, re.IGNORECASE),
)
AUTHORITY = frames.load(authority.RULES)
LOCALITY = frames.load(locality.RULES)
AUTHORITY_REASONS = tuple(rule.reason for rule in authority.RULES)
LOCALITY_REASONS = tuple(rule.reason for rule in locality.RULES)


def authority_hits(text: str) -> list[frames.Hit]:
    """Grants, safety-off settings, exfiltration, fetch-and-execute, destructive commands and
    instruction overrides in ``text``, each unless its clause forbids, asks, supposes or reports it."""
    return frames.find(AUTHORITY, text, CONTEXTS)


def locality_hits(text: str) -> list[frames.Hit]:
    """Temporary pins, one-off flaky notes, one machine's layout, paths outside the project."""
    return frames.find(LOCALITY, text, CONTEXTS)


def mentioned_authority(text: str) -> frozenset[str]:
    """The authority rules whose act ``text`` names, forbidden, gated or not (``frames.mentioned``)."""
    return frames.mentioned(AUTHORITY, text)


def refusals(text: str) -> list[frames.Hit]:
    return [*authority_hits(text), *locality_hits(text)]


def every_rule() -> tuple[frames.Rule, ...]:
    """Every rule as written, loaded or not (the example test checks that none is left out)."""
    return (*authority.RULES, *locality.RULES)


def screen_all() -> None:
    """Build the screens that skip the slots a text holds no word of (``frames.Screen``): about
    0.15 s, repaid after a few hundred texts (0.4-0.8 ms each), so a caller judging many texts
    builds them (before it forks workers that would each build them again)."""
    AUTHORITY.screen()
    LOCALITY.screen()


def compile_all() -> None:
    """Compile every rule's patterns now (they compile on first use) and build the screens: a
    process about to fork workers does it once for all of them."""
    for rule in (*AUTHORITY.rules, *LOCALITY.rules):
        for slot in rule.slots:
            rule.pattern(slot).search("")
    screen_all()
