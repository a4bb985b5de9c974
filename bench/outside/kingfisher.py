"""The examples of Kingfisher's rule files (``data/rules/*.yml``).

Each rule carries ``examples`` (lines the rule must match) and sometimes ``negative_examples``.
A rule id may appear in two files; examples are numbered per rule id in file order, so an
example's key (rule id, index) is stable for a snapshot. The rule's pattern is a Rust regex;
it is translated to Python where the two agree, to read the value the rule captures (what the
labeller judges). Patterns that do not translate fall back to the example's longest token.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import yaml

RULES_DIR = "data/rules"
SUFFIXES = (".yml", ".yaml")


@dataclass(frozen=True)
class Example:
    """One example of a rule set, with what the labeller needs."""

    rule: str
    index: int
    text: str
    positive: bool
    rule_name: str
    values: tuple[str, ...]


_POSIX = {"alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "digit": "0-9", "xdigit": "0-9a-fA-F", "upper": "A-Z",
          "lower": "a-z", "space": r"\s", "word": r"\w", "punct": r"!-/:-@\[-`{-~"}


def python_pattern(rust: str) -> re.Pattern[str] | None:
    """The Rust regex as a Python one, or None when a construct has no faithful translation."""
    text = re.sub(r"\[:(\w+):\]", lambda m: _POSIX.get(m.group(1), m.group(0)), rust)
    text = text.replace(r"\z", r"\Z").replace("(?<", "(?P<").replace("(?P<=", "(?<=").replace("(?P<!", "(?<!")
    flags = 0
    # Python wants global flags first; Rust allows them anywhere and they run to the group's end.
    # A leading group of flags is lifted; a later one makes the pattern untranslatable.
    lead = re.match(r"\s*\(\?([imsxU]+)\)", text)
    if lead:
        for letter in lead.group(1):
            flags |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X}.get(letter, 0)
        text = text[lead.end():]
    try:
        return re.compile(text, flags)
    except (re.error, OverflowError, RecursionError):
        return None


def captures(pattern: re.Pattern[str] | None, text: str) -> tuple[str, ...]:
    """What the rule captures in the example: its groups, else its whole match (empty: unknown)."""
    if pattern is None:
        return ()
    try:
        match = pattern.search(text)
    except RecursionError:
        return ()
    if match is None:
        return ()
    groups = tuple(g for g in match.groups() if g)
    return groups or (match.group(0),)


def examples(files: Mapping[str, str]) -> list[Example]:
    """All examples of the rule files (path -> YAML text), in path order."""
    found: list[Example] = []
    counters: dict[str, int] = {}
    for path in sorted(files):
        try:
            document = yaml.safe_load(files[path])
        except yaml.YAMLError:
            continue  # a broken file upstream: its examples cannot be read
        rules = document.get("rules") if isinstance(document, dict) else None
        for rule in rules if isinstance(rules, list) else []:
            if not isinstance(rule, dict) or not isinstance(rule.get("id"), str):
                continue
            rule_id, name = rule["id"], str(rule.get("name", ""))
            pattern = python_pattern(str(rule.get("pattern", "")))
            for key, positive in (("examples", True), ("negative_examples", False)):
                for text in rule.get(key) or []:
                    if not isinstance(text, str) or not text.strip():
                        continue
                    index = counters.get(rule_id, 0)
                    counters[rule_id] = index + 1
                    values = captures(pattern, text) if positive else ()
                    found.append(Example(rule_id, index, text, positive, name, values))
    return found
