"""What the project already says outside memory: AGENTS.md and the docs, read bounded.

Extraction reads them so that memory does not repeat them (R19's novelty check), and ``audit``,
``review``, ``fold`` and the range scan read them to tell an entry the user promoted by hand (its
text copied into AGENTS.md or the docs) from one still only in memory. Never sent anywhere.
"""
from __future__ import annotations

from pathlib import Path

from chord_git.memory import paths

AGENTS_FILE = "AGENTS.md"
# AGENTS.md is read up to this many bytes: enough for any budget, never the whole of a huge file.
AGENTS_READ_LIMIT = 1024 * 1024
# The docs (never sent): the usual front doors and docs/, two levels, bounded.
DOCS_FILES = ("README.md", "CONTRIBUTING.md")
DOCS_READ_LIMIT = 512 * 1024
DOCS_MAX_FILES = 200


def is_doc(rel: str) -> bool:
    """A repository path the docs are read from (``read_docs``'s selection, for a tree)."""
    parts = rel.split("/")
    return rel in DOCS_FILES or (parts[0] == "docs" and len(parts) in (2, 3) and rel.endswith(".md"))


def read_agents_md(root: Path) -> str | None:
    """AGENTS.md at the project root, if it is a file inside the project (symlinks resolved)."""
    path = root / AGENTS_FILE
    try:
        resolved = path.resolve()
        if not resolved.is_file() or root.resolve() not in resolved.parents:
            return None
        with resolved.open("rb") as stream:
            data = stream.read(AGENTS_READ_LIMIT)
    except OSError:
        return None
    return data.decode("utf-8", "replace").lstrip("\ufeff")


def read_docs(root: Path, budget: int = DOCS_READ_LIMIT) -> tuple[str, ...]:
    """README, CONTRIBUTING and ``docs/*.md``, ``docs/*/*.md`` inside the project, at most ``budget`` bytes in
    all, in that order (a huge docs tree costs its first ``budget`` bytes, never more). A symlink,
    a FIFO or a path leaving the project is skipped (``paths.read_inside``)."""
    candidates = [root / name for name in DOCS_FILES]
    try:
        # Two levels, by pattern: a symlink loop under docs/ cannot make the walk endless.
        candidates += [*sorted((root / "docs").glob("*.md")), *sorted((root / "docs").glob("*/*.md"))][:DOCS_MAX_FILES]
    except OSError:
        pass
    out: list[str] = []
    left = budget
    for path in candidates:
        if left <= 0:
            break
        try:
            data = paths.read_inside(root, path, left)[:left]
        except (OSError, paths.UnsafePath):
            continue
        left -= len(data)
        out.append(data.decode("utf-8", "replace"))
    return tuple(out)
