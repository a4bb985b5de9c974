"""The rules ``check`` and ``scan`` apply to one changed memory or config file (a ``FileChange``).

Every input becomes a ``FileChange`` first: a working-tree file (all its lines count as added), a
staged blob, or a file a commit changed. Pure over paths, bytes and added lines; reading git and
the working tree is the driver's job, and secrets go through both layers of ``chord_git.secrets``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from chord_git.findings import Finding, Problem, at_path
from chord_git.git.changes import MODE_SYMLINK, FileChange
from chord_git.memory.project import MEMORY_FILE, RECORDS_DIR

# The schema rules, MEMORY.md's parser and the secrets package are imported inside the functions
# that use them, so classifying paths (all a commit without memory files needs) stays cheap.

if TYPE_CHECKING:
    from chord_git.memory.index_file import MemoryDoc

IndexParse = tuple["MemoryDoc | None", list[Problem]]  # ``index_file.parse_bytes``' answer

MEMORY_DIR = ".chord/memory/"
CONFIG_FILE = ".chord/config.yaml"


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


def is_config_path(path: str) -> bool:
    """The project's ``.chord/config.yaml`` (or a sub-project's): scanned for secrets, and read
    as the loader reads it, because it is committed and shared like the memory files."""
    return path == CONFIG_FILE or path.endswith("/" + CONFIG_FILE)


def is_checked_path(path: str) -> bool:
    """What ``check`` and ``scan`` look at: memory files and project config files."""
    return memory_split(path) is not None or is_config_path(path)


def text_lines(data: bytes) -> tuple[tuple[int, str], ...]:
    """Numbered lines of a file as git counts them (LF ends a line; CR before it is dropped)."""
    text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "\r" not in text:
        return tuple(enumerate(lines, 1))
    return tuple((number, line[:-1] if line.endswith("\r") else line) for number, line in enumerate(lines, 1))


def name_problem(path: str) -> str | None:
    """What is wrong with a memory file's name, or None (pure).

    A name holding a line break or another control, bidi or zero-width character can forge a
    line of a CI log (a ``::`` workflow command) or show other than it is; a file under
    ``records/`` that is not ``<record id>.md`` is no record the loader reads, yet an agent may
    open it: both are refused where the file is committed."""
    from chord_git.memory import chars

    unsafe = chars.problem(path, one_line=True)  # the rule every memory file's text follows
    if unsafe is not None:
        return f"file name {unsafe}; rename it"
    split = memory_split(path)
    if split is not None and split[1].startswith(RECORDS_DIR + "/"):
        name = split[1][len(RECORDS_DIR) + 1:]
        from chord_git.memory.records import valid_id

        if not (name.endswith(".md") and "/" not in name and valid_id(name[:-3])):
            return f"not a record file name (expected {RECORDS_DIR}/<record id>.md)"
    return None


def file_findings(change: FileChange) -> list[Finding]:
    """What is wrong with a memory file as a git object, before any content rule."""
    named = name_problem(change.path)
    if named is not None:
        return [Finding(change.path, Problem(None, "file-name", named))]
    if change.mode == MODE_SYMLINK:
        return [Finding(change.path, Problem(None, "symlink", "memory file staged as a symlink; memory files must be regular files"))]
    if not change.is_regular:
        return [Finding(change.path, Problem(None, "layout", f"memory path is not a regular file (mode {change.mode:o})"))]
    if change.binary:
        return [Finding(change.path, Problem(None, "binary", "memory file is binary; memory files must be text"))]
    return []


def index_parse(change: FileChange) -> IndexParse | None:
    """``index_file.parse_bytes`` of a MEMORY.md's bytes, None for any other file.

    ``dangling`` and the index's format rules (``schema_findings``) both read it; a 23 MB
    MEMORY.md costs 0.25 s a parse, so the driver parses it once and hands the answer to both
    (each reads it as it is: the same call on the same bytes gives the same answer)."""
    split = memory_split(change.path)
    if split is None or split[1] != MEMORY_FILE or change.data is None or change.binary:
        return None
    from chord_git.memory import index_file

    return index_file.parse_bytes(change.data)


def schema_findings(change: FileChange, parsed: IndexParse | None = None) -> list[Finding]:
    """The format rules on a file's full content; a sub-project's file follows its own root's
    rules. ``parsed``: ``index_parse(change)``, when already at hand."""
    if is_config_path(change.path):
        return config_findings(change)
    split = memory_split(change.path)
    if split is None or change.data is None or not change.is_regular or change.binary:
        return []
    from chord_git.check import schema

    prefix, rel = split
    return at_path(change.path, schema.check_blob(rel, change.data, parsed))


def config_findings(change: FileChange) -> list[Finding]:
    """What the config loader would refuse in this file, named by kind and line, never by value.

    A refused project config makes extraction refuse to run, so ``check`` fails on it here,
    where the file is committed. A secret in it is also reported by the secret layers, with
    its kind and fingerprint; ``apply_rules`` then keeps that finding and drops this one.
    """
    if change.data is None or not change.is_regular or change.binary:
        return []
    from chord_git import config

    refused = config.problem(change.path, change.data)
    if refused is None:
        return []
    return [Finding(change.path, Problem(refused.line, "config", f"config refused: {refused.message}"))]


def dangling(change: FileChange, contains: Callable[[str], bool], noun: str = "record file",
             parsed: IndexParse | None = None) -> list[Finding]:
    """Index entries of a MEMORY.md whose record file is not in the tree ``contains`` describes.
    ``parsed``: ``index_parse(change)``, when already at hand."""
    split = memory_split(change.path)
    if split is None or change.data is None or change.binary:
        return []
    from chord_git.memory import index_file, pending

    if split[1].startswith(pending.PENDING_DIR + "/") and split[1].endswith(".md"):
        if pending.removal_id(split[1][len(pending.PENDING_DIR) + 1:]) is not None:
            return []  # a pending removal points at nothing
        # A pending entry (R33) points at its record like an index line does.
        try:
            entry = pending.parse(change.data.decode("utf-8"), split[1][len(pending.PENDING_DIR) + 1:-3])
        except UnicodeDecodeError:
            return []
        if isinstance(entry, pending.Pending) and not contains(f"{split[0]}{RECORDS_DIR}/{entry.id}.md"):
            return [Finding(change.path, Problem(2, "dangling", f"pending entry {entry.id} has no {noun}"))]
        return []
    if split[1] != MEMORY_FILE:
        return []
    doc, _problems = parsed if parsed is not None else index_file.parse_bytes(change.data)
    if doc is None:
        return []
    prefix = split[0]
    return [
        Finding(change.path, Problem(entry.line, "dangling", f"index entry {entry.id} has no {noun}"))
        for entry in doc.entries
        if not contains(f"{prefix}{RECORDS_DIR}/{entry.id}.md")
    ]


def name_secrets(found: list[Finding], path: str) -> list[Finding]:
    """The secret layers' findings on the name ``path`` (scanned as a line of text), as findings
    about the file: no line, so no fingerprint accepts one; the fix is a rename."""
    return [Finding(path, Problem(None, f.kind, f"secret in the file name ({f.kind}); rename the file and "
                                                  "rotate the secret"), layer=f.layer) for f in found]


def secret_input(change: FileChange) -> tuple[tuple[int, str], ...]:
    """The lines to scan for secrets: added lines, or all of a binary file's text."""
    if change.binary and change.data is not None:
        return text_lines(change.data)
    return change.added if change.is_regular else ()
