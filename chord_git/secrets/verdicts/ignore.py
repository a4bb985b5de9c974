"""``.chord/secrets-ignore``: findings a team has looked at and accepted, like ``.gitleaksignore``.

One entry per line, each with a comment that says why (an entry without one is refused):

    <commit>:<path>:<kind>:<line>   # a finding in history (as ``git memory scan`` prints it)
    <path>:<kind>:<line>            # a finding in the working tree or the index, in any commit
    <sha1 of the value>             # a value, wherever it appears (detect-secrets' hashed_secret)

``check`` and ``scan`` print the fingerprint of every finding, so an entry is copied, not typed.
A commit may be abbreviated (7 or more hex digits). A positional entry stops matching when lines
above it move; a value's hash holds wherever the value goes, which is why ``git memory ignore``
writes that form (``with_entries``, keeping every other byte of the file). Parsing is pure;
``load`` reads the file.
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


def hash_entry(value_hash: str, reason: str, kind: str, path: str) -> str:
    """The line that accepts a value by its hash, saying why and what it was found as."""
    from ...support.escape import printable

    return f"{value_hash}   # {reason} [{kind} in {printable(path)}]"


def listed_hashes(text: str) -> frozenset[str]:
    """The value hashes ``text`` already lists, read leniently (a malformed line is skipped): what
    ``with_entries`` must not add twice, whatever else the file holds."""
    return frozenset(entry for entry in (raw.partition("#")[0].strip() for raw in text.splitlines())
                     if _HASH.fullmatch(entry))


def with_entries(current: bytes | None, entries: list[tuple[str, str]]) -> bytes | None:
    """``current`` with the lines of ``entries`` (hash, line) whose hash it does not list yet
    appended, every byte before them kept (its line ends too); None when there is nothing to add.
    Idempotent, as a rewrite that may be applied again to a concurrent writer's version must be."""
    old = "" if current is None else current.decode("utf-8", "surrogateescape")
    have = set(listed_hashes(old))
    new = []
    for value_hash, line in entries:
        if value_hash not in have:
            have.add(value_hash)
            new.append(line)
    if not new:
        return None
    newline = "\r\n" if "\r\n" in old else "\n"
    if old and not old.endswith("\n"):
        old += newline
    return (old + "".join(line + newline for line in new)).encode("utf-8", "surrogateescape")


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


__all__ = ["IGNORE_FILE", "IgnoreList", "fingerprint", "hash_entry", "listed_hashes", "load", "parse",
           "with_entries"]
