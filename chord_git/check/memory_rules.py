"""The judge's refusals on what a range adds to memory: ``memory-rule`` findings.

A pull request writes memory files by hand, so nothing in them went through the extraction's
judge; yet what it adds reaches every agent's prompt once merged. Every text a range adds or
changes (net, from the merge base to HEAD: what the pull request itself brings) is asked what
memory never carries, whoever wrote it (``judge.core.refusals``: permission grants, safeguards turned off,
exfiltration, fetch-and-execute, destructive commands, instruction overrides, machine-local
facts, scanner allowances). A refusal is a finding like a secret: it fails the scan, shows in
SARIF, and only BASE's ``.chord/secrets-ignore`` can accept it (the range's own cannot).

Units are what a reader takes as one statement: a record's front-matter field (decoded, so a
YAML escape hides nothing) and, elsewhere, a Markdown paragraph or list item holding an added
line. Invisible format characters are dropped and compatibility forms folded (NFKC) first, so
``cu\\u200brl`` or fullwidth letters do not slip past a rule written for the plain word.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Sequence

from chord_git.check.changes import memory_split
from chord_git.findings import Finding, Problem
from chord_git.memory import chars
from chord_git.memory.project import RECORDS_DIR

KIND = "memory-rule"
_ITEM_START = re.compile(r"^\s{0,3}(?:[-*+]\s|\d{1,9}[.)]\s|#{1,6}\s|<!--)")


def reason(finding: Finding) -> str:
    """The refusal class of a ``memory-rule`` finding: its message leads with it (``findings``)."""
    return finding.message.partition(":")[0]


def normalized(text: str) -> str:
    """``text`` as the rules should read it: format characters gone, compatibility forms folded."""
    text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    return unicodedata.normalize("NFKC", text)


_MARKUP = re.compile(r"^[\s#>*+\-\d.)]*")
_ONE_WORD = re.compile(r"[\w.:-]*")


def worth_judging(text: str) -> bool:
    """A unit that can state something: past its Markdown markers, more than one plain word. A
    heading word, an id, a date or a type cannot grant, disable or leak (``curl|sh`` still counts:
    it is no plain word)."""
    return _ONE_WORD.fullmatch(_MARKUP.sub("", text, count=1).strip()) is None


def _refused(text: str) -> list[tuple[str, str]]:
    """(reason, description) of each refusal class ``text`` holds, most severe first."""
    from chord_git.judge import core

    order = {reason: index for index, reason in enumerate(core.REASONS)}
    reasons = sorted({f.reason for f in core.refusals(normalized(text)) if f.reason != "secret"},
                     key=lambda r: order.get(r, len(order)))
    return [(reason, core.DESCRIPTIONS.get(reason, reason)) for reason in reasons]


def added_line_numbers(old: str | None, new: str) -> set[int]:
    """1-based numbers of the lines of ``new`` that ``old`` does not have there (all, without ``old``)."""
    new_lines = new.split("\n")
    if old is None:
        return set(range(1, len(new_lines) + 1))
    matcher = difflib.SequenceMatcher(None, old.split("\n"), new_lines, autojunk=False)
    added: set[int] = set()
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            added.update(range(j1 + 1, j2 + 1))
    return added


def units(lines: Sequence[str], first: int, stop: int) -> Iterable[tuple[int, int]]:
    """(first line, last line), 1-based, of each paragraph or list item in ``lines[first-1:stop]``."""
    start: int | None = None
    for number in range(first, stop + 1):
        text = lines[number - 1]
        if not text.strip():
            if start is not None:
                yield start, number - 1
            start = None
            continue
        if start is not None and _ITEM_START.match(text):
            yield start, number - 1
            start = None
        if start is None:
            start = number
    if start is not None:
        yield start, stop


def _front_fields(old: str | None, new: str) -> tuple[list[tuple[int, str]], int]:
    """A record's changed front-matter values with their lines, and the first body line (1-based);
    ([], 1) when ``new`` has no readable front matter (then every line is read as prose)."""
    from chord_git.memory import frontmatter

    front, _problems = frontmatter.split(new, "record")
    if front is None or not isinstance(front.data, dict):
        return [], 1
    before: dict[object, object] = {}
    if old is not None:
        old_front, _ = frontmatter.split(old, "record")
        if old_front is not None and isinstance(old_front.data, dict):
            before = old_front.data
    fields = []
    for key, value in front.data.items():
        if isinstance(value, str) and before.get(key) != value:
            fields.append((front.line_of(str(key)) or 1, value))
    return fields, front.close + 2


def findings(path: str, old: bytes | None, new: bytes) -> list[Finding]:
    """The ``memory-rule`` findings of one memory file's new content against its old (pure)."""
    text = new.decode("utf-8", "replace")
    before = old.decode("utf-8", "replace") if old is not None else None
    lines = text.split("\n")
    added = added_line_numbers(before, text)
    checked: list[tuple[int, str]] = []  # (line, text) of each unit to judge
    body_from = 1
    split = memory_split(path)
    if split is not None and split[1].startswith(RECORDS_DIR + "/"):
        fields, body_from = _front_fields(before, text)
        checked += fields
    for first, last in units(lines, body_from, len(lines)):
        news = [n for n in range(first, last + 1) if n in added]
        if news:
            checked.append((news[0], " ".join(lines[n - 1].strip() for n in range(first, last + 1))))
    out: list[Finding] = []
    seen: set[str] = set()
    for number in sorted(added):  # what no memory file holds (``memory.chars``), on the line it is
        unsafe = chars.problem(lines[number - 1].removesuffix("\r")) if number <= len(lines) else None
        if unsafe is not None:
            seen.add("unsafe-character")
            out.append(Finding(path, Problem(number, KIND, f"unsafe-character: the line {unsafe}"), layer="judge"))
            break
    for line, unit in checked:
        if not worth_judging(unit):
            continue
        for reason, description in _refused(unit):
            if reason in seen:
                continue  # one finding per class and file: the first place shows what to fix
            seen.add(reason)
            out.append(Finding(path, Problem(line, KIND, f"{reason}: {description}; memory never carries it, "
                                                          "whoever wrote it"), layer="judge"))
    return out
