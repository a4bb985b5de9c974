"""A range cannot approve itself: ``scan --range BASE..HEAD`` judges it by BASE's policy.

The files that decide which findings are accepted -- ``.chord/secrets-ignore``, the detect-secrets
baseline and the project config -- are read from BASE, the commit the range is merged into, not
from the checked-out head: an ignore entry or a baseline entry added by a pull request applies
once the pull request is merged, never to its own findings. For the same reason an allowance
pragma (``pragma: allowlist secret``) on a line the range adds does not allow that line. The
report names each such change ("this range adds 1 ignore entry; it applies after merge"), so a
maintainer can land the policy change on its own, after which the range passes as before.
``check --staged`` is not affected: locally the developer is the reviewer.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass, field, replace
from chord_git.errors import InputError
from chord_git.git.changes import FileChange

IGNORE_FILE = ".chord/secrets-ignore"
BASELINE_FILE = ".secrets.baseline"
CONFIG_FILE = ".chord/config.yaml"
POLICY_FILES = (IGNORE_FILE, BASELINE_FILE, CONFIG_FILE)
# The allowances the secret layers honour (``secrets.verdicts.allow``), found without loading them.
_PRAGMA = re.compile(r"(?:#|//|/\*|'|--|<!--[# \t]*?)[ \t]*pragma: ?(?:(?:allow|white)list[ -]secret"
                     r"|allowlist[ -]nextline[ -]secret)")


@dataclass(frozen=True)
class RangePolicy:
    base: str  # the commit the policy is read from
    root: Path  # a folder holding BASE's policy files, where the rules look for them
    notes: tuple[str, ...] = ()  # the policy changes the range makes, which apply after merge
    pragmas: list[str] = field(default_factory=list)  # path:line of pragmas the range adds

    def all_notes(self) -> tuple[str, ...]:
        if not self.pragmas:
            return self.notes
        shown = ", ".join(self.pragmas[:5]) + (", …" if len(self.pragmas) > 5 else "")
        count = len(self.pragmas)
        return (*self.notes, f"this range adds {count} allowance pragma{'s' if count != 1 else ''} ({shown}); "
                             "a pragma does not allow a secret in the range that adds it")


def _ignore_entries(data: bytes | None, source: str) -> set[str]:
    """The entries of an ignore file, as text (its comments dropped)."""
    if data is None:
        return set()
    from chord_git.secrets.verdicts import ignore

    text = data.decode("utf-8", "replace")
    ignore.parse(text, source)  # a malformed file is named, as everywhere
    return {line.partition("#")[0].strip() for line in text.splitlines() if line.partition("#")[0].strip()}


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def policy_notes(base: dict[str, bytes | None], head: dict[str, bytes | None]) -> tuple[str, ...]:
    """What the range changes in the policy files (pure)."""
    notes: list[str] = []
    added = _ignore_entries(head[IGNORE_FILE], IGNORE_FILE) - _ignore_entries(base[IGNORE_FILE], IGNORE_FILE)
    if added:
        notes.append(f"this range adds {_plural(len(added), 'ignore entry').replace('entrys', 'entries')} "
                     f"to {IGNORE_FILE}; {'it applies' if len(added) == 1 else 'they apply'} after merge")
    if head[BASELINE_FILE] != base[BASELINE_FILE]:
        notes.append(f"this range changes {BASELINE_FILE}; the change applies after merge")
    if head[CONFIG_FILE] != base[CONFIG_FILE]:
        notes.append(f"this range changes {CONFIG_FILE}; the range is judged by the config it is merged into")
    return tuple(notes)


@contextmanager
def from_base(start: Path, spec: str) -> Iterator[RangePolicy]:
    """BASE's policy files in a temporary folder, and the notes on what the range changes."""
    import tempfile  # off the commit hook's start-up: only a range scan gets here

    from chord_git.git import libgit2

    base = libgit2.range_base(start, spec)
    _old, new = libgit2.split_range(spec)
    at_base = {name: libgit2.file_at(start, base, name) for name in POLICY_FILES}
    at_head = {name: libgit2.file_at(start, new, name) for name in POLICY_FILES}
    with tempfile.TemporaryDirectory(prefix="chord-policy-") as tmp:
        root = Path(tmp)
        for name, data in at_base.items():
            if data is not None:
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_bytes(data)
        try:
            notes = policy_notes(at_base, at_head)
        except InputError as exc:
            raise InputError(exc.path, exc.line, f"{exc.message} (in {new})") from None
        yield RangePolicy(base, root, notes)


def without_pragmas(change: FileChange, found: list[str]) -> FileChange:
    """``change`` with each allowance pragma on its added lines blanked (same length, so every
    other column stays where it was); the places go to ``found``."""
    if not change.added or not any("pragma" in text for _n, text in change.added):
        return change
    lines = []
    for number, text in change.added:
        if "pragma" in text and _PRAGMA.search(text):
            found.append(f"{change.path}:{number}")
            text = _PRAGMA.sub(lambda m: " " * len(m.group(0)), text)
        lines.append((number, text))
    return replace(change, added=tuple(lines))
