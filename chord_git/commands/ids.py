"""Ids as users type them: any unique prefix of a promotion, import, entry, orphan or job id, as git takes
abbreviated commits; and ``git-memory __ids KINDS``, the lister shell completion calls.

Resolving is pure (``resolve``); which ids exist is read by ``candidates`` without taking the lock
or writing anything, so completion stays fast and safe on any folder.
"""
from __future__ import annotations

from collections.abc import Iterable

from chord_git.errors import UsageError
from chord_git.memory.project import Project
from chord_git.ui import Output

KINDS = ("promotion", "import", "entry", "orphan", "job")
NOUNS = {"promotion": "pending promotion", "import": "pending import", "entry": "index entry", "orphan": "orphan record", "job": "job"}
SHOWN = 5  # candidates named in an error before "…"


def _named(ids: list[str]) -> str:
    return ", ".join(ids[:SHOWN]) + (f", … ({len(ids)} in all)" if len(ids) > SHOWN else "")


def resolve(prefix: str, known: Iterable[str], *, noun: str, listing: str) -> str:
    """The one id in ``known`` that is ``prefix`` or starts with it; else a one-line UsageError
    (exit 2) naming the candidates. ``listing`` is the command that lists them."""
    ids = sorted(set(known))
    nouns = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    if prefix in ids:
        return prefix
    matches = [rid for rid in ids if prefix and rid.startswith(prefix)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UsageError(f"{prefix!r} matches {len(matches)} {nouns}: {_named(matches)}; give more of the id")
    there = f"{nouns}: {_named(ids)}" if ids else f"there is no {noun}"
    raise UsageError(f"no {noun} {prefix!r} ({there}; see {listing})")


def candidates(project: Project, kind: str) -> list[str]:
    """The ids of ``kind`` as they are now (read-only)."""
    from chord_git.memory import view

    if kind == "promotion":
        return [path.stem for path in view.promotion_files(project)]
    if kind == "import":
        from chord_git.imports import pending

        return [item.id for item in pending.read_pending(project)]
    if kind == "entry":
        return [entry.id for entry in view.read_index(project).entries]
    if kind == "orphan":
        return view.orphan_ids(project)
    if kind == "job":
        from chord_git.background import queue

        return [job.id for job in queue.pending(project) + queue.failed(project)]
    raise ValueError(kind)


def complete(project: Project, kinds: str, out: Output) -> int:
    """``__ids promotion,entry``: the ids one per line, for completion scripts; never fails loudly."""
    seen: list[str] = []
    for kind in kinds.split(","):
        if kind in KINDS:
            seen += [rid for rid in candidates(project, kind) if rid not in seen]
    for rid in seen:
        out.line(rid)
    return 0
