"""Findings for memory files from git: schema rules on staged content, secrets on added lines.

Shared by ``check`` (working tree, ``--staged``) and ``scan`` (history). Pure over paths, bytes
and added lines; the git reading happens in ``chord_git.git``. Secrets go through both layers of
``chord_git.secrets``; this module only bounds what layer 2 is given (see ``scan_secrets``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.git.changes import FileChange
from chord_git.memory.project import MEMORY_FILE, RECORDS_DIR

if TYPE_CHECKING:
    from chord_git.check.schema import Finding

# validate, index and the secrets package are imported inside the functions that use them, so
# classifying paths (all a commit without memory files needs) stays cheap.

MEMORY_DIR = ".chord/memory/"
# detect-secrets is slow on long text: its ``is_indirect_reference`` filter runs a regex that is
# quadratic in the line length on every line up to 1,000 characters (12 ms for a 560-character
# prose line here), and its plugins cost more per line as lines grow (a 10 MB line takes ~20 s).
# A hook cannot wait for that. Layer 1 is linear and reads everything; layer 2 reads lines up to
# LAYER2_MAX_LINE characters, and the first LAYER2_MAX_CHARS of each file (a record's size cap).
LAYER2_MAX_LINE = 4096
LAYER2_MAX_CHARS = 64 * 1024
ALLOWLIST_PRAGMA = "pragma: allowlist secret"  # detect-secrets' inline allowlist comment
Lines = Sequence[tuple[int, str]]


def memory_split(path: str) -> tuple[str, str] | None:
    """(project prefix, project-relative path) when a repository path is a memory file.

    Memory files of sub-projects count too (``sub/MEMORY.md``, ``sub/.chord/memory/...``): a
    monorepo keeps one memory per sub-project, and a hook or CI scan must guard every one.
    """
    if path == MEMORY_FILE or path.endswith("/" + MEMORY_FILE):
        return path[: len(path) - len(MEMORY_FILE)], MEMORY_FILE
    if path.startswith(MEMORY_DIR):
        return "", path
    cut = path.find("/" + MEMORY_DIR)
    if cut >= 0:
        return path[: cut + 1], path[cut + 1:]
    return None


def is_memory_path(path: str) -> bool:
    return memory_split(path) is not None


def text_lines(data: bytes) -> list[tuple[int, str]]:
    """Numbered lines of a file as git counts them (LF ends a line; CR before it is dropped)."""
    text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [(number, line[:-1] if line.endswith("\r") else line) for number, line in enumerate(lines, 1)]


def _layer1_only(path: str, lines: Lines, baseline: Path | None, commit: str | None) -> list[Finding]:
    """Layer 1 alone, honouring what the combined scan honours: the allowlist pragma and the
    values a ``.secrets.baseline`` lists for this file (SHA-1 of the value)."""
    import hashlib

    from chord_git import secrets

    accepted: frozenset[str] = frozenset()
    if baseline is not None:
        from chord_git.secrets import detect

        accepted = detect.baselined_hashes(detect.load_baseline(baseline), path)
    joined = "\n".join(text for _, text in lines)
    findings = []
    for hit in secrets.find(joined):
        number, text = lines[hit.line - 1]
        if ALLOWLIST_PRAGMA in text:
            continue
        if accepted and hashlib.sha1(joined[hit.start:hit.end].encode("utf-8", "replace")).hexdigest() in accepted:
            continue
        findings.append(_finding(path, number, hit.kind, hit.layer, commit))
    return findings


def _finding(path: str, line: int, kind: str, layer: str, commit: str | None = None) -> Finding:
    from chord_git.check.schema import Finding

    origin = "our sanitizer" if layer == "sanitizer" else layer
    return Finding(path, line, kind, f"possible secret, found by {origin}: remove it from memory and rotate it",
                   layer=layer, commit=commit)


def scan_secrets(added: Mapping[str, Lines], *, baseline: Path | None = None,
                 commit: str | None = None) -> list[Finding]:
    """Both secret layers on each file's added lines, as findings (never the value).

    Adapter over ``secrets.scan_added_lines``: lines longer than ``LAYER2_MAX_LINE`` and text
    past ``LAYER2_MAX_CHARS`` per file go to layer 1 alone, so a huge file stays linear.
    """
    if not any(added.values()):
        return []
    from chord_git import secrets

    both: dict[str, list[tuple[int, str]]] = {}
    alone: dict[str, list[tuple[int, str]]] = {}
    for path, lines in added.items():
        budget = LAYER2_MAX_CHARS
        for number, text in lines:
            fits = budget > 0 and len(text) <= LAYER2_MAX_LINE
            (both if fits else alone).setdefault(path, []).append((number, text))
            budget -= len(text) + 1 if fits else 0
    findings = [_finding(h.path, h.line, h.kind, h.layer, commit)
                for h in secrets.scan_added_lines(both, baseline=baseline)] if both else []
    for path, lines in alone.items():
        findings.extend(_layer1_only(path, lines, baseline, commit))
    return findings


def file_findings(change: FileChange, *, commit: str | None = None) -> list[Finding]:
    """What is wrong with a memory file as a git object, before any content rule."""
    from chord_git.check.schema import Finding

    if change.mode == 0o120000:
        return [Finding(change.path, None, "symlink", "memory file staged as a symlink; memory files must be regular files", commit=commit)]
    if not change.is_regular:
        return [Finding(change.path, None, "layout", f"memory path is not a regular file (mode {change.mode:o})", commit=commit)]
    if change.binary:
        return [Finding(change.path, None, "binary", "memory file is binary; memory files must be text", commit=commit)]
    return []


def schema_findings(change: FileChange) -> list[Finding]:
    """The ``check`` rules on a staged file's full content, reported at its repository path."""
    split = memory_split(change.path)
    if split is None or change.data is None or not change.is_regular or change.binary:
        return []
    from chord_git.check import schema
    from chord_git.check.schema import Finding

    prefix, rel = split
    return [Finding(prefix + f.path, f.line, f.kind, f.message, f.layer)
            for f in schema.check_blob(rel, change.data)]


def staged_dangling(change: FileChange, contains: Callable[[str], bool]) -> list[Finding]:
    """Index entries in a staged MEMORY.md whose record is not in the staged tree."""
    split = memory_split(change.path)
    if split is None or split[1] != MEMORY_FILE or change.data is None or change.binary:
        return []
    from chord_git.check.schema import Finding
    from chord_git.memory import index_file

    text, bom = index_file.decode(change.data)
    doc, _problems = index_file.parse(text, change.path, bom=bom)
    if doc is None:
        return []
    prefix = split[0]
    return [
        Finding(change.path, entry.line, "dangling", f"index entry {entry.id} has no staged record file")
        for entry in doc.entries
        if not contains(f"{prefix}{RECORDS_DIR}/{entry.id}.md")
    ]


def secret_input(change: FileChange) -> list[tuple[int, str]]:
    """The lines to scan for secrets: added lines, or all of a binary file's text."""
    if change.binary and change.data is not None:
        return text_lines(change.data)
    return list(change.added) if change.is_regular else []
