"""``.chord/secrets-ignore``: findings a team has looked at and accepted, like ``.gitleaksignore``.

One entry per line, each with a comment that says why (an entry without one is refused):

    <commit>:<path>:<kind>:<line>   # a finding in history (as ``git memory scan`` prints it)
    <path>:<kind>:<line>            # a finding in the working tree or the index, in any commit
    <sha1 of the value>             # a value, wherever it appears (detect-secrets' hashed_secret)

``check`` and ``scan`` print the fingerprint of every finding, so an entry is copied, not typed.
A commit may be abbreviated (7 or more hex digits). Parsing is pure; ``load`` reads the file.
"""
from __future__ import annotations

import re
from pathlib import Path

from ...support.dataclass_lazy import dataclass
from ...errors import InputError

IGNORE_FILE = ".chord/secrets-ignore"
_HASH = re.compile(r"[0-9a-f]{40}")
_COMMIT = re.compile(r"[0-9a-f]{7,40}")
_KIND = re.compile(r"[a-z0-9][a-z0-9-]*")


@dataclass(frozen=True)
class IgnoreList:
    """Parsed entries: positional fingerprints (commit optional) and value hashes."""

    fingerprints: frozenset[tuple[str, str, str, int]] = frozenset()  # (commit prefix or "", path, kind, line)
    hashes: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.fingerprints or self.hashes)

    def ignores(self, path: str, kind: str, line: int, commit: str | None = None) -> bool:
        """Is the finding at ``path:line`` of ``kind`` (in ``commit``, if from history) listed?"""
        for prefix, fp_path, fp_kind, fp_line in self.fingerprints:
            if (fp_path, fp_kind, fp_line) != (path, kind, line):
                continue
            if not prefix or (commit is not None and commit.startswith(prefix)):
                return True
        return False


def fingerprint(path: str, kind: str, line: int, commit: str | None = None) -> str:
    """The entry that would ignore this finding."""
    return f"{commit}:{path}:{kind}:{line}" if commit else f"{path}:{kind}:{line}"


def parse(text: str, source: str = IGNORE_FILE) -> IgnoreList:
    """Entries of an ignore file; a malformed line is an InputError naming it."""
    fingerprints: set[tuple[str, str, str, int]] = set()
    hashes: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        entry, hashmark, comment = raw.partition("#")
        entry = entry.strip()
        if not entry:
            continue
        if not hashmark or not comment.strip():
            raise InputError(source, number, "each entry needs a comment saying why it is ignored (# …)")
        if _HASH.fullmatch(entry):
            hashes.add(entry)
            continue
        head, _, tail = entry.rpartition(":")
        location, _, kind = head.rpartition(":")
        if not tail.isdigit() or not _KIND.fullmatch(kind) or not location:
            raise InputError(source, number, "expected <commit>:<path>:<kind>:<line>, <path>:<kind>:<line> "
                                             "or the 40-digit hash of a value")
        commit, _, path = location.partition(":")
        if not path or not _COMMIT.fullmatch(commit):
            commit, path = "", location
        fingerprints.add((commit, path, kind, int(tail)))
    return IgnoreList(frozenset(fingerprints), frozenset(hashes))


def load(root: Path) -> IgnoreList:
    """The project's ignore file, or an empty list when there is none."""
    path = root / IGNORE_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return IgnoreList()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, None, f"cannot read the secrets ignore file ({exc})") from None
    return parse(text, str(path))


__all__ = ["IGNORE_FILE", "IgnoreList", "fingerprint", "load", "parse"]
